/**
 * `npm run test:long` (.ci/run, right after npm test) runs the mutation harness on its `fast` subset (a fault of every
 * spec section and five benign variants), each certified with the checks of its own clause against the reference
 * limiting as a real service does (600 calls a minute per client): every fault is caught on its clause and every
 * variant passes there, by a suite living inside the target's limits. Cascades into other clauses are judged by the
 * larger subset .ci/run certifies with the whole suite (`npm run mutation -- --subset ci-extra`), and by the full
 * matrix on demand.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../runner/paths.ts';
import type { MutationThresholds } from './matrix.ts';
import { runMutation, sectionOf } from './run.ts';
import { SUBSETS } from './subsets.ts';

const dir = mkdtempSync(join(tmpdir(), 'mutation-fast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const thresholds = JSON.parse(
  readFileSync(join(PROJECT_ROOT, 'harness', 'mutation', 'thresholds.json'), 'utf8'),
) as MutationThresholds;

describe('the mutation harness on the fast subset (npm run test:long)', () => {
  test('covers every spec section with a fault and holds five benign variants', () => {
    const fast = SUBSETS.fast ?? [];
    expect(fast.filter((name) => name.startsWith('benign-')).length).toBeGreaterThanOrEqual(5);
    expect(sectionOf('4.7.9b')).toBe('4.7');
  });

  test('every fault caught on its own clause, every benign variant passed, no error', async () => {
    const fast = new Set(SUBSETS.fast);
    const lines: string[] = [];
    const report = await runMutation({
      select: (fault) => fast.has(fault.name),
      ownClause: true,
      rateLimitPerMinute: 600,
      runs: 2,
      seed: 20261124,
      jobs: 2,
      thresholds,
      reportDir: dir,
      output: (text) => lines.push(text),
    });
    expect(report.rows.map((row) => row.name).sort()).toEqual([...fast].sort());
    const sections = new Set(
      report.rows.filter((r) => r.kind === 'fault').map((r) => sectionOf(r.clause).split('.')[0]),
    );
    expect([...sections].sort(), 'a fault in every top-level section').toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
    ]);
    expect(report.breaches, lines.join('')).toEqual([]);
    // About four minutes alone on the 2-core machine (each row a certification held to 600 calls a minute); test:long
    // runs other certifications beside it.
  }, 900_000);
});
