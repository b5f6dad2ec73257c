import { DEFAULT_WINDOW_MS, type RateLimiter } from './types.ts';
import { assertHitArguments, decide, windowStartOf } from './window.ts';

interface WindowCounter {
  count: number;
  /** Window end plus one window of grace, so a late caller with a slightly older nowMs still finds its count. */
  expiresAtMs: number;
}

export interface MemoryRateLimiter extends RateLimiter {
  /** Window counters currently held; lets tests see that old windows are swept. */
  readonly size: number;
}

/** One process only: counters live in this process's memory. */
export function createMemoryRateLimiter(): MemoryRateLimiter {
  const counters = new Map<string, WindowCounter>();
  let nextSweepAtMs = Number.NEGATIVE_INFINITY;

  // Sweeping at most once per window keeps the cost amortised while bounding memory to recent windows.
  function sweep(nowMs: number, windowMs: number): void {
    if (nowMs < nextSweepAtMs) return;
    nextSweepAtMs = nowMs + windowMs;
    for (const [key, counter] of counters) {
      if (counter.expiresAtMs <= nowMs) counters.delete(key);
    }
  }

  return {
    kind: 'memory',
    get size() {
      return counters.size;
    },
    // Synchronous body: one hit cannot interleave with another in the same process, so counts are exact.
    async hit(bucket, limit, nowMs, windowMs = DEFAULT_WINDOW_MS) {
      assertHitArguments(bucket, limit, nowMs, windowMs);
      sweep(nowMs, windowMs);
      const windowStart = windowStartOf(nowMs, windowMs);
      // windowStart has no ':', so the key stays unambiguous whatever the bucket holds.
      const key = `${bucket}:${windowStart}`;
      // One map lookup and no allocation for a window already counting (O(1), nothing per hit: every rate-limited
      // request passes here).
      const counter = counters.get(key);
      if (counter) {
        counter.count += 1;
        return decide(counter.count, limit, nowMs, windowStart, windowMs);
      }
      counters.set(key, { count: 1, expiresAtMs: windowStart + 2 * windowMs });
      return decide(1, limit, nowMs, windowStart, windowMs);
    },
    async close() {
      counters.clear();
    },
  };
}
