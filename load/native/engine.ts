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

/** The run's check tallies and stated ceilings, as the scenario code reports them through its context. */
class CheckLedger {
  readonly tallies: Record<string, CheckTally> = {};
  readonly ceilings: Record<string, StatedCeiling> = {};
  private readonly declared: Set<string>;
  private readonly ceilingChecks: Set<string>;

  constructor(private readonly scenario: AnyScenario) {
    this.declared = new Set(scenario.checks.map((check) => check.name));
    this.ceilingChecks = new Set(scenario.checks.filter((check) => check.reached).map((check) => check.name));
  }

  tally(name: string): CheckTally {
    if (!this.declared.has(name))
      throw new Error(`scenario ${this.scenario.id} evaluates an undeclared check: ${name}`);
    this.tallies[name] ??= { passes: 0, fails: 0 };
    return this.tallies[name];
  }

  check(name: string, ok: boolean, detail: string | undefined): boolean {
    const t = this.tally(name);
    if (ok) t.passes += 1;
    else {
      t.fails += 1;
      t.firstFailure ??= detail ?? 'failed';
    }
    return ok;
  }

  ceiling(name: string, stated: StatedCeiling): void {
    if (!this.ceilingChecks.has(name))
      throw new Error(`scenario ${this.scenario.id} states a ceiling of no ceiling check: ${name}`);
    if (stated.sureAfter >= (this.ceilings[name]?.sureAfter ?? Number.NEGATIVE_INFINITY)) this.ceilings[name] = stated;
  }
}

/** Iterations that threw: every one counted, only the first few messages kept for the run's note. */
class ErrorSample {
  static readonly KEPT = 5;
  count = 0;
  readonly messages: string[] = [];

  add(phase: string, error: unknown): void {
    // The message is read only while it is kept, and a throw reading it leaves the count as it was.
    if (this.messages.length < ErrorSample.KEPT) this.messages.push(`${phase}: ${(error as Error).message}`);
    this.count += 1;
  }
}

interface ContextParts {
  run: NativeRunOptions;
  runId: string;
  ledger: CheckLedger;
  /** The run's stats once the load starts (none during setup). */
  stats: () => RunStats | undefined;
  log: (message: string) => void;
}

function runContext(http: LoadHttp, { run, runId, ledger, stats, log }: ContextParts): RunContext {
  return {
    target: run.target,
    http,
    runId,
    check: (name, ok, detail) => ledger.check(name, ok, detail),
    notApplicable(name, reason) {
      ledger.tally(name).notApplicable ??= reason;
    },
    notJudged(name, reason) {
      ledger.tally(name).notJudged ??= reason;
    },
    ceiling: (name, stated) => ledger.ceiling(name, stated),
    remaining(client, value) {
      stats()?.observeRemaining(client, value, performance.now());
    },
    sleep: (ms) => sleep(ms),
    has: (capability) => NATIVE_CAPABILITIES.includes(capability),
    log,
  };
}

type IterationBase = Omit<VuContext<unknown>, 'http' | 'vu' | 'iteration'>;

/** The run's context with `shared` and a run-wide `memo`: what every iteration's context inherits. */
function iterationBaseOf(plain: RunContext, shared: unknown, memos: Map<string, unknown>): IterationBase {
  return {
    ...plain,
    shared,
    memo<T>(key: string, create: () => T): T {
      if (!memos.has(key)) memos.set(key, create());
      return memos.get(key) as T;
    },
  };
}

/** One phase: starts its iterations by its arrival model on the dispatchers its connection mode asks for. */
class PhaseRunner {
  // A VU on a connection of its own keeps its dispatchers (per origin and source address) for the phase, so a
  // request costs no key string or map lookup of the shared table.
  private readonly vuDispatchers = new Map<number, Map<string, Dispatcher>>();

  constructor(
    private readonly phase: PhaseDefinition<unknown>,
    private readonly dispatchers: Dispatchers,
    private readonly recorder: RunStats,
    private readonly iterationBase: IterationBase,
    private readonly errors: ErrorSample,
  ) {}

  /** Runs the phase to its end; resolves to the iterations dropped. */
  run(): Promise<number> {
    const { arrival } = this.phase;
    return arrival.kind === 'constant-arrival-rate'
      ? openModel(arrival, this.launch)
      : closedModel(arrival, this.launch);
  }

  pick(vu: number, url: string, sourceAddress: number | undefined): Dispatcher {
    if (!this.phase.connectionPerVu) return this.dispatchers.shared(sourceAddress);
    let mine = this.vuDispatchers.get(vu);
    if (!mine) {
      mine = new Map();
      this.vuDispatchers.set(vu, mine);
    }
    const origin = originOf(url);
    const key = sourceAddress === undefined ? origin : `${origin} ${sourceAddress}`;
    let dispatcher = mine.get(key);
    if (!dispatcher) {
      dispatcher = this.dispatchers.ownConnection(`${this.phase.name}:${vu}`, origin, sourceAddress);
      mine.set(key, dispatcher);
    }
    return dispatcher;
  }

  readonly launch: Launch = (vu, iteration, scheduledAt) => {
    const http = this.iterationHttp(vu, scheduledAt);
    // The run's context with this iteration's own fields (no per-iteration copy of the closures).
    const ctx = Object.assign(Object.create(this.iterationBase) as VuContext<unknown>, { http, vu, iteration });
    try {
      return this.phase.exec(ctx).catch((error) => this.failed(error));
    } catch (error) {
      this.failed(error);
      return Promise.resolve();
    }
  };

  private iterationHttp(vu: number, scheduledAt: number | undefined): LoadHttp {
    // Requests issued before the iteration's first response are measured from its scheduled start.
    let intended = scheduledAt;
    return {
      request: (spec) => {
        const start = intended ?? performance.now();
        return send(this.pick(vu, spec.url, spec.sourceAddress), spec).then((res) => {
          intended = undefined;
          if (spec.step !== undefined) {
            this.recorder.record(
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
  }

  private failed(error: unknown): void {
    this.errors.add(this.phase.name, error);
  }
}

function checkedPhases(scenario: AnyScenario, run: NativeRunOptions): PhaseDefinition<unknown>[] {
  assertTargetAllowed(run.target);
  assertOptionsBounded(run.options);
  const phases = scenario.phases(run.options);
  assertPhasesBounded(phases);
  return phases;
}

function dispatchersFor(scenario: AnyScenario, run: NativeRunOptions): Dispatchers {
  return new Dispatchers({
    connections: run.connections ?? 256,
    timeoutMs: run.timeoutMs ?? 30_000,
    ...(scenario.sourceAddresses ? { sourceAddresses: scenario.sourceAddresses } : {}),
  });
}

/** Runs the phases one after the other; resolves to the iterations dropped in all. */
async function runPhases(
  phases: PhaseDefinition<unknown>[],
  dispatchers: Dispatchers,
  recorder: RunStats,
  iterationBase: IterationBase,
  errors: ErrorSample,
): Promise<number> {
  let dropped = 0;
  for (const phase of phases) {
    const runner = new PhaseRunner(phase, dispatchers, recorder, iterationBase, errors);
    iterationBase.log(`phase ${phase.name}: ${describePhases([phase])[0]?.arrival}`);
    dropped += await runner.run();
  }
  return dropped;
}

/** Finishes the memos that ask for it, tears down, and notes what went wrong on the scenario's side. */
async function closeRun(
  scenario: AnyScenario,
  plain: RunContext,
  shared: unknown,
  memos: Map<string, unknown>,
  errors: ErrorSample,
): Promise<string[]> {
  for (const value of memos.values()) {
    if (typeof (value as Partial<Finishable>)?.finish === 'function') (value as Finishable).finish(plain);
  }
  const notes: string[] = [];
  try {
    await scenario.teardown?.(plain, shared);
  } catch (error) {
    notes.push(`teardown failed: ${(error as Error).message}`);
  }
  if (errors.count > 0) {
    notes.push(`${errors.count} iterations threw (scenario code, not the target): ${errors.messages.join('; ')}`);
  }
  return notes;
}

interface RunOutcome {
  phases: PhaseDefinition<unknown>[];
  ledger: CheckLedger;
  recorder: RunStats;
  startedAt: Date;
  loadStart: number;
  loadDurationMs: number;
  dropped: number;
  notes: string[];
}

function resultOf(scenario: AnyScenario, run: NativeRunOptions, outcome: RunOutcome): LoadScenarioResult {
  const { phases, ledger, recorder, notes } = outcome;
  const byName = new Map(recorder.stepResults(outcome.loadDurationMs).map((step) => [step.name, step]));
  const steps = [...byName.values()].sort((a, b) => scenario.steps.indexOf(a.name) - scenario.steps.indexOf(b.name));
  const result = assembleResult({
    scenario,
    engine: 'native',
    target: { baseUrl: run.target.baseUrl, embedded: run.embedded },
    startedAt: outcome.startedAt.toISOString(),
    durationMs: performance.now() - outcome.loadStart,
    phases: describePhases(phases),
    steps,
    checks: checkResults(scenario, ledger.tallies, NATIVE_CAPABILITIES, 'native', {
      steps,
      ceilings: ledger.ceilings,
    }),
    droppedIterations: outcome.dropped,
    series: recorder.series(),
    notes,
  });
  if (notes.length > 0) result.passed = false;
  return result;
}

export async function runNative(scenario: AnyScenario, run: NativeRunOptions): Promise<LoadScenarioResult> {
  const phases = checkedPhases(scenario, run);
  const log = run.log ?? (() => {});
  const ledger = new CheckLedger(scenario);
  const memos = new Map<string, unknown>();
  const dispatchers = dispatchersFor(scenario, run);
  let stats: RunStats | undefined;
  const runId = run.runId ?? randomBytes(4).toString('hex');
  const plain = runContext(plainHttp(dispatchers), { run, runId, ledger, stats: () => stats, log });
  const startedAt = new Date();
  try {
    const shared = await scenario.setup(plain, run.options);
    const loadStart = performance.now();
    stats = new RunStats(scenario.steps, loadStart, bucketIntervalMs(plannedDurationMs(phases)));
    const recorder = stats;
    const errors = new ErrorSample();
    const iterationBase = iterationBaseOf(plain, shared, memos);
    const dropped = await runPhases(phases, dispatchers, recorder, iterationBase, errors);
    const loadDurationMs = performance.now() - loadStart;
    const notes = await closeRun(scenario, plain, shared, memos, errors);
    return resultOf(scenario, run, { phases, ledger, recorder, startedAt, loadStart, loadDurationMs, dropped, notes });
  } finally {
    await dispatchers.close();
  }
}
