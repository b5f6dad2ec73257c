import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCertification } from './run.ts';
import { checksOf } from './test-support/report-files.ts';

/**
 * A partner before joint certification (spec 1.7, 5.5): its credentials read and shop, and carry no reservation
 * scope. The embedded reference with benign-partner-a-read-shop is such a target for partnerA. The run judges what
 * those scopes reach and says why the rest is not judged, never ending a check in error: the checks that ask for a
 * token lacking an endpoint's scope (4.0.5, 4.0.6, 4.0.11, 5.6b, 7.3.4) draw another scope partnerA holds, not one
 * the token endpoint would refuse it; those that book or need a booking scope are not judged, the scope named.
 */
const dir = mkdtempSync(join(tmpdir(), 'certify-scopes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('certify a partner holding the read and shop scopes only', () => {
  test('profile shop: exit 0, no error, every clause needing a booking scope not judged for it', async () => {
    let output = '';
    const result = await runCertification({
      embedded: { faults: ['benign-partner-a-read-shop'] },
      profile: 'shop',
      only: ['1.6d', '4.0.5', '4.0.6', '4.0.11', '4.7', '5.6b', '7.3.4'],
      runs: 3,
      seed: 20261210,
      reportDir: dir,
      formats: 'json',
      output: (text) => {
        output += text;
      },
    });
    const checks = checksOf(result.report);
    const failures = checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
    expect(failures.map((c) => `${c.id}: ${c.outcome} ${c.evidence?.message ?? ''}`)).toEqual([]);
    expect(result.report.harnessErrors ?? []).toEqual([]);
    expect(result.exitCode).toBe(0);

    expect(output).toContain(
      `Pre-flight: partnerA's token lacks reservations:read, reservations:write, reservations:cancel: the checks that need them are not judged ("partnerA does not hold …"); booking scopes follow a joint certification (spec 5.5)\n`,
    );
    const clauses = result.report.sections.flatMap((section) => section.clauses);
    const booking = clauses.filter((clause) => clause.id.startsWith('4.7.'));
    expect(booking.length).toBeGreaterThan(10);
    for (const clause of booking) {
      expect(clause.notJudged, clause.id).toEqual([
        'missing-scope: partnerA does not hold reservations:read, reservations:write, reservations:cancel',
      ]);
    }
    // What the read and shop scopes reach is judged, the scope-negative draws included.
    for (const id of ['1.6d', '4.0.5', '4.0.6', '4.0.11', '5.6b', '7.3.4']) {
      expect(clauses.find((clause) => clause.id === id)?.outcome, id).toBe('pass');
    }
  }, 120_000);
});
