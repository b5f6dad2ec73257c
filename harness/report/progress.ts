import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import type { Outcome } from '../check/meta.ts';
import { allChecks } from './build.ts';
import type { ReportModel } from './model.ts';
import { emptyCounts, OUTCOMES } from './outcome.ts';
import { type CollectOptions, checkRecordOf } from './reporter.ts';

const SHORT: Record<Outcome, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  error: 'error',
  'not-applicable': 'n/a',
};

export function formatCounts(counts: Record<Outcome, number>): string {
  return OUTCOMES.map((outcome) => `${SHORT[outcome]} ${counts[outcome]}`).join(' · ');
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export interface ProgressOptions extends CollectOptions {
  /** Where lines go (default: stdout). */
  write?: (text: string) => void;
}

/**
 * Terminal progress of a certification run: one line per finished suite file with its check counts, and a
 * line with the totals when the run ends. The verdict itself comes later, from formatSummary of the report.
 */
export class ProgressReporter implements Reporter {
  readonly #write: (text: string) => void;
  readonly #options: CollectOptions;
  readonly #totals = emptyCounts();
  #files = 0;
  #harnessProblems = 0;

  constructor(options: ProgressOptions = {}) {
    this.#write = options.write ?? ((text) => process.stdout.write(text));
    this.#options = { root: options.root ?? process.cwd(), unexplainedSkip: options.unexplainedSkip ?? 'error' };
  }

  onTestModuleEnd(testModule: TestModule): void {
    const counts = emptyCounts();
    let problems = testModule.errors().length;
    for (const testCase of testModule.children.allTests()) {
      const item = checkRecordOf(testCase, this.#options);
      if (!item) continue;
      if ('record' in item) counts[item.record.outcome] += 1;
      else problems += 1;
    }
    for (const outcome of OUTCOMES) this.#totals[outcome] += counts[outcome];
    this.#files += 1;
    this.#harnessProblems += problems;
    const bad = counts.fail + counts.error + problems > 0;
    const file = path
      .relative(this.#options.root ?? process.cwd(), testModule.moduleId)
      .split(path.sep)
      .join('/');
    const extra = problems > 0 ? ` · harness errors ${problems}` : '';
    this.#write(
      `${bad ? '✗' : '✓'} ${file}  ${formatCounts(counts)}${extra}  (${seconds(testModule.diagnostic().duration)})\n`,
    );
  }

  onTestRunEnd(): void {
    const extra = this.#harnessProblems > 0 ? ` · harness errors ${this.#harnessProblems}` : '';
    this.#write(`${this.#files} suite file(s): ${formatCounts(this.#totals)}${extra}\n`);
  }
}

/** The closing summary of a run: verdict, counts, coverage, and the failing clauses by id. */
export function formatSummary(model: ReportModel, reportFiles: readonly string[] = []): string {
  const lines: string[] = [];
  const { verdict, coverage } = model;
  lines.push(`Verdict: ${verdict.passed ? 'PASSED' : 'FAILED'} (spec ${model.spec.release}, profile ${model.profile})`);
  lines.push(`Checks: ${formatCounts(verdict.counts)}${verdict.waived > 0 ? ` · waived ${verdict.waived}` : ''}`);
  lines.push(
    `Coverage: ${coverage.clausesJudged}/${coverage.clausesTotal} clauses (${(coverage.ratio * 100).toFixed(1)}%)`,
  );
  const failing = allChecks(model).filter(
    ({ check }) => (check.outcome === 'fail' || check.outcome === 'error') && !check.waived,
  );
  if (failing.length > 0) {
    lines.push('Failures:');
    for (const { clause, check } of failing) lines.push(`  ${check.outcome.padEnd(5)} [${clause.id}] ${check.id}`);
  }
  for (const waiver of model.waivers) {
    if (waiver.status !== 'used') lines.push(`Waiver ${waiver.clauseId} (${waiver.expires}): ${waiver.status}`);
  }
  if (model.leftovers.length > 0) lines.push(`Leftover reservations: ${model.leftovers.join(', ')}`);
  for (const error of model.harnessErrors ?? []) {
    lines.push(`Harness error: ${error.file ? `${error.file}: ` : ''}${error.message}`);
  }
  lines.push(`Seed: ${model.options.seed}`);
  for (const file of reportFiles) lines.push(`Report: ${file}`);
  return `${lines.join('\n')}\n`;
}
