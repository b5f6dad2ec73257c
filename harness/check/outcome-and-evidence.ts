import type { Representation } from '../http/representation.ts';
import type { Traffic } from '../http/traffic.ts';

/** The outcome of one check (docs/design.md "Check model"). Nothing is silently skipped. */
export type Outcome = 'pass' | 'fail' | 'warn' | 'not-applicable' | 'error';

import type { Scope } from '../../contract/scopes.ts';
import type { Level, Profile } from '../../contract/vocabulary.ts';

export type { Level, Profile };

/** Why a check did not run: it is reported as not-applicable with this reason, never as a pass. */
export type NotApplicableReason =
  | { kind: 'profile'; detail: string }
  | { kind: 'missing-credential'; detail: string }
  | { kind: 'missing-hooks'; detail: string }
  /** A probe code of the target config (codes only the operator knows) is missing. */
  | { kind: 'missing-probe'; detail: string }
  /** The check's role holds no such scope on this target (spec 5.5: booking scopes follow a joint certification). */
  | { kind: 'missing-scope'; detail: string }
  /** Judged by waiting for an expiry: the run did not ask for it (--patient). */
  | { kind: 'not-patient'; detail: string }
  /** The target never showed the state the clause is about (no 429 within its own advertised limit, say). */
  | { kind: 'not-reached'; detail: string }
  | { kind: 'plain-http'; detail: string }
  | { kind: 'bookings-not-allowed'; detail: string }
  | { kind: 'target'; detail: string }
  /** A step the check needed failed on another clause (filed there): this clause could not be judged here. */
  | { kind: 'blocked'; detail: string; clauseId: string }
  /** A property judged fewer than a third of its generated cases (the rest did not apply on this target). */
  | { kind: 'few-cases'; detail: string };

/**
 * What a check saw about a clause other than its own (docs/design.md "Check model"): filed under that clause, where it
 * counts as a failure of the clause, with the exchange it was seen in. The same deviation seen again in the same
 * check only raises `count`.
 */
export interface Observation {
  clauseId: string;
  message: string;
  expected?: string;
  actual?: string;
  exchange?: EvidenceExchange;
  count: number;
}

/** One HTTP exchange as evidence, secrets already redacted. */
export interface EvidenceExchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body?: string };
  /** A shell command that repeats the request; secrets are replaced by environment variable placeholders. */
  curl: string;
  durationMs: number;
}

export interface Evidence {
  /** What the check expected and what it saw (from the failed assertion). */
  message: string;
  expected?: string;
  actual?: string;
  exchanges: EvidenceExchange[];
  /** For property-based checks: how to replay the failing case. */
  property?: { seed: number; path?: string; counterexample?: string };
}

/**
 * What a check records on its vitest task (`task.meta.check`), read by the reporter that builds the report
 * model. Vitest carries `task.meta` from the worker to the reporter.
 */
export interface CheckMeta {
  clauseId: string;
  /**
   * The check's name without clause id and representation, i.e. the
   * `<name>` of the test title `[<clauseId>] <name> (<representation>)`. Optional for readers of older metas.
   */
  name?: string;
  level: Level;
  profile: Profile;
  representation?: Representation;
  /** Set by the check wrapper; absent only when the wrapper itself never ran (then the vitest state decides). */
  outcome?: Outcome;
  notApplicable?: NotApplicableReason;
  evidence?: Evidence;
  /** The check's own seed (run seed mixed with the title), for generated cases and replay. */
  seed?: number;
  /** Reservations the check created on the target (book profile), for the end-of-run cleanup report. */
  createdReservations?: string[];
  /** Deviations of other clauses the check saw (filed under those clauses by the report). */
  observations?: Observation[];
  /** Generated cases of a property-based check: how many ran and how many the target let it judge. */
  cases?: { runs: number; judged: number };
  /** How the check judges its clause: on the wire, through the target's test hooks, by waiting, or statically. */
  judgedBy?: JudgedBy;
  /** What the check sent and met: requests per role, 429s provoked or not, time waited for the target's limits. */
  traffic?: Traffic;
}

export type JudgedBy = 'live' | 'hooks' | 'patient' | 'static';

/**
 * What a check declares, resolved as its run will resolve it (presets spread, hooks raising the profile to full):
 * set when the check is registered, so the runner can read every check of a run from vitest's collection before any
 * runs (the progress total, pre-flight's profiles and scopes).
 */
export interface CheckDeclaration {
  clauseId: string;
  profile: Profile;
  /** The scopes its roles must hold (applicability.ts scopesOfCheck). */
  scopes: readonly Scope[];
}

declare module 'vitest' {
  interface TaskMeta {
    check?: CheckMeta;
    declared?: CheckDeclaration;
  }
}
