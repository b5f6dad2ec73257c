import { clauseById, compareClauseIds } from '../../contract/clauses/index.ts';
import type { Outcome } from '../check/outcome-and-evidence.ts';
import type { ReportWaiver } from './model.ts';
import { isFailure } from './outcome.ts';

/** An expected failure (the `--expected-failures` file holds a JSON array of these). */
export interface Waiver {
  clause: string;
  reason: string;
  /** YYYY-MM-DD, inclusive: the waiver applies through that day. */
  expires: string;
}

export class WaiverFileError extends Error {
  override name = 'WaiverFileError';
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in YYYY-MM-DD form (2025-02-30 is not one). */
export function isIsoDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/**
 * Validates the parsed content of an expected-failures file. A waiver naming a clause the clause catalogue does not hold is
 * refused: a typo would otherwise never match and the failure it meant to cover would go unnoticed as "unused".
 */
export function parseWaivers(value: unknown): Waiver[] {
  if (!Array.isArray(value)) throw new WaiverFileError('expected failures: the file must hold a JSON array');
  return value.map((entry: unknown, index) => {
    const where = `expected failures[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new WaiverFileError(`${where}: must be an object { clause, reason, expires }`);
    }
    const { clause, reason, expires, ...rest } = entry as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) throw new WaiverFileError(`${where}: unknown field(s) ${extra.join(', ')}`);
    if (typeof clause !== 'string' || clause === '') throw new WaiverFileError(`${where}.clause: a clause id string`);
    if (!clauseById(clause))
      throw new WaiverFileError(`${where}.clause: ${clause} is not a clause of the clause catalogue`);
    if (typeof reason !== 'string' || reason.trim() === '') {
      throw new WaiverFileError(`${where}.reason: a non-empty string`);
    }
    if (typeof expires !== 'string' || !isIsoDate(expires)) {
      throw new WaiverFileError(`${where}.expires: a date YYYY-MM-DD`);
    }
    return { clause, reason, expires };
  });
}

/** A waiver applies through its expiry day (YYYY-MM-DD strings compare as dates). */
export function isLive(waiver: Waiver, today: string): boolean {
  return waiver.expires >= today;
}

export interface ResolvedWaivers {
  /** Per clause id, the waiver that covers its failed and errored checks. */
  covering: Map<string, Waiver>;
  /** Every input waiver with its status, in clause-catalogue order of its clause. */
  statuses: ReportWaiver[];
}

/**
 * Decides what each waiver does in this run:
 * - expired (expiry day before `today`): does not apply, reported 'expired';
 * - live and its clause has a failed or errored check: the first such waiver covers them, 'used';
 * - live and every check of its clause passed: 'unused-passing' (it can be removed);
 * - otherwise (no check ran, only n/a or warn, or a second waiver for the same clause): 'unused'.
 * Warnings are never waived: they do not fail the verdict unless --strict, and --strict asks for them to count.
 */
export function resolveWaivers(
  waivers: readonly Waiver[],
  outcomesByClause: ReadonlyMap<string, readonly Outcome[]>,
  today: string,
): ResolvedWaivers {
  const covering = new Map<string, Waiver>();
  const statuses = waivers.map((waiver): ReportWaiver => {
    const base = { clauseId: waiver.clause, reason: waiver.reason, expires: waiver.expires };
    if (!isLive(waiver, today)) return { ...base, status: 'expired' };
    const outcomes = outcomesByClause.get(waiver.clause) ?? [];
    if (outcomes.some(isFailure) && !covering.has(waiver.clause)) {
      covering.set(waiver.clause, waiver);
      return { ...base, status: 'used' };
    }
    if (outcomes.length > 0 && outcomes.every((outcome) => outcome === 'pass')) {
      return { ...base, status: 'unused-passing' };
    }
    return { ...base, status: 'unused' };
  });
  // Array.prototype.sort is stable, so waivers of one clause keep their file order.
  statuses.sort((a, b) => compareClauseIds(a.clauseId, b.clauseId));
  return { covering, statuses };
}
