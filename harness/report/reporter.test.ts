import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startVitest } from 'vitest/node';
import { buildReport } from './build.ts';
import { CertificationReporter, type CollectedRun, parseCheckTitle } from './reporter.ts';
import { sampleInput } from './test-support/sample.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function runFixtures(files: string[], unexplainedSkip?: 'error' | 'omit'): Promise<CollectedRun> {
  const reporter = new CertificationReporter({ root, ...(unexplainedSkip ? { unexplainedSkip } : {}) });
  const exitCode = process.exitCode;
  const vitest = await startVitest('test', [], {
    config: false,
    root,
    dir: root,
    include: files,
    reporters: [reporter],
    watch: false,
    fileParallelism: false,
  });
  await vitest.close();
  // The fixture run fails on purpose; that must not fail this test process.
  process.exitCode = exitCode;
  const collected = reporter.collected();
  if (!collected) throw new Error('the reporter saw no end of run');
  return collected;
}

describe('parseCheckTitle', () => {
  it('reads clause id, name and representation', () => {
    expect(parseCheckTitle('[4.7.3] Same key (json)')).toEqual({
      clauseId: '4.7.3',
      name: 'Same key',
      representation: 'json',
    });
    expect(parseCheckTitle('[5.7b] Retry-After')).toEqual({ clauseId: '5.7b', name: 'Retry-After' });
    expect(parseCheckTitle('no clause')).toBeUndefined();
  });
});

describe('CertificationReporter', () => {
  it('collects check records from a vitest run and they build the expected model', async () => {
    const run = await runFixtures([
      'harness/report/test-support/reporter-fixture.checks.ts',
      'harness/report/test-support/broken-fixture.checks.ts',
    ]);
    const byTitle = new Map(
      run.checks.map((check) => [`${check.clauseId} ${check.name} ${check.representation ?? ''}`, check]),
    );
    expect(byTitle.get('4.2.1 lists the fleet json')).toMatchObject({
      outcome: 'pass',
      file: 'harness/report/test-support/reporter-fixture.checks.ts',
    });
    expect(byTitle.get('4.2.1 lists the fleet xml')).toMatchObject({
      outcome: 'not-applicable',
      notApplicable: { kind: 'profile', detail: 'needs shop' },
    });
    const failed = byTitle.get('4.7.3 replays the original response json');
    expect(failed).toMatchObject({ outcome: 'fail', createdReservations: ['RES-1'] });
    expect(failed?.evidence?.exchanges[0]?.response?.status).toBe(422);
    const crashed = byTitle.get('4.7.4 crashes before judging ');
    expect(crashed?.outcome).toBe('error');
    expect(crashed?.evidence?.message).toContain('harness bug');
    expect(byTitle.get('5.7b sends Retry-After ')).toMatchObject({ outcome: 'warn', level: 'SHOULD' });
    expect(byTitle.get('4.2.2 passes without meta ')?.outcome).toBe('pass');
    const inconsistent = byTitle.get('4.2.5 recorded pass, then failed ');
    expect(inconsistent?.outcome).toBe('error');
    expect(inconsistent?.evidence?.message).toContain('check recorded pass but the test failed: afterwards');
    const skipped = byTitle.get('4.2.3 skipped by hand ');
    expect(skipped?.outcome).toBe('error');
    expect(skipped?.evidence?.message).toContain('skipped without a not-applicable reason');
    expect(run.checks).toHaveLength(8);
    for (const check of run.checks) expect(check.durationMs).toBeGreaterThanOrEqual(0);

    const messages = run.harnessErrors.map((error) => `${error.file}: ${error.message}`);
    expect(messages).toContain(
      'harness/report/test-support/reporter-fixture.checks.ts: test is not a check: no clause id in its title',
    );
    expect(
      messages.some(
        (message) =>
          message.startsWith('harness/report/test-support/broken-fixture.checks.ts: ') &&
          message.includes('suite failed to import'),
      ),
    ).toBe(true);

    const model = buildReport({ ...sampleInput(), checks: run.checks, harnessErrors: run.harnessErrors });
    const clause = (id: string) => model.sections.flatMap((section) => section.clauses).find((item) => item.id === id);
    expect(clause('4.2.1')?.outcome).toBe('pass');
    expect(clause('4.7.3')?.outcome).toBe('fail');
    expect(clause('4.7.3')?.checks[0]?.id).toBe('4.7.3/replays the original response/json');
    expect(clause('4.7.4')?.outcome).toBe('error');
    expect(clause('5.7b')?.checks[0]?.level).toBe('SHOULD');
    expect(model.verdict.counts).toEqual({ pass: 2, fail: 1, warn: 1, error: 3, 'not-applicable': 1 });
    expect(model.verdict.passed).toBe(false);
    expect(model.harnessErrors?.length).toBe(2);
  }, 60_000);

  it('leaves deliberately filtered tests out with unexplainedSkip: omit', async () => {
    const run = await runFixtures(['harness/report/test-support/reporter-fixture.checks.ts'], 'omit');
    expect(run.checks.find((check) => check.clauseId === '4.2.3')).toBeUndefined();
    expect(run.checks.find((check) => check.clauseId === '4.2.1' && check.representation === 'xml')?.outcome).toBe(
      'not-applicable',
    );
  }, 60_000);
});
