import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeFully } from './pg-pool-end.ts';

const ADMIN_URL = process.env.STORE_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DATABASE = `pool_end_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });

function databaseUrl(): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

async function backendsOfDatabase(): Promise<number> {
  const { rows } = await admin.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [
    DATABASE,
  ]);
  return Number(rows[0]?.n);
}

beforeAll(async () => {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DATABASE}`);
});
afterAll(async () => {
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();
});

describe('closeFully', () => {
  it('resolves only once every connection of the pool is closed on the server', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
    const end = closeFully(pool);
    const clients: pg.PoolClient[] = [];
    pool.on('connect', (client) => clients.push(client));
    // Four clients at once, so the pool holds four idle connections when it is ended.
    await Promise.all(Array.from({ length: 4 }, () => pool.query('SELECT pg_sleep(0.05)')));
    expect(await backendsOfDatabase()).toBe(4);
    await end();
    // pg marks a client ended when its socket has closed; pool.end() alone resolves before that.
    expect(clients.map((client) => (client as unknown as { _ended: boolean })._ended)).toEqual(Array(4).fill(true));
    // The server may take a moment to retire a backend after the socket closes (the client side is done): waited for,
    // up to seconds, since a backend on a busy machine waits its turn for a core to exit.
    await expect.poll(backendsOfDatabase, { timeout: 10_000, interval: 20 }).toBe(0);
  });

  it('resolves at once for a pool that never connected', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl() });
    await closeFully(pool)();
    expect(pool.ended).toBe(true);
  });

  it('a backend terminated while its pool ends is no unhandled error', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
    const end = closeFully(pool);
    await Promise.all(Array.from({ length: 2 }, () => pool.query('SELECT 1')));
    const ending = end();
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [DATABASE]);
    await ending;
    expect(pool.totalCount).toBe(0);
  });

  it('a server that never closes its side (a frozen backend) is dropped after the grace period, not waited for', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl(), max: 1 });
    const end = closeFully(pool, 300);
    const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const pid = rows[0]?.pid ?? 0;
    // Stopped, the backend's kernel still acknowledges our close, but the process never closes its side.
    process.kill(pid, 'SIGSTOP');
    try {
      const started = Date.now();
      await end();
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(pool.totalCount).toBe(0);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });
});
