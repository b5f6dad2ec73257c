import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeTypedXml } from '../../contract/xml/index.ts';
import { loadReferenceTarget } from '../../fixtures/index.ts';
import { PartnerApiClient, quoteRequest } from './booking-helpers.ts';
import { createSqliteDatabase, type TestDatabase } from './databases.ts';
import { basicAuth, expectApiError, expectOAuthError } from './http-helpers.ts';
import { BookingStorm, FAULT_SEEN_MS, PROMPT_MS } from './outage-storm.ts';
import { type OwnPostgres, startOwnPostgres } from './own-postgres.ts';
import { type OwnRedis, startOwnRedis } from './own-redis.ts';
import { sleep } from './own-services.ts';
import { HIGH_RATE_LIMIT, type SpawnedServer, spawnServer } from './spawn-server.ts';
import type { ApiResponse } from './test-server.ts';

/**
 * The reference when its dependencies really fail (spec 7.3 DEPENDENCY_UNAVAILABLE): each test starts its own
 * redis-server or PostgreSQL cluster (own-redis.ts, own-postgres.ts: a free port, a temporary folder; never the shared
 * 6379 and 5432), drives the reference (a child process, as `npm run serve`) with load, kills the dependency, and
 * starts it again. The reference is never restarted: it must answer promptly in the spec's shape while the dependency
 * is away and serve again once it is back.
 */

/** Recovery once the dependency is back: generous, for a loaded machine (the pools themselves retry within ~2 s). */
const RECOVERY_MS = 15_000;

describe('PostgreSQL restarted in the middle of a booking storm', () => {
  let postgres: OwnPostgres | undefined;
  let server: SpawnedServer | undefined;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    server = await spawnServer({ DATABASE_URL: postgres.url, ...HIGH_RATE_LIMIT });
  }, 60_000);

  afterAll(async () => {
    await server?.kill('SIGKILL');
    await postgres?.close();
  });

  it('no acknowledged reservation lost, none duplicated, keys still honoured, the pool recovers', async () => {
    const db = postgres as OwnPostgres;
    const reference = server as SpawnedServer;
    const client = new PartnerApiClient(reference.url);
    const storm = new BookingStorm(client, await client.quote(), { workers: 4 });
    storm.start();
    try {
      await storm.waitForAcknowledged(10, 0, 20_000);
      const stoppedAt = Date.now();
      await db.stop('immediate');
      await storm.waitForRefusals(3, stoppedAt, FAULT_SEEN_MS);
      await sleep(500);
      await db.start();
      const upAt = Date.now();
      const recoveredAt = await storm.waitForAcknowledged(10, upAt, RECOVERY_MS);
      await storm.stop();
      const outage = storm.answers.filter((a) => a.sentAt >= stoppedAt && a.sentAt < upAt);
      expect(
        outage.filter((a) => a.status === 503).length,
        'bookings during the outage: 503 DEPENDENCY_UNAVAILABLE',
      ).toBeGreaterThan(0);

      const settled = await storm.settle();
      const check = new pg.Client({ connectionString: db.url });
      await check.connect();
      const references = await check
        .query<{ partner_reference: string }>('SELECT partner_reference FROM reservations')
        .finally(() => check.end());
      await storm.expectExactlyOnce(references.rows.map((r) => r.partner_reference));
      expect(reference.child.exitCode, 'the reference was never restarted').toBeNull();
      console.log(
        `[PostgreSQL restart] ${storm.sent.size} keys, ${storm.acknowledged.size} acknowledged; answers: ${storm.summary()}; ` +
          `outage ${upAt - stoppedAt} ms, bookings again ${recoveredAt - upAt} ms after the start; ` +
          `${settled.retried} keys settled afterwards (${settled.created} × 201, ${settled.replayed} × 200 replay)`,
      );
    } finally {
      await storm.stop();
    }
  }, 90_000);
});

interface LoadAnswer {
  what: 'json' | 'xml' | 'token';
  sentAt: number;
  answeredAt: number;
  status: number;
  response?: ApiResponse;
  error?: string;
}

describe('Redis stopped in the middle of load', () => {
  let redis: OwnRedis | undefined;
  let db: TestDatabase | undefined;
  let server: SpawnedServer | undefined;

  beforeAll(async () => {
    redis = await startOwnRedis();
    db = createSqliteDatabase();
    server = await spawnServer({ DATABASE_URL: db.url, REDIS_URL: redis.url, ...HIGH_RATE_LIMIT });
  }, 60_000);

  afterAll(async () => {
    await server?.kill('SIGKILL');
    await redis?.close();
    await db?.drop();
  });

  it('fails closed: 503 DEPENDENCY_UNAVAILABLE (token endpoint: temporarily_unavailable), back without a restart', async () => {
    const own = redis as OwnRedis;
    const reference = server as SpawnedServer;
    const client = new PartnerApiClient(reference.url);
    const target = loadReferenceTarget();
    const partnerA = target.clients.partnerA as { clientId: string; clientSecret: string };
    const token = await client.token('partnerA');
    const xmlQuote = serializeTypedXml(quoteRequest() as never, 'request');
    const api = `${reference.url}/api/partner/v1`;

    const answers: LoadAnswer[] = [];
    const send = async (what: LoadAnswer['what']) => {
      const sentAt = Date.now();
      const init: RequestInit =
        what === 'json'
          ? { headers: { authorization: `Bearer ${token}` } }
          : what === 'xml'
            ? {
                method: 'POST',
                headers: {
                  authorization: `Bearer ${token}`,
                  'content-type': 'application/xml',
                  accept: 'application/xml',
                },
                body: xmlQuote,
              }
            : {
                method: 'POST',
                headers: {
                  authorization: basicAuth(partnerA.clientId, partnerA.clientSecret),
                  'content-type': 'application/x-www-form-urlencoded',
                },
                body: 'grant_type=client_credentials',
              };
      const path = what === 'json' ? '/locations' : what === 'xml' ? '/quotes' : '/oauth/token';
      try {
        const res = await fetch(`${api}${path}`, init);
        const text = await res.text();
        const response: ApiResponse = {
          status: res.status,
          headers: res.headers,
          text,
          json: (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined,
        };
        answers.push({ what, sentAt, answeredAt: Date.now(), status: res.status, response });
      } catch (error) {
        answers.push({ what, sentAt, answeredAt: Date.now(), status: 0, error: String(error) });
      }
    };
    let stopping = false;
    const kinds: LoadAnswer['what'][] = ['json', 'xml', 'token'];
    const workers = kinds.map(async (what) => {
      while (!stopping) {
        await send(what);
        // A pause between calls: enough of them to see each phase, not so many that they crowd the machine.
        await sleep(20);
      }
    });

    try {
      await sleep(1_000);
      await own.stop();
      const stoppedAt = Date.now();
      await sleep(2_000);
      // Judged below: every kind of call made during the outage was refused. On a busy machine a call can take most
      // of the two seconds, so Redis stays away until each kind has had one sent after the stop and answered.
      const refusedEach = () => kinds.every((what) => answers.some((a) => a.what === what && a.sentAt >= stoppedAt));
      const refusedBy = Date.now() + RECOVERY_MS;
      while (!refusedEach() && Date.now() < refusedBy) await sleep(20);
      const restartAt = Date.now();
      await own.start();
      const upAt = Date.now();
      const deadline = upAt + RECOVERY_MS;
      const servedAgain = () =>
        kinds.every((what) => answers.some((a) => a.what === what && a.sentAt >= upAt && a.status < 300));
      while (!servedAgain() && Date.now() < deadline) await sleep(20);
      const recoveredAt = Date.now();
      stopping = true;
      await Promise.all(workers);

      expect(answers.filter((a) => a.status === 0 || (a.status >= 500 && a.status !== 503))).toEqual([]);
      expect(
        answers.filter((a) => a.answeredAt - a.sentAt > PROMPT_MS).length,
        `answers slower than ${PROMPT_MS} ms`,
      ).toBe(0);
      // Fail closed (docs/ambiguities.md, "Rate-limit store unavailable"): nothing is served uncounted.
      const outage = answers.filter((a) => a.sentAt >= stoppedAt && a.answeredAt <= restartAt);
      for (const what of kinds) {
        const seen = outage.filter((a) => a.what === what);
        expect(seen.length, `${what} calls during the outage`).toBeGreaterThan(0);
        expect(seen.filter((a) => a.status < 300).length, `${what} calls served while Redis was away`).toBe(0);
      }
      for (const a of answers.filter((x) => x.status >= 300)) {
        const res = a.response as ApiResponse;
        if (a.what === 'token') expectOAuthError(res, 'temporarily_unavailable');
        else {
          expectApiError(res, 'DEPENDENCY_UNAVAILABLE', a.what);
          // The bucket could not be counted: no X-RateLimit-* values are invented for it.
          expect([...res.headers.keys()].filter((h) => h.startsWith('x-ratelimit-'))).toEqual([]);
        }
      }
      expect(servedAgain(), `every kind of call served within ${RECOVERY_MS} ms of Redis coming back`).toBe(true);
      expect(reference.child.exitCode, 'the reference was never restarted').toBeNull();

      // The limiter counts again, in the new (empty) Redis: the 30-a-minute client meets its 429. Its 31st call
      // does, unless a minute of the service clock ends among the calls (its window starts afresh: a run in a
      // hundred, more on a slow machine): so up to 61 calls, 30 in each of two windows and one more.
      const limited = new PartnerApiClient(reference.url);
      const statuses: number[] = [];
      for (let i = 0; i < 61 && !statuses.includes(429); i++) {
        const res = await limited.call('GET', '/locations', { as: 'rateLimit' });
        statuses.push(res.status);
        expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
      }
      expect(statuses.at(-1), 'rateLimit client after recovery').toBe(429);
      console.log(
        `[Redis stop] ${answers.length} calls; outage ${restartAt - stoppedAt} ms: ${outage.length} calls, all refused; ` +
          `every kind served again ${recoveredAt - upAt} ms after the start`,
      );
    } finally {
      stopping = true;
      await Promise.all(workers);
    }
  }, 60_000);
});
