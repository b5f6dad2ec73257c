import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../http/rate-limit/tcp-proxy.testkit.ts';
import { newIdempotencyKey, PartnerApiClient, quoteRequest, reservationBody } from './booking-helpers.ts';
import { createPostgresDatabase, REDIS_URL, type TestDatabase } from './databases.ts';
import { type SpawnedServer, spawnServer } from './spawn-server.ts';

/**
 * The reference under load while PostgreSQL or Redis goes away and comes back (issue 12): every answer during the
 * outage is a prompt 503 DEPENDENCY_UNAVAILABLE (retryable), never a 500 or a hang; the service answers again
 * once the dependency is back; every reservation acknowledged with a 201 is still there afterwards.
 */

/** An answer slower than this during an outage is a hang. */
const PROMPT_MS = 8_000;

interface Seen {
  status: number;
  code?: string;
  retryable?: boolean;
  ms: number;
  /** When the request was sent, and when its answer came. */
  phase: 'before' | 'outage' | 'after';
  answeredIn: 'before' | 'outage' | 'after';
  reservationId?: string;
}

describe('dependency outages under load', () => {
  let db: TestDatabase;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let server: SpawnedServer;
  let client: PartnerApiClient;
  const prefix = `test:outage:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    db = await createPostgresDatabase('outage');
    const pgUrl = new URL(db.url);
    pgProxy = await startTcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432));
    pgUrl.port = String(pgProxy.port);
    const redisUrl = new URL(REDIS_URL);
    redisProxy = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
    redisUrl.port = String(redisProxy.port);
    server = await spawnServer({
      DATABASE_URL: pgUrl.toString(),
      REDIS_URL: redisUrl.toString(),
      REDIS_KEY_PREFIX: prefix,
    });
    client = new PartnerApiClient(server.url);
  }, 60_000);

  afterAll(async () => {
    pgProxy?.resume();
    redisProxy?.resume();
    await server?.kill('SIGTERM');
    await pgProxy?.cut();
    await redisProxy?.cut();
    await db?.drop();
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  /** Workers booking and reading until `stop`, each answer recorded with the phase it was sent in. */
  async function drive(phase: () => Seen['phase'], stop: () => boolean): Promise<Seen[]> {
    const seen: Seen[] = [];
    const worker = async (n: number) => {
      while (!stop()) {
        const sentIn = phase();
        const started = Date.now();
        try {
          const res =
            n % 2 === 0
              ? await client.call('GET', '/locations', { as: 'partnerA' })
              : await (async () => {
                  const quote = await client.call('POST', '/quotes', { as: 'partnerA', json: quoteRequest() });
                  if (quote.status !== 201) return quote;
                  return client.book('partnerA', reservationBody(quote.json.quoteId), newIdempotencyKey());
                })();
          seen.push({
            status: res.status,
            code: res.json?.error?.code,
            retryable: res.json?.error?.retryable,
            ms: Date.now() - started,
            phase: sentIn,
            answeredIn: phase(),
            ...(res.status === 201 ? { reservationId: res.json.reservationId } : {}),
          });
        } catch {
          seen.push({ status: 0, ms: Date.now() - started, phase: sentIn, answeredIn: phase() });
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(worker));
    return seen;
  }

  async function outage(proxy: TcpProxy): Promise<Seen[]> {
    let phase: Seen['phase'] = 'before';
    let stopping = false;
    const running = drive(
      () => phase,
      () => stopping,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    phase = 'outage';
    proxy.down();
    await new Promise((r) => setTimeout(r, 2_000));
    proxy.resume();
    phase = 'after';
    // Long enough for pools to reconnect and the last outage answers to come back.
    await new Promise((r) => setTimeout(r, 4_000));
    stopping = true;
    return running;
  }

  function expectGraceful(seen: Seen[], what: string) {
    if (process.env.OUTAGE_DEBUG) {
      const counts = new Map<string, number>();
      for (const x of seen)
        counts.set(
          `${x.phase} ${x.status} ${x.code ?? ''}`,
          (counts.get(`${x.phase} ${x.status} ${x.code ?? ''}`) ?? 0) + 1,
        );
      console.log(what, JSON.stringify(Object.fromEntries(counts)));
    }
    expect(
      seen.filter((s) => s.status === 500 || s.status === 0),
      `${what}: 500s or dropped connections`,
    ).toEqual([]);
    expect(
      seen.filter((s) => s.ms > PROMPT_MS),
      `${what}: answers slower than ${PROMPT_MS} ms`,
    ).toEqual([]);
    const refused = seen.filter((s) => s.status >= 400);
    for (const s of refused) {
      expect({ status: s.status, code: s.code, retryable: s.retryable }, what).toEqual({
        status: 503,
        code: 'DEPENDENCY_UNAVAILABLE',
        retryable: true,
      });
    }
    // Requests answered before the outage began are served (one in flight when it began may be refused).
    expect(
      seen.filter((s) => s.answeredIn === 'before' && s.status >= 400),
      `${what}: refusals before`,
    ).toEqual([]);
    expect(seen.filter((s) => s.phase === 'outage' && s.status === 503).length, `${what}: 503s`).toBeGreaterThan(0);
    const tail = seen.filter((s) => s.phase === 'after').slice(-8);
    expect(tail.length, `${what}: answers after`).toBeGreaterThan(0);
    expect(
      tail.every((s) => s.status < 300),
      `${what}: the service answers again once it is back`,
    ).toBe(true);
  }

  it('PostgreSQL away: prompt 503s, no 500, back afterwards, no acknowledged booking lost', async () => {
    const seen = await outage(pgProxy);
    expectGraceful(seen, 'PostgreSQL outage');
    for (const s of seen.filter((x) => x.reservationId)) {
      const read = await client.call('GET', `/reservations/${s.reservationId}`, { as: 'partnerA' });
      expect(read.status, `reservation ${s.reservationId} acknowledged ${s.phase}`).toBe(200);
    }
  }, 60_000);

  it('Redis away: prompt 503s, no 500, back afterwards', async () => {
    expectGraceful(await outage(redisProxy), 'Redis outage');
  }, 60_000);
});
