/** Spec 4.1, 5, 7.1, 8.16a and 8.16b over HTTP: POST /oauth/token. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../../contract/validation.ts';
import {
  advanceClock,
  basicAuth,
  closeAgents,
  credentialsOf,
  expectApiError,
  expectNoSecrets,
  expectOAuthError,
  postToken,
  rawRequest,
  serviceNowMs,
  TOKEN_PATH,
} from '../../testing/http-helpers.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

const GRANT = { grant_type: 'client_credentials' };
const ALL =
  'fleet:read locations:read rates:read availability:read quotes:write reservations:read reservations:write reservations:cancel';
const READ_AND_SHOP = 'fleet:read locations:read rates:read availability:read quotes:write';

describe('POST /oauth/token (spec 4.1, 5, 7.1)', () => {
  let server: TestServer;
  let a: { clientId: string; clientSecret: string };
  const basicA = () => ({ authorization: basicAuth(a.clientId, a.clientSecret) });

  beforeAll(async () => {
    server = await startTestServer();
    a = credentialsOf(server, 'partnerA');
  });
  afterAll(async () => {
    await server?.close();
  });

  function expectTokenResponse(res: Awaited<ReturnType<typeof postToken>>, scope: string) {
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json\b/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(validate('TokenResponse', res.json)).toEqual({ valid: true });
    expect(res.json.token_type).toBe('Bearer');
    expect(res.json.expires_in).toBe(600);
    expect(String(res.json.scope).split(' ').sort()).toEqual(scope.split(' ').sort());
    expect(res.json).not.toHaveProperty('refresh_token');
    for (const name of res.headers.keys()) expect(name.startsWith('x-ratelimit-')).toBe(false);
    expectNoSecrets(res);
  }

  describe('success', () => {
    it('client_secret_basic gives a Bearer token for 600 s with every scope held', async () => {
      expectTokenResponse(await postToken(server, GRANT, { headers: basicA() }), ALL);
    });

    it('client_secret_post gives the same', async () => {
      expectTokenResponse(
        await postToken(server, { ...GRANT, client_id: a.clientId, client_secret: a.clientSecret }),
        ALL,
      );
    });

    it('is JSON even when the client asks for XML (4.1)', async () => {
      const res = await postToken(server, GRANT, { headers: { ...basicA(), accept: 'application/xml' } });
      expectTokenResponse(res, ALL);
      const unacceptable = await postToken(server, GRANT, { headers: { ...basicA(), accept: 'text/html' } });
      expectTokenResponse(unacceptable, ALL);
    });

    it('the issued token works on a business call', async () => {
      const res = await postToken(server, GRANT, { headers: basicA() });
      const call = await server.call('GET', '/fleet', { token: res.json.access_token });
      expect(call.status).toBe(200);
    });

    it('scope is limited to the requested subset (5.5)', async () => {
      const res = await postToken(server, { ...GRANT, scope: 'rates:read fleet:read' }, { headers: basicA() });
      expectTokenResponse(res, 'fleet:read rates:read');
      const token = res.json.access_token;
      expect((await server.call('GET', '/rates', { token })).status).toBe(200);
      expectApiError(await server.call('GET', '/locations', { token }), 'INSUFFICIENT_SCOPE');
    });

    it('repeated spaces in scope are tolerated and duplicates collapse', async () => {
      const res = await postToken(server, { ...GRANT, scope: 'fleet:read  fleet:read' }, { headers: basicA() });
      expectTokenResponse(res, 'fleet:read');
    });

    it('the intersection of client and partner scopes: readOnly holds only read and shop scopes', async () => {
      const ro = credentialsOf(server, 'readOnly');
      expectTokenResponse(
        await postToken(server, GRANT, { headers: { authorization: basicAuth(ro.clientId, ro.clientSecret) } }),
        READ_AND_SHOP,
      );
    });

    it('Basic credentials are form-urlencoded before base64 (RFC 6749 2.3.1)', async () => {
      const encoded = `Basic ${Buffer.from(`${encodeURIComponent(a.clientId)}:${encodeURIComponent(a.clientSecret)}`).toString('base64')}`;
      expectTokenResponse(await postToken(server, GRANT, { headers: { authorization: encoded } }), ALL);
    });

    it('the Basic scheme name is case-insensitive (RFC 9110 11.1)', async () => {
      const lower = basicAuth(a.clientId, a.clientSecret).replace(/^Basic/, 'basic');
      expectTokenResponse(await postToken(server, GRANT, { headers: { authorization: lower } }), ALL);
    });

    it('a charset parameter on the form content type is accepted', async () => {
      const res = await postToken(server, GRANT, {
        headers: basicA(),
        contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
      });
      expectTokenResponse(res, ALL);
    });
  });

  describe('invalid_request', () => {
    it('missing grant_type', async () => {
      expectOAuthError(await postToken(server, {}, { headers: basicA() }), 'invalid_request');
    });

    it('a content type other than form-urlencoded: JSON', async () => {
      const res = await postToken(server, JSON.stringify(GRANT), {
        headers: basicA(),
        contentType: 'application/json',
      });
      expectOAuthError(res, 'invalid_request');
    });

    it('no content type at all', async () => {
      expectOAuthError(await postToken(server, GRANT, { headers: basicA(), contentType: null }), 'invalid_request');
    });

    it.each(['grant_type', 'scope', 'client_id'])('a repeated parameter: %s', async (name) => {
      const base = new URLSearchParams({
        ...GRANT,
        client_id: a.clientId,
        client_secret: a.clientSecret,
        scope: 'fleet:read',
      });
      base.append(name, name === 'grant_type' ? 'client_credentials' : name === 'scope' ? 'rates:read' : a.clientId);
      expectOAuthError(await postToken(server, base.toString()), 'invalid_request');
    });

    it('both client authentication methods at once', async () => {
      const res = await postToken(
        server,
        { ...GRANT, client_id: a.clientId, client_secret: a.clientSecret },
        { headers: basicA() },
      );
      expectOAuthError(res, 'invalid_request');
    });

    it('a body over the endpoint limit (8 KiB) is a malformed request, in the OAuth shape', async () => {
      const res = await postToken(server, { ...GRANT, scope: 'fleet:read '.repeat(1000) }, { headers: basicA() });
      expectOAuthError(res, 'invalid_request');
    });

    it('a body that is not UTF-8', async () => {
      const res = await rawRequest(server, TOKEN_PATH, {
        method: 'POST',
        headers: { ...basicA(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new Uint8Array([...Buffer.from('grant_type=client_credentials&scope='), 0xff, 0xfe]),
      });
      expectOAuthError(res, 'invalid_request');
    });
  });

  it('unsupported_grant_type', async () => {
    for (const grant of ['password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS']) {
      expectOAuthError(await postToken(server, { grant_type: grant }, { headers: basicA() }), 'unsupported_grant_type');
    }
  });

  describe('invalid_scope', () => {
    it('readOnly asking for reservations:write (beyond the grant)', async () => {
      const ro = credentialsOf(server, 'readOnly');
      const res = await postToken(
        server,
        { ...GRANT, scope: 'fleet:read reservations:write' },
        { headers: { authorization: basicAuth(ro.clientId, ro.clientSecret) } },
      );
      expectOAuthError(res, 'invalid_scope');
    });

    it('an unknown scope', async () => {
      expectOAuthError(
        await postToken(server, { ...GRANT, scope: 'fleet:write' }, { headers: basicA() }),
        'invalid_scope',
      );
      expectOAuthError(await postToken(server, { ...GRANT, scope: 'openid' }, { headers: basicA() }), 'invalid_scope');
    });
  });

  describe('invalid_client (401)', () => {
    it('wrong secret', async () => {
      const res = await postToken(server, GRANT, {
        headers: { authorization: basicAuth(a.clientId, `${a.clientSecret}x`) },
      });
      expectOAuthError(res, 'invalid_client');
      expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Basic /);
    });

    it('wrong secret through client_secret_post', async () => {
      const res = await postToken(server, { ...GRANT, client_id: a.clientId, client_secret: 'nope' });
      expectOAuthError(res, 'invalid_client');
    });

    it('unknown client', async () => {
      const res = await postToken(server, GRANT, {
        headers: { authorization: basicAuth('no-such-client', a.clientSecret) },
      });
      expectOAuthError(res, 'invalid_client');
    });

    it('no credentials at all', async () => {
      expectOAuthError(await postToken(server, GRANT), 'invalid_client');
    });

    it('client_id without client_secret', async () => {
      expectOAuthError(await postToken(server, { ...GRANT, client_id: a.clientId }), 'invalid_client');
    });

    it.each([
      ['not base64', 'Basic %%%'],
      ['no colon', `Basic ${Buffer.from('just-an-id').toString('base64')}`],
      ['another scheme', 'Bearer abc.def.ghi'],
      ['empty Basic', 'Basic '],
    ])('malformed Basic: %s', async (_name, authorization) => {
      expectOAuthError(await postToken(server, GRANT, { headers: { authorization } }), 'invalid_client');
    });

    it("disabledPartner's client: its partner is inactive (5.4)", async () => {
      const d = credentialsOf(server, 'disabledPartner');
      const res = await postToken(server, GRANT, { headers: { authorization: basicAuth(d.clientId, d.clientSecret) } });
      expectOAuthError(res, 'invalid_client');
    });

    it('a partner disabled through the control API, and enabled again', async () => {
      const b = credentialsOf(server, 'partnerB');
      const headers = { authorization: basicAuth(b.clientId, b.clientSecret) };
      const client = await server.control('GET', `/clients/${b.clientId}`);
      const partnerId = client.json.partnerId as string;
      expect((await server.control('PUT', `/partners/${partnerId}`, { enabled: false })).status).toBe(200);
      try {
        expectOAuthError(await postToken(server, GRANT, { headers }), 'invalid_client');
      } finally {
        await server.control('PUT', `/partners/${partnerId}`, { enabled: true });
      }
      expect((await postToken(server, GRANT, { headers })).status).toBe(200);
    });

    it('no secret is echoed in the description of a failure', async () => {
      const res = await postToken(server, {
        ...GRANT,
        client_id: a.clientId,
        client_secret: `${a.clientSecret}-wrong`,
      });
      expect(res.text).not.toContain(a.clientSecret);
    });
  });

  describe('temporarily_unavailable (503)', () => {
    it('while the API is disabled through the control API', async () => {
      expect((await server.control('PUT', '/api', { enabled: false })).status).toBe(200);
      try {
        expectOAuthError(await postToken(server, GRANT, { headers: basicA() }), 'temporarily_unavailable');
      } finally {
        await server.control('PUT', '/api', { enabled: true });
      }
      expect((await postToken(server, GRANT, { headers: basicA() })).status).toBe(200);
    });
  });

  it('GET on the token path is no endpoint: 404 NOT_FOUND, never a token and never a 5xx', async () => {
    const res = await rawRequest(server, TOKEN_PATH, { headers: basicA() });
    expectApiError(res, 'NOT_FOUND');
    expect(res.text).not.toContain('access_token');
  });
});

describe('POST /oauth/token with config.apiDisabled (spec 5.8)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { apiDisabled: true } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 503 temporarily_unavailable, and business calls 503 API_DISABLED', async () => {
    const a = credentialsOf(server, 'partnerA');
    expectOAuthError(
      await postToken(server, GRANT, { headers: { authorization: basicAuth(a.clientId, a.clientSecret) } }),
      'temporarily_unavailable',
    );
    expectApiError(await server.call('GET', '/fleet', { token: 'anything' }), 'API_DISABLED');
  });
});

describe('token endpoint rate limits (spec 8.16a)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      config: { host: '127.0.0.1', tokenLimits: { perClientPerMinute: 3, perAddressPerMinute: 6 } },
    });
  });
  afterAll(async () => {
    await closeAgents();
    await server?.close();
  });

  /** Just after the start of a fresh window for both buckets (fixed minutes of the service clock), so a run never straddles one. */
  async function nextWindow() {
    const now = await serviceNowMs(server);
    await advanceClock(server, (60_000 - (now % 60_000) + 200) / 1000);
  }

  function expectSlowDown(res: Awaited<ReturnType<typeof postToken>>) {
    expectOAuthError(res, 'slow_down');
    const retryAfter = res.headers.get('retry-after') ?? '';
    expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  }

  it('per client: the fourth request of one client in a minute is 429 slow_down; another client is unaffected', async () => {
    await nextWindow();
    const a = credentialsOf(server, 'partnerA');
    const headers = { authorization: basicAuth(a.clientId, a.clientSecret) };
    for (let i = 0; i < 3; i++) expect((await postToken(server, GRANT, { headers })).status).toBe(200);
    expectSlowDown(await postToken(server, GRANT, { headers }));
    // The same client through client_secret_post shares the bucket.
    expectSlowDown(await postToken(server, { ...GRANT, client_id: a.clientId, client_secret: a.clientSecret }));
    const b = credentialsOf(server, 'partnerB');
    expect(
      (await postToken(server, GRANT, { headers: { authorization: basicAuth(b.clientId, b.clientSecret) } })).status,
    ).toBe(200);
    await nextWindow();
    expect((await postToken(server, GRANT, { headers })).status).toBe(200);
  });

  it('per client: failed guesses at a client id do not use up the bucket of that client', async () => {
    await nextWindow();
    const a = credentialsOf(server, 'partnerA');
    for (let i = 0; i < 4; i++) {
      expectOAuthError(
        await postToken(server, GRANT, { headers: { authorization: basicAuth(a.clientId, 'guess') } }),
        'invalid_client',
      );
    }
    const res = await postToken(server, GRANT, { headers: { authorization: basicAuth(a.clientId, a.clientSecret) } });
    expect(res.status, res.text).toBe(200);
  });

  it('per source address: different client ids from one address share its bucket; a second address has its own', async () => {
    await nextWindow();
    const from1 = { localAddress: '127.0.0.1' };
    const ids = ['addr-probe-1', 'addr-probe-2', 'addr-probe-3', 'addr-probe-4', 'addr-probe-5', 'addr-probe-6'];
    for (const id of ids) {
      const res = await postToken(server, GRANT, {
        ...from1,
        headers: { authorization: basicAuth(id, 'wrong-secret') },
      });
      expectOAuthError(res, 'invalid_client');
    }
    const a = credentialsOf(server, 'partnerA');
    const good = { authorization: basicAuth(a.clientId, a.clientSecret) };
    // The seventh request from the address is refused even with a valid client that has used none of its own bucket.
    expectSlowDown(await postToken(server, GRANT, { ...from1, headers: good }));
    const other = await postToken(server, GRANT, { localAddress: '127.0.0.2', headers: good });
    expect(other.status, other.text).toBe(200);
    await nextWindow();
    expect((await postToken(server, GRANT, { ...from1, headers: good })).status).toBe(200);
  });
});
