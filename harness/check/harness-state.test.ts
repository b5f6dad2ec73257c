import { describe, expect, it } from 'vitest';
import { TokenCache } from '../auth/token-cache.ts';
import { rolePlaceholder, secrets } from '../http/secrets.ts';
import { adoptPreflightTokens } from './harness-state.ts';

describe("adoptPreflightTokens: pre-flight's tokens in a worker", () => {
  it('hands them out without a request and registers each as a secret, so no evidence shows it', async () => {
    const sent: string[] = [];
    const cache = new TokenCache({
      baseUrl: 'http://x.test',
      clients: { partnerA: { clientId: 'pa', clientSecret: 'sa' } },
      send: async (req) => {
        sent.push(req.url);
        throw new Error('no request expected');
      },
    });
    const accessToken = 'preflight-issued-token-value';
    adoptPreflightTokens(cache, { partnerA: { accessToken, method: 'basic', reuseUntil: Date.now() + 60_000 } });
    expect(await cache.token('partnerA')).toBe(accessToken);
    expect(sent).toEqual([]);
    const known = secrets.values().find((v) => v.value === accessToken);
    expect(known?.placeholder).toBe(rolePlaceholder('TOKEN', 'partnerA'));
  });

  it('adopts nothing when the runner handed none (a worker of the unit tests)', async () => {
    const cache = new TokenCache({
      baseUrl: 'http://x.test',
      clients: {},
      send: async () => Promise.reject(new Error()),
    });
    adoptPreflightTokens(cache, undefined);
    await expect(cache.token('partnerA')).rejects.toThrow(/no credentials/);
  });
});
