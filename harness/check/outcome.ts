import { ScopeNotGrantedError } from '../auth/token-cache.ts';
import { ProfileViolation } from '../http/profile-guard.ts';
import { RateLimitedError } from '../http/rate-limits.ts';
import { TargetUnreachableError } from '../http/unreachable.ts';
import type { RunSettings } from '../run-settings.ts';
import { missingScopeDetail } from './applicability.ts';
import { isAssertionFailure } from './evidence.ts';
import type { Level, NotApplicableReason, Observation } from './outcome-and-evidence.ts';
import { blockedSignalIn, notApplicableReasonOf, signalOf } from './signal.ts';

/**
 * What a check that threw ends as. `evidence`: the report keeps what it threw (the failure in plain words, the
 * exchanges), for every judgement and for a check blocked by another clause's failure, whose reader looks for it.
 */
export type ThrownOutcome =
  | { outcome: 'not-applicable'; reason: NotApplicableReason; evidence: boolean }
  | { outcome: 'warn' | 'fail' | 'error'; evidence: true };

/**
 * The outcome of a check that threw `error` (unwrapped from the recorder's RecordedError) after filing
 * `observations` about other clauses. Not judged (not-applicable) when a signal, a scope the target has not granted,
 * a rate limit or an empty listing stopped it, or a step another clause failed blocked it; an assertion failure fails
 * it, or only warns for a SHOULD clause without --strict; anything else is an error.
 */
export function outcomeOf(
  error: unknown,
  observations: readonly Observation[],
  level: Level,
  settings: Pick<RunSettings, 'strict' | 'granted'>,
): ThrownOutcome {
  const reason = notJudgedReason(error, settings);
  if (reason) return { outcome: 'not-applicable', reason, evidence: false };
  const blocked = blockedBy(error, observations);
  if (blocked) return { outcome: 'not-applicable', reason: blocked, evidence: true };
  if (!isAssertionFailure(error)) return { outcome: 'error', evidence: true };
  return { outcome: level === 'SHOULD' && !settings.strict ? 'warn' : 'fail', evidence: true };
}

/** Why the check could not judge, when what it threw says so itself; undefined for anything else. */
function notJudgedReason(error: unknown, settings: Pick<RunSettings, 'granted'>): NotApplicableReason | undefined {
  const reason = notApplicableReasonOf(error);
  if (reason) return reason;
  if (error instanceof ScopeNotGrantedError) {
    return { kind: 'missing-scope', detail: missingScopeDetail(settings, error.role, error.scopes) };
  }
  const fewCases = signalOf(error, 'few-cases');
  if (fewCases) return { kind: 'few-cases', detail: fewCases.message };
  const transient = signalOf(error, 'transient') ?? (error instanceof RateLimitedError ? error : undefined);
  if (transient) return { kind: 'target', detail: transient.message };
  const nothing = nothingToDraw(error);
  if (nothing) return { kind: 'target', detail: `the target's listings offer nothing to draw from: ${nothing}` };
  return undefined;
}

/**
 * The check could not judge its clause: a step it needed failed on another clause (a blocked signal, also inside a
 * property), or it crashed on a response after filing a deviation of another clause (the response lacked what
 * that clause promises). Undefined for anything else: an assertion of its own clause, or a harness error.
 */
function blockedBy(error: unknown, observations: readonly Observation[]): NotApplicableReason | undefined {
  const signal = blockedSignalIn(error);
  if (signal?.clauseId !== undefined) {
    return { kind: 'blocked', clauseId: signal.clauseId, detail: `blocked by ${signal.clauseId}: ${signal.message}` };
  }
  const first = observations[0];
  // A request the profile refuses, or a target lost mid-check, is the run's to report, never hidden as blocked.
  if (first && !isAssertionFailure(error) && !isRunLevel(error)) {
    const what = error instanceof Error ? error.message : String(error);
    return {
      kind: 'blocked',
      clauseId: first.clauseId,
      detail: `blocked by ${first.clauseId}: ${first.message}; the check could not go on (${what.slice(0, 200)})`,
    };
  }
  return undefined;
}

/**
 * A generator found nothing in the target's listings to draw a request from (generators/nothing-to-draw.ts, known by
 * its name: the harness does not import the generators): its message, also when fast-check wrapped it.
 */
function nothingToDraw(error: unknown, depth = 0): string | undefined {
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  if ((error as Error).name === 'NothingToDrawError') return (error as Error).message;
  return nothingToDraw((error as { cause?: unknown }).cause, depth + 1);
}

function isRunLevel(error: unknown): boolean {
  return error instanceof ProfileViolation || error instanceof TargetUnreachableError;
}
