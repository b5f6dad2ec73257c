import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { rateLimitHeaders, retryAfterHeaders } from './headers.ts';
import type { RateLimitDecision, RateLimiter } from './types.ts';

export interface LimiterUnderTest {
  open(): Promise<RateLimiter>;
  /** Instances share counters (Redis): the concurrency check then spreads hits over two instances. */
  sharedAcrossInstances: boolean;
  propertyRuns: number;
}

/** A minute boundary far from real time: windows must follow nowMs, never the real clock. */
const BASE = Date.UTC(2031, 0, 15, 10, 0, 0);
const MINUTE = 60_000;

/** What the suite's tests share: limiters closed after each test, fresh bucket names, the subject's settings. */
interface SuiteTools {
  open: () => Promise<RateLimiter>;
  bucket: () => string;
  subject: LimiterUnderTest;
}

/** The behaviour every RateLimiter must show (spec 8); run by memory.test.ts and redis.test.ts. */
export function describeRateLimiterBehaviour(name: string, subject: LimiterUnderTest): void {
  describe(`${name} rate limiter behaviour`, () => {
    const tools = suiteTools(subject);
    decisionTests(tools);
    windowAndBucketTests(tools);
    argumentAndHeaderTests(tools);
    concurrencyAndPropertyTests(tools);
  });
}

function suiteTools(subject: LimiterUnderTest): SuiteTools {
  const opened: RateLimiter[] = [];
  const open = async () => {
    const limiter = await subject.open();
    opened.push(limiter);
    return limiter;
  };
  const bucket = () => `client:${randomUUID()}`;
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((l) => l.close()));
  });
  return { open, bucket, subject };
}

/** A window's decisions: the count, what remains, and when to retry. */
function decisionTests({ open, bucket }: SuiteTools): void {
  it('counts hits, decreases remaining and refuses after the limit', async () => {
    const rl = await open();
    const b = bucket();
    const ds: RateLimitDecision[] = [];
    for (let i = 1; i <= 5; i++) ds.push(await rl.hit(b, 3, BASE + i * 1000));
    expect(ds.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(ds.map((d) => d.remaining)).toEqual([2, 1, 0, 0, 0]);
    for (const d of ds) {
      expect(d.limit).toBe(3);
      expect(d.resetAtMs).toBe(BASE + MINUTE);
    }
  });

  it('answers Retry-After in whole seconds, rounded up, at least 1', async () => {
    const rl = await open();
    const b = bucket();
    await rl.hit(b, 1, BASE);
    const refused = await rl.hit(b, 1, BASE + 12_345);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(48); // ceil(47.655)
    expect((await rl.hit(b, 1, BASE + MINUTE - 1)).retryAfterSeconds).toBe(1);
    expect((await rl.hit(b, 1, BASE + MINUTE - 1000)).retryAfterSeconds).toBe(1);
    expect(retryAfterHeaders(refused)).toEqual({ 'Retry-After': '48' });
  });
}

/** Windows follow the clock they are given; buckets and limits are kept apart. */
function windowAndBucketTests({ open, bucket }: SuiteTools): void {
  it('starts a new window at the next multiple of the window length', async () => {
    const rl = await open();
    const b = bucket();
    expect((await rl.hit(b, 2, BASE + MINUTE - 3)).allowed).toBe(true);
    expect((await rl.hit(b, 2, BASE + MINUTE - 2)).allowed).toBe(true);
    expect((await rl.hit(b, 2, BASE + MINUTE - 1)).allowed).toBe(false);
    const next = await rl.hit(b, 2, BASE + MINUTE);
    expect(next).toMatchObject({ allowed: true, remaining: 1, resetAtMs: BASE + 2 * MINUTE });
    // A custom window length aligns to its own multiples.
    const short = await rl.hit(bucket(), 5, BASE + 1_500, 1_000);
    expect(short).toMatchObject({ allowed: true, remaining: 4, resetAtMs: BASE + 2_000, retryAfterSeconds: 1 });
  });

  it('keeps buckets independent', async () => {
    const rl = await open();
    const [a, b] = [bucket(), bucket()];
    await rl.hit(a, 1, BASE);
    expect((await rl.hit(a, 1, BASE)).allowed).toBe(false);
    expect(await rl.hit(b, 1, BASE)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('refuses everything with limit 0', async () => {
    const rl = await open();
    expect(await rl.hit(bucket(), 0, BASE)).toMatchObject({ allowed: false, remaining: 0 });
  });
}

/** Arguments no window can take are refused; a decision renders as the X-RateLimit-* headers. */
function argumentAndHeaderTests({ open, bucket }: SuiteTools): void {
  it('rejects invalid arguments', async () => {
    const rl = await open();
    await expect(rl.hit(bucket(), -1, BASE)).rejects.toThrow(RangeError);
    await expect(rl.hit(bucket(), 1.5, BASE)).rejects.toThrow(RangeError);
    await expect(rl.hit(bucket(), 1, Number.NaN)).rejects.toThrow(RangeError);
    await expect(rl.hit(bucket(), 1, BASE, 0)).rejects.toThrow(RangeError);
    await expect(rl.hit('', 1, BASE)).rejects.toThrow(RangeError);
  });

  it('formats X-RateLimit-* headers with an ISO 8601 Reset at the window end', async () => {
    const rl = await open();
    const d = await rl.hit(bucket(), 10, BASE + 30_500);
    const h = rateLimitHeaders(d);
    expect(Object.keys(h).sort()).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
    expect(h['X-RateLimit-Limit']).toBe('10');
    expect(h['X-RateLimit-Remaining']).toBe('9');
    const reset = h['X-RateLimit-Reset'] ?? '';
    expect(reset).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(Date.parse(reset)).toBe(BASE + MINUTE);
  });
}

/** Many hits at once, and any sequence of hits, still keep the limit. */
function concurrencyAndPropertyTests({ open, bucket, subject }: SuiteTools): void {
  it('allows exactly the limit out of 200 concurrent hits', async () => {
    const limiters = subject.sharedAcrossInstances ? [await open(), await open()] : [await open()];
    const b = bucket();
    const ds = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (limiters[i % limiters.length] as RateLimiter).hit(b, 50, BASE + i)),
    );
    const allowed = ds.filter((d) => d.allowed);
    expect(allowed).toHaveLength(50);
    // Each allowed hit saw a distinct count: remaining covers 49..0 exactly once.
    expect(allowed.map((d) => d.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(ds.filter((d) => !d.allowed).every((d) => d.remaining === 0)).toBe(true);
  });

  it('per window allows min(limit, hits) and never raises remaining (property)', async () => {
    const rl = await open();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(1_000, MINUTE),
        fc.array(fc.double({ min: 0, max: 4.999, noNaN: true }), { maxLength: 40 }),
        fc.integer({ min: 0, max: 8 }),
        async (windowMs, offsets, limit) => {
          const b = bucket();
          const times = offsets.map((o) => BASE + Math.floor(o * windowMs)).sort((x, y) => x - y);
          const perWindow = new Map<number, RateLimitDecision[]>();
          for (const now of times) {
            const d = await rl.hit(b, limit, now, windowMs);
            const start = Math.floor(now / windowMs) * windowMs;
            expect(d.resetAtMs).toBe(start + windowMs);
            expect(d.retryAfterSeconds).toBe(Math.max(1, Math.ceil((d.resetAtMs - now) / 1000)));
            perWindow.set(start, [...(perWindow.get(start) ?? []), d]);
          }
          for (const ds of perWindow.values()) {
            expect(ds.filter((d) => d.allowed)).toHaveLength(Math.min(limit, ds.length));
            for (let i = 1; i < ds.length; i++) {
              expect((ds[i] as RateLimitDecision).remaining).toBeLessThanOrEqual(
                (ds[i - 1] as RateLimitDecision).remaining,
              );
            }
          }
        },
      ),
      { numRuns: subject.propertyRuns },
    );
  });
}
