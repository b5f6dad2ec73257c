import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LIMITS } from '../../contract/limits.ts';
import type { Extras } from '../../contract/types.ts';
import type { FaultSwitch } from '../faults/switch.ts';
import { isCanonicalJws } from './canonical-jws.ts';
import { HmacSha256 } from './hmac-sha256.ts';

/** What a quote id carries: the request it priced, for whom, and the total it promised. */
export interface QuoteClaims {
  partnerId: string;
  vehicleCode: string;
  pickupLocation: string;
  dropoffLocation: string;
  pickupDate: string;
  pickupTime: string;
  dropoffDate: string;
  dropoffTime: string;
  accountCode: string | null;
  rateCode: string | null;
  extras: Extras;
  totalAmount: number;
  currency: string;
  issuedAtMs: number;
  expiresAtMs: number;
}

export type QuoteVerification =
  | { kind: 'valid'; claims: QuoteClaims }
  | { kind: 'expired'; claims: QuoteClaims }
  | { kind: 'invalid' };

const TYPE = 'quote+jwt';
/** The claims of the signed `q` array, in its order (see `issuer`). */
const QUOTE_FIELDS = [
  'vehicleCode',
  'pickupLocation',
  'dropoffLocation',
  'pickupDate',
  'pickupTime',
  'dropoffDate',
  'dropoffTime',
  'accountCode',
  'rateCode',
  'extras',
  'totalAmount',
  'currency',
] as const;
/** The request's claims: every quote of one availability call shares them. */
const REQUEST_FIELDS = QUOTE_FIELDS.slice(1, -2) as readonly Exclude<
  (typeof QUOTE_FIELDS)[number],
  'vehicleCode' | 'totalAmount' | 'currency'
>[];

/** JSON.stringify of a vehicle or currency code, made once per code (a few dozen; bounded all the same). */
const codeTexts = new Map<string, string>();
function codeJson(code: string): string {
  let text = codeTexts.get(code);
  if (text === undefined) {
    text = JSON.stringify(code);
    if (codeTexts.size >= 1024) codeTexts.clear();
    codeTexts.set(code, text);
  }
  return text;
}

/**
 * A quote id's own `jti`: a random prefix per process and a counter, unique without a random draw per offer (a
 * randomUUID was 36 characters of every id).
 */
const JTI_PREFIX = randomBytes(9).toString('base64url');
let jtiCount = 0;
function nextJti(): string {
  jtiCount += 1;
  return `${JTI_PREFIX}${jtiCount.toString(36)}`;
}
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: TYPE })).toString('base64url');

/**
 * Signed, tamper-evident quote ids (spec 2.8, 2.9, 4.7.9): a compact JWS (HS256) whose key lives in the store,
 * so every instance verifies every other's quotes. The id is opaque to partners; the price is recomputed at
 * booking (spec 4.6), the signed total only tells a moved price from an unchanged one.
 */
export class QuoteTokens {
  private readonly mac: HmacSha256;
  private payloadBytes = Buffer.alloc(2048);

  constructor(
    secret: string,
    private readonly faults?: FaultSwitch,
  ) {
    // Every signing input starts with our header: the MAC writes it once (HmacSha256's prefix).
    this.mac = new HmacSha256(Buffer.from(secret, 'base64url'), `${HEADER}.`);
  }

  async issue(
    claims: Omit<QuoteClaims, 'issuedAtMs' | 'expiresAtMs'>,
    nowMs: number,
  ): Promise<QuoteClaims & { quoteId: string }> {
    const { vehicleCode, totalAmount, currency, ...shared } = claims;
    const issuer = this.issuer(shared, nowMs);
    const { quoteId } = issuer.issue(vehicleCode, totalAmount, currency);
    const { partnerId, ...request } = shared;
    return {
      partnerId,
      vehicleCode,
      ...request,
      totalAmount,
      currency,
      issuedAtMs: issuer.issuedAtMs,
      expiresAtMs: issuer.expiresAtMs,
      quoteId,
    };
  }

  /**
   * Quote ids for the vehicles of one request (availability signs one per offer): what they share is written once.
   * The signed payload is the text JSON.stringify gives for
   * `{ q: [vehicleCode, pickupLocation, dropoffLocation, pickupDate, pickupTime, dropoffDate, dropoffTime, accountCode,
   * rateCode, extras, totalAmount, currency], sub, iat, exp, jti }`: the request the quote prices, for whom, and its
   * lifetime. Positional, without an issuer claim (the header's type says whose it is): named claims made an id of
   * 635 characters, 12 of them a third of an availability answer's bytes, each hashed and encoded per offer
   * (docs/measurements/bench-2026-11-24-to-29.md "Answers as bytes"). Built from pieces: a JSON.stringify of the whole per offer was a ninth of an
   * availability call (docs/measurements/bench-2026-11-24-to-29.md "Profile findings").
   */
  issuer(
    claims: Omit<QuoteClaims, 'vehicleCode' | 'totalAmount' | 'currency' | 'issuedAtMs' | 'expiresAtMs'>,
    nowMs: number,
  ) {
    const issuedAtMs = Math.floor(nowMs / 1000) * 1000;
    const validityMs = LIMITS.quoteValidityMinutes * 60_000;
    const expiresAtMs = issuedAtMs + (this.faults?.adjust('quote.validityMs', validityMs, {}) ?? validityMs);
    const request = JSON.stringify(REQUEST_FIELDS.map((name) => claims[name])).slice(1, -1);
    const lifetime = JSON.stringify({ sub: claims.partnerId, iat: issuedAtMs / 1000, exp: expiresAtMs / 1000 }).slice(
      1,
      -1,
    );
    return {
      issuedAtMs,
      expiresAtMs,
      issue: (vehicleCode: string, totalAmount: number, currency: string) => {
        // jti: every quote id is one of its own. Without it two equal requests in one second got the same id, and the
        // test hook that expires one quote (by its id) expired the other too: certification failed 4.7.2 and 4.14.18a.
        const payload = `{"q":[${codeJson(vehicleCode)},${request},${JSON.stringify(totalAmount)},${codeJson(currency)}],${lifetime},"jti":"${nextJti()}"}`;
        return { quoteId: this.sign(payload) };
      },
    };
  }

  /**
   * Written by hand rather than with jose's SignJWT: availability signs one quote id per offer, and jose's HS256
   * goes through WebCrypto (an async thread-pool job per signature), three times slower than a synchronous HMAC;
   * the output is the same compact JWS (HS256).
   */
  private sign(payload: string): string {
    // The payload's UTF-8 bytes in a buffer kept for it (calls are synchronous): no buffer per quote id.
    if (this.payloadBytes.length < payload.length * 3) this.payloadBytes = Buffer.alloc(payload.length * 3);
    const size = this.payloadBytes.write(payload, 0, 'utf8');
    const body = this.payloadBytes.toString('base64url', 0, size);
    // Base64url text is ASCII: hashed as latin1, its bytes are the UTF-8 ones, without the UTF-8 encoder's pass.
    return `${HEADER}.${body}.${this.mac.digestBase64url(body)}`;
  }

  /**
   * Verified synchronously like `sign` (jose's WebCrypto verify was a thread-pool round trip per booking,
   * which also spread the bookings' commits over more group commits). The checks are jose's for this token: our
   * header exactly, the signature (constant-time), then issuer and expiry with no tolerance (expired when now >=
   * exp). The signature comes first, so an expired quote is always an authentic one.
   */
  async verify(quoteId: string, nowMs: number): Promise<QuoteVerification> {
    if (!isCanonicalJws(quoteId)) return { kind: 'invalid' };
    const [header, body, signature] = quoteId.split('.') as [string, string, string];
    if (header !== HEADER) return { kind: 'invalid' };
    // Canonical JWS text is ASCII, so its latin1 bytes are the signed ones.
    const expected = this.mac.digest(body);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { kind: 'invalid' };
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return { kind: 'invalid' };
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { kind: 'invalid' };
    const claims = payload as Record<string, unknown>;
    if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number' || typeof claims.sub !== 'string') {
      return { kind: 'invalid' };
    }
    // Signed by us, so of our shape; an id of the former named-claims shape (before 2026-11-28) is no longer one.
    if (!Array.isArray(claims.q) || claims.q.length !== QUOTE_FIELDS.length) return { kind: 'invalid' };
    return { kind: Math.floor(nowMs / 1000) >= claims.exp ? 'expired' : 'valid', claims: claimsOf(claims) };
  }
}

/** How the test hooks remember an expired quote id without keeping the id itself. */
export function quoteDigest(quoteId: string): string {
  return createHash('sha256').update(quoteId).digest('hex');
}

function claimsOf(payload: Record<string, unknown>): QuoteClaims {
  const q = payload.q as unknown[];
  return {
    ...Object.fromEntries(QUOTE_FIELDS.map((name, i) => [name, q[i]])),
    partnerId: payload.sub,
    issuedAtMs: Number(payload.iat) * 1000,
    expiresAtMs: Number(payload.exp) * 1000,
  } as QuoteClaims;
}
