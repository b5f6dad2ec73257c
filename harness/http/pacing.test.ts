import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARRIVAL_MARGIN_MS, isLoopback, Pacer, retryAfterSeconds } from './pacing.ts';
import { fakeClock } from './test-support/fake-clock.ts';

const clock = () => fakeClock();

describe('Pacer', () => {
  it('does not wait without a ceiling', async () => {
    const c = clock();
    const pacer = new Pacer({ maxRps: null, honourRetryAfter: false, ...c });
    for (let i = 0; i < 5; i++) await pacer.acquire();
    expect(c.slept).toEqual([]);
  });

  it('spreads requests 1/maxRps apart and holds a true ceiling over any sliding second', async () => {
    const c = clock();
    const pacer = new Pacer({ maxRps: 5, honourRetryAfter: false, ...c });
    const starts: number[] = [];
    for (let i = 0; i < 7; i++) {
      await pacer.acquire();
      starts.push(c.now());
    }
    // 200 ms apart; the sixth waits until the first is more than a second (and the arrival margin) ago.
    expect(starts.map((s) => s - (starts[0] ?? 0))).toEqual([
      0,
      200,
      400,
      600,
      800,
      1000 + ARRIVAL_MARGIN_MS,
      1200 + ARRIVAL_MARGIN_MS,
    ]);
  });

  it('never lets more than floor(maxRps) requests into any closed one-second window, whatever the arrivals and timers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 1, max: 20 }), fc.double({ min: 0.2, max: 12, noNaN: true })),
        fc.array(fc.integer({ min: 0, max: 700 }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: -3, max: 40 }), { minLength: 1, maxLength: 20 }),
        async (maxRps, gaps, jitters) => {
          let now = 1_000_000;
          let slept = 0;
          const pacer = new Pacer({
            maxRps,
            honourRetryAfter: false,
            now: () => now,
            // Timers fire late, or even a little early: the pacer must look again before letting a request go.
            sleep: async (ms) => {
              now += Math.max(0, ms + (jitters[slept++ % jitters.length] ?? 0));
            },
          });
          const grants: number[] = [];
          for (const gap of gaps) {
            now += gap;
            await pacer.acquire();
            grants.push(now);
          }
          const ceiling = maxRps >= 1 ? Math.floor(maxRps) : 1;
          for (const start of grants) {
            const inWindow = grants.filter((t) => t >= start && t <= start + 1000).length;
            expect(inWindow).toBeLessThanOrEqual(ceiling);
          }
        },
      ),
      { seed: 20_261_102, numRuns: 200 },
    );
  });

  it('gives concurrent callers successive slots', async () => {
    const c = clock();
    const pacer = new Pacer({ maxRps: 10, honourRetryAfter: false, ...c });
    const order: number[] = [];
    await Promise.all([0, 1, 2].map((i) => pacer.acquire().then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2]);
    expect(c.slept).toEqual([100, 100]);
  });

  it('waits Retry-After after a 429 when asked to, and only then', async () => {
    const c = clock();
    const polite = new Pacer({ maxRps: null, honourRetryAfter: true, ...c });
    polite.observe(429, { 'retry-after': '3' });
    await polite.acquire();
    expect(c.slept).toEqual([3000]);
    polite.observe(200, { 'retry-after': '9' });
    await polite.acquire();
    expect(c.slept).toEqual([3000]);

    const c2 = clock();
    const local = new Pacer({ maxRps: null, honourRetryAfter: false, ...c2 });
    local.observe(429, { 'retry-after': '3' });
    await local.acquire();
    expect(c2.slept).toEqual([]);
  });

  it('caps a huge Retry-After', async () => {
    const c = clock();
    const pacer = new Pacer({ maxRps: null, honourRetryAfter: true, ...c });
    pacer.observe(429, { 'retry-after': '86400' });
    await pacer.acquire();
    expect(c.slept).toEqual([120_000]);
  });

  it('rejects a non-positive ceiling', () => {
    expect(() => new Pacer({ maxRps: 0, honourRetryAfter: false })).toThrow(/maxRps/);
  });
});

describe('retryAfterSeconds', () => {
  it('reads delay-seconds and HTTP-dates', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterSeconds('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5);
    expect(retryAfterSeconds('Tue, 01 Jan 2029 00:00:05 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon')).toBeUndefined();
    expect(retryAfterSeconds(undefined)).toBeUndefined();
  });
});

describe('isLoopback', () => {
  it('knows the loopback names and addresses', () => {
    for (const url of [
      'http://127.0.0.1:8080',
      'http://localhost',
      'http://[::1]:9/',
      'http://127.1.2.3',
      'http://a.localhost',
    ]) {
      expect(isLoopback(url), url).toBe(true);
    }
    for (const url of ['https://api.example.com', 'http://10.0.0.1', 'http://128.0.0.1', 'not a url']) {
      expect(isLoopback(url), url).toBe(false);
    }
  });
});
