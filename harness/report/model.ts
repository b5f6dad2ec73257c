import type {
  Evidence,
  EvidenceExchange,
  JudgedBy,
  Level,
  NotApplicableReason,
  Outcome,
  Profile,
} from '../check/outcome-and-evidence.ts';
import type { XmlCoverage } from '../check/representations.ts';
import type { Representation } from '../http/representation.ts';

/**
 * The one report model every renderer reads (JSON, JUnit XML, Markdown, HTML). Stable and diffable: arrays are
 * in clause-catalogue order, no timestamps inside results, and secrets never enter it.
 */
export interface ReportModel {
  /** Version of this model's shape (its JSON Schema is report-model.schema.json). */
  schemaVersion: 1;
  tool: { name: string; version: string };
  spec: { release: string };
  target: { baseUrl: string; embedded: boolean };
  profile: Profile;
  options: {
    allowBookings: boolean;
    strict: boolean;
    seed: number;
    runs: number;
    /** --xml: which checks also ran in XML (absent in older reports: every-check). */
    xml?: XmlCoverage;
    date: string;
    only: string[];
    /** --fail-on new: only failures that are new since the baseline fail the exit code (absent: every failure). */
    failOn?: 'new';
  };
  timing: { startedAt: string; finishedAt: string; durationMs: number };
  verdict: {
    /**
     * true when no MUST clause failed or errored (by its checks or by what other checks saw of it) and no harness
     * error occurred; with --strict, no SHOULD clause warned and no MUST clause went unjudged for want of
     * configuration (credentials, hooks, probes).
     */
    passed: boolean;
    /** Checks by outcome. */
    counts: Record<Outcome, number>;
    /** Clauses by outcome: the unit the verdict is about. */
    clauses: Record<ClauseOutcome, number>;
    /** Failures covered by a waiver (listed apart, not counted as failures). */
    waived: number;
    /**
     * The run's exit code, one meaning each: 0 judged and passed, 1 judged and failed, 2 could not judge (harness
     * error, nothing judged, the target stopped answering before anything failed). Absent in older reports.
     */
    exitCode?: 0 | 1 | 2;
    /** Why the run could not judge, what cut it short, how --fail-on decided: one line each. */
    notes?: string[];
  };
  coverage: {
    /** Clauses judged on this target (a check of theirs passed, failed or warned), over all clauses. */
    clausesJudged: number;
    clausesTotal: number;
    ratio: number;
    /** Judged clauses by how they were judged (a clause judged two ways counts under each). */
    byMethod: Record<JudgedBy, number>;
    /**
     * The checks that judged (passed, failed or warned) by kind: properties over generated cases (`t.forAll`), or
     * fixed examples; the suite aims at 60% properties or more.
     */
    checks?: { properties: number; examples: number };
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
  /** What the run's checks sent the target and met of its rate limits (absent in older reports). */
  traffic?: ReportTraffic;
  /** Added by the load harness (load/): load scenario results shown next to the conformance verdict. */
  load?: LoadScenarioResult[];
  /** --baseline: this run compared, clause by clause, with an earlier report of the same target. */
  baseline?: ReportBaseline;
  /** Added by the mutation harness (npm run mutation): the fault matrix of the reference implementation. */
  mutation?: ReportMutation;
}

/**
 * The run's requests to the target (spec 8: a certification lives inside the target's rate limits): by role, the
 * 429s met (provoked by the rate-limit checks on purpose, or not: those were waited out and the request sent again,
 * never judged), and the time spent waiting for the target's limits.
 */
export interface ReportTraffic {
  requests: number;
  /** Requests by the role whose credentials they carried ('anonymous' for none). */
  byRole: Record<string, number>;
  limited: { provoked: number; unprovoked: number };
  waitedMs: number;
  /** Requests pre-flight sent before any check (a token per role, a read, the hooks' listing): not in `requests`. */
  preflight?: number;
}

/** Clause ids by how they moved since the baseline report (each list in clause-catalogue order). */
export interface ReportBaseline {
  /** The earlier report: when it ran, with which seed and tool version. */
  from: { startedAt: string; seed: number; toolVersion: string };
  /** Failed or errored now (not waived), and did not before. */
  newFailures: string[];
  /** Failed or errored before, judged now without failing. */
  fixed: string[];
  /** Failed or errored before and now. */
  unchanged: string[];
  /** Judged before, not judged now (not applicable, not checked, errored without judging). */
  becameNotApplicable: string[];
}

/** The mutation matrix (harness/mutation): every named fault of the reference and every benign variant, one run each. */
export interface ReportMutation {
  startedAt: string;
  durationMs: number;
  seed: number;
  summary: {
    faults: number;
    caughtOnClause: number;
    score: number;
    extraMedian: number;
    extraMax: number;
    benign: number;
    benignPassed: number;
    runsWithErrors: number;
    baselinePassed: boolean;
  };
  /** Threshold breaches in words; empty when the matrix passed. */
  breaches: string[];
  rows: ReportMutationRow[];
}

export interface ReportMutationRow {
  name: string;
  kind: 'fault' | 'benign';
  /** fault: the clause it breaks; benign: the freedom of the spec it uses. */
  clause: string;
  description: string;
  /**
   * fault: 'caught' (its own clause failed), 'elsewhere' (only other clauses failed), 'missed', 'no-report';
   * benign: 'passed', 'failed', 'no-report'.
   */
  result: 'caught' | 'elsewhere' | 'missed' | 'passed' | 'failed' | 'no-report';
  /** fault: failed clauses besides its own; benign: every failed clause. */
  otherFailed: string[];
  /** Checks with an error outcome in the run. */
  errors: number;
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

export type ClauseOutcome = Outcome | 'not-checked';

export interface ReportClause {
  id: string;
  title: string;
  text: string;
  level: Level;
  /**
   * Worst outcome of its checks and of what other checks saw of it (a failed observation is a fail, a warn on a
   * SHOULD clause), or 'not-checked' when the clause has no check.
   */
  outcome: ClauseOutcome;
  /**
   * How the clause was judged on this target: the methods of its checks that passed, failed or warned ('live' also
   * when only other checks' observations failed it). Absent when nothing judged it.
   */
  judgedBy?: JudgedBy[];
  /** Why the clause was not judged (the distinct reasons of its not-applicable checks), when no check ran. */
  notJudged?: string[];
  /** Deviations of this clause seen by checks of other clauses, grouped by message. */
  observations?: ReportObservation[];
  /** Added by the report module: true when every failed or errored check of the clause is waived. */
  waived?: boolean;
  checks: ReportCheck[];
}

/** A deviation of a clause seen by a check of another clause (docs/design.md "Check model"). */
export interface ReportObservation {
  message: string;
  expected?: string;
  actual?: string;
  /** How many times it was seen, in all checks. */
  count: number;
  /** Ids of the checks that saw it (the first ones). */
  seenIn: string[];
  /** The first exchange it was seen in. */
  exchange?: EvidenceExchange;
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
  /** How the check judged its clause. */
  judgedBy?: JudgedBy;
  /** Generated cases of a property: how many ran and how many were judged. */
  cases?: { runs: number; judged: number };
  /** Requests the check sent the target (the report header's Traffic sums them by role). */
  requests?: number;
  /** Clauses this check saw deviate and filed an observation under. */
  observed?: string[];
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
