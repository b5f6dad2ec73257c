import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCertification } from './run.ts';
import { checksOf } from './test-support/report-files.ts';

// PostgreSQL and Redis of this machine and CI's (README "Tests"); a database of this test's own, dropped after.
const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const database = `test_certify_${randomBytes(6).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'certify-postgres-'));

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(() => admin(`CREATE DATABASE ${database}`));
afterAll(async () => {
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  rmSync(dir, { recursive: true, force: true });
});

describe('certify the embedded reference implementation on PostgreSQL + Redis (issue 5)', () => {
  test('every clause covered, every MUST check passes, nothing left over', async () => {
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${database}`;
    const result = await runCertification({
      reportDir: dir,
      formats: 'json',
      seed: 20261122,
      embedded: { databaseUrl: url.toString(), redisUrl: REDIS_URL },
    });
    const failures = checksOf(result.report).filter((c) => c.outcome === 'fail' || c.outcome === 'error');
    expect(failures.map((c) => `${c.id}: ${c.evidence?.message ?? ''}`)).toEqual([]);
    expect(result.report.harnessErrors ?? []).toEqual([]);
    expect(result.exitCode).toBe(0);
    expect(result.report.coverage.clausesJudged).toBe(result.report.coverage.clausesTotal);
    expect(result.report.leftovers).toEqual([]);
  }, 600_000);
});
