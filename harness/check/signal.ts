import type { NotApplicableReason } from './outcome-and-evidence.ts';

/**
 * How a check ends without a judgement of its own clause, thrown from wherever the check found out:
 * - blocked: a step it needed failed on another clause (filed there, scope.ts requireStep);
 * - transient: a step got a retryable refusal (429, 503), nothing the target did wrong;
 * - not-applicable: the target cannot show the clause (t.notApplicable);
 * - few-cases: too few generated cases could be judged (judge.ts forAll).
 * Each ends the check not-applicable (outcome.ts outcomeOf); a blocked or transient one also ends a property at once.
 */
type CheckSignalKind = 'blocked' | 'transient' | 'not-applicable' | 'few-cases';

/**
 * The name the report's evidence prints before the message when a signal ends up judged as an error (wrapped where
 * the outcome does not look for it): the one the check author knows it by. A not-applicable signal prints none.
 */
const NAMES: Record<CheckSignalKind, string> = {
  blocked: 'BlockedSignal',
  transient: 'TransientSignal',
  'not-applicable': 'Error',
  'few-cases': 'FewCasesSignal',
};

/** A check's outcome signal (see CheckSignalKind). Made by the functions below, never by suites. */
export class CheckSignal extends Error {
  override readonly name: string;

  constructor(
    readonly kind: CheckSignalKind,
    message: string,
    /** blocked: the clause whose step failed. */
    readonly clauseId?: string,
    /** not-applicable: why, as the report says it. */
    readonly reason?: NotApplicableReason,
  ) {
    super(message);
    this.name = NAMES[kind];
  }
}

/** The check cannot go on: a step it needed failed on `clauseId`, where the failure was filed. */
export function blockedSignal(clauseId: string, message: string): CheckSignal {
  return new CheckSignal('blocked', message, clauseId);
}

/** A step the check needed was refused for now (429, 503): nothing was judged. */
export function transientSignal(message: string): CheckSignal {
  return new CheckSignal('transient', message);
}

/** The target cannot show the clause, for `reason`. */
export function notApplicableSignal(reason: NotApplicableReason): CheckSignal {
  return new CheckSignal('not-applicable', reason.detail, undefined, reason);
}

/** Too few generated cases could be judged; `message` says how many. */
export function fewCasesSignal(message: string): CheckSignal {
  return new CheckSignal('few-cases', message);
}

/**
 * `error` itself as a signal of `kind`, else undefined. Only the error itself: a signal fast-check wrapped (a
 * property of the suite's own) is what it was wrapped as, except blocked (blockedSignalIn).
 */
export function signalOf(error: unknown, kind: CheckSignalKind): CheckSignal | undefined {
  return error instanceof CheckSignal && error.kind === kind ? error : undefined;
}

/** The reason of the not-applicable signal `error` is, else undefined. */
export function notApplicableReasonOf(error: unknown): NotApplicableReason | undefined {
  return signalOf(error, 'not-applicable')?.reason;
}

/**
 * A blocked or transient signal: the check ends at once, not judged. A race that ends so has nothing to retry one
 * step at a time, and a property stops there rather than shrink a case that never got judged.
 */
export function isBlockedOrTransient(error: unknown): error is CheckSignal {
  return signalOf(error, 'blocked') !== undefined || signalOf(error, 'transient') !== undefined;
}

/** A blocked signal, also as the cause of what wrapped it (fast-check keeps a failing case's error as its cause). */
export function blockedSignalIn(error: unknown, depth = 0): CheckSignal | undefined {
  const signal = signalOf(error, 'blocked');
  if (signal) return signal;
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  return blockedSignalIn((error as { cause?: unknown }).cause, depth + 1);
}
