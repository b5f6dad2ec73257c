/** Spec 4 and 7.2 over HTTP: X-Request-Id, unknown paths, and secrets never leaving the server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../contract/constants.ts';
import {
  basicAuth,
  credentialsOf,
  expectApiError,
  expectNoSecrets,
  knownSecrets,
  postAs,
  postToken,
  rawRequest,
  rentalWindow,
} from '../testing/http-helpers.ts';
import { type ApiResponse, startTestServer, type TestServer } from '../testing/test-server.ts';

describe('request ids, unknown paths and secrets (spec 4, 7.2)', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    token = await server.token('partnerA');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('every business response carries a distinct X-Request-Id; errors repeat it as requestId', async () => {
    const responses: ApiResponse[] = [
      await server.call('GET', '/fleet', { token }),
      await server.call('GET', '/fleet', { token }),
      await server.call('GET', '/locations/SGN-APT-01', { token, headers: { accept: 'application/xml' } }),
      await postAs(server, 'json', '/quotes', token, { ...rentalWindow(), vehicleCode: 'TOYOTA-VIOS-AT' }),
      await server.call('GET', '/fleet'),
      await server.call('GET', '/fleet', { headers: { accept: 'text/html' } }),
      await server.call('GET', '/fleet/NOPE', { token, headers: { accept: 'application/xml' } }),
      await postAs(server, 'xml', '/availability', token, { bad: true }),
    ];
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^\S{8,}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expectApiError(responses[4] as ApiResponse, 'UNAUTHORIZED');
    expectApiError(responses[5] as ApiResponse, 'NOT_ACCEPTABLE');
    expectApiError(responses[6] as ApiResponse, 'NOT_FOUND', 'xml');
    expectApiError(responses[7] as ApiResponse, 'VALIDATION_ERROR', 'xml');
  });

  it.each([
    `${API_PREFIX}/no-such-endpoint`,
    `${API_PREFIX}/fleet/TOYOTA-VIOS-AT/extra`,
    `${API_PREFIX}`,
    '/api/partner/v2/fleet',
    '/',
    '/fleet',
    `${API_PREFIX}/fleet/${'A'.repeat(300)}`,
  ])('unknown path %s: 404 NOT_FOUND in the envelope', async (path) => {
    const res = await rawRequest(server, path, { headers: { authorization: `Bearer ${token}` } });
    expectApiError(res, 'NOT_FOUND');
    const xml = await rawRequest(server, path, { headers: { accept: 'application/xml' } });
    expectApiError(xml, 'NOT_FOUND', 'xml');
  });

  it.each([
    ['DELETE', '/fleet'],
    ['PUT', '/locations/SGN-APT-01'],
    ['GET', '/quotes'],
    ['POST', '/fleet'],
  ])('a method the path does not serve (%s %s): 404 NOT_FOUND', async (method, path) => {
    expectApiError(await server.call(method, path, { token }), 'NOT_FOUND');
  });

  it('a path with broken percent-encoding names no resource: 404 NOT_FOUND in the envelope, path not echoed', async () => {
    for (const path of [`${API_PREFIX}/fleet/%E0%A4%A`, `${API_PREFIX}/locations/%ZZ`]) {
      const res = await rawRequest(server, path, { headers: { authorization: `Bearer ${token}` } });
      expectApiError(res, 'NOT_FOUND');
      expect(res.text).not.toContain('%');
      expectApiError(
        await rawRequest(server, path, { headers: { accept: 'text/xml' } }),
        'NOT_FOUND',
        'xml',
        'text/xml',
      );
    }
  });

  it('no response carries a client secret or the control token', async () => {
    const secrets = knownSecrets();
    expect(secrets.length).toBeGreaterThanOrEqual(6);
    const responses: ApiResponse[] = [];
    for (const role of Object.keys(server.target.clients)) {
      const c = credentialsOf(server, role);
      responses.push(
        await postToken(
          server,
          { grant_type: 'client_credentials' },
          { headers: { authorization: basicAuth(c.clientId, c.clientSecret) } },
        ),
      );
      responses.push(
        await postToken(server, {
          grant_type: 'client_credentials',
          client_id: c.clientId,
          client_secret: `${c.clientSecret}!`,
        }),
      );
      responses.push(
        await postToken(server, { grant_type: 'password', client_id: c.clientId, client_secret: c.clientSecret }),
      );
      responses.push(await server.control('GET', `/clients/${c.clientId}`));
    }
    // Secrets sent where they do not belong are not echoed either.
    const control = server.target.hooks?.token ?? '';
    responses.push(await server.call('GET', '/fleet', { token: control }));
    responses.push(
      await postAs(server, 'json', '/availability', token, { ...rentalWindow(), pickupLocation: control }),
    );
    responses.push(await postAs(server, 'xml', '/availability', token, { ...rentalWindow(), accountCode: secrets[0] }));
    responses.push(await rawRequest(server, `${API_PREFIX}/${encodeURIComponent(secrets[0] ?? '')}`));
    responses.push(await server.control('GET', '/state'));
    responses.push(
      await rawRequest(server, '/control/v1/state', { headers: { authorization: `Bearer ${secrets[0]}` } }),
    );
    for (const res of responses) expectNoSecrets(res);
  });
});
