import path from 'node:path';
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';
import type { Outcome } from '../check/outcome-and-evidence.ts';
import { emptyCounts, OUTCOMES } from './outcome.ts';
import { type CollectOptions, checkRecordOf } from './reporter.ts';

const SHORT: Record<Outcome, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  error: 'error',
  'not-applicable': 'n/a',
};

/** "pass 3 · fail 1 · …", the outcomes that are not zero (all of them when every one is zero). */
export function formatCounts(counts: Record<Outcome, number>, skipZero = false): string {
  const shown = OUTCOMES.filter((outcome) => !skipZero || counts[outcome] > 0);
  return (shown.length > 0 ? shown : OUTCOMES).map((outcome) => `${SHORT[outcome]} ${counts[outcome]}`).join(' · ');
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** "1:05" (m:ss), "1:02:03" past an hour. */
export function clock(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export interface ProgressOptions extends CollectOptions {
  /** Where lines go (default: stdout). */
  write?: (text: string) => void;
  /**
   * 'live': one line redrawn in place (a terminal); 'plain' (default): whole lines only (not a TTY, CI), one per
   * finished suite file and one every `heartbeatMs` while a long file runs.
   */
  mode?: 'live' | 'plain';
  /** Checks each suite file is expected to hold before vitest collects it (the estimate of the total). */
  estimate?: (moduleId: string) => number;
  /** `estimate` counts the checks the run will run (vitest's collection beforehand): the total is shown without ≈. */
  estimateExact?: boolean;
  /** Width of the live line (default: the terminal's, or 100). */
  columns?: number;
  heartbeatMs?: number;
  now?: () => number;
}

/**
 * Terminal progress of a certification run: checks done of the total (estimated until every file is collected),
 * failures so far, time elapsed and an estimate of what is left. Suite files without a selected check (--only) are
 * not listed. The verdict comes later, from formatSummary of the report.
 */
export class ProgressReporter implements Reporter {
  readonly #write: (text: string) => void;
  readonly #options: CollectOptions;
  readonly #mode: 'live' | 'plain';
  readonly #estimate: (moduleId: string) => number;
  readonly #estimateExact: boolean;
  readonly #columns: number;
  readonly #heartbeatMs: number;
  readonly #now: () => number;
  readonly #totals = emptyCounts();
  /** Per suite file: expected checks, then the collected count. */
  readonly #expected = new Map<string, number>();
  readonly #collected = new Set<string>();
  #files = 0;
  #harnessProblems = 0;
  #done = 0;
  #startedAt = 0;
  #firstResultAt: number | undefined;
  #current = '';
  #liveShown = false;
  #lastLineAt = 0;
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(options: ProgressOptions = {}) {
    this.#write = options.write ?? ((text) => process.stdout.write(text));
    this.#options = { root: options.root ?? process.cwd(), unexplainedSkip: options.unexplainedSkip ?? 'error' };
    this.#mode = options.mode ?? 'plain';
    this.#estimate = options.estimate ?? (() => 0);
    this.#estimateExact = options.estimateExact ?? false;
    this.#columns = Math.max(40, options.columns ?? 100);
    this.#heartbeatMs = options.heartbeatMs ?? 30_000;
    this.#now = options.now ?? Date.now;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.#startedAt = this.#now();
    this.#lastLineAt = this.#startedAt;
    for (const spec of specifications) this.#expected.set(spec.moduleId, this.#estimate(spec.moduleId));
    const total = this.#total();
    this.#line(
      `Running ${this.#estimateExact ? '' : 'about '}${total} check(s) from ${specifications.length} suite file(s)…`,
    );
    if (this.#mode === 'plain' && this.#heartbeatMs > 0) {
      this.#heartbeat = setInterval(
        () => {
          if (this.#now() - this.#lastLineAt >= this.#heartbeatMs) this.#line(`… ${this.status()}`);
        },
        Math.min(this.#heartbeatMs, 5_000),
      );
      this.#heartbeat.unref();
    }
  }

  onTestModuleCollected(testModule: TestModule): void {
    this.#collected.add(testModule.moduleId);
    this.#expected.set(testModule.moduleId, [...testModule.children.allTests()].length);
  }

  onTestModuleStart(testModule: TestModule): void {
    this.#current = this.#relative(testModule.moduleId);
    this.#redraw();
  }

  onTestCaseResult(testCase: TestCase): void {
    const item = checkRecordOf(testCase, this.#options);
    if (!item) return;
    this.#firstResultAt ??= this.#now();
    this.#done += 1;
    if ('record' in item) this.#totals[item.record.outcome] += 1;
    else this.#harnessProblems += 1;
    this.#redraw();
  }

  onTestModuleEnd(testModule: TestModule): void {
    const counts = emptyCounts();
    let problems = testModule.errors().length;
    let checks = 0;
    for (const testCase of testModule.children.allTests()) {
      const item = checkRecordOf(testCase, this.#options);
      if (!item) continue;
      checks += 1;
      if ('record' in item) counts[item.record.outcome] += 1;
      else problems += 1;
    }
    this.#harnessProblems += testModule.errors().length;
    this.#current = '';
    // A file without a selected check (--only) says nothing; one that failed to load does.
    if (checks === 0 && problems === 0) {
      this.#redraw();
      return;
    }
    this.#files += 1;
    const bad = counts.fail + counts.error + problems > 0;
    const extra = problems > 0 ? ` · harness errors ${problems}` : '';
    const file = this.#relative(testModule.moduleId);
    const tail = this.#mode === 'plain' ? `  · ${this.status()}` : '';
    this.#line(
      `${bad ? '✗' : '✓'} ${file}  ${formatCounts(counts, true)}${extra}  (${seconds(testModule.diagnostic().duration)})${tail}`,
    );
  }

  onTestRunEnd(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#clearLive();
    const extra = this.#harnessProblems > 0 ? ` · harness errors ${this.#harnessProblems}` : '';
    this.#write(
      `${this.#done} check(s) in ${this.#files} suite file(s), ${clock(this.#now() - this.#startedAt)}: ${formatCounts(this.#totals)}${extra}\n`,
    );
  }

  /** A line from elsewhere (the patient clocks): printed above the live line, which is then redrawn. */
  note(text: string): void {
    this.#line(text.replace(/\n+$/, ''));
  }

  /** "57/≈330 checks · 2 failed · 0:41 elapsed · ≈2:10 left". */
  status(): string {
    const total = this.#total();
    const exact = this.#estimateExact || [...this.#expected.keys()].every((file) => this.#collected.has(file));
    const failed = this.#totals.fail + this.#totals.error + this.#harnessProblems;
    const elapsed = this.#now() - this.#startedAt;
    const parts = [
      `${this.#done}/${exact ? '' : '≈'}${Math.max(total, this.#done)} checks`,
      `${failed} failed`,
      `${clock(elapsed)} elapsed`,
    ];
    const left = this.#left(total);
    if (left !== undefined) parts.push(`≈${clock(left)} left`);
    return parts.join(' · ');
  }

  #total(): number {
    let total = 0;
    for (const count of this.#expected.values()) total += count;
    return total;
  }

  /** What is left at the pace of the checks so far (nothing to say before a few have finished). */
  #left(total: number): number | undefined {
    if (this.#firstResultAt === undefined || this.#done < 5) return undefined;
    const perCheck = (this.#now() - this.#firstResultAt) / this.#done;
    return Math.max(0, total - this.#done) * perCheck;
  }

  #relative(moduleId: string): string {
    return path
      .relative(this.#options.root ?? process.cwd(), moduleId)
      .split(path.sep)
      .join('/');
  }

  #line(text: string): void {
    this.#clearLive();
    this.#write(`${text}\n`);
    this.#lastLineAt = this.#now();
    this.#redraw();
  }

  #clearLive(): void {
    if (this.#mode === 'live' && this.#liveShown) {
      this.#write('\r\u001b[2K');
      this.#liveShown = false;
    }
  }

  #redraw(): void {
    if (this.#mode !== 'live' || this.#startedAt === 0) return;
    const current = this.#current ? ` · ${this.#current.replace(/^suites\//, '')}` : '';
    const line = `${this.status()}${current}`;
    const cut = line.length > this.#columns - 1 ? `${line.slice(0, this.#columns - 2)}…` : line;
    this.#write(`\r\u001b[2K${cut}`);
    this.#liveShown = true;
  }
}
