import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { certifyInChild } from '../mutation/certify-child.ts';
import type { MutationReport } from '../mutation/matrix.ts';
import { failingClauses } from './failures.ts';
import { messageProblems, rootCausePlace } from './message-audit.ts';
import type { ReportModel } from './model.ts';

/**
 * Over certifications of the reference with a fault of its fault registry: every failure message in plain
 * words (no assertion-library phrasing, no status quoted other than the printed exchange's), and the fault's own
 * clause the first root cause its report lists.
 *
 * `npm run test:long` (.ci/run) certifies a handful of faults, each with the clauses its cascade reaches (a run each,
 * some seconds). The whole registry is the mutation matrix's (about two hours on the 2-core machine): it keeps every
 * run's report.json (`<report-dir>/reports/<fault>.json`), and `FAULT_REPORTS=<report-dir> npx vitest run --config
 * vitest.long.config.ts harness/report/fault-reports.test.ts` judges them all.
 */

const SEED = 20261129;

/**
 * Faults whose reports once broke the rules: library phrasing, a status quoted above another exchange, a root listed
 * late. `cascade`: the run fails other clauses too, so the order of its root causes is judged (the generated cases
 * must reach them: `runs`).
 */
const HANDFUL = [
  // `expected [] to include 'KIA-MORNING-MT'`: the booked class missing from the availability after booking.
  { fault: 'allotment-decrements', clause: '1.1a', only: ['1.1a', '1.1c', '4.5.3'], runs: 3, cascade: true },
  // A location's timezone "ICT": 2.6.10 before 2.4.9, whose check expected the quote in the listed "ICT".
  { fault: 'timezone-abbreviation', clause: '2.6.10', only: ['2.4.9', '2.6.10'], runs: 3, cascade: true },
  // A pickupDate of 2026/12/30 accepted: the field's clause (2.4.3) before the request's (2.12.3), seen more often.
  {
    fault: 'pickup-date-slashes-accepted',
    clause: '2.4.3',
    only: ['2.4.3', '2.12.3', '4.5.1'],
    runs: 25,
    cascade: true,
  },
  // `HTTP status is 404` above a 403: the expected status worded as the answer.
  { fault: 'foreign-reservation-forbidden', clause: '1.4b', only: ['1.4b', '4.9.1', '4.11.3'], runs: 3, cascade: true },
  // "refused (it got HTTP 201)" printed above the cleanup call's 200.
  { fault: 'read-only-gets-booking-scopes', clause: '1.7', only: ['1.7', '4.7.13', '5.5b'], runs: 3, cascade: true },
  // A 401 for a missing scope: 5.6b and the 7.3 row of the code it should have sent.
  { fault: 'insufficient-scope-401', clause: '5.6b', only: ['5.6b', '7.3.4', '4.2.2'], runs: 3, cascade: true },
];

const dir = mkdtempSync(join(tmpdir(), 'fault-reports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function problemLines(model: ReportModel): string[] {
  return messageProblems(model).map((p) => `[${p.clauseId}] ${p.where}: ${p.problem}\n    ${p.message.split('\n')[0]}`);
}

describe('failure messages and root causes of a handful of faults of the registry', () => {
  test.each(HANDFUL)(
    '$fault: plain words, $clause the first root cause',
    async ({ fault, clause, only, runs, cascade }) => {
      const file = join(dir, `${fault}.json`);
      const run = await certifyInChild({ faults: [fault], only, seed: SEED, runs, keepReport: file });
      expect(run.problem).toBeUndefined();
      const model = JSON.parse(readFileSync(file, 'utf8')) as ReportModel;
      expect(problemLines(model)).toEqual([]);
      if (cascade) expect(failingClauses(model).length, 'failing clauses to order').toBeGreaterThan(1);
      expect(rootCausePlace(model, clause)).toBe('first');
    },
    180_000,
  );
});

/** The reports a mutation matrix run kept, and the fault (or variant) each is of. */
function matrixReports(reportDir: string): { name: string; clause?: string; kind?: string; file: string }[] {
  const reports = join(reportDir, 'reports');
  const matrix = join(reportDir, 'mutation.json');
  const rows = existsSync(matrix) ? (JSON.parse(readFileSync(matrix, 'utf8')) as MutationReport).rows : [];
  return readdirSync(reports)
    .filter((file) => file.endsWith('.json') && file !== 'baseline.json')
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.json'.length);
      const row = rows.find((r) => r.name === name);
      return { name, file: join(reports, file), ...(row ? { clause: row.clause, kind: row.kind } : {}) };
    });
}

const matrixDir = process.env.FAULT_REPORTS;

describe.skipIf(!matrixDir)('every report of a mutation matrix run (FAULT_REPORTS=<its --report-dir>)', () => {
  const reports = matrixDir ? matrixReports(matrixDir) : [];

  test('the run kept reports, and says of which faults', () => {
    expect(reports.length).toBeGreaterThan(0);
    expect(
      reports.filter((r) => r.clause === undefined).map((r) => r.name),
      'reports without a mutation.json row',
    ).toEqual([]);
  });

  test.each(reports)('$name: plain words', ({ file }) => {
    const model = JSON.parse(readFileSync(file, 'utf8')) as ReportModel;
    expect(problemLines(model)).toEqual([]);
  });

  // A fault the matrix did not catch on its own clause is the matrix's to report; here its root cannot be first.
  test.each(reports.filter((r) => r.kind === 'fault'))('$name: $clause the first root cause', ({ file, clause }) => {
    const model = JSON.parse(readFileSync(file, 'utf8')) as ReportModel;
    const place = rootCausePlace(model, clause as string);
    if (place !== 'not-failing') expect(place).toBe('first');
  });
});
