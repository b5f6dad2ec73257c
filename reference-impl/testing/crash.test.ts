import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { IN_FLIGHT_LEASE_MS } from '../domain/reservations.ts';
import { parseStoreUrl } from '../store/index.ts';
import { newIdempotencyKey, PartnerApiClient, reservationBody } from './booking-helpers.ts';
import { createPostgresDatabase, createSqliteDatabase, type TestDatabase } from './databases.ts';
import { type SpawnedServer, spawnServer } from './spawn-server.ts';

/**
 * Crash safety (docs/design.md "durable storage"): a server killed with SIGKILL in the middle of a booking storm
 * loses no reservation it answered 201 for, and a key its death left in flight is usable once the lease lapses
 * (spec 4.7.5). The kill is made at a moment when at least one claim is in flight: the server is frozen with
 * SIGSTOP, the store is read, and it is then killed with SIGKILL without ever running again.
 */

const WORKERS = 12;
const KEYS = 90;
const KILL_AFTER_CREATED = 50;

type Outcome =
  | { kind: 'created'; text: string; json: { reservationId: string } }
  | { kind: 'no answer' }
  | { kind: 'other'; status: number; text: string };

/**
 * Idempotency keys the store holds in flight, read straight from the database. While the server is frozen this
 * is a hint: SQLite may hold a commit already written to the WAL but not yet published to readers, and
 * PostgreSQL may be finishing a COMMIT the server sent. Read after the kill (SQLite: by a connection that
 * recovers the WAL), it is what the store really holds.
 */
function inFlightReader(databaseUrl: string, options: { readonly: boolean }) {
  const location = parseStoreUrl(databaseUrl);
  const sql =
    'SELECT idempotency_key AS key, lease_until_ms AS "leaseUntilMs" FROM idempotency_keys ' +
    "WHERE state = 'in_flight' ORDER BY idempotency_key";
  const claims = (rows: { key: string; leaseUntilMs: number | string }[]): InFlightClaim[] =>
    rows.map((r) => ({ key: r.key, leaseUntilMs: Number(r.leaseUntilMs) }));
  if (location.kind === 'sqlite') {
    const db = new Database(location.path, { readonly: options.readonly, timeout: 5_000 });
    return {
      read: async () => claims(db.prepare(sql).all() as { key: string; leaseUntilMs: number }[]),
      close: async () => db.close(),
    };
  }
  const client = new pg.Client({ connectionString: location.url });
  const connected = client.connect();
  return {
    read: async () => {
      await connected;
      return claims((await client.query<{ key: string; leaseUntilMs: string }>(sql)).rows);
    },
    close: () => client.end(),
  };
}

/** A key held in flight, and when its lease ends on the service clock (claim time + IN_FLIGHT_LEASE_MS). */
interface InFlightClaim {
  key: string;
  leaseUntilMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGSTOP is delivered asynchronously: until the process is seen stopped it may still commit. Linux shows the
 * state in /proc/<pid>/stat (third field `T`); elsewhere a pause stands in for it.
 */
async function freeze(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP');
  for (let i = 0; i < 500; i++) {
    let state: string | undefined;
    try {
      state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    } catch {
      await sleep(50);
      return;
    }
    if (state === 'T' || state === 't') return;
    await sleep(1);
  }
  throw new Error(`process ${pid} did not stop`);
}

describe.each([
  { name: 'SQLite', create: async () => createSqliteDatabase() },
  { name: 'PostgreSQL', create: () => createPostgresDatabase('crash') },
])('kill -9 in the middle of a booking storm on $name', ({ name, create }) => {
  let db: TestDatabase | undefined;
  const started: SpawnedServer[] = [];

  afterAll(async () => {
    await Promise.all(started.map((s) => s.kill('SIGKILL')));
    await db?.drop();
  });

  it('every 201 answered before the kill is readable after a restart; keys left in flight are usable after the lease', async () => {
    db = await create();
    // Slower bookings (a benign variant: claims held 40 ms before the commit), so the storm always has claims in
    // flight to kill: the lease half is exercised on every run, not only when the freeze happens to land on one.
    const env = { DATABASE_URL: db.url, FAULTS: 'benign-slow-bookings' };
    const first = await spawnServer(env);
    started.push(first);
    const before = new PartnerApiClient(first.url);
    const token = await before.token('partnerA');
    const quoteId = await before.quote();
    // partnerReference = key, so the final list tells which key made which reservation.
    const keys = Array.from({ length: KEYS }, () => newIdempotencyKey());
    const bodyOf = (key: string) => reservationBody(quoteId, { partnerReference: key });
    const outcomes = new Map<string, Outcome>();

    let next = 0;
    let created = 0;
    let stop = false;
    const worker = async () => {
      while (!stop && next < keys.length) {
        const key = keys[next++] as string;
        try {
          const res = await before.call('POST', '/reservations', {
            token,
            headers: { 'idempotency-key': key },
            json: bodyOf(key),
          });
          if (res.status === 201) {
            outcomes.set(key, { kind: 'created', text: res.text, json: res.json });
            created++;
          } else outcomes.set(key, { kind: 'other', status: res.status, text: res.text });
        } catch {
          outcomes.set(key, { kind: 'no answer' });
        }
      }
    };
    const storm = Promise.all(Array.from({ length: WORKERS }, worker));

    // Freeze the server at a moment when claims are in flight (two or more, since one may be mid-commit).
    const hint = inFlightReader(db.url, { readonly: true });
    let freezes = 0;
    try {
      while (created < KILL_AFTER_CREATED && next < keys.length) await sleep(1);
      for (freezes = 1; freezes <= 200; freezes++) {
        await freeze(first.child.pid as number);
        await sleep(20); // lets PostgreSQL finish a COMMIT already sent
        if ((await hint.read()).length >= 2) break;
        first.child.kill('SIGCONT');
        await sleep(2);
      }
      stop = true;
      await first.kill('SIGKILL');
      await storm;
    } finally {
      await hint.close();
    }
    const truth = inFlightReader(db.url, { readonly: false });
    const claimsAtKill = await truth.read().finally(() => truth.close());
    const inFlightAtKill = claimsAtKill.map((c) => c.key);

    const answered = [...outcomes.entries()].filter(([, o]) => o.kind === 'created') as [
      string,
      Extract<Outcome, { kind: 'created' }>,
    ][];
    const unanswered = [...outcomes.entries()].filter(([, o]) => o.kind === 'no answer').map(([k]) => k);
    const others = [...outcomes.values()].filter((o) => o.kind === 'other');
    expect(others).toEqual([]);
    expect(inFlightAtKill.length, 'claims in flight at the kill').toBeGreaterThan(0);
    for (const key of inFlightAtKill) expect(unanswered).toContain(key);

    const second = await spawnServer(env);
    started.push(second);
    const after = new PartnerApiClient(second.url);

    // The dead request's claims still hold (retryable 409) until the lease lapses, then the key books. The lease runs
    // on the service clock from the claim (IN_FLIGHT_LEASE_MS, 30 s), and a loaded machine can spend much of that
    // starting the second server: so these come first, and each answer is judged against the lease's end as the store
    // holds it and the service clock read around the request (the server stamps its time in between). A 409 is due
    // while the lease runs, a 201 once it lapsed; which one a key gets on a slow run is the scheduler's business.
    const bookedOnLapse = new Set<string>();
    for (const { key, leaseUntilMs } of claimsAtKill) {
      const sentAt = await after.serviceNow();
      const res = await after.book('partnerA', bodyOf(key), key);
      const answeredAt = await after.serviceNow();
      if (res.status === 409) {
        expect(res.json.error.code).toBe('IDEMPOTENT_REPLAY_IN_FLIGHT');
        expect(sentAt, `${key}: still held after its lease lapsed`).toBeLessThan(leaseUntilMs);
      } else {
        expect(res.status, `${key}: ${res.text}`).toBe(201);
        expect(answeredAt, `${key}: booked while its lease still ran`).toBeGreaterThanOrEqual(leaseUntilMs);
        bookedOnLapse.add(key);
      }
    }

    // Durability: every answered 201 reads back unchanged.
    for (const [, o] of answered) {
      const res = await after.call('GET', `/reservations/${o.json.reservationId}`, { as: 'partnerA' });
      expect(res.status).toBe(200);
      expect(res.json).toEqual(o.json);
    }

    await after.advanceClock(IN_FLIGHT_LEASE_MS / 1000 + 1);
    const retried = { created: 0, replayed: 0 };
    for (const key of unanswered) {
      const res = await after.book('partnerA', bodyOf(key), key);
      expect([200, 201], `${key}: ${res.text}`).toContain(res.status);
      // A key left in flight never finished: it books now, or replays the 201 it got once its lease lapsed above.
      if (inFlightAtKill.includes(key)) expect(res.status).toBe(bookedOnLapse.has(key) ? 200 : 201);
      if (res.status === 201) retried.created++;
      else retried.replayed++;
    }

    // Every key sent made exactly one reservation, whether answered before the kill or retried after it.
    const list = await after.call('GET', '/reservations?limit=100', { as: 'partnerA' });
    const references = (list.json.reservations as { partnerReference: string }[]).map((r) => r.partnerReference).sort();
    const sent = [...outcomes.keys()].sort();
    expect(references).toEqual(sent);

    console.log(
      `[${name}] storm of ${WORKERS} workers: ${answered.length} answered 201 before SIGKILL, ${unanswered.length} unanswered, ` +
        `${inFlightAtKill.length} in flight at the kill (frozen ${freezes}× to find the moment), ` +
        `${inFlightAtKill.length - bookedOnLapse.size} still held after the restart; all ${answered.length} read back; ` +
        `unanswered retried after the lease: ${retried.created} × 201 (never finished), ${retried.replayed} × 200 replay (finished, answer lost); ` +
        `${references.length} reservations for ${sent.length} keys`,
    );
    // Two server starts, a storm and a restart: about 15 s on a quiet machine, twice that with both cores busy.
  }, 120_000);
});
