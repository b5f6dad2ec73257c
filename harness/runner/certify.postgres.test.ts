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

/**
 * npm test certifies the sections whose answers come from the store and the rate-limit buckets (states, bookings,
 * reads, cancels, limits); .ci/run certifies every section after it (CERTIFY_POSTGRES_FULL=1), which takes longer
 * than npm test's budget allows.
 */
const FULL = process.env.CERTIFY_POSTGRES_FULL === '1';
const STORE_SECTIONS = ['3', '4.7', '4.8', '4.9', '4.11', '8'];

// README "Several instances (PostgreSQL + Redis)": the setup certified here.
describe('certify the embedded reference implementation on PostgreSQL + Redis', () => {
  test(`${FULL ? 'every clause' : `sections ${STORE_SECTIONS.join(', ')}`} covered, every MUST check passes, nothing left over`, async () => {
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${database}`;
    const result = await runCertification({
      reportDir: dir,
      formats: 'json',
      seed: 20261122,
      ...(FULL ? {} : { only: STORE_SECTIONS }),
      embedded: { databaseUrl: url.toString(), redisUrl: REDIS_URL },
    });
    const failures = checksOf(result.report).filter((c) => c.outcome === 'fail' || c.outcome === 'error');
    expect(failures.map((c) => `${c.id}: ${c.evidence?.message ?? ''}`)).toEqual([]);
    expect(result.report.harnessErrors ?? []).toEqual([]);
    expect(result.exitCode).toBe(0);
    if (FULL) expect(result.report.coverage.clausesJudged).toBe(result.report.coverage.clausesTotal);
    else {
      // Every clause of the selected sections judged: none not-checked or not-applicable.
      const selected = result.report.sections
        .flatMap((section) => section.clauses)
        .filter((clause) => STORE_SECTIONS.some((id) => clause.id === id || clause.id.startsWith(`${id}.`)));
      expect(selected.length).toBeGreaterThan(40);
      expect(selected.filter((c) => !['pass', 'warn'].includes(c.outcome)).map((c) => `${c.id}: ${c.outcome}`)).toEqual(
        [],
      );
    }
    expect(result.report.leftovers).toEqual([]);
  }, 600_000);
});
