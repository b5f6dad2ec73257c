import type { RateLimitDecision } from '../../http/rate-limit/types.ts';
import { envelopeError } from '../shapes.ts';
import type { Fault } from '../types.ts';

/**
 * Benign variants of servers written elsewhere (third set): choices the spec leaves open that the reference does not
 * make, each from a row of the 2026-11-29 clause audit (docs/audit-response.md) that the suite used to fail.
 */

type Obj = Record<string, unknown>;

/** A bucket of `limit` tokens refilled continuously at `limit` a minute (benign-token-bucket-limits). */
interface Bucket {
  tokens: number;
  atMs: number;
  /** The underlying fixed window's Reset when last seen: a new window (or the reset hook) fills the bucket. */
  windowResetAtMs: number;
}

const BUCKETS = new Map<string, Bucket>();
const MINUTE_MS = 60_000;

/**
 * A token bucket in place of the fixed one-minute window: `limit` tokens, refilled at `limit` per minute, one taken per
 * call. Remaining is the whole tokens left, Reset a minute after the call (by then a bucket left alone is full again,
 * whatever it holds now: the window of a sliding limiter), Retry-After the whole seconds until the next token. A fresh fixed window underneath (the test hook rateLimits.reset
 * starts one) fills the bucket, so a check that asks for empty windows gets a full bucket.
 */
function tokenBucket(decision: RateLimitDecision, key: string, nowMs: number): RateLimitDecision {
  const limit = decision.limit;
  const ratePerMs = limit / MINUTE_MS;
  const seen = BUCKETS.get(key);
  const fresh = seen === undefined || seen.windowResetAtMs !== decision.resetAtMs;
  const bucket: Bucket = fresh
    ? { tokens: limit, atMs: nowMs, windowResetAtMs: decision.resetAtMs }
    : { ...seen, tokens: Math.min(limit, seen.tokens + (nowMs - seen.atMs) * ratePerMs), atMs: nowMs };
  const allowed = bucket.tokens >= 1;
  if (allowed) bucket.tokens -= 1;
  BUCKETS.set(key, bucket);
  const toNextMs = allowed ? 0 : Math.ceil((1 - bucket.tokens) / ratePerMs);
  return {
    allowed,
    limit,
    remaining: Math.max(0, Math.floor(bucket.tokens)),
    resetAtMs: nowMs + MINUTE_MS,
    retryAfterSeconds: Math.max(1, Math.ceil(toNextMs / 1000)),
  };
}

/** An ISO 8601 extended timestamp written in the basic format: 2026-11-29T10:15:00.123Z → 20261129T101500.123Z. */
export function basicFormat(extended: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?Z$/.exec(extended);
  return m ? `${m[1]}${m[2]}${m[3]}T${m[4]}${m[5]}${m[6]}${m[7] ?? ''}Z` : extended;
}

/** The code a server of its own names a field fault with: the field's own word (7.3: "such as", not shown). */
function ownCode(fields: unknown): string | undefined {
  if (!Array.isArray(fields) || fields.length === 0) return undefined;
  const all = fields as Obj[];
  if (all.every((f) => typeof f.field === 'string' && f.field.endsWith('childSeats')))
    return 'CHILD_SEATS_OUT_OF_RANGE';
  if (
    all.every((f) => typeof f.message === 'string' && / characters$/.test(f.message) && f.message.includes('at most'))
  )
    return 'FIELD_TOO_LONG';
  return undefined;
}

export const FOREIGN_VARIANTS_C: Fault[] = [
  {
    name: 'benign-token-bucket-limits',
    kind: 'benign',
    clause: '8.14',
    description:
      'Business calls are limited by a token bucket (the limit refilled continuously over a minute): X-RateLimit-Remaining is the whole tokens left, so two calls in a row may read the same Remaining (a token came back between them) or a higher one; Reset is a minute after each call (the bucket is full again by then).',
    adjust: { rateLimit: (decision, input) => tokenBucket(decision, input.key, Date.now()) },
  },
  {
    name: 'benign-reset-basic-format',
    kind: 'benign',
    clause: '8.14',
    description:
      'X-RateLimit-Reset is written in the ISO 8601 basic format (20261129T101500.123Z): an ISO 8601 instant, not epoch seconds.',
    response(r) {
      const reset = r.header('x-ratelimit-reset');
      if (reset) r.setHeader('x-ratelimit-reset', basicFormat(reset));
    },
  },
  {
    name: 'benign-own-validation-codes',
    kind: 'benign',
    clause: '7.3.6',
    description:
      'Some schema faults get a 400 with a code of the server\'s own instead of VALIDATION_ERROR: childSeats out of range CHILD_SEATS_OUT_OF_RANGE, a string over its maximum length FIELD_TOO_LONG (7.3: the specific code of "violations such as …" is not shown).',
    response(r) {
      const error = envelopeError(r.value);
      if (r.status !== 400 || error?.code !== 'VALIDATION_ERROR') return;
      const code = ownCode(error.fields);
      if (code) error.code = code;
    },
  },
];
