import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStoreUnavailable } from '../http/error-handler.ts';
import { startTcpProxy, type TcpProxy } from '../http/rate-limit/tcp-proxy.testkit.ts';
import { PostgresStore } from './postgres.ts';

/**
 * A PostgreSQL that stops answering without closing its connections (a network partition, a frozen process): the
 * store must fail fast with an error the error handler answers 503 DEPENDENCY_UNAVAILABLE, not hold requests open.
 */
const DATABASE = `silent_${process.pid}`;
const ADMIN = 'postgres://postgres@127.0.0.1:5432/test';

let proxy: TcpProxy;
let store: PostgresStore;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  proxy = await startTcpProxy('127.0.0.1', 5432);
  store = new PostgresStore(`postgres://postgres@127.0.0.1:${proxy.port}/${DATABASE}`, {
    connectionTimeoutMillis: 500,
    query_timeout: 800,
  });
  await store.migrate();
});

afterAll(async () => {
  await store?.close().catch(() => {});
  await proxy?.cut();
  const admin = new pg.Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();
});

describe('PostgreSQL gone silent', () => {
  it('fails reads and writes promptly as store-unavailable', async () => {
    expect(await store.listReservations('PARTNER-A', 5)).toEqual([]);
    proxy.freeze();
    for (const attempt of [
      () => store.listReservations('PARTNER-A', 5),
      () => store.getOrCreateSecret('silent-test', () => 'x'),
    ]) {
      const started = Date.now();
      const error = await attempt().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, 'a query to a silent server must fail').toBeDefined();
      expect(isStoreUnavailable(error), String(error)).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });
});
