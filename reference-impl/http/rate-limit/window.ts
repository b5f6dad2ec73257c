import type { RateLimitDecision } from './types.ts';

/** The bucket of a generation: the rate-limit reset hook bumps it, so every window starts empty again. */
export function bucketOf(generation: number, bucket: string): string {
  return generation === 0 ? bucket : `g${generation}:${bucket}`;
}

/** Fixed windows aligned to multiples of windowMs on the service clock. */
export function windowStartOf(nowMs: number, windowMs: number): number {
  return Math.floor(nowMs / windowMs) * windowMs;
}

export function assertHitArguments(bucket: string, limit: number, nowMs: number, windowMs: number): void {
  if (bucket.length === 0) throw new RangeError('rate-limit bucket must be non-empty');
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`rate-limit limit must be an integer >= 0: ${limit}`);
  if (!Number.isFinite(nowMs)) throw new RangeError(`rate-limit nowMs must be finite: ${nowMs}`);
  if (!Number.isInteger(windowMs) || windowMs <= 0) {
    throw new RangeError(`rate-limit windowMs must be a positive integer: ${windowMs}`);
  }
}

/** Turns the window's hit count (this hit included) into the decision; refused hits count too. */
export function decide(
  count: number,
  limit: number,
  nowMs: number,
  windowStart: number,
  windowMs: number,
): RateLimitDecision {
  const resetAtMs = windowStart + windowMs;
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetAtMs,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)),
  };
}
