import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../contract/constants.ts';
import { basicAuthorization } from '../auth/token-cache.ts';
import { send } from '../http/client.ts';
import { type EmbeddedTarget, startEmbeddedTarget } from './embedded.ts';

let target: EmbeddedTarget;

beforeAll(async () => {
  target = await startEmbeddedTarget();
});
afterAll(async () => {
  await target?.stop();
});

async function token(role: 'partnerA'): Promise<string> {
  const { clientId, clientSecret } = target.config.clients[role] ?? { clientId: '', clientSecret: '' };
  const res = await send({
    method: 'POST',
    url: `${target.config.baseUrl}${API_PREFIX}/oauth/token`,
    headers: {
      authorization: basicAuthorization(clientId, clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  expect(res.status).toBe(200);
  return JSON.parse(new TextDecoder().decode(res.body)).access_token;
}

const locations = (bearer: string) =>
  send({
    method: 'GET',
    url: `${target.config.baseUrl}${API_PREFIX}/locations`,
    headers: { authorization: `Bearer ${bearer}` },
  });

describe('the embedded target', () => {
  it('serves the fixture clients on a loopback port with the control API configured', async () => {
    expect(target.config.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Object.keys(target.config.clients).sort()).toEqual([
      'disabledPartner',
      'partnerA',
      'partnerB',
      'rateLimit',
      'readOnly',
    ]);
    expect(target.config.owned).toBe(true);
    expect(target.config.control).toEqual({ baseUrl: target.config.baseUrl, token: expect.any(String) });
    expect((await locations(await token('partnerA'))).status).toBe(200);
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
