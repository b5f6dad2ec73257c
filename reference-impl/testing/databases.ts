import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** PostgreSQL and Redis of this machine and CI's (README "Tests"); overridable for other setups. */
export const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A PostgreSQL database of the test's own, dropped afterwards. */
export async function createPostgresDatabase(label = 'refimpl'): Promise<TestDatabase> {
  const name = `test_${label}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A SQLite file in a temporary folder of the test's own. */
export function createSqliteDatabase(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'partner-api-'));
  return {
    url: `sqlite:${join(dir, 'reference.db')}`,
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
