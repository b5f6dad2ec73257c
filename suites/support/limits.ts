/**
 * Helpers of the limit, shopping and XML suites (spec 4.5, 4.6, 4.12, 4.14, 8): reading the rate-limit headers,
 * driving a client to its 429, running a check in a rate-limit window of its own, and posting raw XML bodies.
 */
import { expect } from 'vitest';
import { MEDIA_TYPES } from '../../contract/constants.ts';
import { ERROR_CODES, type ErrorCode } from '../../contract/errors.ts';
import { isoInstantMs } from '../../contract/iso-instant.ts';
import type { AvailabilityResponse, JsonValue } from '../../contract/types.ts';
import { serializeTypedXml } from '../../contract/xml/index.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { errorCodeOf, expectError, readableBody } from '../../harness/check/expect-api.ts';
import { claim, requireStep } from '../../harness/check/scope.ts';
import type { Role } from '../../harness/config/target-config.ts';
import { provokingLimits } from '../../harness/http/rate-limits.ts';
import type { Representation } from '../../harness/http/representation.ts';

/** Spec 8.14: the three headers of a rate-limited response (undefined when absent). */
export interface RateLimitHeaders {
  limit: string | undefined;
  remaining: string | undefined;
  reset: string | undefined;
}

export function rateLimitHeadersOf(res: ApiResult): RateLimitHeaders {
  return {
    limit: res.headers['x-ratelimit-limit'],
    remaining: res.headers['x-ratelimit-remaining'],
    reset: res.headers['x-ratelimit-reset'],
  };
}

export { isoInstantMs };

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

/**
 * Spec 8.14: X-RateLimit-Limit and -Remaining are whole numbers (Remaining at most Limit), X-RateLimit-Reset an
 * ISO 8601 timestamp and not epoch seconds. Returns Reset in epoch ms. A header absent from an answer other than a
 * 429 is 4.0.3's deviation ("Rate-limited endpoints carry X-RateLimit-* headers"): filed there once, and the check
 * is blocked rather than failed; on a 429 their presence is 8.14's own ("success or 429").
 */
export function expectRateLimitHeaders(res: ApiResult, what: string): number {
  requireRateLimitHeaders(res, what);
  const h = rateLimitHeadersOf(res);
  expect(h.limit, `${what}: X-RateLimit-Limit`).toMatch(/^\d+$/);
  expect(h.remaining, `${what}: X-RateLimit-Remaining`).toMatch(/^\d+$/);
  expect(Number(h.remaining), `${what}: X-RateLimit-Remaining at most X-RateLimit-Limit`).toBeLessThanOrEqual(
    Number(h.limit),
  );
  const reset = isoInstantMs(h.reset ?? '');
  expect(
    reset,
    `${what}: X-RateLimit-Reset ${h.reset} is an ISO 8601 timestamp naming a real instant, not epoch seconds`,
  ).toBeDefined();
  return reset as number;
}

/** All three X-RateLimit-* present: else filed under 4.0.3 (under 8.14 on a 429, "success or 429") and blocked. */
function requireRateLimitHeaders(res: ApiResult, what: string): void {
  const missing = RATE_LIMIT_HEADERS.filter((name) => res.headers[name] === undefined);
  requireStep(res.status === 429 ? '8.14' : '4.0.3', missing.length === 0, `${what}: ${missing.join(', ')} absent`, {
    actual: rateLimitHeadersOf(res),
  });
}

/** The answer carries the three X-RateLimit-* headers (whatever their values). */
export function carriesRateLimitHeaders(res: ApiResult): boolean {
  return RATE_LIMIT_HEADERS.every((name) => res.headers[name] !== undefined);
}

/**
 * The answer's X-RateLimit-* as numbers, for a check of another clause that reads them (8.13): an absent header is
 * filed under 4.0.3 (8.14 on a 429), an unreadable one under 8.14, and the check is blocked.
 */
export function requireRateLimitReading(res: ApiResult, what: string): RateLimitReading {
  requireRateLimitHeaders(res, what);
  const reading = rateLimitReadingOf(res);
  requireStep('8.14', reading !== undefined, `${what}: X-RateLimit-* unreadable`, { actual: rateLimitHeadersOf(res) });
  return reading as RateLimitReading;
}

/** X-RateLimit-Limit and -Remaining as numbers, -Reset as sent (a window's name when fixed). */
export interface RateLimitReading {
  limit: number;
  remaining: number;
  reset: string;
}

/** An answer's X-RateLimit-* as numbers (Reset as sent), or undefined when one is absent or unreadable. */
export function rateLimitReadingOf(res: ApiResult): RateLimitReading | undefined {
  const h = rateLimitHeadersOf(res);
  if (!h.reset || !/^\d+$/.test(h.limit ?? '') || !/^\d+$/.test(h.remaining ?? '')) return undefined;
  if (isoInstantMs(h.reset) === undefined) return undefined;
  return { limit: Number(h.limit), remaining: Number(h.remaining), reset: h.reset };
}

/** The response's Date header in epoch ms (the server's clock), or undefined. */
export function serverDateOf(res: ApiResult): number | undefined {
  const value = res.headers.date;
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

const HALF_HOUR_MS = 30 * 60 * 1000;
/** Tolerance for the 30 minutes, against the server's Date header (second resolution) or our clock. */
const SERVER_TOLERANCE_MS = 60_000;
const LOCAL_TOLERANCE_MS = 120_000;

/**
 * Spec 4.5, 2.9, 8: a quote expires 30 minutes after the answer that issued it, judged against the server's Date
 * header (second resolution) when it sends one, else against our clock when the request was sent.
 */
export function expectThirtyMinutes(
  expiresAt: string,
  res: ApiResult,
  sentAt: number,
  what: string,
  /** The clause the 30-minute rule is judged under when it is not the running check's own (a restated rule). */
  owner?: string,
): void {
  const expires = Date.parse(expiresAt);
  const server = serverDateOf(res);
  const [reference, tolerance] =
    server === undefined ? [sentAt, LOCAL_TOLERANCE_MS] : [server, SERVER_TOLERANCE_MS + 1000];
  const lifetime = expires - reference;
  const message = Number.isNaN(expires)
    ? `${what}: ${expiresAt} is a date-time`
    : `${what}: ${expiresAt} is ${Math.round(lifetime / 1000)} s after the answer (${server === undefined ? 'our clock' : 'its Date header'}), not 1800 s`;
  const ok = !Number.isNaN(expires) && Math.abs(lifetime - HALF_HOUR_MS) <= tolerance;
  if (owner) {
    claim(owner, ok, message, { expected: '1800 s', actual: expiresAt });
    return;
  }
  expect(ok, message).toBe(true);
}

/** No X-RateLimit-* header at all (spec 8.16b, the token endpoint). */
export function rateLimitHeaderNames(res: ApiResult): string[] {
  return Object.keys(res.headers).filter((name) => name.toLowerCase().startsWith('x-ratelimit-'));
}

export interface Exhaustion {
  /** Answers before the first 429, in order. */
  before: ApiResult[];
  /** The first 429, or undefined when none came within the bound. */
  limited: ApiResult | undefined;
  /** Where sending stopped without a 429, for the check's "not judged" reason: "within 400 requests". */
  bound: string;
}

/**
 * How long a check may send to reach a 429. A ceiling too high to reach at the pace the run allows (--max-rps, the
 * target's other limits) is "not judged" with this reason, never a check timed out (spec 8: ceilings not shown).
 */
export const MAX_MS_TO_429 = 90_000;

/** A span of requests shorter than this fits in at most two one-minute windows (spec 8.14). */
const ONE_MINUTE_MS = 60_000;

/**
 * Sends until the first 429 or `max` requests: the ceiling is not shown (spec 8, "Ceiling values: not shown"), so
 * the bound is ours. The target's own X-RateLimit-* make the ceiling known, though: X-RateLimit-Limit N and
 * Remaining "requests left in the current one-minute window" (8.14) mean no window serves more than N requests.
 * Sending stops, and the deviation is filed under 8.14 (the check blocked, or failed when it is 8.14's), as soon as
 * the answers prove a request was served past them:
 * - more than N successes (2xx) carry one and the same X-RateLimit-Reset, so one window served them all; or
 * - more than 2N successes within less than a minute, which no window can serve (fixed windows: two of them at most;
 *   sliding windows and token buckets of N a minute: fewer), whatever its Reset says.
 * Only successes count as served: what a limiter counts is not shown (spec 8), and one that counts accepted requests
 * only may report its headers on a refused 400 without drawing on the bucket (audit 8-R8; the `{}` bodies of 4.5.4
 * and 4.6.4 are all refused). Answers without the headers prove nothing. Token requests (`tokenEndpoint`) are not
 * judged so: that endpoint has limits of its own and sends no X-RateLimit-* (8.16), so any it sends are 8.16b's
 * deviation, not a limit.
 */
export function sendUntil429(
  send: () => Promise<ApiResult>,
  max: number,
  { tokenEndpoint = false, maxMs = MAX_MS_TO_429 }: { tokenEndpoint?: boolean; maxMs?: number } = {},
): Promise<Exhaustion> {
  // Provoked on purpose: the 429 must reach us, not be waited out by the transport (harness/http/rate-limits.ts).
  return provokingLimits(() => (tokenEndpoint ? untilTokenLimited(send, max, maxMs) : untilLimited(send, max, maxMs)));
}

/**
 * Token requests sent in rounds of this many at once. The token endpoint's buckets refill while a fill runs (a
 * bucket of N a minute gains N/60 a second), and one request at a time takes the endpoint's own time each (client
 * authentication is slow by design): sent in rounds, a fill ends in a few seconds, at most a round past its 429,
 * instead of paying for the refill of a slow one.
 */
const TOKEN_ROUND = 10;

/** untilLimited for the token endpoint, which sends no X-RateLimit-* (8.16b): rounds until a round meets a 429. */
async function untilTokenLimited(send: () => Promise<ApiResult>, max: number, maxMs: number): Promise<Exhaustion> {
  const before: ApiResult[] = [];
  const firstSentAt = Date.now();
  while (before.length < max) {
    if (Date.now() - firstSentAt > maxMs) {
      return {
        before,
        limited: undefined,
        bound: `within ${Math.round(maxMs / 1000)} s (${before.length} requests)`,
      };
    }
    const round = await Promise.all(Array.from({ length: Math.min(TOKEN_ROUND, max - before.length) }, () => send()));
    const first = round.findIndex((res) => res.status === 429);
    if (first >= 0) {
      before.push(...round.slice(0, first));
      return { before, limited: round[first], bound: `within ${before.length + 1} requests` };
    }
    before.push(...round);
  }
  return { before, limited: undefined, bound: `within ${max} requests` };
}

async function untilLimited(send: () => Promise<ApiResult>, max: number, maxMs: number): Promise<Exhaustion> {
  const before: ApiResult[] = [];
  const windows = new Map<string, { served: number; limit: number }>();
  let highestLimit: number | undefined;
  /** Successes so far: what a limiter surely counted. */
  let served = 0;
  const firstSentAt = Date.now();
  for (let i = 0; i < max; i++) {
    if (Date.now() - firstSentAt > maxMs) {
      return { before, limited: undefined, bound: `within ${Math.round(maxMs / 1000)} s (${i} requests)` };
    }
    const res = await send();
    if (res.status === 429) return { before, limited: res, bound: `within ${i + 1} requests` };
    before.push(res);
    const reading = rateLimitReadingOf(res);
    if (!reading || res.status < 200 || res.status >= 300) continue;
    served += 1;
    const window = windows.get(reading.reset) ?? { served: 0, limit: reading.limit };
    window.served += 1;
    window.limit = Math.max(window.limit, reading.limit);
    windows.set(reading.reset, window);
    requireStep(
      '8.14',
      window.served <= window.limit,
      `${window.served} requests served in one window (X-RateLimit-Reset ${reading.reset}) of X-RateLimit-Limit ` +
        `${window.limit}, none refused with 429 (X-RateLimit-Remaining ${reading.remaining}): the limit the headers ` +
        'state is not enforced',
      { expected: `a 429 by request ${window.limit + 1} of the window`, actual: `HTTP ${res.status}` },
    );
    highestLimit = Math.max(highestLimit ?? 0, reading.limit);
    const span = Date.now() - firstSentAt;
    requireStep(
      '8.14',
      !(served > 2 * highestLimit && span < ONE_MINUTE_MS),
      `${served} requests served within ${Math.round(span / 1000)} s, none refused with 429, though ` +
        `X-RateLimit-Limit is ${highestLimit} a minute: the limit the headers state is not enforced`,
      { expected: `a 429 by request ${2 * highestLimit + 1}`, actual: `HTTP ${res.status}` },
    );
  }
  return { before, limited: undefined, bound: `within ${max} requests` };
}

/** Requests a rate-limit check may send to reach a 429: a bound, so a high ceiling makes it not-applicable. */
export const MAX_REQUESTS_TO_429 = 400;

/** The target resets its rate-limit windows (test hook rateLimits.reset), or undefined when the run cannot. */
export function windowReset(t: CheckContext): (() => Promise<void>) | undefined {
  const hooks = t.hookIfOffered('rateLimits.reset');
  return hooks ? () => hooks.resetRateLimits() : undefined;
}

/**
 * Runs `fn` from empty rate-limit windows and leaves them empty (test hook rateLimits.reset), so a check that
 * fills a bucket holds no later check or role up. Without the hook `fn` runs in real time: the check waits out
 * what it filled (waitOut).
 */
export async function inOwnWindow<T>(t: CheckContext, fn: () => Promise<T>): Promise<T> {
  const reset = windowReset(t);
  if (!reset) return fn();
  await reset();
  try {
    return await fn();
  } finally {
    await reset();
  }
}

/** A raw business POST of exact bytes, with the role's (cached) token and the check's Accept. */
export async function postBytes(
  t: CheckContext,
  role: Role,
  path: string,
  bytes: Uint8Array | string,
  contentType: string = MEDIA_TYPES.xml,
): Promise<ApiResult> {
  const body = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  return t.client(role).post(path, body, { headers: { 'content-type': contentType } });
}

/**
 * The value as a typed XML request document (spec 4.14), default namespace, without the optional XML declaration:
 * only the checks of 4.14.16 send one.
 */
export function xmlRequest(value: object): string {
  return serializeTypedXml(value as JsonValue, 'request', { declaration: false });
}

/**
 * An error in the envelope of spec 7.2 whatever its code: a table code (7.3) with its row's status, or a code of
 * the server's own (7.3 leaves codes beyond the table open) with a 4xx status; for answers where several codes are
 * acceptable.
 */
export function expectSomeError(res: ApiResult, representation: Representation): string {
  const code = errorCodeOf(res);
  if (code !== undefined && Object.hasOwn(ERROR_CODES, code)) {
    expectError(res, code as ErrorCode, { representation });
  } else {
    // A code of the server's own, or none readable (filed under 7.2.2 by expectError): judged by the status.
    const status = res.status >= 400 && res.status < 500 ? res.status : 400;
    expectError(res, 'VALIDATION_ERROR', { representation, status, otherCodes: true });
  }
  return code ?? '';
}

/** Status and error code: what "the same answer" compares for errors. */
export function answerOf(res: ApiResult): { status: number; code: string | null } {
  return { status: res.status, code: errorCodeOf(res) ?? null };
}

/**
 * An availability answer without what is per response (quote ids and their expiry), so two answers to the same
 * request compare equal.
 */
export function offersWithoutQuotes(res: ApiResult): unknown {
  if (res.status !== 200) return answerOf(res);
  const body = readableBody(res, 'the availability answer') as AvailabilityResponse;
  // Offers compared as a set, by vehicle: one answer listing them in another order than the other says the same
  // (ambiguity S33: no clause orders offers).
  const byVehicle = (offer: { vehicle?: { vehicleCode?: string } }) => String(offer.vehicle?.vehicleCode ?? '');
  return {
    ...body,
    offers: (body.offers ?? [])
      .map(({ quoteId: _quoteId, quoteExpiresAt: _expires, ...offer }) => offer)
      .sort((a, b) => byVehicle(a).localeCompare(byVehicle(b))),
  };
}

/** 200 with offers, or 409 NO_AVAILABILITY: both answer a valid availability request (spec 4.5, ambiguity #9). */
export function isAvailabilityAnswer(res: ApiResult): boolean {
  return res.status === 200 || (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY');
}

/** A code of the LocationCode / VehicleCode / CommercialCode patterns that no target should hold. */
export function probeCode(t: CheckContext, tag: string): string {
  return `ZZ-CERT-${tag}-${(t.seed >>> 0).toString(36).toUpperCase()}`.slice(0, 32);
}

/**
 * What only the operator knows and no API call shows (spec 4.12): an inactive location, an unpublished vehicle,
 * a vehicle without a complete partner specification, a rate plan of the partner awaiting approval.
 */
export interface ProbeCodes {
  inactiveLocations: string[];
  unpublishedVehicles: string[];
  incompleteVehicles: string[];
  pendingRatePlans: { accountCode: string; rateCode: string }[];
}

/**
 * The probe codes the target config names for the role's partner (`probes` of the config: harness/config).
 * Each list is empty when the config names none, and the checks that need it are then not-applicable.
 */
export function probeCodesOf(t: CheckContext, role: Role): ProbeCodes {
  const probes = t.settings.target.probes ?? {};
  const list = (code: string | undefined) => (code === undefined ? [] : [code]);
  const pending = probes.pendingRate;
  return {
    inactiveLocations: list(probes.inactiveLocationCode),
    unpublishedVehicles: list(probes.unpublishedVehicleCode),
    incompleteVehicles: list(probes.incompleteVehicleCode),
    pendingRatePlans:
      pending && pending.role === role ? [{ accountCode: pending.accountCode, rateCode: pending.rateCode }] : [],
  };
}

/** Spec 8.15: a 429 carries Retry-After in whole seconds; judged under 8.15 wherever a check meets a 429. */
export function observeRetryAfter(limited: ApiResult, what: string): void {
  const value = limited.headers['retry-after'];
  claim('8.15', value !== undefined && /^\d+$/.test(value), `${what}: Retry-After in whole seconds`, {
    actual: value ?? '(absent)',
  });
}
