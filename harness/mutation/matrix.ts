import type { ReportModel } from '../report/model.ts';
import type { ReferenceFault } from '../target/embedded.ts';

/**
 * The mutation matrix (README "How the verdicts are proven"): the reference certified once per named fault and once per
 * benign variant, with the whole suite each time. A fault must fail its own clause and at most a few others; a variant
 * must pass.
 */

/** What one certification of a (possibly faulty) reference showed. */
export interface RunOutcome {
  /** The fault or variant names the reference ran with (empty: the plain reference). */
  faults: string[];
  exitCode: number;
  /** The verdict of the report (undefined when no report was written). */
  passed?: boolean;
  /** Clauses that failed or errored, and SHOULD clauses that warned: what a reader of the report acts on. */
  flagged: string[];
  /** Checks whose outcome was error, by id (target behaviour must never cause one). */
  errors: string[];
  /** Clauses judged / total. */
  judged: number;
  durationMs: number;
  /** Why the run gave no report (a crash of the harness). */
  problem?: string;
}

export interface FaultRow {
  name: string;
  kind: 'fault' | 'benign';
  clause: string;
  description: string;
  run: RunOutcome;
  /** fault: its own clause is among the flagged. benign: nothing flagged, no error. */
  ok: boolean;
  /** fault: flagged clauses besides its own. benign: every flagged clause (each a false failure). */
  extra: string[];
}

export interface MutationThresholds {
  /** Faults caught on their own clause / faults. */
  minScore: number;
  /** Clauses besides its own one fault may fail. */
  maxExtraClauses: number;
  /** Benign variants that may fail. */
  maxBenignFailures: number;
  /** Runs whose report has error outcomes. */
  maxRunsWithErrors: number;
}

export interface MutationSummary {
  faults: number;
  caughtOnClause: number;
  /** caughtOnClause / faults (1 when there are no faults). */
  score: number;
  extraMedian: number;
  extraMax: number;
  benign: number;
  benignPassed: number;
  runsWithErrors: number;
  baselinePassed: boolean;
}

export interface StabilityResult {
  runs: number;
  /** Runs whose flagged clauses and verdict equal the first run's. */
  identical: number;
  busy: boolean;
  verdicts: { seed: number; passed: boolean | undefined; flagged: string[]; errors: number }[];
}

export interface MutationReport {
  schemaVersion: 1;
  startedAt: string;
  durationMs: number;
  seed: number;
  /** The reference's RATE_LIMIT_PER_MINUTE when the matrix set one (--rate-limit); absent: the runner's default. */
  rateLimitPerMinute?: number;
  baseline: RunOutcome;
  rows: FaultRow[];
  summary: MutationSummary;
  thresholds: MutationThresholds;
  /** Threshold breaches in words; empty when the matrix passed. */
  breaches: string[];
  stability?: StabilityResult;
  /** Set when the run was stopped part way: what it finished of what was asked (the rest judged nothing). */
  interrupted?: Interruption;
}

export interface Interruption {
  rowsRun: number;
  rowsSelected: number;
  /** Stability runs finished (0 when the stop came before them). */
  stabilityRuns: number;
}

/** The outcome of a run from its report. */
export function outcomeOf(faults: string[], report: ReportModel, exitCode: number, durationMs: number): RunOutcome {
  const flagged: string[] = [];
  const errors: string[] = [];
  for (const section of report.sections) {
    for (const clause of section.clauses) {
      const bad =
        clause.outcome === 'fail' ||
        clause.outcome === 'error' ||
        (clause.outcome === 'warn' && clause.level === 'SHOULD');
      if (bad) flagged.push(clause.id);
      for (const check of clause.checks) if (check.outcome === 'error') errors.push(check.id);
    }
  }
  return {
    faults,
    exitCode,
    passed: report.verdict.passed,
    flagged,
    errors,
    judged: report.coverage.clausesJudged,
    durationMs,
  };
}

export function rowOf(fault: ReferenceFault, run: RunOutcome): FaultRow {
  if (fault.kind === 'benign') {
    return {
      ...fault,
      run,
      ok: run.problem === undefined && run.flagged.length === 0 && run.errors.length === 0,
      extra: run.flagged,
    };
  }
  const extra = run.flagged.filter((clause) => clause !== fault.clause);
  return { ...fault, run, ok: run.flagged.includes(fault.clause), extra };
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function summarize(baseline: RunOutcome, rows: readonly FaultRow[]): MutationSummary {
  const faults = rows.filter((r) => r.kind === 'fault');
  const benign = rows.filter((r) => r.kind === 'benign');
  const caught = faults.filter((r) => r.ok).length;
  const extras = faults.map((r) => r.extra.length);
  return {
    faults: faults.length,
    caughtOnClause: caught,
    score: faults.length === 0 ? 1 : caught / faults.length,
    extraMedian: median(extras),
    extraMax: extras.length === 0 ? 0 : Math.max(...extras),
    benign: benign.length,
    benignPassed: benign.filter((r) => r.ok).length,
    runsWithErrors: [baseline, ...rows.map((r) => r.run)].filter((run) => run.errors.length > 0).length,
    baselinePassed: baseline.passed === true && baseline.flagged.length === 0,
  };
}

/**
 * How many runs gave the verdict of the first run that gave one (passed or not, the same flagged clauses, the same
 * number of errors). A run without a report (a crash, a stop) judged nothing, so it never counts as identical.
 */
export function identicalVerdicts(outcomes: readonly RunOutcome[]): number {
  const key = (o: RunOutcome) => `${o.passed}|${o.flagged.join(',')}|${o.errors.length}`;
  const judged = outcomes.filter((o) => o.problem === undefined);
  const first = judged[0];
  return first === undefined ? 0 : judged.filter((o) => key(o) === key(first)).length;
}

/** What falls short of the thresholds, in words. */
export function breachesOf(
  summary: MutationSummary,
  thresholds: MutationThresholds,
  stability?: StabilityResult,
  interrupted?: Interruption,
): string[] {
  const out: string[] = [];
  if (interrupted) {
    out.push(
      `interrupted: ${interrupted.rowsRun} of ${interrupted.rowsSelected} faults and variants run, ${interrupted.stabilityRuns} stability run(s)`,
    );
  }
  if (!summary.baselinePassed) out.push('the plain reference implementation does not pass');
  if (summary.score < thresholds.minScore) {
    out.push(`mutation score ${(summary.score * 100).toFixed(1)}% is below ${(thresholds.minScore * 100).toFixed(1)}%`);
  }
  if (summary.extraMax > thresholds.maxExtraClauses) {
    out.push(`a fault failed ${summary.extraMax} clauses besides its own (at most ${thresholds.maxExtraClauses})`);
  }
  const benignFailures = summary.benign - summary.benignPassed;
  if (benignFailures > thresholds.maxBenignFailures) out.push(`${benignFailures} benign variant(s) failed`);
  if (summary.runsWithErrors > thresholds.maxRunsWithErrors) {
    out.push(`${summary.runsWithErrors} run(s) had error outcomes (at most ${thresholds.maxRunsWithErrors})`);
  }
  if (stability && stability.identical !== stability.runs) {
    out.push(`stability: ${stability.identical}/${stability.runs} runs gave the same verdict`);
  }
  return out;
}
