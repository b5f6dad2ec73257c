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
import type { AnyScenario, ArrivalModel, Capability, PhaseDefinition, ThresholdDefinition } from './model.ts';

export interface CheckTally {
  passes: number;
  fails: number;
  firstFailure?: string;
  notApplicable?: string;
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

/** Every declared check with its outcome; a check that was never evaluated fails (the run did not reach it). */
export function checkResults(
  scenario: AnyScenario,
  tallies: Record<string, CheckTally>,
  capabilities: readonly Capability[],
  engine: string,
): LoadCheckResult[] {
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
    if (tally.fails > 0) return { ...base, outcome: 'fail', detail: tally.firstFailure ?? 'failed' };
    if (tally.notApplicable !== undefined) return { ...base, outcome: 'not-applicable', detail: tally.notApplicable };
    if (tally.passes === 0) return { ...base, outcome: 'fail', detail: 'never evaluated: the run did not reach it' };
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
