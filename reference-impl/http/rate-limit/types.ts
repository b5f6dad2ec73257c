/** Spec 8: rate limits are per API client in one-minute windows (LIMITS.rateLimitWindowSeconds). */
export const DEFAULT_WINDOW_MS = 60_000;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the current window after this one (never negative). */
  remaining: number;
  /** End of the current window (epoch ms of the service clock). */
  resetAtMs: number;
  /** Whole seconds until resetAtMs, at least 1 (meaningful when !allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  readonly kind: 'memory' | 'redis';
  /**
   * Counts one request against `bucket` in the fixed window containing nowMs. nowMs comes from the service's
   * (virtual) clock; implementations never read the real clock for window arithmetic.
   * Rejects with RateLimitStoreUnavailableError when the backing store cannot answer.
   */
  hit(bucket: string, limit: number, nowMs: number, windowMs?: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}
