import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startVitest } from 'vitest/node';
import { clock, ProgressReporter } from './progress.ts';

const CLEAR = '\r\u001b[2K';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = [
  'harness/report/test-support/reporter-fixture.checks.ts',
  'harness/report/test-support/empty-fixture.checks.ts',
  'harness/report/test-support/broken-fixture.checks.ts',
];

async function run(mode: 'live' | 'plain'): Promise<string> {
  const lines: string[] = [];
  const exitCode = process.exitCode;
  const vitest = await startVitest('test', [], {
    config: false,
    root,
    dir: root,
    include: FIXTURES,
    reporters: [new ProgressReporter({ root, mode, write: (text) => lines.push(text), estimate: () => 4 })],
    watch: false,
    fileParallelism: false,
    isolate: false,
    maxWorkers: 1,
    passWithNoTests: true,
  });
  await vitest.close();
  process.exitCode = exitCode;
  return lines.join('');
}

describe('ProgressReporter', () => {
  it('plain (CI, not a TTY): whole lines, one per suite file with checks, with done/total and failures so far', async () => {
    const output = await run('plain');
    expect(output).not.toContain('\r');
    expect(output).toMatch(/^Running about 12 check\(s\) from 3 suite file\(s\)…$/m);
    expect(output).toMatch(
      /^✗ harness\/report\/test-support\/reporter-fixture\.checks\.ts {2}pass 2 · fail 1 · warn 1 · error 3 · n\/a 1 · harness errors 1 {2}\(\d+\.\d s\) {2}· 9\/≈\d+ checks · 5 failed · 0:\d\d elapsed/m,
    );
    expect(output).toMatch(/^✗ harness\/report\/test-support\/broken-fixture\.checks\.ts {2}.* · harness errors 1 /m);
    // The file --only left without checks is not listed.
    expect(output).not.toContain('empty-fixture');
    expect(output.trimEnd().split('\n').at(-1)).toMatch(
      /^9 check\(s\) in 2 suite file\(s\), 0:\d\d: pass 2 · fail 1 · warn 1 · error 3 · n\/a 1 · harness errors 2$/,
    );
  }, 60_000);

  it('live (a terminal): one status line redrawn in place, cleared before the totals', async () => {
    const output = await run('live');
    expect(output).toContain('\r\u001b[2K');
    const live = output.replaceAll(CLEAR, '<clear>');
    expect(live).toMatch(/<clear>\d+\/≈?\d+ checks · \d+ failed · 0:\d\d elapsed/);
    expect(output).toContain('✗ harness/report/test-support/reporter-fixture.checks.ts');
    // Permanent lines never carry the live status; the last one is the totals.
    expect(live).toMatch(/<clear>9 check\(s\) in 2 suite file\(s\)[^\n]*\n$/);
  }, 60_000);

  it('shows the total without ≈ from the first line when the estimate is the collected count', () => {
    const lines: string[] = [];
    const progress = new ProgressReporter({
      mode: 'plain',
      write: (text) => lines.push(text),
      estimate: (file) => (file.endsWith('a.test.ts') ? 7 : 5),
      estimateExact: true,
      heartbeatMs: 0,
    });
    progress.onTestRunStart([{ moduleId: '/x/a.test.ts' }, { moduleId: '/x/b.test.ts' }] as never);
    expect(lines.join('')).toContain('Running 12 check(s) from 2 suite file(s)…');
    expect(progress.status()).toMatch(/^0\/12 checks · 0 failed/);
  });

  it('estimates the time left from the pace so far, and prints notes above the live line', () => {
    const now = 1_000;
    const lines: string[] = [];
    const progress = new ProgressReporter({ mode: 'live', write: (text) => lines.push(text), now: () => now });
    progress.onTestRunStart([{ moduleId: '/x/a.test.ts' }, { moduleId: '/x/b.test.ts' }] as never);
    expect(progress.status()).toBe('0/≈0 checks · 0 failed · 0:00 elapsed');
    progress.note('patient: token expiry judged in 9:59');
    expect(lines.join('')).toContain('\r\u001b[2Kpatient: token expiry judged in 9:59\n');
    expect(clock(65_000)).toBe('1:05');
    expect(clock(3_723_000)).toBe('1:02:03');
  });
});
