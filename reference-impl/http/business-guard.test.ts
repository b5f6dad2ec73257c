/** Spec 5.6 and 5.8 over HTTP: authentication, scope, partner and API checks of every business call. */
import { createSecretKey, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, expectApiError, freshToken, postAs, rentalWindow, XML_CT } from '../testing/http-helpers.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** A token shaped exactly like the server's, signed with a key the server does not hold. */
async function forgedToken(clientId: string, partnerId: string): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ client_id: clientId, pid: partnerId, scope: 'fleet:read rates:read' })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuer('partner-api-reference')
    .setAudience('partner-api-v1')
    .setSubject(clientId)
    .setJti('forged')
    .setIssuedAt(iat)
    .setExpirationTime(iat + 600)
    .sign(createSecretKey(randomBytes(32)));
}

describe('business authentication (spec 5.6, 5.8)', () => {
  let server: TestServer;
  let tokenA: string;

  beforeAll(async () => {
    server = await startTestServer();
    tokenA = await freshToken(server, 'partnerA');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a valid token is accepted, whatever the case of the Bearer scheme (RFC 9110 11.1)', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const res = await server.call('GET', '/fleet', { headers: { authorization: `${scheme} ${tokenA}` } });
      expect(res.status, scheme).toBe(200);
    }
  });

  it('no Authorization: 401 UNAUTHORIZED with a Bearer challenge', async () => {
    const res = await server.call('GET', '/fleet');
    expectApiError(res, 'UNAUTHORIZED');
    expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/);
  });

  it('no Authorization on a POST: 401 UNAUTHORIZED in the negotiated representation', async () => {
    const res = await server.call('POST', '/availability', { headers: XML_CT, body: '<x/>' });
    expectApiError(res, 'UNAUTHORIZED', 'xml');
  });

  it.each([
    ['not a JWT', 'Bearer not-a-token'],
    ['three garbage segments', 'Bearer aaa.bbb.ccc'],
    ['two tokens', 'Bearer abc def'],
    ['Basic scheme', 'Basic cGEtY2xpZW50LXBhcnRuZXItYTp4'],
    ['scheme only', 'Bearer'],
    ['a quote-like value', 'Bearer "abc"'],
  ])('malformed token (%s): 401 INVALID_TOKEN', async (_name, authorization) => {
    const res = await server.call('GET', '/fleet', { headers: { authorization } });
    expectApiError(res, 'INVALID_TOKEN');
    expect(res.headers.get('www-authenticate') ?? '').toContain('invalid_token');
  });

  it('a token whose signature was tampered with: 401 INVALID_TOKEN', async () => {
    const [h, p, s] = tokenA.split('.') as [string, string, string];
    const flipped = `${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
    expectApiError(await server.call('GET', '/fleet', { token: `${h}.${p}.${flipped}` }), 'INVALID_TOKEN');
  });

  it('a token whose last character differs only in the spare base64url bits: 401 INVALID_TOKEN', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(tokenA.at(-1) as string);
    const spare = `${tokenA.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(spare.split('.')[2] as string, 'base64url')).toEqual(
      Buffer.from(tokenA.split('.')[2] as string, 'base64url'),
    );
    expectApiError(await server.call('GET', '/fleet', { token: spare }), 'INVALID_TOKEN');
  });

  it('a token signed with another key: 401 INVALID_TOKEN', async () => {
    const forged = await forgedToken(server.target.clients.partnerA?.clientId ?? '', 'PARTNER-A');
    expectApiError(await server.call('GET', '/fleet', { token: forged }), 'INVALID_TOKEN');
  });

  it('an unsigned (alg none) token: 401 INVALID_TOKEN', async () => {
    const [, payload] = tokenA.split('.') as [string, string];
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
    expectApiError(await server.call('GET', '/fleet', { token: `${header}.${payload}.` }), 'INVALID_TOKEN');
  });

  it('a token lacking the scope: 403 INSUFFICIENT_SCOPE', async () => {
    const fleetOnly = await freshToken(server, 'partnerA', 'fleet:read');
    expect((await server.call('GET', '/fleet', { token: fleetOnly })).status).toBe(200);
    const res = await server.call('GET', '/rates', { token: fleetOnly });
    expectApiError(res, 'INSUFFICIENT_SCOPE');
    expect(res.headers.get('www-authenticate') ?? '').toContain('insufficient_scope');
    expectApiError(await postAs(server, 'xml', '/quotes', fleetOnly, rentalWindow()), 'INSUFFICIENT_SCOPE', 'xml');
  });

  it('readOnly cannot reach booking endpoints: 403 INSUFFICIENT_SCOPE', async () => {
    const ro = await freshToken(server, 'readOnly');
    expectApiError(await server.call('GET', '/reservations', { token: ro }), 'INSUFFICIENT_SCOPE');
  });

  it('partner disabled after the token was issued: 403 PARTNER_DISABLED, and back once enabled', async () => {
    const tokenB = await freshToken(server, 'partnerB');
    expect((await server.call('GET', '/fleet', { token: tokenB })).status).toBe(200);
    expect((await server.control('PUT', '/partners/PARTNER-B', { enabled: false })).status).toBe(200);
    try {
      expectApiError(await server.call('GET', '/fleet', { token: tokenB }), 'PARTNER_DISABLED');
      expectApiError(await postAs(server, 'xml', '/availability', tokenB, rentalWindow()), 'PARTNER_DISABLED', 'xml');
      // Partner A is not affected.
      expect((await server.call('GET', '/fleet', { token: tokenA })).status).toBe(200);
    } finally {
      await server.control('PUT', '/partners/PARTNER-B', { enabled: true });
    }
    expect((await server.call('GET', '/fleet', { token: tokenB })).status).toBe(200);
  });

  it('API disabled: 503 API_DISABLED (retryable), for valid and missing tokens alike', async () => {
    expect((await server.control('PUT', '/api', { enabled: false })).status).toBe(200);
    try {
      expectApiError(await server.call('GET', '/fleet', { token: tokenA }), 'API_DISABLED');
      expectApiError(await server.call('GET', '/locations'), 'API_DISABLED');
      expectApiError(await postAs(server, 'xml', '/availability', tokenA, rentalWindow()), 'API_DISABLED', 'xml');
    } finally {
      await server.control('PUT', '/api', { enabled: true });
    }
    expect((await server.call('GET', '/fleet', { token: tokenA })).status).toBe(200);
  });

  // Last: moves the service clock.
  it('an expired token (clock advanced 601 s): 401 INVALID_TOKEN; a token at 599 s still works', async () => {
    const token = await freshToken(server, 'partnerA');
    await advanceClock(server, 599);
    expect((await server.call('GET', '/fleet', { token })).status).toBe(200);
    await advanceClock(server, 2);
    expectApiError(await server.call('GET', '/fleet', { token }), 'INVALID_TOKEN');
    const renewed = await freshToken(server, 'partnerA');
    expect((await server.call('GET', '/fleet', { token: renewed })).status).toBe(200);
  });
});
