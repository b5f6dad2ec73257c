/**
 * The native engine: runs a scenario on undici with HDR histograms.
 *
 * Open-model phases start iterations on a fixed schedule whatever the target does, and the first requests of an
 * iteration are measured from its scheduled start, not from when the engine got round to sending them. A slow
 * target (or a busy engine) therefore shows up as latency instead of silently lowering the request rate: the
 * coordinated-omission correction of wrk2, applied at the source rather than by back-filling histogram values
 * (hdr's recordValueWithExpectedInterval), which would assume a closed loop we do not run.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import type { LoadScenarioResult } from '../../harness/report/model.ts';
import type {
  AnyScenario,
  ArrivalModel,
  Capability,
  Finishable,
  LoadHttp,
  LoadOptions,
  LoadTarget,
  PhaseDefinition,
  RunContext,
  StatedCeiling,
  VuContext,
} from '../engine-neutral/model.ts';
import { errorCodeOf, isSuccess } from '../engine-neutral/partner-api.ts';
import { assembleResult, type CheckTally, checkResults, describePhases } from '../engine-neutral/results.ts';
import { assertOptionsBounded, assertPhasesBounded, assertTargetAllowed } from '../engine-neutral/safety.ts';
import { Dispatchers, originOf, plainHttp, send } from './http.ts';
import { bucketIntervalMs, RunStats } from './stats.ts';

export const NATIVE_CAPABILITIES: readonly Capability[] = ['source-address', 'shared-memory'];

export interface NativeRunOptions {
  target: LoadTarget;
  embedded: boolean;
  options: LoadOptions;
  /** Connections per origin of the shared pool (default 256). */
  connections?: number;
  /** Per request, headers and body each (default 30 s). */
  timeoutMs?: number;
  log?: (message: string) => void;
  runId?: string;
}

type Launch = (vu: number, iteration: number, scheduledAt: number | undefined) => Promise<void>;

/** Open model: iteration i is due at start + i / rate; everything due is started at once, late or not. */
async function openModel(arrival: Extract<ArrivalModel, { kind: 'constant-arrival-rate' }>, launch: Launch) {
  const start = performance.now();
  const total = Math.round(arrival.rate * arrival.durationS);
  const gap = 1000 / arrival.rate;
  const running = new Set<Promise<void>>();
  let dropped = 0;
  let i = 0;
  while (i < total) {
    const now = performance.now();
    const due = start + i * gap;
    if (due > now) {
      await sleep(Math.max(1, due - now));
      continue;
    }
    for (; i < total && start + i * gap <= now; i++) {
      // Like k6's maxVUs: beyond the in-flight bound an iteration is dropped (and counted), not queued forever.
      if (running.size >= arrival.maxInFlight) {
        dropped += 1;
        continue;
      }
      const iteration: Promise<void> = launch((i % arrival.maxInFlight) + 1, i, start + i * gap).finally(() =>
        running.delete(iteration),
      );
      running.add(iteration);
    }
  }
  await Promise.all(running);
  return dropped;
}

/** Closed models: each VU runs its iterations back to back until its count or the deadline. */
async function closedModel(
  arrival: Exclude<ArrivalModel, { kind: 'constant-arrival-rate' }>,
  launch: Launch,
): Promise<number> {
  const seconds = arrival.kind === 'per-vu-iterations' ? arrival.maxDurationS : arrival.durationS;
  const deadline = performance.now() + seconds * 1000;
  const iterations = arrival.kind === 'per-vu-iterations' ? arrival.iterations : Number.POSITIVE_INFINITY;
  let dropped = 0;
  await Promise.all(
    Array.from({ length: arrival.vus }, async (_, v) => {
      for (let i = 0; i < iterations; i++) {
        if (performance.now() >= deadline) {
          if (arrival.kind === 'per-vu-iterations') dropped += iterations - i;
          return;
        }
        await launch(v + 1, i, undefined);
      }
    }),
  );
  return dropped;
}

function plannedDurationMs(phases: PhaseDefinition<unknown>[]): number {
  return phases.reduce(
    (sum, { arrival }) =>
      sum + 1000 * (arrival.kind === 'per-vu-iterations' ? arrival.maxDurationS : arrival.durationS),
    0,
  );
}

export async function runNative(scenario: AnyScenario, run: NativeRunOptions): Promise<LoadScenarioResult> {
  assertTargetAllowed(run.target);
  assertOptionsBounded(run.options);
  const phases = scenario.phases(run.options);
  assertPhasesBounded(phases);

  const log = run.log ?? (() => {});
  const declared = new Set(scenario.checks.map((check) => check.name));
  const tallies: Record<string, CheckTally> = {};
  const tally = (name: string): CheckTally => {
    if (!declared.has(name)) throw new Error(`scenario ${scenario.id} evaluates an undeclared check: ${name}`);
    tallies[name] ??= { passes: 0, fails: 0 };
    return tallies[name];
  };
  const ceilingChecks = new Set(scenario.checks.filter((check) => check.reached).map((check) => check.name));
  const ceilings: Record<string, StatedCeiling> = {};
  const memos = new Map<string, unknown>();
  const dispatchers = new Dispatchers({
    connections: run.connections ?? 256,
    timeoutMs: run.timeoutMs ?? 30_000,
    ...(scenario.sourceAddresses ? { sourceAddresses: scenario.sourceAddresses } : {}),
  });
  let stats: RunStats | undefined;
  const runId = run.runId ?? randomBytes(4).toString('hex');

  const context = (http: LoadHttp): RunContext => ({
    target: run.target,
    http,
    runId,
    check(name, ok, detail) {
      const t = tally(name);
      if (ok) t.passes += 1;
      else {
        t.fails += 1;
        t.firstFailure ??= detail ?? 'failed';
      }
      return ok;
    },
    notApplicable(name, reason) {
      tally(name).notApplicable ??= reason;
    },
    notJudged(name, reason) {
      tally(name).notJudged ??= reason;
    },
    ceiling(name, stated) {
      if (!ceilingChecks.has(name))
        throw new Error(`scenario ${scenario.id} states a ceiling of no ceiling check: ${name}`);
      if (stated.sureAfter >= (ceilings[name]?.sureAfter ?? Number.NEGATIVE_INFINITY)) ceilings[name] = stated;
    },
    remaining(client, value) {
      stats?.observeRemaining(client, value, performance.now());
    },
    sleep: (ms) => sleep(ms),
    has: (capability) => NATIVE_CAPABILITIES.includes(capability),
    log,
  });

  const plain = context(plainHttp(dispatchers));
  const startedAt = new Date();
  try {
    const shared = await scenario.setup(plain, run.options);
    const loadStart = performance.now();
    stats = new RunStats(scenario.steps, loadStart, bucketIntervalMs(plannedDurationMs(phases)));
    const recorder = stats;
    let dropped = 0;
    const iterationErrors: string[] = [];
    const iterationBase: Omit<VuContext<unknown>, 'http' | 'vu' | 'iteration'> = {
      ...plain,
      shared,
      memo<T>(key: string, create: () => T): T {
        if (!memos.has(key)) memos.set(key, create());
        return memos.get(key) as T;
      },
    };

    for (const phase of phases) {
      // A VU on a connection of its own keeps its dispatchers (per origin and source address) for the phase, so a
      // request costs no key string or map lookup of the shared table.
      const vuDispatchers = new Map<number, Map<string, Dispatcher>>();
      const pick = (vu: number, url: string, sourceAddress: number | undefined): Dispatcher => {
        if (!phase.connectionPerVu) return dispatchers.shared(sourceAddress);
        let mine = vuDispatchers.get(vu);
        if (!mine) {
          mine = new Map();
          vuDispatchers.set(vu, mine);
        }
        const origin = originOf(url);
        const key = sourceAddress === undefined ? origin : `${origin} ${sourceAddress}`;
        let dispatcher = mine.get(key);
        if (!dispatcher) {
          dispatcher = dispatchers.ownConnection(`${phase.name}:${vu}`, origin, sourceAddress);
          mine.set(key, dispatcher);
        }
        return dispatcher;
      };
      const failed = (error: unknown) => {
        if (iterationErrors.length < 5) iterationErrors.push(`${phase.name}: ${(error as Error).message}`);
        else iterationErrors.push('');
      };
      const launch: Launch = (vu, iteration, scheduledAt) => {
        // Requests issued before the iteration's first response are measured from its scheduled start.
        let intended = scheduledAt;
        const http: LoadHttp = {
          request(spec) {
            const start = intended ?? performance.now();
            return send(pick(vu, spec.url, spec.sourceAddress), spec).then((res) => {
              intended = undefined;
              if (spec.step !== undefined) {
                recorder.record(
                  spec.step,
                  start,
                  performance.now(),
                  res.status,
                  isSuccess(res) ? undefined : errorCodeOf(res),
                );
              }
              return res;
            });
          },
        };
        // The run's context with this iteration's own fields (no per-iteration copy of the closures).
        const ctx = Object.assign(Object.create(iterationBase) as VuContext<unknown>, { http, vu, iteration });
        try {
          return phase.exec(ctx).catch(failed);
        } catch (error) {
          failed(error);
          return Promise.resolve();
        }
      };
      log(`phase ${phase.name}: ${describePhases([phase])[0]?.arrival}`);
      dropped +=
        phase.arrival.kind === 'constant-arrival-rate'
          ? await openModel(phase.arrival, launch)
          : await closedModel(phase.arrival, launch);
    }
    const loadDurationMs = performance.now() - loadStart;

    for (const value of memos.values()) {
      if (typeof (value as Partial<Finishable>)?.finish === 'function') (value as Finishable).finish(plain);
    }
    const notes: string[] = [];
    try {
      await scenario.teardown?.(plain, shared);
    } catch (error) {
      notes.push(`teardown failed: ${(error as Error).message}`);
    }
    if (iterationErrors.length > 0) {
      notes.push(
        `${iterationErrors.length} iterations threw (scenario code, not the target): ${iterationErrors.filter(Boolean).join('; ')}`,
      );
    }
    const byName = new Map(recorder.stepResults(loadDurationMs).map((step) => [step.name, step]));
    const steps = [...byName.values()].sort((a, b) => scenario.steps.indexOf(a.name) - scenario.steps.indexOf(b.name));
    const result = assembleResult({
      scenario,
      engine: 'native',
      target: { baseUrl: run.target.baseUrl, embedded: run.embedded },
      startedAt: startedAt.toISOString(),
      durationMs: performance.now() - loadStart,
      phases: describePhases(phases),
      steps,
      checks: checkResults(scenario, tallies, NATIVE_CAPABILITIES, 'native', { steps, ceilings }),
      droppedIterations: dropped,
      series: recorder.series(),
      notes,
    });
    if (notes.length > 0) result.passed = false;
    return result;
  } finally {
    await dispatchers.close();
  }
}
