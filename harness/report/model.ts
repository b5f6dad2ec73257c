import type { Evidence, Level, NotApplicableReason, Outcome, Profile } from '../check/meta.ts';
import type { Representation } from '../http/representation.ts';

/**
 * The one report model every renderer reads (JSON, JUnit XML, Markdown, HTML). Stable and diffable: arrays are
 * in catalogue order, no timestamps inside results, and secrets never enter it.
 */
export interface ReportModel {
  /** Version of this model's shape (its JSON Schema is report-model.schema.json). */
  schemaVersion: 1;
  tool: { name: string; version: string };
  spec: { release: string };
  target: { baseUrl: string; embedded: boolean };
  profile: Profile;
  options: { allowBookings: boolean; strict: boolean; seed: number; runs: number; date: string; only: string[] };
  timing: { startedAt: string; finishedAt: string; durationMs: number };
  verdict: {
    /** true when no MUST check failed or errored (and with --strict, no SHOULD check warned). */
    passed: boolean;
    counts: Record<Outcome, number>;
    /** Failures covered by a waiver (listed apart, not counted as failures). */
    waived: number;
  };
  coverage: {
    /** Clauses with at least one check that ran (pass, fail, warn or error), over all clauses of the catalogue. */
    clausesWithRunCheck: number;
    clausesTotal: number;
    ratio: number;
  };
  /** One entry per section of the spec (e.g. '4.7'), in spec order. */
  sections: ReportSection[];
  waivers: ReportWaiver[];
  /** Reservations the run created and could not cancel (book profile). */
  leftovers: string[];
  /**
   * Added by the report module: problems of the harness itself that no check owns (a suite file that did not load,
   * a failing hook, an unhandled error, a test that is not a check). Any entry fails the verdict: checks may be missing.
   */
  harnessErrors?: ReportHarnessError[];
  /** Added by the load harness (load/): load scenario results shown next to the conformance verdict. */
  load?: LoadScenarioResult[];
}

export interface ReportHarnessError {
  message: string;
  /** Suite file (relative to the project root) when the problem belongs to one. */
  file?: string;
  /** Test or suite name when the problem belongs to one. */
  test?: string;
}

export interface ReportSection {
  id: string;
  title: string;
  /** Checks by outcome; waived checks are not counted here but in `waived`. */
  counts: Record<Outcome, number>;
  /** Added by the report module: failures of this section covered by a waiver. */
  waived?: number;
  clauses: ReportClause[];
}

export interface ReportClause {
  id: string;
  title: string;
  text: string;
  level: Level;
  /** Worst outcome of its checks, or 'not-checked' when the catalogue clause has no check yet. */
  outcome: Outcome | 'not-checked';
  /** Added by the report module: true when every failed or errored check of the clause is waived. */
  waived?: boolean;
  checks: ReportCheck[];
}

export interface ReportCheck {
  /** Stable id: `<clauseId>/<test name>[/<representation>]`, used by --replay and waivers. */
  id: string;
  name: string;
  file: string;
  representation?: Representation;
  /** Added by the report module: the level the check judged at (the clause's unless the check overrode it). */
  level?: Level;
  outcome: Outcome;
  waived?: { reason: string; expires: string };
  notApplicable?: NotApplicableReason;
  durationMs: number;
  evidence?: Evidence;
}

export interface ReportWaiver {
  clauseId: string;
  reason: string;
  expires: string;
  /** 'used': covered a failure; 'unused-passing': its checks pass now, the waiver can go; 'expired'. */
  status: 'used' | 'unused-passing' | 'unused' | 'expired';
}

/**
 * One load scenario run (load/): the one result shape both engines write, the native engine and k6's handleSummary.
 * Latencies in milliseconds; the native engine measures them from each iteration's scheduled start (coordinated
 * omission corrected), k6 from the actual send.
 */
export interface LoadScenarioResult {
  schemaVersion: 1;
  /** Scenario id, e.g. 'rate-limit'. */
  scenario: string;
  title: string;
  engine: 'native' | 'k6';
  target: { baseUrl: string; embedded: boolean };
  startedAt: string;
  durationMs: number;
  /** Each phase with its arrival model in words, in run order. */
  phases: { name: string; arrival: string }[];
  /** true when every check passed (or was not applicable) and every threshold held. */
  passed: boolean;
  steps: LoadStepResult[];
  checks: LoadCheckResult[];
  thresholds: LoadThresholdResult[];
  /** Iterations the engine could not start in time (k6: dropped_iterations; native: over its in-flight bound). */
  droppedIterations: number;
  /** Time series for the plots (the native engine; k6's summary has none). */
  series?: LoadSeries;
  notes: string[];
}

export interface LoadStepResult {
  /** A named request of the scenario's sequence, e.g. 'availability'. */
  name: string;
  count: number;
  /** Requests a second over the load phases. */
  ratePerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** Responses other than 2xx by error code (envelope code, OAuth error, or a transport failure). */
  errors: Record<string, number>;
}

export type LoadOutcome = 'pass' | 'fail' | 'not-applicable';

export interface LoadCheckResult {
  name: string;
  description: string;
  outcome: LoadOutcome;
  passes: number;
  fails: number;
  /** The first failure, or why the check was not applicable. */
  detail?: string;
}

export interface LoadThresholdResult {
  /** The threshold in words, e.g. 'reservation p99 < 2000 ms'. */
  name: string;
  outcome: 'pass' | 'fail';
  /** The measured value (null when nothing was measured). */
  actual: number | null;
}

export interface LoadSeries {
  intervalMs: number;
  /** Start of each bucket, in seconds since the load began. */
  t: number[];
  /** Requests sent per bucket, by step. */
  requests: Record<string, number[]>;
  latencyP50Ms: Record<string, (number | null)[]>;
  latencyP99Ms: Record<string, (number | null)[]>;
  /** 429 responses per bucket, all steps. */
  rateLimited: number[];
  /** Lowest X-RateLimit-Remaining seen per bucket, by client. */
  remaining: Record<string, (number | null)[]>;
}
