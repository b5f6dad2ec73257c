/** Spec 8 over HTTP: the per-client business rate limit and its headers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advanceClock,
  expectApiError,
  freshToken,
  postAs,
  rentalWindow,
  serviceNowMs,
} from '../../testing/http-helpers.ts';
import { type ApiResponse, startTestServer, type TestServer } from '../../testing/test-server.ts';

const ISO_UTC = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,3})?Z$/;
const RATE_LIMIT_CLIENT_PER_MINUTE = 30;
/** RATE_LIMIT_PER_MINUTE unset: every ordinary client's ceiling (README "Configuration"). */
const ORDINARY_DEFAULT_PER_MINUTE = 600;
/** The fixture clients with the service's ordinary ceiling that can get a token (disabledPartner cannot). */
const ORDINARY_ROLES = ['partnerA', 'partnerB', 'readOnly', 'narrowPartner'];

/** Spec 8.14: Limit, Remaining and an ISO 8601 Reset within the current minute of the service clock. */
function expectRateLimitHeaders(
  res: ApiResponse,
  nowMs: number,
): { limit: number; remaining: number; resetMs: number } {
  const limit = res.headers.get('x-ratelimit-limit');
  const remaining = res.headers.get('x-ratelimit-remaining');
  const reset = res.headers.get('x-ratelimit-reset');
  expect(limit, `X-RateLimit-Limit on HTTP ${res.status}`).toMatch(/^[0-9]+$/);
  expect(remaining, `X-RateLimit-Remaining on HTTP ${res.status}`).toMatch(/^[0-9]+$/);
  expect(reset, `X-RateLimit-Reset on HTTP ${res.status}`).toMatch(ISO_UTC);
  const resetMs = Date.parse(reset ?? '');
  expect(resetMs).toBeGreaterThan(nowMs - 2000);
  expect(resetMs).toBeLessThanOrEqual(nowMs + 62_000);
  return { limit: Number(limit), remaining: Number(remaining), resetMs };
}

/** Moves the service clock to just after the start of the next one-minute window. */
async function startOfNextWindow(server: TestServer): Promise<void> {
  const now = await serviceNowMs(server);
  await advanceClock(server, (60_000 - (now % 60_000) + 200) / 1000);
}

const SETUPS = [
  { name: 'SQLite, in-process buckets', options: { store: 'sqlite' as const } },
  { name: 'PostgreSQL + Redis buckets', options: { store: 'postgres' as const, redis: true } },
];

describe.each(SETUPS)('spec 8 business rate limits over HTTP ($name)', ({ options }) => {
  let server: TestServer;
  let tokenA: string;

  beforeAll(async () => {
    server = await startTestServer(options);
    tokenA = await freshToken(server, 'partnerA');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('success, every 4xx after authentication, and 429 carry X-RateLimit-*; Remaining counts down', async () => {
    await startOfNextWindow(server);
    const now = await serviceNowMs(server);
    const fleetOnly = await freshToken(server, 'partnerA', 'fleet:read');
    const responses: [string, ApiResponse][] = [
      ['200', await server.call('GET', '/fleet', { token: tokenA })],
      ['404', await server.call('GET', '/fleet/NO-SUCH-CAR', { token: tokenA })],
      ['409', await server.call('GET', '/fleet/KIA-CARNIVAL-AT', { token: tokenA })],
      ['403 scope', await server.call('GET', '/rates', { token: fleetOnly })],
      ['400', await postAs(server, 'json', '/availability', tokenA, { ...rentalWindow(), pickupLocation: 'NOWHERE' })],
      [
        '415',
        await server.call('POST', '/availability', {
          token: tokenA,
          headers: { 'content-type': 'text/plain' },
          body: '{}',
        }),
      ],
      ['400 xml', await postAs(server, 'xml', '/quotes', tokenA, { nope: true })],
      ['201', await postAs(server, 'json', '/quotes', tokenA, { ...rentalWindow(), vehicleCode: 'TOYOTA-VIOS-AT' })],
      ['404 path', await server.call('GET', '/no-such-endpoint', { token: tokenA })],
    ];
    let previous: number | undefined;
    for (const [label, res] of responses) {
      if (label === '404 path') continue; // unknown paths are not a rate-limited endpoint
      const h = expectRateLimitHeaders(res, now);
      expect(h.limit, label).toBe(ORDINARY_DEFAULT_PER_MINUTE);
      if (previous !== undefined) expect(h.remaining, label).toBe(previous - 1);
      previous = h.remaining;
    }
  });

  it('the rateLimit client gets 429 RATE_LIMITED on request 31, with whole-second Retry-After; others are unaffected', async () => {
    await startOfNextWindow(server);
    const token = await freshToken(server, 'rateLimit');
    const now = await serviceNowMs(server);
    for (let i = 1; i <= RATE_LIMIT_CLIENT_PER_MINUTE; i++) {
      const res = await server.call('GET', '/locations', { token });
      expect(res.status, `request ${i}`).toBe(200);
      const h = expectRateLimitHeaders(res, now);
      expect(h.limit).toBe(RATE_LIMIT_CLIENT_PER_MINUTE);
      expect(h.remaining).toBe(RATE_LIMIT_CLIENT_PER_MINUTE - i);
    }
    const sentAt = await serviceNowMs(server);
    const limited = await server.call('GET', '/locations', { token });
    const answeredAt = await serviceNowMs(server);
    const envelope = expectApiError(limited, 'RATE_LIMITED');
    expect(envelope.error.retryable).toBe(true);
    const retryAfter = limited.headers.get('retry-after') ?? '';
    expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    const h = expectRateLimitHeaders(limited, now);
    expect(h.remaining).toBe(0);
    // Retry-After points at the reset, in whole seconds rounded up, from the moment the server stamped the request:
    // judged against the service clock read just before and just after it, not against `now` (the 31 calls between
    // take what the machine gives them).
    expect(Number(retryAfter) * 1000).toBeGreaterThanOrEqual(h.resetMs - answeredAt);
    expect(Number(retryAfter) * 1000).toBeLessThan(h.resetMs - sentAt + 1000);

    // The limit is per client: a new token of the same client is limited too; every other client is not.
    const again = await freshToken(server, 'rateLimit');
    expectApiError(await server.call('GET', '/fleet', { token: again }), 'RATE_LIMITED');
    expectApiError(await postAs(server, 'xml', '/availability', again, rentalWindow()), 'RATE_LIMITED', 'xml');
    const other = await server.call('GET', '/locations', { token: tokenA });
    expect(other.status).toBe(200);
    expect(Number(other.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);

    // After the reset, calls succeed again with a fresh window.
    await advanceClock(server, Number(retryAfter) + 1);
    const after = await server.call('GET', '/locations', { token });
    expect(after.status).toBe(200);
    expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(RATE_LIMIT_CLIENT_PER_MINUTE - 1);
  });
});

describe.each(SETUPS)('RATE_LIMIT_PER_MINUTE: the ceiling of every ordinary client ($name)', ({ options }) => {
  const N = 5;
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ ...options, env: { RATE_LIMIT_PER_MINUTE: String(N) } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`with RATE_LIMIT_PER_MINUTE=${N} each ordinary client gets 429 RATE_LIMITED on call ${N + 1}; rateLimit keeps its 30`, async () => {
    await startOfNextWindow(server);
    const now = await serviceNowMs(server);
    for (const role of ORDINARY_ROLES) {
      const token = await freshToken(server, role);
      for (let i = 1; i <= N; i++) {
        const res = await server.call('GET', '/locations', { token });
        expect(res.status, `${role} call ${i}`).toBe(200);
        const h = expectRateLimitHeaders(res, now);
        expect(h.limit, role).toBe(N);
        expect(h.remaining, `${role} call ${i}`).toBe(N - i);
      }
      const limited = await server.call('GET', '/locations', { token });
      expect(limited.status, `${role} call ${N + 1}`).toBe(429);
      expectApiError(limited, 'RATE_LIMITED');
      expect(limited.headers.get('retry-after') ?? '', role).toMatch(/^[1-9][0-9]*$/);
      expect(expectRateLimitHeaders(limited, now)).toMatchObject({ limit: N, remaining: 0 });
    }

    // A client with a ceiling of its own is not an ordinary client: the setting does not touch it.
    const token = await freshToken(server, 'rateLimit');
    for (let i = 1; i <= N + 1; i++) {
      const res = await server.call('GET', '/locations', { token });
      expect(res.status, `rateLimit call ${i}`).toBe(200);
      expect(expectRateLimitHeaders(res, now)).toMatchObject({
        limit: RATE_LIMIT_CLIENT_PER_MINUTE,
        remaining: RATE_LIMIT_CLIENT_PER_MINUTE - i,
      });
    }
  });
});
