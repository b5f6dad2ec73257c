import type { RateLimitDecision } from './types.ts';

/** Spec 8.14: on every response of a rate-limited endpoint; Reset is ISO 8601, not epoch seconds. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(d.limit),
    'X-RateLimit-Remaining': String(d.remaining),
    'X-RateLimit-Reset': new Date(d.resetAtMs).toISOString(),
  };
}

/** Spec 8.15 and 8.16b: on a 429 (the token endpoint sends only this one). */
export function retryAfterHeaders(d: RateLimitDecision): Record<string, string> {
  return { 'Retry-After': String(d.retryAfterSeconds) };
}
