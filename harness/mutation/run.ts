import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clauseById } from '../../contract/clauses/index.ts';
import { mapAtMost } from '../runner/map-at-most.ts';
import { listReferenceFaults, type ReferenceFault } from '../target/embedded.ts';
import { certifyInChild } from './certify-child.ts';
import {
  breachesOf,
  type FaultRow,
  identicalVerdicts,
  type MutationReport,
  type MutationThresholds,
  rowOf,
  type StabilityResult,
  summarize,
} from './matrix.ts';
import { renderMutationMarkdown, renderMutationPage } from './render.ts';

export interface MutationOptions {
  /** Which faults and variants to run (default: all of the reference's fault registry). */
  select?: (fault: ReferenceFault) => boolean;
  seed: number;
  /** fast-check runs per property in each certification (default: the runner's). */
  runs?: number;
  /** Only these sections or clauses in each certification (development only: cascades elsewhere go unseen). */
  only?: string[];
  /**
   * Business calls a minute for each ordinary client of the reference (its RATE_LIMIT_PER_MINUTE): a matrix judged
   * against a server that limits as a real one does (600), so a fault is caught by a suite that lives inside limits.
   */
  rateLimitPerMinute?: number;
  /**
   * Certify each fault or variant with the checks of its own clause only (npm test's quick proof that each is
   * caught on its clause, or that a variant passes there): cascades into other clauses go unseen, which is why
   * .ci/run and the full matrix certify with the whole suite.
   */
  ownClause?: boolean;
  /** Certifications side by side. */
  jobs: number;
  thresholds: MutationThresholds;
  /** Also certify the plain reference this many times with other seeds and compare the verdicts. */
  stability?: number;
  /** Keep one core busy during the stability runs. */
  busy?: boolean;
  /** Leave out the faults and variants: only the baseline and the stability runs (default true). */
  matrix?: boolean;
  reportDir: string;
  output: (text: string) => void;
  signal?: AbortSignal;
}

function line(row: FaultRow): string {
  const run = row.run;
  const seconds = `${(run.durationMs / 1000).toFixed(0)} s`;
  if (run.problem) return `  ! ${row.name}: ${run.problem.split('\n')[0]}`;
  const errors = run.errors.length > 0 ? ` · ${run.errors.length} error(s)` : '';
  if (row.kind === 'benign') {
    return `  ${row.ok ? '✓' : '✗'} benign ${row.name}: ${row.ok ? 'passed' : `failed ${row.extra.join(', ')}`}${errors} (${seconds})`;
  }
  const extra = row.extra.length > 0 ? `; also ${row.extra.join(', ')}` : '';
  return `  ${row.ok ? '✓' : '✗'} ${row.name} [${row.clause}]: ${row.ok ? 'caught' : run.flagged.length > 0 ? 'caught elsewhere' : 'missed'}${extra}${errors} (${seconds})`;
}

/** A process that keeps one core at 100% until killed (the stability run under load). */
function burnCore(): () => void {
  const child = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
  return () => child.kill('SIGKILL');
}

async function stabilityRuns(options: MutationOptions, count: number): Promise<StabilityResult> {
  const stop = options.busy ? burnCore() : () => {};
  try {
    const seeds = Array.from({ length: count }, (_, i) => (options.seed + 7919 * (i + 1)) % 2_147_483_647);
    const outcomes = await mapAtMost(
      seeds,
      options.jobs,
      async (seed) => {
        const outcome = await certifyInChild({
          faults: [],
          seed,
          ...(options.runs ? { runs: options.runs } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        });
        if (options.signal?.aborted) {
          options.output(`  - stability seed ${seed}: stopped\n`);
          return { seed, outcome };
        }
        options.output(
          `  stability seed ${seed}: ${outcome.passed ? 'passed' : `failed ${outcome.flagged.join(', ')}`}${outcome.errors.length > 0 ? ` · ${outcome.errors.length} error(s)` : ''}\n`,
        );
        return { seed, outcome };
      },
      options.signal,
    );
    return {
      runs: outcomes.length,
      identical: identicalVerdicts(outcomes.map((o) => o.outcome)),
      busy: options.busy ?? false,
      verdicts: outcomes.map(({ seed, outcome }) => ({
        seed,
        passed: outcome.passed,
        flagged: outcome.flagged,
        errors: outcome.errors.length,
      })),
    };
  } finally {
    stop();
  }
}

/** The spec section a fault's clause sits in ('4.7.9b' → '4.7'; a section id names itself). */
export function sectionOf(clauseId: string): string {
  return clauseById(clauseId)?.section ?? clauseId;
}

/** Certifies the plain reference, then each selected fault and variant; writes mutation.json, .md and .html. */
export async function runMutation(options: MutationOptions): Promise<MutationReport> {
  const startedAt = new Date();
  const registry = listReferenceFaults();
  const selected = options.matrix === false ? [] : registry.filter(options.select ?? (() => true));
  const common = {
    seed: options.seed,
    ...(options.runs ? { runs: options.runs } : {}),
    ...(options.only ? { only: options.only } : {}),
    ...(options.rateLimitPerMinute ? { rateLimitPerMinute: options.rateLimitPerMinute } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  options.output(
    `Mutation matrix: ${selected.filter((f) => f.kind === 'fault').length} fault(s), ${selected.filter((f) => f.kind === 'benign').length} benign variant(s), seed ${options.seed}, ${options.jobs} at a time\n`,
  );
  const clauses = [...new Set(selected.map((f) => f.clause))];
  // Each run's report.json is kept beside mutation.json (reports/<name>.json), for the report tests that judge every
  // fault's messages and root causes (harness/report/fault-reports.test.ts) without certifying again.
  const kept = (name: string) => ({ keepReport: join(options.reportDir, 'reports', `${name}.json`) });
  const baseline = await certifyInChild({
    faults: [],
    ...common,
    ...kept('baseline'),
    ...(options.ownClause ? { only: clauses } : {}),
  });
  options.output(
    `  baseline: ${baseline.passed ? 'passed' : `FAILED ${baseline.flagged.join(', ')}`} (${(baseline.durationMs / 1000).toFixed(0)} s)\n`,
  );
  const rows = await mapAtMost(
    selected,
    options.jobs,
    async (fault) => {
      const own = options.ownClause ? { only: [fault.clause] } : {};
      const row = rowOf(fault, await certifyInChild({ faults: [fault.name], ...common, ...own, ...kept(fault.name) }));
      // Cut short by a stop: no verdict to print (pool leaves the row out).
      options.output(options.signal?.aborted ? `  - ${row.name}: stopped\n` : `${line(row)}\n`);
      return row;
    },
    options.signal,
  );
  const stability =
    options.stability && !options.signal?.aborted ? await stabilityRuns(options, options.stability) : undefined;
  // A run stopped part way (Ctrl-C, SIGTERM) still reports what it finished, as incomplete.
  const interrupted = options.signal?.aborted
    ? { rowsRun: rows.length, rowsSelected: selected.length, stabilityRuns: stability?.runs ?? 0 }
    : undefined;
  const summary = summarize(baseline, rows);
  const report: MutationReport = {
    schemaVersion: 1,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    seed: options.seed,
    ...(options.rateLimitPerMinute ? { rateLimitPerMinute: options.rateLimitPerMinute } : {}),
    baseline,
    rows,
    summary,
    thresholds: options.thresholds,
    breaches: breachesOf(summary, options.thresholds, stability, interrupted),
    ...(stability ? { stability } : {}),
    ...(interrupted ? { interrupted } : {}),
  };
  mkdirSync(options.reportDir, { recursive: true });
  writeFileSync(join(options.reportDir, 'mutation.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(options.reportDir, 'mutation.md'), renderMutationMarkdown(report));
  writeFileSync(join(options.reportDir, 'mutation.html'), renderMutationPage(report));
  return report;
}
