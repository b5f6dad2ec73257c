import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { renderJson } from '../report/json.ts';
import { runCertification } from './run.ts';
import { checksOf, readReport, reportSchemaErrors, xmlElementCounts } from './test-support/report-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('certify against the embedded reference implementation', () => {
  test('default profile: exit 0, the four formats written, report.json valid against its schema', async () => {
    let output = '';
    const result = await runCertification({
      reportDir: dir,
      seed: 20260101,
      output: (text) => {
        output += text;
      },
    });
    const failures = checksOf(result.report).filter((c) => c.outcome === 'fail' || c.outcome === 'error');
    expect(failures.map((c) => `${c.id}: ${c.evidence?.message ?? ''}`)).toEqual([]);
    expect(result.report.harnessErrors ?? []).toEqual([]);
    expect(result.exitCode).toBe(0);

    expect(result.report.target.embedded).toBe(true);
    expect(result.report.profile).toBe('full');
    expect(result.report.options.seed).toBe(20260101);
    expect(result.report.verdict.passed).toBe(true);
    // Every clause of the clause catalogue (contract/clauses/) has a check that ran, and the run cancelled what it booked.
    expect(result.report.coverage.clausesJudged).toBe(result.report.coverage.clausesTotal);
    expect(result.report.leftovers).toEqual([]);
    expect(result.report.verdict.counts.pass).toBeGreaterThan(0);

    for (const name of ['report.json', 'junit.xml', 'report.html', 'report.md'])
      expect(existsSync(join(dir, name))).toBe(true);
    expect(result.files.map((f) => f.slice(dir.length + 1)).sort()).toEqual([
      'junit.xml',
      'report.html',
      'report.json',
      'report.md',
    ]);

    const written = readReport(dir);
    expect(reportSchemaErrors(written)).toEqual([]);
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe(renderJson(result.report));

    const junit = xmlElementCounts(readFileSync(join(dir, 'junit.xml'), 'utf8'));
    // One testcase per clause: the counting unit of every format.
    expect(junit.get('testcase')).toBe(written.coverage.clausesTotal);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain('PASSED');

    // Progress while it ran, the summary at the end; and no secret of the fixture on the terminal or in a file.
    expect(output).toMatch(/✓ suites\/\S+\.test\.ts/);
    // The progress total is the number of checks the run ran, from its first line: vitest's collection of the suites
    // (collectChecks) counts what the run registers, presets, loops and representations included.
    const totals = [...output.matchAll(/ \d+\/(\d+) checks/g)].map((match) => Number(match[1]));
    expect(totals.length).toBeGreaterThan(10);
    expect([...new Set(totals)]).toEqual([checksOf(result.report).length]);
    expect(output).toContain('Verdict: PASSED');
    expect(output).toContain('Seed: 20260101');
    const fixture = JSON.parse(readFileSync(new URL('../../fixtures/reference-target.json', import.meta.url), 'utf8'));
    const secrets = [
      fixture.hooks.token,
      ...Object.values(fixture.clients).map((c) => (c as { clientSecret: string }).clientSecret),
    ];
    for (const text of [output, ...result.files.map((f) => readFileSync(f, 'utf8'))]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  }, 600_000);
});
