import type { Role } from '../../contract/vocabulary.ts';
/**
 * A load scenario, defined once and run by two engines (the native engine in load/native/ and k6 through the entry
 * scripts in load/k6/). Everything here runs on both: no Node API, no k6 API, no DOM (the k6 tsconfig proves it).
 */

/** The credential roles of a target config (harness/config/target-config.ts), by name. */

export interface LoadTarget {
  /** Service address, without the API prefix. */
  baseUrl: string;
  clients: Partial<Record<Role, { clientId: string; clientSecret: string }>>;
  control?: { baseUrl?: string; token: string };
  /** The user owns the target: load may be sent to it even when it is not on this machine. */
  owned?: boolean;
  /**
   * Ceilings the target's answers do not show (spec 8.16b: the token endpoint sends no X-RateLimit-*;
   * spec 8: ceilings not shown), as its config states them (`ceilings` of the target config file; for the embedded target, the server
   * environment the load run starts it with). Absent: not known, so a ceiling not reached is not judged.
   */
  ceilings?: TargetCeilings;
}

/** Requests a minute (the reference's windows; spec 8.14 describes the business windows as one minute). */
export interface TargetCeilings {
  tokenPerClientPerMinute?: number;
  tokenPerAddressPerMinute?: number;
}

/**
 * A ceiling as the target states it: X-RateLimit-Limit of its answers, or its config (TargetCeilings). `sureAfter`:
 * requests of the ceiling's step after which a refusal must have come, however the run's windows fell (the limit
 * times the windows the run may span).
 */
export interface StatedCeiling {
  limit: number;
  /** Where the limit was read, for the result's words: 'X-RateLimit-Limit', 'the target config'. */
  source: string;
  sureAfter: number;
}

/** How iterations start. */
export type ArrivalModel =
  /** Open model: `rate` iterations a second whatever the responses do (latency from the scheduled start). */
  | { kind: 'constant-arrival-rate'; rate: number; durationS: number; maxInFlight: number }
  /** Closed model: `vus` virtual users each run `iterations` iterations back to back. */
  | { kind: 'per-vu-iterations'; vus: number; iterations: number; maxDurationS: number }
  /** Closed model: `vus` virtual users loop for `durationS` (used to find an engine's top rate). */
  | { kind: 'constant-vus'; vus: number; durationS: number };

/** What an engine can do; a check that needs more is not applicable on it. */
export type Capability =
  /** Choose the source address of each request (native: undici `localAddress`; k6 only has --local-ips per VU). */
  | 'source-address'
  /** See every response of the scenario in one memory (k6 VUs each see only their own). */
  | 'shared-memory';

export interface HttpRequestSpec {
  method: string;
  /** Absolute URL. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** The scenario step this request belongs to (its statistics); none: not measured (setup, probes). */
  step?: string;
  /** Index into the scenario's source addresses (only with the 'source-address' capability). */
  sourceAddress?: number;
  /** Client label for the X-RateLimit-Remaining series. */
  client?: string;
}

export interface HttpResponseData {
  /** 0 when no response arrived (connection refused, reset, timeout). */
  status: number;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: string;
  /** Transport failure, when status is 0. */
  error?: string;
}

export interface LoadHttp {
  request(spec: HttpRequestSpec): Promise<HttpResponseData>;
}

/** What scenario code sees, in setup, in each iteration and in teardown. */
export interface RunContext {
  target: LoadTarget;
  http: LoadHttp;
  /** Records one evaluation of a declared check; returns `ok`. `detail` explains a failure. */
  check(name: string, ok: boolean, detail?: string): boolean;
  /** Marks a declared check as not applicable in this run (it is then only reported, never failed). */
  notApplicable(name: string, reason: string): void;
  /**
   * Marks a declared check as not judged: what it needs did not happen within the run's bounds (a ceiling not
   * reached). Reported as such, never failed; a failure recorded for the check still fails it.
   */
  notJudged(name: string, reason: string): void;
  /** The ceiling of a declared `reached` check as the target states it (the largest `sureAfter` stated is kept). */
  ceiling(name: string, stated: StatedCeiling): void;
  /** Records an X-RateLimit-Remaining observation for the plots. */
  remaining(client: string, value: number): void;
  sleep(ms: number): Promise<void>;
  has(capability: Capability): boolean;
  /** The run's id (used in partner references and idempotency keys). */
  runId: string;
  log(message: string): void;
}

export interface VuContext<S> extends RunContext {
  /** 1-based virtual user number within the phase (arrival-rate phases: the iteration's slot). */
  vu: number;
  /** 0-based iteration number (per VU for closed models, global for arrival-rate phases). */
  iteration: number;
  shared: S;
  /**
   * State kept across iterations: one value per key for the whole run on the native engine, one per VU on k6.
   * A value with a `finish(ctx)` method is finished once after the last phase (native engine).
   */
  memo<T>(key: string, create: () => T): T;
}

export interface Finishable {
  finish(ctx: RunContext): void;
}

export interface PhaseDefinition<S> {
  /** k6 scenario name as well: letters, digits and underscores. */
  name: string;
  arrival: ArrivalModel;
  /** Each VU (1-based) gets its own connection rather than a shared pool (native engine). */
  connectionPerVu?: boolean;
  /**
   * k6 only: the most VUs the phase may use. A phase whose checks need to see every response (one k6 VU's memory
   * holds only its own) sets 1; k6 then counts the iterations it could not start as dropped.
   */
  k6MaxVus?: number;
  exec(ctx: VuContext<S>): Promise<void>;
}

export interface CheckDefinition {
  name: string;
  description: string;
  /** Capabilities without which the check cannot be judged (then not applicable). */
  needs?: Capability[];
  /**
   * A ceiling check, judged from the run's counts rather than by scenario code: passed when a response of `step` was
   * refused with `code` (the ceiling was reached); failed when none was although the target stated a ceiling the
   * step's requests went past (RunContext.ceiling: `sureAfter`); otherwise not judged (spec 8: ceilings not shown,
   * so a ceiling higher than the run's bounds reach says nothing about the target).
   */
  reached?: { step: string; code: string };
  /**
   * Names of ceiling checks (`reached`) this check needs: when none of them was reached, a check never evaluated is
   * not judged instead of failed (it judges what comes after a refusal, and none came).
   */
  afterCeiling?: string[];
}

/** A bound on a measured value. */
export type ThresholdDefinition =
  | { kind: 'latency'; step: string; stat: 'p50' | 'p90' | 'p99' | 'max'; belowMs: number }
  /** Responses of `step` (all steps when absent) that are neither 2xx nor one of `expected` codes, as a fraction. */
  | { kind: 'unexpected-rate'; step?: string; expected: string[]; atMost: number }
  /** Responses of `step` answered with error `code`. */
  | { kind: 'code-count'; step: string; code: string; atLeast?: number; atMost?: number }
  | { kind: 'dropped-iterations'; atMost: number };

export interface LoadOptions {
  /** Iterations a second (arrival-rate phases) or virtual users (closed phases), per the scenario's own knob. */
  rate: number;
  durationS: number;
}

export interface ScenarioDefinition<S> {
  id: string;
  title: string;
  description: string;
  /** What --rate means for this scenario. */
  rateMeaning: string;
  defaults: LoadOptions;
  /** Short settings for CI runs against the reference implementation. */
  ci: LoadOptions;
  /** The request steps, in sequence order. */
  steps: string[];
  checks: CheckDefinition[];
  thresholds: ThresholdDefinition[];
  roles: Role[];
  /** Loopback source addresses the scenario binds (with the 'source-address' capability). */
  sourceAddresses?: string[];
  /** Environment for the embedded reference implementation (e.g. low token-endpoint limits). */
  embeddedEnv?: Record<string, string>;
  setup(ctx: RunContext, options: LoadOptions): Promise<S>;
  phases(options: LoadOptions): PhaseDefinition<S>[];
  teardown?(ctx: RunContext, shared: S): Promise<void>;
}

/** Any scenario, whatever its shared data (the registry and engines handle them alike). */
// biome-ignore lint/suspicious/noExplicitAny: the shared data is opaque outside its own scenario
export type AnyScenario = ScenarioDefinition<any>;
