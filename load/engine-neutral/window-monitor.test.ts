import { describe, expect, it } from 'vitest';
import { limited, recordingContext } from '../test-support/context.ts';
import { WINDOW_CHECKS, WindowMonitor } from './window-monitor.ts';

const RESET = Date.UTC(2031, 0, 1, 10, 1, 0);

/** A monitor on a hand-driven clock. */
function monitor() {
  let now = 0;
  const clock = () => now;
  return { monitor: new WindowMonitor('client', clock), at: (ms: number) => (now = ms) };
}

describe('WindowMonitor (spec 8.13 to 8.15 from the client side)', () => {
  it('accepts a conformant sequence: Limit successes counting down, then 429s, then a new window', () => {
    const { ctx, passes, failures, remaining } = recordingContext();
    const { monitor: m, at } = monitor();
    for (let i = 0; i < 3; i++) {
      at(i * 10);
      const t = m.begin();
      at(i * 10 + 5);
      m.end(t, limited(200, 3, 2 - i, RESET), ctx);
    }
    at(40);
    const refused = m.begin();
    at(45);
    m.end(refused, limited(429, 3, 0, RESET), ctx);
    at(50);
    const next = m.begin();
    m.end(next, limited(200, 3, 2, RESET + 60_000), ctx);
    m.finish(ctx);
    for (const name of Object.values(WINDOW_CHECKS)) expect(failures(name), name).toEqual([]);
    expect(passes(WINDOW_CHECKS.successes)).toBe(4);
    expect(passes(WINDOW_CHECKS.onlyAfterLimit)).toBe(1);
    expect(remaining.map(([, v]) => v)).toEqual([2, 1, 0, 0, 2]);
  });

  it('fails when a window has more successes than its Limit', () => {
    const { ctx, failures } = recordingContext();
    const { monitor: m } = monitor();
    for (const r of [1, 0]) m.end(m.begin(), limited(200, 2, r, RESET), ctx);
    m.end(m.begin(), limited(200, 2, 0, RESET), ctx);
    expect(failures(WINDOW_CHECKS.successes)).toHaveLength(1);
    expect(failures(WINDOW_CHECKS.decreasing)).toHaveLength(1);
  });

  it('fails when Remaining goes up within one window, or headers are missing or not ISO 8601', () => {
    const { ctx, failures } = recordingContext();
    const { monitor: m, at } = monitor();
    at(1);
    m.end(m.begin(), limited(200, 5, 2, RESET), ctx);
    at(2);
    m.end(m.begin(), limited(200, 5, 3, RESET), ctx);
    m.end(m.begin(), { status: 200, headers: { 'x-ratelimit-limit': '5' }, body: '' }, ctx);
    const epoch = limited(200, 5, 1, RESET);
    epoch.headers['x-ratelimit-reset'] = String(RESET / 1000);
    m.end(m.begin(), epoch, ctx);
    expect(failures(WINDOW_CHECKS.decreasing)[0]).toContain('Remaining 3 after 2');
    expect(failures(WINDOW_CHECKS.headers)).toHaveLength(2);
    expect(failures(WINDOW_CHECKS.headers)[1]).toContain('not an ISO 8601');
  });

  it('fails a 429 that comes before the success that left Remaining at 0', () => {
    const { ctx, failures } = recordingContext();
    const { monitor: m } = monitor();
    m.end(m.begin(), limited(200, 3, 2, RESET), ctx);
    m.end(m.begin(), limited(429, 3, 0, RESET), ctx);
    expect(failures(WINDOW_CHECKS.onlyAfterLimit)).toHaveLength(1);
  });

  it('waits for overlapping requests before judging a 429 (the last success may arrive after it)', () => {
    const { ctx, failures, passes } = recordingContext();
    const { monitor: m, at } = monitor();
    at(0);
    const last = m.begin();
    const refused = m.begin();
    at(5);
    m.end(refused, limited(429, 1, 0, RESET), ctx);
    expect(passes(WINDOW_CHECKS.onlyAfterLimit) + failures(WINDOW_CHECKS.onlyAfterLimit).length).toBe(0);
    at(6);
    m.end(last, limited(200, 1, 0, RESET), ctx);
    expect(passes(WINDOW_CHECKS.onlyAfterLimit)).toBe(1);
    expect(failures(WINDOW_CHECKS.decreasing)).toEqual([]);
  });

  it('judges a waiting 429 at finish when an overlapping request never answered', () => {
    const { ctx, failures } = recordingContext();
    const { monitor: m, at } = monitor();
    const served = m.begin();
    at(1);
    m.end(served, limited(200, 4, 3, RESET), ctx);
    m.begin();
    const refused = m.begin();
    at(2);
    m.end(refused, limited(429, 4, 0, RESET), ctx);
    expect(failures(WINDOW_CHECKS.onlyAfterLimit)).toEqual([]);
    m.finish(ctx);
    expect(failures(WINDOW_CHECKS.onlyAfterLimit)).toHaveLength(1);
  });

  it('a moving Reset (sliding window, token bucket): a 429 after a success that left Remaining at 0 passes', () => {
    const { ctx, failures } = recordingContext();
    const { monitor: m, at } = monitor();
    for (let i = 0; i < 2; i++) {
      at(i * 10);
      const t = m.begin();
      at(i * 10 + 5);
      m.end(t, limited(200, 2, 1 - i, RESET + i * 10), ctx);
    }
    at(30);
    const refused = m.begin();
    at(35);
    m.end(refused, limited(429, 2, 0, RESET + 30), ctx);
    m.finish(ctx);
    expect(failures(WINDOW_CHECKS.onlyAfterLimit)).toEqual([]);
  });

  it('a moving Reset: a 429 right after a success that left Remaining above 0 fails', () => {
    const { ctx, failures } = recordingContext();
    const { monitor: m, at } = monitor();
    const served = m.begin();
    at(5);
    m.end(served, limited(200, 5, 4, RESET), ctx);
    const refused = m.begin();
    at(10);
    m.end(refused, limited(429, 5, 0, RESET + 10), ctx);
    m.finish(ctx);
    expect(failures(WINDOW_CHECKS.onlyAfterLimit)).toHaveLength(1);
  });

  it('a 429 before any success of the run is not this run to judge (a bucket drained before it started)', () => {
    const { ctx, failures } = recordingContext();
    const { monitor: m, at } = monitor();
    const refused = m.begin();
    at(1);
    m.end(refused, limited(429, 4, 0, RESET), ctx);
    m.finish(ctx);
    expect(failures(WINDOW_CHECKS.onlyAfterLimit)).toEqual([]);
  });
});
