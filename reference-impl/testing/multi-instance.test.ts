import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newIdempotencyKey, PartnerApiClient, reservationBody } from './booking-helpers.ts';
import { createPostgresDatabase, REDIS_URL, type TestDatabase } from './databases.ts';
import { type SpawnedServer, spawnServer } from './spawn-server.ts';
import type { ApiResponse } from './test-server.ts';

/**
 * Scale-out (docs/design.md "Reference implementation"): two server processes on one PostgreSQL database and one
 * Redis prefix behave as one service for idempotency (spec 4.7), partnerReference (4.7.7) and rate limits (8.13).
 */

const RATE_LIMIT_PER_MINUTE = 30;

describe('two instances on one PostgreSQL database and one Redis prefix', () => {
  let db: TestDatabase;
  const prefix = `test:multi:${randomBytes(6).toString('hex')}:`;
  const servers: SpawnedServer[] = [];
  let one: PartnerApiClient;
  let two: PartnerApiClient;

  beforeAll(async () => {
    db = await createPostgresDatabase('multi');
    const env = { DATABASE_URL: db.url, REDIS_URL, REDIS_KEY_PREFIX: prefix };
    // One after the other: both migrate the same database (the store serialises that, but serial is faster).
    servers.push(await spawnServer(env));
    servers.push(await spawnServer(env));
    [one, two] = servers.map((s) => new PartnerApiClient(s.url)) as [PartnerApiClient, PartnerApiClient];
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGTERM')));
    await db?.drop();
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  it('[4.7] a quote issued by one instance books on the other; a replay answers on either', async () => {
    const body = reservationBody(await one.quote());
    const key = newIdempotencyKey();
    const created = await two.book('partnerA', body, key);
    expect(created.status).toBe(201);
    const replay = await one.book('partnerA', body, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(replay.text).toBe(created.text);
    expect((await one.call('GET', `/reservations/${created.json.reservationId}`, { as: 'partnerA' })).json).toEqual(
      created.json,
    );
  });

  it('[4.7.3, 4.7.5] 50 concurrent identical requests spread over both: exactly one reservation', async () => {
    const body = reservationBody(await one.quote());
    const key = newIdempotencyKey();
    const tokens = [await one.token('partnerA'), await two.token('partnerA')];
    const clients = [one, two];
    let answers: ApiResponse[] = [];
    const created = await one.createdDuring('partnerA', async () => {
      answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (clients[i % 2] as PartnerApiClient).call('POST', '/reservations', {
            token: tokens[i % 2],
            headers: { 'idempotency-key': key },
            json: body,
          }),
        ),
      );
    });
    const counts = { created: 0, replayed: 0, inFlight: 0, other: 0 };
    for (const a of answers) {
      if (a.status === 201) counts.created++;
      else if (a.status === 200 && a.headers.get('idempotent-replay') === 'true') counts.replayed++;
      else if (a.status === 409 && a.json?.error?.code === 'IDEMPOTENT_REPLAY_IN_FLIGHT') counts.inFlight++;
      else counts.other++;
    }
    console.log('two instances, 50 concurrent identical requests, one key:', counts);
    expect(counts.other).toBe(0);
    expect(counts.created).toBe(1);
    expect(created).toHaveLength(1);
    const first = answers.find((a) => a.status === 201) as ApiResponse;
    for (const a of answers.filter((x) => x.status === 200)) expect(a.text).toBe(first.text);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.json.error.retryable).toBe(true);
    // Both instances see the one reservation.
    expect(await two.listIds('partnerA')).toContain(first.json.reservationId);
    // In flight was retryable: once the first finished, each retry on either instance is a replay.
    let retries: ApiResponse[] = [];
    const createdByRetries = await one.createdDuring('partnerA', async () => {
      retries = await Promise.all(
        answers
          .filter((a) => a.status === 409)
          .map((_, i) =>
            (clients[i % 2] as PartnerApiClient).call('POST', '/reservations', {
              token: tokens[i % 2],
              headers: { 'idempotency-key': key },
              json: body,
            }),
          ),
      );
    });
    expect(createdByRetries).toEqual([]);
    expect(retries).toHaveLength(counts.inFlight);
    for (const r of retries) {
      expect(r.status).toBe(200);
      expect(r.text).toBe(first.text);
    }
  });

  it('[4.7.7] partnerReference races across instances: each round one 201 and one 409 DUPLICATE_PARTNER_REFERENCE', async () => {
    const quoteId = await one.quote();
    const rounds: string[][] = [];
    for (let round = 0; round < 5; round++) {
      const reference = `RACE-${round}-${randomBytes(4).toString('hex')}`;
      const answers = await Promise.all(
        [one, two].map((client) =>
          client.book('partnerA', reservationBody(quoteId, { partnerReference: reference }), newIdempotencyKey()),
        ),
      );
      rounds.push(answers.map((a) => (a.status === 201 ? '201' : `${a.status} ${a.json?.error?.code}`)));
    }
    console.log('two instances, partnerReference race (instance one, instance two) per round:', rounds);
    for (const outcome of rounds) expect([...outcome].sort()).toEqual(['201', '409 DUPLICATE_PARTNER_REFERENCE']);
  });

  it('[8.13] the rate limit is shared: 40 calls of the 30/min client alternating over both, exactly 30 succeed', async () => {
    // Start in a fresh one-minute window with room to spare, so the 40 calls fall in one window.
    const now = await one.serviceNow();
    const intoWindow = now % 60_000;
    if (intoWindow > 30_000) await one.advanceClock((60_000 - intoWindow + 500) / 1000);
    const tokens = [await one.token('rateLimit'), await two.token('rateLimit')];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        ([one, two][i % 2] as PartnerApiClient).call('GET', '/locations', { token: tokens[i % 2] }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    const byInstance = [0, 1].map((n) => answers.filter((a, i) => i % 2 === n && a.status === 200).length);
    console.log(
      `two instances, rate limit ${RATE_LIMIT_PER_MINUTE}/min: ${ok.length} × 200, ${limited.length} × 429; 200s per instance: ${byInstance}`,
    );
    expect(ok).toHaveLength(RATE_LIMIT_PER_MINUTE);
    expect(limited).toHaveLength(40 - RATE_LIMIT_PER_MINUTE);
    for (const a of limited) {
      expect(a.json.error.code).toBe('RATE_LIMITED');
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    const remaining = ok.map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: RATE_LIMIT_PER_MINUTE }, (_, i) => i));
  });

  // Each instance answers from its own copy of the control state (store/postgres-control-watch.ts): a change is
  // answered only once the other instance's copy has it, so the very next call there sees it.
  it('[test hooks] a control change answered by one instance is in force on the other at once', async () => {
    const tokens = [await one.token('partnerA'), await two.token('partnerA')];
    for (let round = 0; round < 24; round++) {
      const [writer, reader] = round % 2 === 0 ? [one, two] : [two, one];
      const token = tokens[round % 2 === 0 ? 1 : 0];
      const disabled = await writer.control('PUT', '/api', { enabled: false });
      expect(disabled.status).toBe(200);
      const refused = await reader.call('GET', '/locations', { token });
      expect(refused.status, `round ${round}: the API disabled on the other instance`).toBe(503);
      expect(refused.json.error.code).toBe('API_DISABLED');
      expect((await writer.control('PUT', '/api', { enabled: true })).status).toBe(200);
      expect((await reader.call('GET', '/locations', { token })).status, `round ${round}: enabled again`).toBe(200);
    }
    const before = await two.serviceNow();
    await one.advanceClock(60);
    expect((await two.serviceNow()) - before).toBeGreaterThanOrEqual(60_000);
  });
});
