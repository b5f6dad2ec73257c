/** Spec 4.13 over HTTP: response negotiation from Accept, request Content-Type, body errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, expectRepresentation, expectValid, rentalWindow, toXml } from '../testing/http-helpers.ts';
import type { ApiResponse } from '../testing/test-server.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

type Outcome = 'application/json' | 'application/xml' | 'text/xml' | 406;

const ACCEPT_MATRIX: [string | undefined, Outcome][] = [
  [undefined, 'application/json'],
  ['application/json', 'application/json'],
  ['application/xml', 'application/xml'],
  ['text/xml', 'text/xml'],
  ['*/*', 'application/json'],
  ['application/*', 'application/json'],
  ['text/*', 'text/xml'],
  ['application/xml;q=0.9, application/json;q=0.8', 'application/xml'],
  ['application/json;q=0.5, application/xml;q=0.5', 'application/json'],
  ['application/xml;q=0.5, application/json;q=0.5', 'application/json'],
  ['text/xml;q=1, application/json;q=1', 'application/json'],
  ['application/xml, application/json;q=0', 'application/xml'],
  ['application/json;q=0, */*', 'application/xml'],
  ['text/xml, application/xml;q=0.8', 'text/xml'],
  ['APPLICATION/XML', 'application/xml'],
  ['text/html, application/xml;q=0.1', 'application/xml'],
  ['text/html', 406],
  ['image/png, text/html;q=0.5', 406],
  ['application/json;q=0', 406],
  ['application/json;q=0, application/xml;q=0, text/xml;q=0', 406],
];

describe('spec 4.13 content negotiation over HTTP', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    token = await server.token('partnerA');
  });
  afterAll(async () => {
    await server?.close();
  });

  const ENDPOINTS: [string, (accept: string | undefined) => Promise<ApiResponse>, number][] = [
    [
      'GET /locations',
      (accept) => server.call('GET', '/locations', { token, headers: accept === undefined ? {} : { accept } }),
      200,
    ],
    [
      'POST /quotes',
      (accept) =>
        server.call('POST', '/quotes', {
          token,
          headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
          body: JSON.stringify({ ...rentalWindow(), vehicleCode: 'TOYOTA-VIOS-AT' }),
        }),
      201,
    ],
  ];

  describe.each(ENDPOINTS)('Accept on %s', (_name, send, successStatus) => {
    it.each(ACCEPT_MATRIX.map(([a, o]) => [a ?? '(absent)', a, o] as const))('%s', async (_label, accept, outcome) => {
      const res = await send(accept);
      if (outcome === 406) {
        // 406 answers in JSON (spec 4.13), whatever was asked.
        expectApiError(res, 'NOT_ACCEPTABLE', 'json');
        return;
      }
      expect(res.status, res.text.slice(0, 300)).toBe(successStatus);
      expectRepresentation(res, outcome);
      expectValid(res, successStatus === 200 ? 'LocationList' : 'Quote', successStatus);
    });
  });

  it('406 comes before authentication', async () => {
    expectApiError(await server.call('GET', '/fleet', { headers: { accept: 'text/html' } }), 'NOT_ACCEPTABLE');
  });

  it('errors come in the negotiated representation, with the selected XML media type', async () => {
    expectApiError(
      await server.call('GET', '/fleet/NO-SUCH', { token, headers: { accept: 'application/xml' } }),
      'NOT_FOUND',
      'xml',
    );
    expectApiError(
      await server.call('GET', '/fleet/NO-SUCH', { token, headers: { accept: 'text/xml' } }),
      'NOT_FOUND',
      'xml',
      'text/xml',
    );
    expectApiError(
      await server.call('GET', '/fleet', { headers: { accept: 'text/xml' } }),
      'UNAUTHORIZED',
      'xml',
      'text/xml',
    );
  });

  describe('request Content-Type', () => {
    const window = () => rentalWindow();
    const post = (contentType: string | undefined, body: string | Uint8Array, accept?: string) =>
      server.call('POST', '/availability', {
        token,
        headers: {
          ...(contentType === undefined ? {} : { 'content-type': contentType }),
          ...(accept ? { accept } : {}),
        },
        body,
      });

    it.each([
      ['application/json', () => JSON.stringify(window())],
      ['application/json; charset=utf-8', () => JSON.stringify(window())],
      ['application/json;charset="UTF-8"', () => JSON.stringify(window())],
      ['Application/JSON', () => JSON.stringify(window())],
      ['application/xml', () => toXml(window())],
      ['application/xml; charset=utf-8', () => toXml(window())],
      ['text/xml', () => toXml(window())],
    ])('%s is accepted', async (contentType, body) => {
      expectValid(await post(contentType, body()), 'AvailabilityResponse');
    });

    it.each([
      ['text/plain', () => JSON.stringify(window())],
      ['application/x-www-form-urlencoded', () => 'pickupLocation=SGN-APT-01'],
      ['application/json; charset=iso-8859-1', () => JSON.stringify(window())],
      ['application/xml; charset=utf-16', () => toXml(window())],
      ['application/vnd.partner+json', () => JSON.stringify(window())],
      ['multipart/form-data; boundary=x', () => '--x--'],
    ])('%s is 415 UNSUPPORTED_MEDIA_TYPE', async (contentType, body) => {
      expectApiError(await post(contentType, body()), 'UNSUPPORTED_MEDIA_TYPE');
      expectApiError(await post(contentType, body(), 'application/xml'), 'UNSUPPORTED_MEDIA_TYPE', 'xml');
    });

    it('a body without a Content-Type is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      expectApiError(
        await post(undefined, new TextEncoder().encode(JSON.stringify(window()))),
        'UNSUPPORTED_MEDIA_TYPE',
      );
    });

    it('no body at all is a validation error (the request body is required)', async () => {
      const envelope = expectApiError(await post(undefined, new Uint8Array()), 'VALIDATION_ERROR');
      expect(envelope.error.fields?.map((f) => f.field)).toContain('body');
    });

    it('an empty body declared as JSON is a missing body, not malformed JSON', async () => {
      const envelope = expectApiError(await post('application/json', new Uint8Array()), 'VALIDATION_ERROR');
      expect(envelope.error.fields?.map((f) => f.field)).toContain('body');
    });

    it.each([
      ['truncated', '{"pickupLocation": "SGN-APT-01"'],
      ['trailing comma', '{"pickupLocation": "SGN-APT-01",}'],
      ['single quotes', "{'pickupLocation': 'SGN-APT-01'}"],
      ['two values', '{} {}'],
      ['NaN', '{"childSeats": NaN}'],
    ])('invalid JSON (%s) is 400 MALFORMED_JSON, in the negotiated representation', async (_name, body) => {
      expectApiError(await post('application/json', body), 'MALFORMED_JSON');
      expectApiError(await post('application/json', body, 'application/xml'), 'MALFORMED_JSON', 'xml');
    });

    it('JSON that is not valid UTF-8 is 400 MALFORMED_JSON', async () => {
      const bytes = new Uint8Array([...Buffer.from('{"pickupLocation": "'), 0xff, ...Buffer.from('"}')]);
      expectApiError(await post('application/json', bytes), 'MALFORMED_JSON');
    });

    it('a JSON body over 32,000 bytes is 413 REQUEST_TOO_LARGE; 32,000 bytes are read', async () => {
      const base = JSON.stringify(window());
      const padded = (total: number) => `${' '.repeat(total - base.length)}${base}`;
      expectValid(await post('application/json', padded(32_000)), 'AvailabilityResponse');
      expectApiError(await post('application/json', padded(32_001)), 'REQUEST_TOO_LARGE');
      expectApiError(
        await post('application/json', padded(100_000), 'text/xml'),
        'REQUEST_TOO_LARGE',
        'xml',
        'text/xml',
      );
    });

    it('JSON property names __proto__ and constructor are unknown properties, never prototype pollution', async () => {
      const body = `{${JSON.stringify(window()).slice(1, -1)}, "__proto__": {"polluted": true}}`;
      expectApiError(await post('application/json', body), 'VALIDATION_ERROR');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
});
