import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseTypedXml, serializeTypedXml } from '../../contract/xml/index.ts';
import { TokenCache } from '../auth/token-cache.ts';
import { send } from './client.ts';
import { createPartnerClient, SNAKE_CASE_REASON, serializeBody, toApiResult } from './partner-client.ts';
import { recording } from './recorder.ts';
import { registerTargetSecrets, secrets } from './secrets.ts';

const SECRET = 'partner-a-secret-0123456789';

/** What the fake server saw, and which tokens it still accepts. */
const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
let issued = 0;
let rejectedTokens = new Set<string>();
let server: Server;
let baseUrl: string;

function reply(res: import('node:http').ServerResponse, status: number, type: string, body: string) {
  res.writeHead(status, { 'content-type': type, 'x-request-id': `req-${seen.length}` });
  res.end(body);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/api/partner/v1/oauth/token') {
        const token = `tok-${++issued}-${'x'.repeat(12)}`;
        return reply(
          res,
          200,
          'application/json',
          JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 600, scope: 'fleet:read' }),
        );
      }
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || rejectedTokens.has(token)) {
        // A numeric code (a target breaking 7.2.2) must not keep a dead token cached.
        const code = req.headers['x-numeric-code'] ? 401 : 'INVALID_TOKEN';
        const envelope = { error: { code, message: 'no', requestId: 'r', retryable: false } };
        return req.headers.accept === 'application/xml'
          ? reply(res, 401, 'application/xml', serializeTypedXml(envelope, 'response'))
          : reply(res, 401, 'application/json', JSON.stringify(envelope));
      }
      const value = { echo: body === '' ? null : body, count: 1 };
      return req.headers.accept === 'application/xml'
        ? reply(res, 200, 'application/xml; charset=utf-8', serializeTypedXml(value, 'response'))
        : reply(res, 200, 'application/json', JSON.stringify(value));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  registerTargetSecrets({ baseUrl, clients: { partnerA: { clientId: 'pa-id', clientSecret: SECRET } } });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  secrets.clear();
});

beforeEach(() => {
  seen.length = 0;
  rejectedTokens = new Set();
});

function client(representation: 'json' | 'xml', role: 'partnerA' | null = 'partnerA') {
  const tokens = new TokenCache({ baseUrl, clients: { partnerA: { clientId: 'pa-id', clientSecret: SECRET } }, send });
  return { tokens, client: createPartnerClient({ baseUrl, role, representation, tokens, send }) };
}

describe('PartnerClient', () => {
  it('GETs with the representation Accept and a cached bearer token, and parses the body', async () => {
    const { client: c } = client('json');
    const res = await c.get('/fleet');
    expect(res).toMatchObject({
      status: 200,
      body: { echo: null, count: 1 },
      mediaType: 'application/json',
      requestId: 'req-2',
    });
    await c.get('/fleet');
    const business = seen.filter((s) => s.url === '/api/partner/v1/fleet');
    expect(business).toHaveLength(2);
    expect(business[0]?.headers.accept).toBe('application/json');
    expect(business[0]?.headers.authorization).toBe(business[1]?.headers.authorization);
    expect(seen.filter((s) => s.url.endsWith('/oauth/token'))).toHaveLength(1);
  });

  it('serializes bodies as typed XML and parses XML responses in the xml representation', async () => {
    const { client: c } = client('xml');
    const res = await c.post('/availability', { a: 1, b: [true, null] });
    const sent = seen.at(-1);
    expect(sent?.headers['content-type']).toBe('application/xml');
    const parsed = parseTypedXml(new TextEncoder().encode(sent?.body ?? ''), 'request');
    expect(parsed).toEqual({ ok: true, value: { a: 1, b: [true, null] } });
    expect(res.mediaType).toBe('application/xml');
    expect(res.body).toMatchObject({ count: 1 });
  });

  it('refetches the token once and repeats the call when the cached token is refused (INVALID_TOKEN)', async () => {
    const { client: c, tokens } = client('json');
    const first = await tokens.token('partnerA');
    rejectedTokens.add(first);
    const res = await c.get('/fleet');
    expect(res.status).toBe(200);
    const business = seen.filter((s) => s.url === '/api/partner/v1/fleet');
    expect(business.map((s) => s.headers.authorization)).toEqual([
      `Bearer ${first}`,
      expect.not.stringContaining(first),
    ]);
  });

  it('refetches the token on any 401 to a cached token, whatever its error.code', async () => {
    const { client: c, tokens } = client('json');
    const first = await tokens.token('partnerA');
    rejectedTokens.add(first);
    const res = await c.get('/fleet', { headers: { 'x-numeric-code': '1' } });
    expect(res.status).toBe(200);
    const business = seen.filter((s) => s.url === '/api/partner/v1/fleet');
    expect(business.map((s) => s.headers.authorization)).toEqual([
      `Bearer ${first}`,
      expect.not.stringContaining(first),
    ]);
  });

  it('does not retry with an explicit token, and sends none for token: null', async () => {
    const { client: c } = client('json');
    rejectedTokens.add('revoked');
    expect((await c.get('/fleet', { token: 'revoked' })).status).toBe(401);
    expect((await c.get('/fleet', { token: null })).status).toBe(401);
    expect(seen.map((s) => s.headers.authorization)).toEqual(['Bearer revoked', undefined]);
  });

  it('merges header overrides case-insensitively', async () => {
    const { client: c } = client('json');
    await c.post('/x', { a: 1 }, { headers: { 'Content-Type': 'text/plain', Accept: 'text/xml' } });
    const sent = seen.at(-1);
    expect(sent?.headers['content-type']).toBe('text/plain');
    expect(sent?.headers.accept).toBe('text/xml');
  });

  it('raw sends exactly the given headers: no Accept, no Authorization', async () => {
    const { client: c } = client('json', null);
    await c.raw({ method: 'POST', path: '/x', headers: { 'x-probe': '1' }, body: 'abc' });
    const sent = seen.at(-1);
    expect(sent?.body).toBe('abc');
    expect(sent?.headers.accept).toBeUndefined();
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.headers['content-type']).toBeUndefined();
    expect(sent?.headers['x-probe']).toBe('1');
  });

  it('records every exchange with secrets redacted and a curl line with placeholders', async () => {
    const { client: c } = client('json');
    const { exchanges } = await recording(() => c.get('/fleet'));
    const text = JSON.stringify(exchanges);
    const token = /tok-\d+-x+/.exec(seen.at(-1)?.headers.authorization ?? '')?.[0] ?? 'missing';
    expect(exchanges).toHaveLength(2);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(token);
    expect(exchanges[0]?.request.headers.authorization).toBe('Basic [REDACTED]');
    expect(exchanges[0]?.response?.body).toContain('"access_token":"[REDACTED]"');
    expect(exchanges[1]?.curl).toContain('"$TOKEN_PARTNERA"');
    expect(exchanges[0]?.curl).toContain('-u "$CLIENT_ID_PARTNERA":"$CLIENT_SECRET_PARTNERA"');
  });

  it('keeps unparseable bodies as text with the reason', () => {
    const response = (type: string, text: string) => ({
      status: 200,
      headers: { 'content-type': type },
      body: new TextEncoder().encode(text),
      durationMs: 0,
    });
    const badJson = toApiResult(response('application/json; charset=utf-8', '{"a":'));
    expect(badJson).toMatchObject({ body: undefined, text: '{"a":', mediaType: 'application/json' });
    expect(badJson.parseError).toMatch(/not valid JSON/);
    const badXml = toApiResult(response('text/xml', '<response version="1"><object>'));
    expect(badXml.body).toBeUndefined();
    expect(badXml.parseError).toMatch(/not valid typed XML/);
    const other = toApiResult(response('text/html', '<p>hi</p>'));
    expect(other).toMatchObject({ body: undefined, mediaType: 'text/html' });
    expect(other.parseError).toBeUndefined();
  });

  it('reads past deviations with one reading (a boolean 1, snake_case names), naming them in readDespite', () => {
    const xml = (inner: string) => ({
      status: 200,
      headers: { 'content-type': 'application/xml' },
      body: new TextEncoder().encode(`<response xmlns="urn:service:partner-api:v1" version="1">${inner}</response>`),
      durationMs: 0,
    });
    const digits = toApiResult(xml('<object><property name="oneWay"><boolean>1</boolean></property></object>'));
    expect(digits.body).toEqual({ oneWay: true });
    expect(digits.readDespite).toEqual({ representation: 'xml', reason: 'boolean is not exactly true or false' });
    const snake = toApiResult(
      xml(
        '<object><property name="vehicle_code"><string>A</string></property><property name="seats"><number>4</number></property></object>',
      ),
    );
    expect(snake.body).toEqual({ vehicleCode: 'A', seats: 4 });
    expect(snake.readDespite).toEqual({ representation: 'xml', reason: SNAKE_CASE_REASON, clauseId: '9.3b' });
    const other = toApiResult(xml('<object><property name="x"><boolean>yes</boolean></property></object>'));
    expect(other.body).toBeUndefined();
    // A property written twice with its value (4.14.6) reads as the property; with two values it cannot be read.
    const prop = (value: string) => `<property name="code"><string>${value}</string></property>`;
    const repeated = toApiResult(xml(`<object>${prop('A')}${prop('A')}</object>`));
    expect(repeated.body).toEqual({ code: 'A' });
    expect(repeated.readDespite).toEqual({
      representation: 'xml',
      reason: 'duplicate property name within one object',
    });
    const conflicting = toApiResult(xml(`<object>${prop('A')}${prop('B')}</object>`));
    expect(conflicting.body).toBeUndefined();
    expect(conflicting.parseFailure).toEqual({
      representation: 'xml',
      reason: 'duplicate property name within one object',
    });
    const plain = toApiResult(xml('<object><property name="x"><boolean>true</boolean></property></object>'));
    expect(plain).toMatchObject({ body: { x: true } });
    expect(plain.readDespite).toBeUndefined();
  });

  it('sends XML bodies without the optional declaration (spec 4.14.16: only its own checks send one)', () => {
    expect(serializeBody({ a: 1 }, 'xml')).not.toMatch(/^<\?xml/);
  });
});
