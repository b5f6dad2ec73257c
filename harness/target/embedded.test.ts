import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../contract/constants.ts';
import { configureHttp, httpDispatcher, send } from '../http/client.ts';
import { type EmbeddedTarget, startEmbeddedTarget } from './embedded.ts';
import { getLocations, tokenOf } from './test-support/target-calls.ts';

let target: EmbeddedTarget;

beforeAll(async () => {
  target = await startEmbeddedTarget();
  configureHttp({ tls: target.config.tls });
});
afterAll(async () => {
  await target?.stop();
  configureHttp({ tls: undefined });
});

const token = (role: 'partnerA') => tokenOf(target.config, role);
const locations = (bearer: string) => getLocations(target.config, bearer);

describe('the embedded target', () => {
  it('serves the fixture clients over HTTPS on a loopback port with the test hooks configured', async () => {
    expect(target.config.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(target.config.tls?.caFile).toMatch(/\.pem$/);
    expect(Object.keys(target.config.clients).sort()).toEqual([
      'disabledPartner',
      'narrowPartner',
      'partnerA',
      'partnerB',
      'rateLimit',
      'readOnly',
    ]);
    expect(target.config.owned).toBe(true);
    expect(target.config.hooks).toEqual({
      baseUrl: `${target.config.baseUrl}/test-hooks/v1`,
      token: expect.any(String),
    });
    expect((await locations(await token('partnerA'))).status).toBe(200);
  });

  it('is asked over kept-alive connections, races and all: no new connection once the pool has grown', async () => {
    const bearer = await token('partnerA');
    let opened = 0;
    const pool = httpDispatcher(target.config.baseUrl);
    const onConnect = () => {
      opened += 1;
    };
    pool.on('connect', onConnect);
    try {
      for (let round = 0; round < 5; round++) {
        const race = await Promise.all(Array.from({ length: 20 }, () => locations(bearer)));
        expect(race.map((res) => res.status)).toEqual(race.map(() => 200));
        for (let i = 0; i < 10; i++) expect((await locations(bearer)).status).toBe(200);
      }
    } finally {
      pool.off('connect', onConnect);
    }
    // The first race opens up to 20 connections; the rest reuse them.
    expect(opened).toBeLessThanOrEqual(20);
  });
});

describe('stop', () => {
  it('ends the server and removes its store', async () => {
    const other = await startEmbeddedTarget();
    const pid = other.pid ?? 0;
    await other.stop();
    expect(() => process.kill(pid, 0)).toThrow();
    // A second stop is harmless.
    await other.stop();
    expect(existsSync(`/proc/${pid}`)).toBe(false);
  });
});

describe('transport', () => {
  it("the harness does not trust the certificate without the config's CA file", async () => {
    configureHttp({ tls: undefined });
    try {
      await expect(locations('x')).rejects.toThrow();
    } finally {
      configureHttp({ tls: target.config.tls });
    }
    expect((await locations('x')).status).toBe(401);
  });

  it.each([
    ['transport http', { transport: 'http' as const }],
    ['openssl missing', { openssl: '/nonexistent/openssl' }],
  ])('%s: plain HTTP without a CA file', async (_label, options) => {
    const plain = await startEmbeddedTarget(options);
    try {
      expect(plain.config.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(plain.config.tls).toBeUndefined();
      const res = await send({ method: 'GET', url: `${plain.config.baseUrl}${API_PREFIX}/locations` });
      expect(res.status).toBe(401);
    } finally {
      await plain.stop();
    }
  });

  it('an openssl that fails is an error, not a silent fallback', async () => {
    await expect(startEmbeddedTarget({ openssl: '/bin/false' })).rejects.toThrow(/certificate could not be made/);
  });
});
