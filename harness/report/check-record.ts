import type {
  Evidence,
  JudgedBy,
  Level,
  NotApplicableReason,
  Observation,
  Outcome,
} from '../check/outcome-and-evidence.ts';
import type { Representation } from '../http/representation.ts';
import type { Traffic } from '../http/traffic.ts';
import type { ReportHarnessError } from './model.ts';

/**
 * One finished check as the reporter collected it from vitest, before it meets the clause catalogue. buildReport turns a
 * list of these into the ReportModel; tests and --replay can build them by hand.
 */
export interface CheckRecord {
  clauseId: string;
  /** The check's name (its test title without the `[clause]` prefix and the `(representation)` suffix). */
  name: string;
  /** Suite file, relative to the project root, POSIX separators. */
  file: string;
  representation?: Representation;
  /** The level the check judged at; absent → the clause's level. */
  level?: Level;
  outcome: Outcome;
  notApplicable?: NotApplicableReason;
  durationMs: number;
  evidence?: Evidence;
  /** Reservations the check created (for the runner's end-of-run cleanup; not part of the report model). */
  createdReservations?: string[];
  /** Deviations of other clauses the check saw. */
  observations?: Observation[];
  judgedBy?: JudgedBy;
  cases?: { runs: number; judged: number };
  /** What the check sent and met (requests per role, 429s, waiting for rate limits); summed in the report header. */
  traffic?: Traffic;
}

export type HarnessError = ReportHarnessError;
