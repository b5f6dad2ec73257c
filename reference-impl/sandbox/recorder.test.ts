import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../contract/client-clauses/exchange.ts';
import { newIdempotencyKey, quoteRequest, reservationBody } from '../testing/booking-helpers.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { tokenHash } from './recorder.ts';

/** The sandbox recorder on a real server: what each exchange's line holds, and that no secret is ever in the file. */
describe('sandbox recorder (SANDBOX_RECORD)', () => {
  let dir: string;
  let file: string;
  let api: TestServer;
  let lines: RecordedExchange[];
  let raw: string;
  let token: string;
  const basic = () => {
    const { clientId, clientSecret } = api.target.clients.partnerA ?? { clientId: '', clientSecret: '' };
    return { clientId, clientSecret, header: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-recorder-'));
    file = join(dir, 'exchanges.jsonl');
    // Three business calls a minute, so the fourth is a 429 with Retry-After.
    api = await startTestServer({ config: { sandboxRecord: file, rateLimitPerMinute: 3 } });
    const { clientId, clientSecret, header } = basic();
    const form = 'grant_type=client_credentials';
    const tokenAnswer = await fetch(`${api.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: { authorization: header, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    token = ((await tokenAnswer.json()) as { access_token: string }).access_token;
    // client_secret_post: the secret in the form, which must not reach the file.
    await fetch(`${api.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${form}&client_id=${encodeURIComponent(clientId)}&client_secret=${encodeURIComponent(clientSecret)}`,
    });
    const quote = await api.call('POST', '/quotes', { token, json: quoteRequest() });
    const key = newIdempotencyKey();
    await api.call('POST', '/reservations', {
      token,
      headers: { 'idempotency-key': key },
      json: reservationBody(quote.json.quoteId, { partnerReference: 'REC-1' }),
    });
    await api.call('GET', '/reservations?limit=5', { token, headers: { accept: 'application/json' } });
    await api.call('GET', '/locations', { token }); // the fourth business call: 429
    await api.call('GET', '/locations', { token: 'not.a.token' });
    raw = readFileSync(file, 'utf8');
    lines = raw
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RecordedExchange);
  });

  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one line per exchange, in answer order, each naming its client', () => {
    expect(lines.map((line) => `${line.method} ${line.path} ${line.status}`)).toEqual([
      'POST /api/partner/v1/oauth/token 200',
      'POST /api/partner/v1/oauth/token 200',
      'POST /api/partner/v1/quotes 201',
      'POST /api/partner/v1/reservations 201',
      'GET /api/partner/v1/reservations 200',
      'GET /api/partner/v1/locations 429',
      'GET /api/partner/v1/locations 401',
    ]);
    expect(lines.map((line) => line.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const partnerA = api.target.clients.partnerA?.clientId;
    expect(lines.slice(0, 6).map((line) => line.clientId)).toEqual(Array(6).fill(partnerA));
    expect(lines[6]?.clientId).toBeNull();
    for (const line of lines) {
      expect(line.v).toBe(1);
      expect(line.respondedAtMs).toBeGreaterThanOrEqual(line.receivedAtMs);
      expect(line.protocol).toBe('http');
    }
  });

  it('never writes a secret: no token, no client secret, no Basic credentials', () => {
    const { clientSecret, header } = basic();
    expect(raw).not.toContain(token);
    expect(raw).not.toContain(clientSecret);
    expect(raw).not.toContain(header.slice('Basic '.length));
    expect(lines[0]?.headers.authorization).toEqual({ scheme: 'Basic' });
    expect(lines[1]?.tokenRequest).toEqual({
      grantType: 'client_credentials',
      scope: null,
      clientIdInForm: true,
      clientSecretInForm: true,
    });
  });

  it('follows one token from its issue to its uses by a stable hash', () => {
    const hash = tokenHash(token);
    expect(lines[0]?.issuedToken).toEqual({ tokenHash: hash, expiresInS: 600, scope: expect.any(String) });
    expect(lines.slice(2, 6).map((line) => line.headers.authorization)).toEqual(
      Array(4).fill({ scheme: 'Bearer', tokenHash: hash }),
    );
  });

  it('keeps the key and body of a booking, the query, and the error code, retryable and Retry-After of a 429', () => {
    const booking = lines[3];
    expect(booking?.headers.idempotencyKey).toMatch(/^key-/);
    expect(booking?.booking?.body).toMatchObject({ partnerReference: 'REC-1', quoteId: expect.any(String) });
    expect(booking?.bodySha256).toMatch(/^[0-9a-f]{64}$/);
    expect(booking?.headers.contentType).toBe('application/json');
    expect(lines[4]?.query).toBe('limit=5');
    expect(lines[4]?.headers.accept).toBe('application/json');
    expect(lines[5]).toMatchObject({ errorCode: 'RATE_LIMITED', retryable: true, retryAfterS: expect.any(Number) });
    expect(lines[5]?.retryAfterS).toBeGreaterThan(0);
    expect(lines[6]).toMatchObject({ errorCode: 'INVALID_TOKEN', retryable: false, retryAfterS: null });
  });
});
