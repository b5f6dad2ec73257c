import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../contract/constants.ts';
import { configureHttp, httpDispatcher, send } from '../http/client.ts';
import { EMBEDDED_RATE_LIMIT_PER_MINUTE, type EmbeddedTarget, startEmbeddedTarget } from './embedded.ts';
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
    const res = await locations(await token('partnerA'));
    expect(res.status).toBe(200);
    // RATE_LIMIT_PER_MINUTE is set for the server: raised for the suite's own traffic.
    expect(res.headers['x-ratelimit-limit']).toBe(String(EMBEDDED_RATE_LIMIT_PER_MINUTE));
  });

  it('rateLimitPerMinute is the ceiling of every ordinary client (--embedded-rate-limit)', async () => {
    const small = await startEmbeddedTarget({ transport: 'http', rateLimitPerMinute: 2 });
    try {
      const bearer = await tokenOf(small.config, 'partnerA');
      // Plain fetch, outside the harness's client: its 429 must not pace the other tests of this file.
      const statuses: (string | null)[][] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${small.config.baseUrl}${API_PREFIX}/locations`, {
          headers: { authorization: `Bearer ${bearer}` },
        });
        await res.arrayBuffer();
        statuses.push([String(res.status), res.headers.get('x-ratelimit-limit')]);
      }
      expect(statuses).toEqual([
        ['200', '2'],
        ['200', '2'],
        ['429', '2'],
      ]);
    } finally {
      await small.stop();
    }
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
