import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureHttp, forgetRateLimits, send } from './client.ts';
import {
  bucketsOf,
  MAX_LIMIT_RETRIES,
  provokingLimits,
  RateLimitedError,
  RateLimitModel,
  withTraffic,
} from './rate-limits.ts';
import { recording } from './recorder.ts';
import { fakeClock } from './test-support/fake-clock.ts';
import { emptyTraffic } from './traffic.ts';

const startOfTest = Date.parse('2026-11-29T10:00:00Z');

const ORIGIN = 'https://target.test';
const business = bucketsOf(`${ORIGIN}/api/partner/v1/locations`, 'partnerA');

function headersAt(now: number, remaining: number, resetInMs: number, extra: Record<string, string> = {}) {
  return {
    date: new Date(now).toUTCString(),
    'x-ratelimit-limit': '600',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': new Date(now + resetInMs).toISOString(),
    ...extra,
  };
}

describe('RateLimitModel', () => {
  it('holds nothing back until the target says a bucket is empty', () => {
    const clock = fakeClock(startOfTest);
    const model = new RateLimitModel(clock);
    expect(model.delayFor(business)).toBe(0);
    model.sent(business);
    model.answered(business, { status: 200, headers: headersAt(clock.now(), 5, 30_000) });
    expect(model.delayFor(business)).toBe(0);
  });

  it('waits for the Reset of an empty window, on its own clock read through Date', () => {
    const clock = fakeClock(startOfTest);
    const model = new RateLimitModel(clock);
    // The server's clock is 10 s ahead of ours: its Reset 20 s from its now is 20 s from ours, plus the margin.
    const serverNow = clock.now() + 10_000;
    model.sent(business);
    model.answered(business, { status: 200, headers: headersAt(serverNow, 0, 20_000) });
    const delay = model.delayFor(business);
    expect(delay).toBeGreaterThanOrEqual(20_000);
    expect(delay).toBeLessThanOrEqual(22_000);
    clock.advance(delay);
    expect(model.delayFor(business)).toBe(0);
  });

  it('never waits longer than a window for a Reset far off (a broken Reset is 8.14s to judge)', () => {
    const clock = fakeClock(startOfTest);
    const model = new RateLimitModel(clock);
    model.sent(business);
    model.answered(business, {
      status: 200,
      headers: { ...headersAt(clock.now(), 0, 0), 'x-ratelimit-reset': '2099-01-01T00:00:00Z' },
    });
    expect(model.delayFor(business)).toBeLessThanOrEqual(62_000);
  });

  it('counts requests in flight against what is left', () => {
    const clock = fakeClock(startOfTest);
    const model = new RateLimitModel(clock);
    model.sent(business);
    model.answered(business, { status: 200, headers: headersAt(clock.now(), 2, 30_000) });
    model.sent(business);
    expect(model.delayFor(business)).toBe(0);
    model.sent(business);
    expect(model.delayFor(business)).toBeGreaterThan(0);
  });

  it('empties a bucket on a 429 until its Retry-After, and acquire() waits it out', async () => {
    const clock = fakeClock(startOfTest);
    const model = new RateLimitModel(clock);
    model.sent(business);
    model.answered(business, { status: 429, headers: { 'retry-after': '7' } });
    expect(model.delayFor(business)).toBe(7_000);
    expect(await model.acquire(business)).toBe(7_000);
    expect(model.delayFor(business)).toBe(0);
  });

  it("lets a 429's Retry-After win over the minute window's Reset (a per-second burst limit)", () => {
    const clock = fakeClock(startOfTest);
    const model = new RateLimitModel(clock);
    model.sent(business);
    model.answered(business, { status: 429, headers: headersAt(clock.now(), 12, 45_000, { 'retry-after': '1' }) });
    expect(model.delayFor(business)).toBe(1_000);
  });

  it('learns a per-second ceiling from a short 429 while the minute window had room, and paces to it', () => {
    const clock = fakeClock(startOfTest);
    const model = new RateLimitModel(clock);
    // Five requests within one second: the fifth is refused with Retry-After 1, the minute window far from empty.
    for (let i = 0; i < 4; i++) {
      model.sent(business);
      model.answered(business, { status: 200, headers: headersAt(clock.now(), 500 - i, 45_000) });
      clock.advance(100);
    }
    model.sent(business);
    model.answered(business, { status: 429, headers: headersAt(clock.now(), 496, 45_000, { 'retry-after': '1' }) });
    clock.advance(1_000);
    // Retry-After has passed; four a second is now the pace: four sends hold the fifth until the first is a second old.
    expect(model.delayFor(business)).toBe(0);
    for (let i = 0; i < 4; i++) {
      model.sent(business);
      model.answered(business, { status: 200, headers: headersAt(clock.now(), 490 - i, 44_000) });
      clock.advance(50);
    }
    expect(model.delayFor(business)).toBe(800);
    clock.advance(800);
    expect(model.delayFor(business)).toBe(0);
  });

  it('learns no ceiling a second from a 429 of an empty minute window, or from a lone request', () => {
    const clock = fakeClock(startOfTest);
    const model = new RateLimitModel(clock);
    for (let i = 0; i < 3; i++) model.sent(business);
    model.answered(business, { status: 429, headers: headersAt(clock.now(), 0, 1_000, { 'retry-after': '1' }) });
    clock.advance(1_000);
    for (let i = 0; i < 10; i++) model.sent(business);
    expect(model.delayFor(business)).toBe(0);
    clock.advance(5_000);
    model.sent(business);
    model.answered(business, { status: 429, headers: headersAt(clock.now(), 300, 30_000, { 'retry-after': '1' }) });
    clock.advance(1_000);
    for (let i = 0; i < 10; i++) model.sent(business);
    expect(model.delayFor(business)).toBe(0);
  });

  it('keeps the token endpoint apart: two buckets, only Retry-After (spec 8.16a, 8.16b)', () => {
    const clock = fakeClock(startOfTest);
    const model = new RateLimitModel(clock);
    const tokenA = bucketsOf(`${ORIGIN}/api/partner/v1/oauth/token`, 'partnerA');
    const tokenB = bucketsOf(`${ORIGIN}/api/partner/v1/oauth/token`, 'partnerB');
    expect(tokenA).toHaveLength(2);
    model.sent(tokenA);
    model.answered(tokenA, { status: 429, headers: { 'retry-after': '3' } });
    // Taken as partner A's own bucket: A waits, B and business calls do not.
    expect(model.delayFor(tokenA)).toBe(3_000);
    expect(model.delayFor(tokenB)).toBe(0);
    expect(model.delayFor(business)).toBe(0);
    // A refusal of a request without a client is the address's: everybody's token requests wait.
    const anonymous = bucketsOf(`${ORIGIN}/api/partner/v1/oauth/token`, undefined);
    model.sent(anonymous);
    model.answered(anonymous, { status: 429, headers: { 'retry-after': '5' } });
    expect(model.delayFor(tokenB)).toBe(5_000);
  });

  it('waits after a 429 for Retry-After, else Reset, else a doubling second', () => {
    const clock = fakeClock(startOfTest);
    const model = new RateLimitModel(clock);
    expect(model.waitAfter429({ 'retry-after': '4' }, 0)).toBe(4_000);
    expect(model.waitAfter429(headersAt(clock.now(), 0, 9_000), 0)).toBeGreaterThanOrEqual(9_000);
    expect(model.waitAfter429({}, 0)).toBe(1_000);
    expect(model.waitAfter429({}, 3)).toBe(8_000);
    expect(model.waitAfter429({ 'retry-after': '86400' }, 0)).toBe(120_000);
  });

  it('forgets every bucket when the target resets its windows', () => {
    const clock = fakeClock(startOfTest);
    const model = new RateLimitModel(clock);
    model.sent(business);
    model.answered(business, { status: 200, headers: headersAt(clock.now(), 0, 50_000) });
    expect(model.delayFor(business)).toBeGreaterThan(0);
    model.forget();
    expect(model.delayFor(business)).toBe(0);
  });
});

describe('send within the target rate limits', () => {
  let server: Server;
  let baseUrl: string;
  /**
   * How the fake server answers: `limit` calls, then 429s until a second has passed since the first 429 (its
   * Retry-After), then `limit` calls again. The window opens at the refusal, not on a timer: with a window that
   * started at the first call, a second call that a busy machine delayed past it was served, and no 429 was ever met.
   */
  let mode: { limit: number; retryAfter: string | null } = { limit: 3, retryAfter: '1' };
  let served = 0;
  let refused = 0;
  let refusingSince: number | undefined;
  const bodies: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        bodies.push(`${req.headers['idempotency-key'] ?? ''}|${body}`);
        if (refusingSince !== undefined && Date.now() - refusingSince >= 1_000) {
          refusingSince = undefined;
          served = 0;
        }
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (served < mode.limit) {
          served += 1;
          res.writeHead(200, headers).end('{}');
          return;
        }
        refused += 1;
        refusingSince ??= Date.now();
        if (mode.retryAfter !== null) headers['retry-after'] = mode.retryAfter;
        res.writeHead(429, headers).end('{"error":{"code":"RATE_LIMITED"}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/partner/v1`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  afterEach(() => {
    configureHttp({ limits: new RateLimitModel() });
    forgetRateLimits();
  });

  const post = (key: string) =>
    send(
      {
        method: 'POST',
        url: `${baseUrl}/reservations`,
        headers: { 'idempotency-key': key, 'content-type': 'application/json' },
        body: `{"key":"${key}"}`,
      },
      { role: 'partnerA' },
    );

  it('waits out a 429 it did not provoke and sends the identical request again, each attempt recorded', async () => {
    mode = { limit: 1, retryAfter: '1' };
    refusingSince = undefined;
    served = 0;
    refused = 0;
    bodies.length = 0;
    const traffic = emptyTraffic();
    const { result, exchanges } = await recording(() =>
      withTraffic(traffic, async () => [await post('key-one-0001'), await post('key-two-0002')]),
    );
    expect(result.map((res) => res.status)).toEqual([200, 200]);
    expect(refused).toBeGreaterThanOrEqual(1);
    // The retry carried the same key and the same bytes.
    const second = bodies.filter((b) => b.startsWith('key-two-0002|'));
    expect(new Set(second)).toEqual(new Set(['key-two-0002|{"key":"key-two-0002"}']));
    expect(second.length).toBe(1 + traffic.unprovoked429);
    expect(exchanges.map((e) => e.response?.status)).toContain(429);
    expect(traffic.unprovoked429).toBe(refused);
    expect(traffic.requests.partnerA).toBe(bodies.length);
  });

  it('hands a provoked 429 to the check as it came', async () => {
    mode = { limit: 0, retryAfter: '1' };
    refused = 0;
    const traffic = emptyTraffic();
    const res = await withTraffic(traffic, () => provokingLimits(() => post('key-three-003')));
    expect(res.status).toBe(429);
    expect(refused).toBe(1);
    expect(traffic.provoked429).toBe(1);
    expect(traffic.unprovoked429).toBe(0);
  });

  it('gives up after a bounded number of retries: the check is not judged, never failed', async () => {
    mode = { limit: 0, retryAfter: '0' };
    refused = 0;
    const traffic = emptyTraffic();
    await expect(withTraffic(traffic, () => post('key-four-0004'))).rejects.toBeInstanceOf(RateLimitedError);
    expect(refused).toBe(MAX_LIMIT_RETRIES + 1);
    expect(traffic.unprovoked429).toBe(MAX_LIMIT_RETRIES + 1);
  });
});
