import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCertification } from './run.ts';

/**
 * A short fuzz campaign against the reference (README "Fuzz campaigns"), in `npm test`: it finds nothing and cleans
 * up. certify.fuzz-faults.test.ts (npm run test:long) shows a fault found and shrunk.
 */
const dir = mkdtempSync(join(tmpdir(), 'certify-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fuzz(faults: string[], name: string) {
  return runCertification({
    fuzz: { durationMs: 6_000, maxFailures: 6 },
    seed: 11,
    formats: 'json',
    reportDir: join(dir, name),
    ...(faults.length > 0 ? { embedded: { faults } } : {}),
  });
}

describe('certify --fuzz', () => {
  test('a short campaign against the reference finds nothing and cleans up its bookings', async () => {
    const { report, exitCode, cleanup } = await fuzz([], 'plain');
    const campaign = report.sections.flatMap((s) => s.clauses).find((c) => c.id === '7.3.36');
    expect(campaign?.checks[0]?.outcome).toBe('pass');
    expect(exitCode).toBe(0);
    expect(cleanup?.leftovers ?? []).toEqual([]);
  }, 120_000);
});
