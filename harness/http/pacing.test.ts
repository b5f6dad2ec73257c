import { describe, expect, it } from 'vitest';
import { isLoopback, Pacer, retryAfterSeconds } from './pacing.ts';

/** A virtual clock: sleeping moves it, so pacing is observable without waiting. */
function clock() {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
    slept,
  };
}

describe('Pacer', () => {
  it('does not wait without a ceiling', async () => {
    const c = clock();
    const pacer = new Pacer({ maxRps: null, honourRetryAfter: false, ...c });
    for (let i = 0; i < 5; i++) await pacer.acquire();
    expect(c.slept).toEqual([]);
  });

  it('spaces requests 1/maxRps apart, never bursting above the ceiling', async () => {
    const c = clock();
    const pacer = new Pacer({ maxRps: 4, honourRetryAfter: false, ...c });
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) {
      await pacer.acquire();
      starts.push(c.now());
    }
    expect(starts.map((s) => s - (starts[0] ?? 0))).toEqual([0, 250, 500, 750, 1000]);
  });

  it('gives concurrent callers successive slots', async () => {
    let now = 0;
    const waits: number[] = [];
    const pacer = new Pacer({
      maxRps: 10,
      honourRetryAfter: false,
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await Promise.all([pacer.acquire(), pacer.acquire(), pacer.acquire()]);
    expect(waits).toEqual([100, 200]);
    now = 1000;
    await pacer.acquire();
    expect(waits).toEqual([100, 200]);
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
