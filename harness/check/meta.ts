import type { Representation } from '../http/representation.ts';

/** The outcome of one check (design.md "Check model"). Nothing is silently skipped. */
export type Outcome = 'pass' | 'fail' | 'warn' | 'not-applicable' | 'error';

export type Level = 'MUST' | 'SHOULD';

export type Profile = 'catalog' | 'shop' | 'book' | 'full';

/** Why a check did not run: it is reported as not-applicable with this reason, never as a pass. */
export type NotApplicableReason =
  | { kind: 'profile'; detail: string }
  | { kind: 'missing-credential'; detail: string }
  | { kind: 'missing-control'; detail: string }
  | { kind: 'plain-http'; detail: string }
  | { kind: 'bookings-not-allowed'; detail: string }
  | { kind: 'target'; detail: string };

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
   * Added by engineer A (check wrapper): the check's name without clause id and representation, i.e. the
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
  /** Added by engineer A: the check's own seed (run seed mixed with the title), for generated cases and replay. */
  seed?: number;
  /** Reservations the check created on the target (book profile), for the end-of-run cleanup report. */
  createdReservations?: string[];
}

declare module 'vitest' {
  interface TaskMeta {
    check?: CheckMeta;
  }
}
