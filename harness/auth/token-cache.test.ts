import { describe, expect, it } from 'vitest';
import type { HttpRequest, HttpResponse } from '../http/client.ts';
import { basicAuthorization, ScopeNotGrantedError, TokenCache, TokenFetchError } from './token-cache.ts';

const SECRET = 'client-secret-value';

/** A fake token endpoint: numbered tokens, the given lifetime, and a log of what it was asked. */
function tokenEndpoint(options: { expiresIn?: number; status?: number } = {}) {
  const requests: HttpRequest[] = [];
  let issued = 0;
  const send = async (req: HttpRequest): Promise<HttpResponse> => {
    requests.push(req);
    await new Promise((r) => setTimeout(r, 1));
    const status = options.status ?? 200;
    const scope = new URLSearchParams(String(req.body)).get('scope') ?? 'fleet:read locations:read';
    const body =
      status === 200
        ? { access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: options.expiresIn ?? 600, scope }
        : { error: 'invalid_client', error_description: 'no' };
    return { status, headers: {}, body: new TextEncoder().encode(JSON.stringify(body)), durationMs: 1 };
  };
  return { send, requests };
}

function cacheWith(endpoint: ReturnType<typeof tokenEndpoint>, now: () => number) {
  return new TokenCache({
    baseUrl: 'http://x.test',
    clients: { partnerA: { clientId: 'pa', clientSecret: SECRET }, partnerB: { clientId: 'pb', clientSecret: 'sb' } },
    send: endpoint.send,
    now,
  });
}

describe('TokenCache', () => {
  it('fetches with client_secret_basic and reuses the token until 30 s before expiry', async () => {
    const endpoint = tokenEndpoint();
    let now = 0;
    const cache = cacheWith(endpoint, () => now);
    expect(await cache.token('partnerA')).toBe('token-1');
    now = 569_000;
    expect(await cache.token('partnerA')).toBe('token-1');
    expect(endpoint.requests).toHaveLength(1);
    now = 570_000;
    expect(await cache.token('partnerA')).toBe('token-2');
    expect(endpoint.requests).toHaveLength(2);
    const first = endpoint.requests[0];
    expect(first?.url).toBe('http://x.test/api/partner/v1/oauth/token');
    expect(first?.headers?.authorization).toBe(basicAuthorization('pa', SECRET));
    expect(first?.body).toBe('grant_type=client_credentials');
  });

  it('keeps one token per role and per scope set, whatever the scope order', async () => {
    const endpoint = tokenEndpoint();
    const cache = cacheWith(endpoint, () => 0);
    const ab = await cache.token('partnerA', ['locations:read', 'fleet:read']);
    expect(await cache.token('partnerA', ['fleet:read', 'locations:read'])).toBe(ab);
    expect(await cache.token('partnerA')).not.toBe(ab);
    expect(await cache.token('partnerB', ['fleet:read', 'locations:read'])).not.toBe(ab);
    expect(endpoint.requests).toHaveLength(3);
    expect(endpoint.requests[0]?.body).toBe('grant_type=client_credentials&scope=fleet%3Aread+locations%3Aread');
  });

  it('shares one fetch between concurrent callers', async () => {
    const endpoint = tokenEndpoint();
    const cache = cacheWith(endpoint, () => 0);
    const tokens = await Promise.all([cache.token('partnerA'), cache.token('partnerA'), cache.token('partnerA')]);
    expect(new Set(tokens).size).toBe(1);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('fetches again after invalidate, and only for the token it was given', async () => {
    const endpoint = tokenEndpoint();
    const cache = cacheWith(endpoint, () => 0);
    const first = await cache.token('partnerA');
    cache.invalidate('partnerA', undefined, 'some-other-token');
    expect(await cache.token('partnerA')).toBe(first);
    cache.invalidate('partnerA', undefined, first);
    expect(await cache.token('partnerA')).not.toBe(first);
  });

  it('refuses without echoing the secret when the endpoint refuses, and for unknown roles', async () => {
    const cache = cacheWith(tokenEndpoint({ status: 401 }), () => 0);
    const error = (await cache.token('partnerA').catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(TokenFetchError);
    expect(error.message).toMatch(/HTTP 401 \(invalid_client\)/);
    expect(error.message).not.toContain(SECRET);
    await expect(cache.token('readOnly')).rejects.toThrow(/no credentials for role readOnly/);
  });
});

describe('TokenCache and client authentication (spec 5.2)', () => {
  /** A token endpoint that refuses HTTP Basic (401 invalid_client) and takes the secret in the form. */
  function postOnly() {
    const endpoint = tokenEndpoint();
    const requests: HttpRequest[] = [];
    const send = async (req: HttpRequest): Promise<HttpResponse> => {
      requests.push(req);
      if (req.headers?.authorization?.startsWith('Basic ')) {
        const body = new TextEncoder().encode('{"error":"invalid_client","error_description":"no"}');
        return { status: 401, headers: {}, body, durationMs: 1 };
      }
      const form = new URLSearchParams(String(req.body));
      if (form.get('client_secret') !== SECRET) return tokenEndpoint({ status: 401 }).send(req);
      return endpoint.send(req);
    };
    return { send, requests };
  }

  it('uses HTTP Basic when the endpoint takes it', async () => {
    const endpoint = tokenEndpoint();
    const cache = cacheWith(endpoint, () => 0);
    expect(await cache.clientAuthentication('partnerA')).toBe('basic');
    expect(endpoint.requests).toHaveLength(1);
    expect(endpoint.requests[0]?.body).toBe('grant_type=client_credentials');
  });

  it('falls back to client_secret_post once when Basic is refused, and keeps it for the role', async () => {
    const endpoint = postOnly();
    const cache = cacheWith(endpoint, () => 0);
    expect(await cache.token('partnerA')).toBe('token-1');
    expect(endpoint.requests).toHaveLength(2);
    expect(endpoint.requests[1]?.headers?.authorization).toBeUndefined();
    expect(endpoint.requests[1]?.body).toBe(
      `grant_type=client_credentials&client_id=pa&client_secret=${encodeURIComponent(SECRET)}`,
    );
    expect(await cache.clientAuthentication('partnerA')).toBe('post');
    // Another scope set of the same role goes straight to the form.
    expect(await cache.token('partnerA', ['fleet:read'])).toBe('token-2');
    expect(endpoint.requests).toHaveLength(3);
  });

  it('does not fall back on a refused scope, and reports Basic when both methods are refused', async () => {
    const invalidScope = async (): Promise<HttpResponse> => ({
      status: 400,
      headers: {},
      body: new TextEncoder().encode('{"error":"invalid_scope","error_description":"no"}'),
      durationMs: 1,
    });
    const calls: HttpRequest[] = [];
    const scoped = new TokenCache({
      baseUrl: 'http://x.test',
      clients: { partnerA: { clientId: 'pa', clientSecret: SECRET } },
      send: async (req) => {
        calls.push(req);
        return invalidScope();
      },
    });
    await expect(scoped.token('partnerA', ['fleet:read'])).rejects.toThrow(/HTTP 400 \(invalid_scope\)/);
    expect(calls).toHaveLength(1);

    const refused = tokenEndpoint({ status: 401 });
    const cache = cacheWith(refused, () => 0);
    await expect(cache.token('partnerA')).rejects.toThrow(/HTTP 401 \(invalid_client\)/);
    expect(refused.requests).toHaveLength(2);
    // A client refused whatever the method (an inactive partner's) is asked with Basic, the preferred one.
    expect(await cache.clientAuthentication('partnerA')).toBe('basic');
  });
});

describe('TokenCache and the scopes a role holds (spec 5.5)', () => {
  it('refuses a token limited to a scope the role was not granted, before any request', async () => {
    const endpoint = tokenEndpoint();
    const cache = new TokenCache({
      baseUrl: 'http://x.test',
      clients: { partnerA: { clientId: 'pa', clientSecret: SECRET } },
      send: endpoint.send,
      granted: { partnerA: ['fleet:read', 'quotes:write'] },
    });
    const error = (await cache
      .token('partnerA', ['fleet:read', 'reservations:write'])
      .catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ScopeNotGrantedError);
    expect(error).toMatchObject({ role: 'partnerA', scopes: ['reservations:write'] });
    expect(error.message).toBe('partnerA does not hold reservations:write: its token carries fleet:read quotes:write');
    expect(endpoint.requests).toHaveLength(0);
    // What it holds, and its everything-held token, are fetched as ever.
    expect(await cache.token('partnerA', ['quotes:write'])).toBe('token-1');
    expect(await cache.token('partnerA')).toBe('token-2');
    expect(endpoint.requests).toHaveLength(2);
  });

  it('an invalid_scope refusal of a limited token is ScopeNotGrantedError, remembered for the run', async () => {
    const calls: HttpRequest[] = [];
    const cache = new TokenCache({
      baseUrl: 'http://x.test',
      clients: { partnerA: { clientId: 'pa', clientSecret: SECRET } },
      send: async (req) => {
        calls.push(req);
        const body = new TextEncoder().encode('{"error":"invalid_scope","error_description":"beyond the grant"}');
        return { status: 400, headers: {}, body, durationMs: 1 };
      },
    });
    const error = (await cache
      .token('partnerA', ['reservations:write', 'fleet:read'])
      .catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ScopeNotGrantedError);
    expect(error).toMatchObject({ role: 'partnerA', scopes: ['fleet:read', 'reservations:write'] });
    await expect(cache.token('partnerA', ['fleet:read', 'reservations:write'])).rejects.toBe(error);
    expect(calls).toHaveLength(1);
    // Without a scope the refusal is the credentials' (a configuration error), not a scope.
    const unlimited = await cache.token('partnerA').catch((e: unknown) => e);
    expect(unlimited).toBeInstanceOf(TokenFetchError);
    expect(unlimited).not.toBeInstanceOf(ScopeNotGrantedError);
  });

  it('knows which tokens carry everything the role holds (requested without scope)', async () => {
    const cache = cacheWith(tokenEndpoint(), () => 0);
    const everything = await cache.token('partnerA');
    const limited = await cache.token('partnerA', ['fleet:read']);
    expect(cache.isUnlimited(everything)).toBe(true);
    expect(cache.isUnlimited(limited)).toBe(false);
    expect(cache.isUnlimited('some-token-of-a-check')).toBe(false);
  });
});

describe('TokenCache and the token endpoint rate limit', () => {
  it('waits out one 429 slow_down (Retry-After) and asks again', async () => {
    const endpoint = tokenEndpoint();
    let calls = 0;
    const slept: number[] = [];
    const cache = new TokenCache({
      baseUrl: 'http://x.test',
      clients: { partnerA: { clientId: 'pa', clientSecret: SECRET } },
      send: async (req) => {
        calls += 1;
        if (calls === 1) {
          const body = new TextEncoder().encode('{"error":"slow_down","error_description":"later"}');
          return { status: 429, headers: { 'retry-after': '7' }, body, durationMs: 1 };
        }
        return endpoint.send(req);
      },
      now: () => 0,
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
    expect(await cache.token('partnerA')).toBe('token-1');
    expect(slept).toEqual([7000]);
  });

  it('gives up on a 429 without Retry-After', async () => {
    const cache = new TokenCache({
      baseUrl: 'http://x.test',
      clients: { partnerA: { clientId: 'pa', clientSecret: SECRET } },
      send: async () => ({ status: 429, headers: {}, body: new Uint8Array(), durationMs: 1 }),
    });
    await expect(cache.token('partnerA')).rejects.toThrow(/HTTP 429/);
  });
});

describe('basicAuthorization', () => {
  it('form-encodes id and secret before base64 (RFC 6749 2.3.1)', () => {
    const header = basicAuthorization('id with space', 'p:ss/word');
    expect(Buffer.from(header.slice(6), 'base64').toString()).toBe('id+with+space:p%3Ass%2Fword');
  });

  it("adopts a token issued before it existed (pre-flight's) until its reuse time, with its client authentication", async () => {
    const endpoint = tokenEndpoint();
    let now = 1_000;
    const cache = cacheWith(endpoint, () => now);
    cache.adopt('partnerA', { accessToken: 'preflight-token', method: 'post', reuseUntil: 571_000 });
    cache.adopt('partnerB', { accessToken: 'stale-token', method: 'basic', reuseUntil: 500 });
    expect(await cache.token('partnerA')).toBe('preflight-token');
    expect(cache.isUnlimited('preflight-token')).toBe(true);
    expect(await cache.clientAuthentication('partnerA')).toBe('post');
    expect(endpoint.requests).toHaveLength(0);
    expect(await cache.token('partnerB')).toBe('token-1');
    now = 571_000;
    expect(await cache.token('partnerA')).toBe('token-2');
    // The adopted method is the one the next request uses: the secret in the form, no Basic header.
    expect(endpoint.requests[1]?.headers?.authorization).toBeUndefined();
    expect(String(endpoint.requests[1]?.body)).toContain('client_secret=');
  });
});
