import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { QuoteTokens } from './quote-tokens.ts';

const SECRET = Buffer.alloc(32, 9).toString('base64url');
const NOW = Date.UTC(2027, 0, 10, 3, 0, 0, 400);
const CLAIMS = {
  partnerId: 'PARTNER-A',
  vehicleCode: 'TOYOTA-VIOS-AT',
  pickupLocation: 'SGN-APT-01',
  dropoffLocation: 'SGN-APT-01',
  pickupDate: '2027-01-24',
  pickupTime: '10:00',
  dropoffDate: '2027-01-27',
  dropoffTime: '10:00',
  accountCode: null,
  rateCode: null,
  extras: {},
  totalAmount: 2_100_000,
  currency: 'VND',
};

/** A compact JWS signed with the quote key over a payload of the test's choosing. */
function forge(payload: unknown, secret = SECRET): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'quote+jwt' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const mac = createHmac('sha256', Buffer.from(secret, 'base64url')).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${mac}`;
}

describe('QuoteTokens (spec 2.8, 4.7.9): signed quote ids, verified synchronously', () => {
  const tokens = new QuoteTokens(SECRET);

  it('signs the text JSON.stringify gives for its claims, built from pieces (extras and escapes included)', async () => {
    const claims = { ...CLAIMS, rateCode: 'PA-"q"\u2028', extras: { childSeats: 2 } };
    const { partnerId, vehicleCode, totalAmount, currency, ...request } = claims;
    const issuer = tokens.issuer({ partnerId, ...request }, NOW);
    const ids = [
      issuer.issue(vehicleCode, totalAmount, currency).quoteId,
      issuer.issue('KIA-MORNING-MT', 1, 'VND').quoteId,
    ];
    const payloads = ids.map((id) => Buffer.from(id.split('.')[1] as string, 'base64url').toString('utf8'));
    const first = JSON.parse(payloads[0] as string);
    expect(payloads[0]).toBe(
      JSON.stringify({
        q: [
          vehicleCode,
          request.pickupLocation,
          request.dropoffLocation,
          request.pickupDate,
          request.pickupTime,
          request.dropoffDate,
          request.dropoffTime,
          request.accountCode,
          request.rateCode,
          request.extras,
          totalAmount,
          currency,
        ],
        sub: partnerId,
        iat: issuer.issuedAtMs / 1000,
        exp: issuer.expiresAtMs / 1000,
        jti: first.jti,
      }),
    );
    // Shorter than the 635 characters of the named-claims form (4.5: a quote id per offer, 12 in an answer).
    expect(ids[0]?.length).toBeLessThan(400);
    const second = await tokens.verify(ids[1] as string, NOW);
    expect(second.kind === 'valid' && second.claims).toMatchObject({
      vehicleCode: 'KIA-MORNING-MT',
      totalAmount: 1,
      rateCode: claims.rateCode,
    });
    expect(JSON.parse(payloads[1] as string).jti).not.toBe(first.jti);
  });

  it('verifies its own quote with the claims it priced, valid until the expiry second', async () => {
    const issued = await tokens.issue(CLAIMS, NOW);
    const valid = await tokens.verify(issued.quoteId, issued.expiresAtMs - 1);
    expect(valid).toEqual({
      kind: 'valid',
      claims: { ...CLAIMS, issuedAtMs: issued.issuedAtMs, expiresAtMs: issued.expiresAtMs },
    });
    expect((await tokens.verify(issued.quoteId, issued.expiresAtMs)).kind).toBe('expired');
  });

  it('gives two equal requests in the same second two different ids (a hook expires one quote, not both)', async () => {
    const a = await tokens.issue(CLAIMS, NOW);
    const b = await tokens.issue(CLAIMS, NOW);
    expect(a.quoteId).not.toBe(b.quoteId);
  });

  it('refuses another key, a changed payload, another header, a foreign issuer and non-canonical text', async () => {
    const issued = await tokens.issue(CLAIMS, NOW);
    expect((await new QuoteTokens(Buffer.alloc(32, 1).toString('base64url')).verify(issued.quoteId, NOW)).kind).toBe(
      'invalid',
    );
    const [header, body, mac] = issued.quoteId.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    const q = [...payload.q];
    q[10] = 1;
    const changed = Buffer.from(JSON.stringify({ ...payload, q })).toString('base64url');
    expect((await tokens.verify(`${header}.${changed}.${mac}`, NOW)).kind).toBe('invalid');
    const otherHeader = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    expect((await tokens.verify(`${otherHeader}.${body}.${mac}`, NOW)).kind).toBe('invalid');
    expect((await tokens.verify(forge({ ...payload, q: payload.q.slice(1) }), NOW)).kind).toBe('invalid');
    expect((await tokens.verify(forge({ ...payload, sub: 7 }), NOW)).kind).toBe('invalid');
    // The named-claims form of ids issued before 2026-11-28, even when signed with the key.
    const named = Object.fromEntries(
      ['vehicleCode', 'pickupLocation', 'dropoffLocation', 'pickupDate', 'pickupTime', 'dropoffDate', 'dropoffTime']
        .concat(['accountCode', 'rateCode', 'extras', 'totalAmount', 'currency'])
        .map((name, i) => [name, payload.q[i]]),
    );
    expect((await tokens.verify(forge({ ...payload, q: named }), NOW)).kind).toBe('invalid');
    expect((await tokens.verify(forge({ ...payload, exp: String(payload.exp) }), NOW)).kind).toBe('invalid');
    expect((await tokens.verify(forge([1, 2]), NOW)).kind).toBe('invalid');
    expect((await tokens.verify(`${issued.quoteId}=`, NOW)).kind).toBe('invalid');
    expect((await tokens.verify('not-a-jws', NOW)).kind).toBe('invalid');
  });
});
