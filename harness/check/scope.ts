import { AsyncLocalStorage } from 'node:async_hooks';
import { inspect } from 'node:util';
import { findRecordedExchange, lastRecordedExchange } from '../http/recorder.ts';
import { redactText, redactValue } from '../http/redact.ts';
import type { Representation } from '../http/representation.ts';
import type { EvidenceExchange, Observation } from './outcome-and-evidence.ts';
import { blockedSignal } from './signal.ts';
import { claimText, statusClaimed } from './wording.ts';

/**
 * What a running check knows about itself: the clause it judges, and what it saw about other clauses.
 *
 * A check judges the requirement of its own clause. Anything else it happens to observe (the envelope of an
 * error, X-Request-Id, a field of a body it validated, the media type) is filed as an observation under that
 * other clause, so one deviation of the target fails one clause, not every check that met it (docs/design.md "Check
 * model"). A step the check cannot go on without (a quote to book from) that fails is filed the same way and
 * ends the check as blocked: it could not judge its clause on this target.
 */
interface CheckScope {
  clauseId: string;
  /** The representation the check runs in (absent outside a check's test, e.g. a unit test of a helper). */
  representation?: Representation;
  /** Keyed by clause and message: the same deviation seen twice in one check is one observation. */
  observations: Map<string, Observation>;
  /** Generated cases of the check's properties: how many ran, how many were judged. */
  cases: { runs: number; judged: number };
}

const storage = new AsyncLocalStorage<CheckScope>();

/** Runs a check's body in its scope; returns what it observed about other clauses (also when it throws). */
export async function inCheckScope<T>(
  clauseId: string,
  fn: () => Promise<T>,
  representation?: Representation,
): Promise<{ result?: T; error?: unknown; observations: Observation[]; cases: { runs: number; judged: number } }> {
  const scope: CheckScope = { clauseId, representation, observations: new Map(), cases: { runs: 0, judged: 0 } };
  try {
    const result = await storage.run(scope, fn);
    return { result, observations: [...scope.observations.values()], cases: scope.cases };
  } catch (error) {
    return { error, observations: [...scope.observations.values()], cases: scope.cases };
  }
}

/** The clause of the check running now, if any. */
export function currentClauseId(): string | undefined {
  return storage.getStore()?.clauseId;
}

/** The representation of the check running now, if any: what expectError judges an answer's media type against. */
export function currentRepresentation(): Representation | undefined {
  return storage.getStore()?.representation;
}

/** Counts generated cases of the current check (see judge.ts). */
export function countCase(judged: boolean): void {
  const scope = storage.getStore();
  if (!scope) return;
  scope.cases.runs += 1;
  if (judged) scope.cases.judged += 1;
}

export interface ClaimDetail {
  expected?: unknown;
  actual?: unknown;
  /** The exchange the claim is about (default: the response's, else the last one the check made). */
  exchange?: EvidenceExchange;
  /**
   * The response the claim judges (an ApiResult fits): its exchange is the one the report prints under the message,
   * found by its X-Request-Id, also when the check has made other requests since.
   */
  response?: { status: number; requestId: string | null };
}

/** An assertion failure in the shape vitest and the evidence builder read (name, message, expected, actual). */
export class ClauseAssertionError extends Error {
  override readonly name = 'AssertionError';
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly showDiff: boolean;
  /** The exchange the failure is about (evidence.ts prints it as the failing one). Not enumerable: vitest sends errors. */
  declare readonly exchange?: EvidenceExchange;

  constructor(message: string, detail: ClaimDetail = {}, exchange?: EvidenceExchange) {
    super(message);
    if ('expected' in detail) this.expected = detail.expected;
    if ('actual' in detail) this.actual = detail.actual;
    this.showDiff = 'expected' in detail && 'actual' in detail;
    if (exchange) Object.defineProperty(this, 'exchange', { value: exchange, enumerable: false });
  }
}

/**
 * The exchange a claim is about: the one given, or the judged response's (by X-Request-Id; without one, the latest
 * with its status), or the check's last, unless the claim says another status came back ("refused (it got HTTP
 * 201)" after a cleanup call answered 200): then the latest exchange that answered that.
 */
function exchangeOf(requirement: string, detail: ClaimDetail): EvidenceExchange | undefined {
  if (detail.exchange) return detail.exchange;
  const response = detail.response;
  if (response) {
    const { requestId, status } = response;
    const found = findRecordedExchange((exchange) =>
      requestId ? exchange.response?.headers['x-request-id'] === requestId : exchange.response?.status === status,
    );
    if (found) return found;
  }
  const last = lastRecordedExchange();
  const status = statusClaimed(requirement, detail.actual);
  if (status === undefined || last?.response?.status === status) return last;
  return findRecordedExchange((exchange) => exchange.response?.status === status) ?? last;
}

const MAX_VALUE_CHARS = 2_000;

function show(value: unknown): string {
  const redacted = redactValue(value);
  const text = typeof redacted === 'string' ? JSON.stringify(redacted) : inspect(redacted, { depth: 6 });
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

function file(scope: CheckScope, clauseId: string, message: string, detail: ClaimDetail): void {
  const key = `${clauseId}\u0000${message}`;
  const existing = scope.observations.get(key);
  if (existing) {
    existing.count += 1;
    return;
  }
  const observation: Observation = { clauseId, message: redactText(message), count: 1 };
  if ('expected' in detail) observation.expected = show(detail.expected);
  if ('actual' in detail) observation.actual = show(detail.actual);
  const exchange = exchangeOf(message, detail);
  if (exchange) observation.exchange = exchange;
  scope.observations.set(key, observation);
}

/**
 * Judges one requirement of `clauseId`. When it is the current check's own clause, a false `ok` fails the check
 * (an assertion failure); when it is another clause's, it is filed under that clause and the check goes on.
 * Outside a check (unit tests of helpers) it asserts. Returns `ok`.
 *
 * `requirement` says what the target must do; the report's message adds what came back (wording.ts claimText), so
 * "POST /quotes answers 201" reads "POST /quotes answers 201; got HTTP 200".
 */
export function claim(clauseId: string, ok: boolean, requirement: string, detail: ClaimDetail = {}): boolean {
  if (ok) return true;
  const message = claimText(requirement, detail);
  const scope = storage.getStore();
  if (!scope || scope.clauseId === clauseId) {
    throw new ClauseAssertionError(
      `${message} (spec ${clauseId})`,
      detail,
      scope ? exchangeOf(message, detail) : undefined,
    );
  }
  file(scope, clauseId, message, detail);
  return false;
}

/**
 * A step the check cannot go on without: when `ok` is false the failure is filed under `clauseId` (or fails the
 * check, when that is its own clause) and the check ends blocked, reported not-applicable with the reason.
 */
export function requireStep(clauseId: string, ok: boolean, requirement: string, detail: ClaimDetail = {}): void {
  if (ok) return;
  claim(clauseId, false, requirement, detail);
  throw blockedSignal(clauseId, claimText(requirement, detail));
}
