/**
 * Runs a scenario definition on k6: options (one k6 scenario per phase, started one after the other), setup, the
 * iteration function, teardown and handleSummary. Each entry script in this folder is this, for one scenario.
 */
import { check } from 'k6';
import execution from 'k6/execution';
import http from 'k6/http';
import { Counter, Rate, Trend } from 'k6/metrics';
import { setTimeout } from 'k6/timers';
import type {
  AnyScenario,
  ArrivalModel,
  Capability,
  HttpRequestSpec,
  HttpResponseData,
  LoadHttp,
  LoadOptions,
  LoadTarget,
  PhaseDefinition,
  RunContext,
  VuContext,
} from '../engine-neutral/model.ts';
import { errorCodeOf, isSuccess, randomHex } from '../engine-neutral/partner-api.ts';
import { assertOptionsBounded, assertPhasesBounded, assertTargetAllowed } from '../engine-neutral/safety.ts';
import {
  ceilingLimitMetric,
  ceilingSureMetric,
  errorMetric,
  K6_ERROR_CODES,
  k6Code,
  notApplicableMetric,
  notJudgedMetric,
  REMAINING_METRIC,
  stepMetric,
  unexpectedMetric,
} from './metric-names.ts';
import { type K6SummaryData, summaryOutputs } from './summary.ts';
import { parseK6Target } from './target.ts';

declare const console: { log(...args: unknown[]): void; warn(...args: unknown[]): void };

/** k6 cannot bind a source address per request, and each VU has a memory of its own. */
export const K6_CAPABILITIES: readonly Capability[] = [];
/** After each phase's own end, before the next starts (k6 scenarios are scheduled by start time). */
const GRACEFUL_STOP_S = 10;
const FAILURE_LOGS_PER_CHECK = 3;

export interface SetupData {
  runId: string;
  shared: unknown;
}

function loadOptions(scenario: AnyScenario): LoadOptions {
  const base = __ENV.LOAD_CI ? scenario.ci : scenario.defaults;
  return {
    rate: __ENV.RATE ? Number(__ENV.RATE) : base.rate,
    durationS: __ENV.DURATION ? Number(__ENV.DURATION) : base.durationS,
  };
}

/** k6 arrival rates are integers per time unit: a fractional rate is expressed per 100 s. */
function executor(arrival: ArrivalModel, maxVus: number | undefined): Record<string, unknown> {
  switch (arrival.kind) {
    case 'constant-arrival-rate': {
      const whole = Number.isInteger(arrival.rate);
      const cap = maxVus ?? arrival.maxInFlight;
      return {
        executor: 'constant-arrival-rate',
        rate: whole ? arrival.rate : Math.round(arrival.rate * 100),
        timeUnit: whole ? '1s' : '100s',
        duration: `${arrival.durationS}s`,
        preAllocatedVUs: Math.min(cap, Math.max(1, Math.ceil(arrival.rate))),
        maxVUs: cap,
      };
    }
    case 'per-vu-iterations':
      return {
        executor: 'per-vu-iterations',
        vus: arrival.vus,
        iterations: arrival.iterations,
        maxDuration: `${arrival.maxDurationS}s`,
      };
    case 'constant-vus':
      return { executor: 'constant-vus', vus: arrival.vus, duration: `${arrival.durationS}s` };
  }
}

function phaseSeconds(arrival: ArrivalModel): number {
  return arrival.kind === 'per-vu-iterations' ? arrival.maxDurationS : arrival.durationS;
}

/** k6 options: phases as scenarios in sequence, k6 thresholds mirroring the scenario's (for k6's exit code). */
export function k6Options(scenario: AnyScenario, phases: PhaseDefinition<unknown>[]): Record<string, unknown> {
  const scenarios: Record<string, unknown> = {};
  let start = 0;
  for (const phase of phases) {
    scenarios[phase.name] = {
      ...executor(phase.arrival, phase.k6MaxVus),
      exec: 'run',
      startTime: `${start}s`,
      gracefulStop: `${GRACEFUL_STOP_S}s`,
    };
    start += phaseSeconds(phase.arrival) + GRACEFUL_STOP_S;
  }
  const thresholds: Record<string, string[]> = {};
  scenario.thresholds.forEach((threshold, index) => {
    switch (threshold.kind) {
      case 'latency': {
        const stat = threshold.stat === 'max' ? 'max' : `p(${threshold.stat.slice(1)})`;
        thresholds[stepMetric(threshold.step)] = [`${stat}<${threshold.belowMs}`];
        break;
      }
      case 'unexpected-rate':
        thresholds[unexpectedMetric(index)] = [`rate<=${threshold.atMost}`];
        break;
      case 'code-count': {
        const bounds = [];
        if (threshold.atLeast !== undefined) bounds.push(`count>=${threshold.atLeast}`);
        if (threshold.atMost !== undefined) bounds.push(`count<=${threshold.atMost}`);
        thresholds[errorMetric(threshold.step, k6Code(threshold.code))] = bounds;
        break;
      }
      case 'dropped-iterations':
        thresholds.dropped_iterations = [`count<=${threshold.atMost}`];
        break;
    }
  });
  return {
    scenarios,
    thresholds,
    summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(99)', 'count'],
    setupTimeout: '120s',
    teardownTimeout: '120s',
  };
}

interface Metrics {
  steps: Map<string, Trend>;
  errors: Map<string, Counter>;
  unexpected: { rate: Rate; step?: string; expected: string[] }[];
  notApplicable: Map<string, Counter>;
  notJudged: Map<string, Counter>;
  ceilings: Map<string, { limit: Trend; sure: Trend }>;
  remaining: Trend;
}

/** Custom metrics must exist before the run (init context), so every step × code counter is made up front. */
function declareMetrics(scenario: AnyScenario): Metrics {
  const errors = new Map<string, Counter>();
  for (const step of scenario.steps) {
    for (const code of K6_ERROR_CODES) errors.set(errorMetric(step, code), new Counter(errorMetric(step, code)));
  }
  return {
    steps: new Map(scenario.steps.map((step) => [step, new Trend(stepMetric(step), true)])),
    errors,
    unexpected: scenario.thresholds.flatMap((threshold, index) =>
      threshold.kind === 'unexpected-rate'
        ? [
            {
              rate: new Rate(unexpectedMetric(index)),
              expected: threshold.expected,
              ...(threshold.step ? { step: threshold.step } : {}),
            },
          ]
        : [],
    ),
    notApplicable: new Map(
      scenario.checks.map((check, index) => [check.name, new Counter(notApplicableMetric(index))]),
    ),
    notJudged: new Map(scenario.checks.map((check, index) => [check.name, new Counter(notJudgedMetric(index))])),
    ceilings: new Map(
      scenario.checks.flatMap((check, index) =>
        check.reached
          ? [[check.name, { limit: new Trend(ceilingLimitMetric(index)), sure: new Trend(ceilingSureMetric(index)) }]]
          : [],
      ),
    ),
    remaining: new Trend(REMAINING_METRIC),
  };
}

function toResponse(res: {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  error: string;
}): HttpResponseData {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) headers[name.toLowerCase()] = value;
  const out: HttpResponseData = { status: res.status, headers, body: typeof res.body === 'string' ? res.body : '' };
  if (res.status === 0) out.error = res.error;
  return out;
}

function k6Http(metrics: Metrics): LoadHttp {
  return {
    async request(spec: HttpRequestSpec): Promise<HttpResponseData> {
      const raw = await http.asyncRequest(spec.method, spec.url, spec.body ?? null, {
        headers: spec.headers ?? {},
        responseType: 'text',
        timeout: '30s',
        tags: spec.step ? { step: spec.step } : {},
      });
      const res = toResponse(raw);
      if (spec.step !== undefined) {
        const step = spec.step;
        // k6 measures from the actual send (its arrival-rate executors count late starts as dropped iterations).
        metrics.steps.get(step)?.add(raw.timings.duration);
        const code = isSuccess(res) ? undefined : errorCodeOf(res);
        if (code !== undefined) metrics.errors.get(errorMetric(step, k6Code(code)))?.add(1);
        for (const u of metrics.unexpected) {
          if (u.step === undefined || u.step === step) u.rate.add(code !== undefined && !u.expected.includes(code));
        }
      }
      return res;
    },
  };
}

function context(
  scenario: AnyScenario,
  target: LoadTarget,
  http: LoadHttp,
  metrics: Metrics,
  runId: string,
): RunContext {
  const declared = new Set(scenario.checks.map((c) => c.name));
  const logged = new Map<string, number>();
  return {
    target,
    http,
    runId,
    check(name, ok, detail) {
      if (!declared.has(name)) throw new Error(`scenario ${scenario.id} evaluates an undeclared check: ${name}`);
      check(ok, { [name]: (value) => value === true });
      const times = logged.get(name) ?? 0;
      if (!ok && times < FAILURE_LOGS_PER_CHECK) {
        logged.set(name, times + 1);
        console.warn(`check failed: ${name}: ${detail ?? ''}`);
      }
      return ok;
    },
    notApplicable(name, reason) {
      metrics.notApplicable.get(name)?.add(1);
      console.log(`not applicable: ${name}: ${reason}`);
    },
    notJudged(name, reason) {
      metrics.notJudged.get(name)?.add(1);
      console.log(`not judged: ${name}: ${reason}`);
    },
    ceiling(name, stated) {
      const trends = metrics.ceilings.get(name);
      if (!trends) throw new Error(`scenario ${scenario.id} states a ceiling of no ceiling check: ${name}`);
      // handleSummary sees only the metrics: the largest limit and sureAfter stated (the source stays in the log).
      trends.limit.add(stated.limit);
      trends.sure.add(stated.sureAfter);
      console.log(`ceiling: ${name}: ${stated.source} states ${stated.limit} a minute`);
    },
    remaining(client, value) {
      metrics.remaining.add(value, { client });
    },
    sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    has: (capability) => K6_CAPABILITIES.includes(capability),
    log: (message) => console.log(message),
  };
}

/** The exports of an entry script for one scenario. */
export function k6Entry(scenario: AnyScenario) {
  const configFile = __ENV.TARGET_CONFIG;
  if (!configFile) throw new Error('set TARGET_CONFIG to the target config file (absolute path): -e TARGET_CONFIG=…');
  const target = parseK6Target(open(configFile), __ENV);
  assertTargetAllowed(target);
  const options = loadOptions(scenario);
  assertOptionsBounded(options);
  const phases = scenario.phases(options);
  assertPhasesBounded(phases);
  const metrics = declareMetrics(scenario);
  const httpClient = k6Http(metrics);
  const memo = new Map<string, unknown>();

  return {
    options: k6Options(scenario, phases),
    async setup(): Promise<SetupData> {
      const runId = randomHex(8);
      const shared = await scenario.setup(context(scenario, target, httpClient, metrics, runId), options);
      return { runId, shared };
    },
    async run(data: SetupData): Promise<void> {
      const phase = phases.find((p) => p.name === execution.scenario.name);
      if (!phase) throw new Error(`no phase ${execution.scenario.name}`);
      const closed = phase.arrival.kind !== 'constant-arrival-rate';
      const vus = closed && 'vus' in phase.arrival ? phase.arrival.vus : 0;
      const ctx: VuContext<unknown> = {
        ...context(scenario, target, httpClient, metrics, data.runId),
        vu: closed ? ((execution.vu.idInTest - 1) % vus) + 1 : execution.vu.idInTest,
        iteration: execution.scenario.iterationInTest,
        shared: data.shared,
        memo<T>(key: string, create: () => T): T {
          if (!memo.has(key)) memo.set(key, create());
          return memo.get(key) as T;
        },
      };
      await phase.exec(ctx);
    },
    async teardown(data: SetupData): Promise<void> {
      await scenario.teardown?.(context(scenario, target, httpClient, metrics, data.runId), data.shared);
    },
    handleSummary(data: K6SummaryData): Record<string, string> {
      return summaryOutputs(scenario, phases, target, data, __ENV.LOAD_OUT || `reports/load/${scenario.id}.k6.json`);
    },
  };
}
