/**
 * Turns what an engine measured into the one result shape (harness/report/model.ts LoadScenarioResult). Both engines
 * call it: the native engine at the end of a run, k6 in handleSummary.
 */
import type {
  LoadCheckResult,
  LoadScenarioResult,
  LoadSeries,
  LoadStepResult,
  LoadThresholdResult,
} from '../../harness/report/model.ts';
import type {
  AnyScenario,
  ArrivalModel,
  Capability,
  CheckDefinition,
  PhaseDefinition,
  StatedCeiling,
  ThresholdDefinition,
} from './model.ts';

export interface CheckTally {
  passes: number;
  fails: number;
  firstFailure?: string;
  notApplicable?: string;
  notJudged?: string;
}

/**
 * "Not judged" in the result: what a check needs did not happen within the run's bounds (a ceiling not reached;
 * spec 8: ceilings not shown), so it says nothing either way. The report model (harness/report/model.ts LoadCheckResult) has no outcome of
 * that name yet, so such a check is written as `not-applicable` with a detail that starts with this prefix; it never
 * fails the scenario. isNotJudged tells the two apart. This is the one place to change when the model gets one.
 */
export const NOT_JUDGED_PREFIX = 'not judged: ';

export function isNotJudged(check: LoadCheckResult): boolean {
  return check.outcome === 'not-applicable' && (check.detail ?? '').startsWith(NOT_JUDGED_PREFIX);
}

function notJudged(base: Omit<LoadCheckResult, 'outcome'>, reason: string): LoadCheckResult {
  return { ...base, outcome: 'not-applicable', detail: `${NOT_JUDGED_PREFIX}${reason}` };
}

/** What the run measured that judges the ceiling checks: the step counts, and the ceilings the target stated. */
export interface CeilingObservations {
  steps: readonly LoadStepResult[];
  ceilings: Readonly<Record<string, StatedCeiling>>;
}

type CeilingJudgement =
  | { outcome: 'pass'; refused: number }
  | { outcome: 'fail'; detail: string }
  | { outcome: 'not-judged'; reason: string };

/** A ceiling check (CheckDefinition.reached) from the counts of its step and the ceiling the target stated. */
export function judgeCeiling(
  reached: NonNullable<CheckDefinition['reached']>,
  steps: readonly LoadStepResult[],
  stated: StatedCeiling | undefined,
): CeilingJudgement {
  const step = steps.find((s) => s.name === reached.step);
  const sent = step?.count ?? 0;
  const refused = step?.errors[reached.code] ?? 0;
  if (refused > 0) return { outcome: 'pass', refused };
  const none = `no ${reached.code} within ${sent} requests of ${reached.step}`;
  if (!stated) {
    return {
      outcome: 'not-judged',
      reason: `${none}: the ceiling is not shown (spec 8), and this run's bounds did not reach it`,
    };
  }
  const states = `${stated.source} states ${stated.limit} a minute`;
  if (sent > stated.sureAfter) {
    return {
      outcome: 'fail',
      detail: `${sent} requests of ${reached.step}, none refused with ${reached.code}, though ${states} (a refusal is certain after ${stated.sureAfter})`,
    };
  }
  return {
    outcome: 'not-judged',
    reason: `${none}: ${states}, more than this run's bounds reach (a refusal is certain only after ${stated.sureAfter})`,
  };
}

export function describeArrival(arrival: ArrivalModel): string {
  switch (arrival.kind) {
    case 'constant-arrival-rate':
      return `open model: ${arrival.rate} iterations/s for ${arrival.durationS} s (at most ${arrival.maxInFlight} in flight)`;
    case 'per-vu-iterations':
      return `closed model: ${arrival.vus} VUs × ${arrival.iterations} iterations (at most ${arrival.maxDurationS} s)`;
    case 'constant-vus':
      return `closed model: ${arrival.vus} VUs looping for ${arrival.durationS} s`;
  }
}

export function describePhases(phases: PhaseDefinition<unknown>[]): { name: string; arrival: string }[] {
  return phases.map((phase) => ({ name: phase.name, arrival: describeArrival(phase.arrival) }));
}

export function describeThreshold(threshold: ThresholdDefinition): string {
  switch (threshold.kind) {
    case 'latency':
      return `${threshold.step} ${threshold.stat} < ${threshold.belowMs} ms`;
    case 'unexpected-rate': {
      const allowed = ['2xx', ...threshold.expected].join(', ');
      return `${threshold.step ?? 'all steps'}: responses other than ${allowed} ≤ ${(threshold.atMost * 100).toFixed(1)}%`;
    }
    case 'code-count': {
      const bounds = [
        threshold.atLeast !== undefined ? `≥ ${threshold.atLeast}` : '',
        threshold.atMost !== undefined ? `≤ ${threshold.atMost}` : '',
      ].filter(Boolean);
      return `${threshold.step}: ${threshold.code} responses ${bounds.join(' and ')}`;
    }
    case 'dropped-iterations':
      return `dropped iterations ≤ ${threshold.atMost}`;
  }
}

function evaluate(
  threshold: ThresholdDefinition,
  steps: LoadStepResult[],
  dropped: number,
): { ok: boolean; actual: number | null } {
  const step = (name: string) => steps.find((s) => s.name === name);
  switch (threshold.kind) {
    case 'latency': {
      const s = step(threshold.step);
      if (!s || s.count === 0) return { ok: false, actual: null };
      const actual = s.latencyMs[threshold.stat];
      return { ok: actual < threshold.belowMs, actual };
    }
    case 'unexpected-rate': {
      const chosen = threshold.step === undefined ? steps : steps.filter((s) => s.name === threshold.step);
      const count = chosen.reduce((sum, s) => sum + s.count, 0);
      if (count === 0) return { ok: false, actual: null };
      const unexpected = chosen.reduce(
        (sum, s) =>
          sum +
          Object.entries(s.errors)
            .filter(([code]) => !threshold.expected.includes(code))
            .reduce((n, [, value]) => n + value, 0),
        0,
      );
      const actual = unexpected / count;
      return { ok: actual <= threshold.atMost, actual };
    }
    case 'code-count': {
      const actual = step(threshold.step)?.errors[threshold.code] ?? 0;
      const ok =
        (threshold.atLeast === undefined || actual >= threshold.atLeast) &&
        (threshold.atMost === undefined || actual <= threshold.atMost);
      return { ok, actual };
    }
    case 'dropped-iterations':
      return { ok: dropped <= threshold.atMost, actual: dropped };
  }
}

export function evaluateThresholds(
  thresholds: ThresholdDefinition[],
  steps: LoadStepResult[],
  dropped: number,
): LoadThresholdResult[] {
  return thresholds.map((threshold) => {
    const { ok, actual } = evaluate(threshold, steps, dropped);
    return { name: describeThreshold(threshold), outcome: ok ? 'pass' : 'fail', actual };
  });
}

/**
 * Every declared check with its outcome. A check that was never evaluated fails (the run did not reach it), unless it
 * judges what follows a ceiling (afterCeiling) and none of its ceilings was reached: then it is not judged. Ceiling
 * checks (reached) are judged from `observed` (judgeCeiling).
 */
export function checkResults(
  scenario: AnyScenario,
  tallies: Record<string, CheckTally>,
  capabilities: readonly Capability[],
  engine: string,
  observed: CeilingObservations = { steps: [], ceilings: {} },
): LoadCheckResult[] {
  const ceilings = new Map<string, CeilingJudgement>();
  for (const definition of scenario.checks) {
    if (definition.reached) {
      ceilings.set(
        definition.name,
        judgeCeiling(definition.reached, observed.steps, observed.ceilings[definition.name]),
      );
    }
  }
  return scenario.checks.map((definition) => {
    const tally = tallies[definition.name] ?? { passes: 0, fails: 0 };
    const base = {
      name: definition.name,
      description: definition.description,
      passes: tally.passes,
      fails: tally.fails,
    };
    const missing = (definition.needs ?? []).filter((need) => !capabilities.includes(need));
    if (missing.length > 0) {
      return {
        ...base,
        outcome: 'not-applicable',
        detail: `needs ${missing.join(', ')}, which the ${engine} engine lacks`,
      };
    }
    const ceiling = ceilings.get(definition.name);
    if (ceiling) {
      if (ceiling.outcome === 'pass') return { ...base, passes: ceiling.refused, fails: 0, outcome: 'pass' };
      if (ceiling.outcome === 'fail') return { ...base, passes: 0, fails: 1, outcome: 'fail', detail: ceiling.detail };
      return notJudged({ ...base, passes: 0, fails: 0 }, ceiling.reason);
    }
    if (tally.fails > 0) return { ...base, outcome: 'fail', detail: tally.firstFailure ?? 'failed' };
    if (tally.notApplicable !== undefined) return { ...base, outcome: 'not-applicable', detail: tally.notApplicable };
    if (tally.notJudged !== undefined) return notJudged(base, tally.notJudged);
    if (tally.passes === 0) {
      const after = (definition.afterCeiling ?? []).map((name) => ceilings.get(name));
      if (after.length > 0 && after.every((judgement) => judgement?.outcome !== 'pass')) {
        return notJudged(
          base,
          `it judges what follows a refusal, and no ceiling it needs was reached (${definition.afterCeiling?.join('; ')})`,
        );
      }
      return { ...base, outcome: 'fail', detail: 'never evaluated: the run did not reach it' };
    }
    return { ...base, outcome: 'pass' };
  });
}

export interface ResultInput {
  scenario: AnyScenario;
  engine: 'native' | 'k6';
  target: { baseUrl: string; embedded: boolean };
  startedAt: string;
  durationMs: number;
  phases: { name: string; arrival: string }[];
  steps: LoadStepResult[];
  checks: LoadCheckResult[];
  droppedIterations: number;
  series?: LoadSeries;
  notes: string[];
}

export function assembleResult(input: ResultInput): LoadScenarioResult {
  const thresholds = evaluateThresholds(input.scenario.thresholds, input.steps, input.droppedIterations);
  const passed =
    input.checks.every((check) => check.outcome !== 'fail') && thresholds.every((t) => t.outcome === 'pass');
  const result: LoadScenarioResult = {
    schemaVersion: 1,
    scenario: input.scenario.id,
    title: input.scenario.title,
    engine: input.engine,
    target: input.target,
    startedAt: input.startedAt,
    durationMs: Math.round(input.durationMs),
    phases: input.phases,
    passed,
    steps: input.steps,
    checks: input.checks,
    thresholds,
    droppedIterations: input.droppedIterations,
    notes: input.notes,
  };
  if (input.series) result.series = input.series;
  return result;
}
