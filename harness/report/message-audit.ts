import type { EvidenceExchange } from '../check/outcome-and-evidence.ts';
import { quotedStatuses } from '../check/wording.ts';
import { failingClauses, groupByCause } from './failures.ts';
import type { ReportModel } from './model.ts';

/**
 * What a report's failure messages must never do, judged on a report as it was written: speak the
 * assertion library (`expected 409 to be 200`, `to include`, `not to be`, `Object.is`), quote a status that came back
 * other than the one of the exchange printed under the message, or word the expected status as if it were the answer
 * ("HTTP status is 400" above a 200). And where a fault's report must put its root: the fault's own clause first.
 * The fault-report tests run these over certifications of the reference with its faults (fault-reports.test.ts).
 */

/** Phrasings of chai and vitest: any of them in a message means a failure went out in the library's words. */
export const LIBRARY_PHRASES: readonly RegExp[] = [
  /\bexpected\b[^;\n]*?\b(?:not )?to (?:be|equal|deeply|strictly|include|contain|match|have|satisfy|throw)\b/,
  /\bto include\b/,
  /\bnot to be\b/,
  /\bObject\.is\b/,
  /\/\/ (?:deep|strict) equality/,
  /\bAssertionError\b/,
];

export interface MessageProblem {
  clauseId: string;
  /** The check's id, or `observed by <check id>` for what a check filed under another clause. */
  where: string;
  message: string;
  problem: string;
}

/** The assertion-library phrase a message uses, if any. */
export function libraryPhrase(message: string): string | undefined {
  for (const phrase of LIBRARY_PHRASES) {
    const match = phrase.exec(message);
    if (match) return match[0];
  }
  return undefined;
}

/** The problems of one message printed above `exchange` (undefined when none is printed). */
export function problemsOf(message: string, exchange: EvidenceExchange | undefined): string[] {
  const problems: string[] = [];
  const phrase = libraryPhrase(message);
  if (phrase) problems.push(`assertion-library phrasing "${phrase}"`);
  const line = message.split('\n').find((part) => part.trim() !== '') ?? '';
  if (/\bHTTP status (?:is|of \S+ is) [1-5]\d\d\b/.test(line) && !/\bgot\b/.test(line)) {
    problems.push('an expected status worded as if it came back, and nothing says what did');
  }
  // wording.ts writes a status that came back `HTTP <status>`, an expected one without the prefix.
  const printed = exchange?.response?.status;
  if (printed !== undefined) {
    const other = quotedStatuses(line).filter((status) => status !== printed);
    if (other.length > 0) problems.push(`quotes HTTP ${other.join(', ')} above an exchange that answered ${printed}`);
  }
  return problems;
}

/**
 * Every failure message of a report that breaks the rules: the failing, erring and warning checks' evidence, what
 * checks filed under other clauses, and why a check was blocked.
 */
export function messageProblems(model: ReportModel): MessageProblem[] {
  const out: MessageProblem[] = [];
  const add = (clauseId: string, where: string, message: string, exchange: EvidenceExchange | undefined) => {
    for (const problem of problemsOf(message, exchange)) out.push({ clauseId, where, message, problem });
  };
  for (const section of model.sections) {
    for (const clause of section.clauses) {
      for (const check of clause.checks) {
        if (check.evidence && ['fail', 'error', 'warn'].includes(check.outcome)) {
          add(clause.id, check.id, check.evidence.message, check.evidence.exchanges.at(-1));
        }
        if (check.notApplicable?.kind === 'blocked') add(clause.id, check.id, check.notApplicable.detail, undefined);
      }
      for (const observation of clause.observations ?? []) {
        add(clause.id, `observed by ${observation.seenIn[0] ?? 'a check'}`, observation.message, observation.exchange);
      }
    }
  }
  return out;
}

/** The clauses of the first root cause a report lists: the first entry of its failing clauses, one cause each. */
export function firstRootCause(model: ReportModel): string[] {
  return groupByCause(failingClauses(model))[0]?.items.map((item) => item.clause.id) ?? [];
}

/**
 * Whether a fault's report lists the fault's own clause in its first root cause: 'first', 'later' (it failed, but a
 * root cause without it is listed before), or 'not-failing' (the run did not fail that clause, which the mutation
 * matrix judges). A root cause is an entry of the report's failing clauses: the clauses that failed for one cause,
 * named together ("×2 clauses: 4.0.17, 4.2.5 — HTTP status: expected 404 …; got HTTP 400 INVALID_VEHICLE").
 */
export function rootCausePlace(model: ReportModel, clauseId: string): 'first' | 'later' | 'not-failing' {
  if (firstRootCause(model).includes(clauseId)) return 'first';
  return failingClauses(model).some((item) => item.clause.id === clauseId) ? 'later' : 'not-failing';
}
