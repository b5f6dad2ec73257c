/**
 * k6's handleSummary data → the one result shape (harness/report/model.ts LoadScenarioResult). k6 keeps totals
 * only, so the result has no time series; per-step statistics come from the runtime's custom metrics.
 */
import type { LoadStepResult } from '../../harness/report/model.ts';
import type { AnyScenario, LoadTarget, PhaseDefinition, StatedCeiling } from '../engine-neutral/model.ts';
import { assembleResult, type CheckTally, checkResults, describePhases } from '../engine-neutral/results.ts';
import { formatResult } from '../summary-text.ts';
import {
  ceilingLimitMetric,
  ceilingSureMetric,
  errorMetric,
  K6_ERROR_CODES,
  notApplicableMetric,
  notJudgedMetric,
  stepMetric,
} from './metric-names.ts';

interface K6Metric {
  type: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

interface K6Group {
  name: string;
  groups?: K6Group[];
  checks?: { name: string; passes: number; fails: number }[];
}

/** The parts of k6's summary data (the handleSummary argument) this file reads. */
export interface K6SummaryData {
  metrics: Record<string, K6Metric | undefined>;
  root_group?: K6Group;
  state?: { testRunDurationMs?: number };
}

function checkTallies(group: K6Group | undefined, into: Record<string, CheckTally> = {}): Record<string, CheckTally> {
  if (!group) return into;
  for (const check of group.checks ?? []) {
    const tally = into[check.name] ?? { passes: 0, fails: 0 };
    into[check.name] = tally;
    tally.passes += check.passes;
    tally.fails += check.fails;
    if (check.fails > 0) tally.firstFailure ??= `${check.fails} failed (details in k6's log)`;
  }
  for (const child of group.groups ?? []) checkTallies(child, into);
  return into;
}

const round = (value: number | undefined) => Math.round((value ?? 0) * 1000) / 1000;

export function k6StepResults(scenario: AnyScenario, data: K6SummaryData, durationMs: number): LoadStepResult[] {
  return scenario.steps.map((step) => {
    const trend = data.metrics[stepMetric(step)]?.values ?? {};
    const count = trend.count ?? 0;
    const errors: Record<string, number> = {};
    for (const code of K6_ERROR_CODES) {
      const n = data.metrics[errorMetric(step, code)]?.values.count ?? 0;
      if (n > 0) errors[code] = n;
    }
    return {
      name: step,
      count,
      ratePerSecond: durationMs > 0 ? Math.round((count / (durationMs / 1000)) * 100) / 100 : 0,
      latencyMs: {
        p50: round(trend['p(50)']),
        p90: round(trend['p(90)']),
        p99: round(trend['p(99)']),
        max: round(trend.max),
      },
      errors,
    };
  });
}

export function k6Result(
  scenario: AnyScenario,
  phases: PhaseDefinition<unknown>[],
  target: LoadTarget,
  data: K6SummaryData,
) {
  const durationMs = data.state?.testRunDurationMs ?? 0;
  const tallies = checkTallies(data.root_group);
  scenario.checks.forEach((check, index) => {
    if ((data.metrics[notApplicableMetric(index)]?.values.count ?? 0) > 0) {
      const tally = tallies[check.name] ?? { passes: 0, fails: 0 };
      tally.notApplicable = 'marked not applicable during the run (see k6 log)';
      tallies[check.name] = tally;
    }
    if ((data.metrics[notJudgedMetric(index)]?.values.count ?? 0) > 0) {
      const tally = tallies[check.name] ?? { passes: 0, fails: 0 };
      tally.notJudged = 'marked not judged during the run (see k6 log)';
      tallies[check.name] = tally;
    }
  });
  const ceilings: Record<string, StatedCeiling> = {};
  scenario.checks.forEach((check, index) => {
    const limit = data.metrics[ceilingLimitMetric(index)]?.values;
    const sure = data.metrics[ceilingSureMetric(index)]?.values;
    if (check.reached && limit?.max !== undefined && sure?.max !== undefined && (sure.count ?? 1) > 0) {
      ceilings[check.name] = {
        limit: limit.max,
        sureAfter: sure.max,
        source: 'the target (X-RateLimit-Limit or its config)',
      };
    }
  });
  const steps = k6StepResults(scenario, data, durationMs);
  return assembleResult({
    scenario,
    engine: 'k6',
    target: { baseUrl: target.baseUrl, embedded: false },
    startedAt: new Date(Date.now() - durationMs).toISOString(),
    durationMs,
    phases: describePhases(phases),
    steps,
    checks: checkResults(scenario, tallies, [], 'k6', { steps, ceilings }),
    droppedIterations: data.metrics.dropped_iterations?.values.count ?? 0,
    notes: [
      'k6 engine: latency from the actual send; iterations k6 could not start on time are counted as dropped instead',
      'no time series: k6 handleSummary has totals only (k6 --out json=… keeps the points)',
    ],
  });
}

/** handleSummary's return value: the result JSON in `outFile`, and the text summary on stdout. */
export function summaryOutputs(
  scenario: AnyScenario,
  phases: PhaseDefinition<unknown>[],
  target: LoadTarget,
  data: K6SummaryData,
  outFile: string,
): Record<string, string> {
  const result = k6Result(scenario, phases, target, data);
  return { [outFile]: `${JSON.stringify(result, null, 2)}\n`, stdout: `${formatResult(result)}\n` };
}
