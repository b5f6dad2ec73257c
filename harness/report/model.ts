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
