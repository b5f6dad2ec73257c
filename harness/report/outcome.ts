import type { Outcome } from '../check/outcome-and-evidence.ts';
import type { ClauseOutcome } from './model.ts';

/** Every outcome, worst first: the order a clause's checks are summarised in (error > fail > warn > pass > n/a). */
export const OUTCOMES_WORST_FIRST: readonly Outcome[] = ['error', 'fail', 'warn', 'pass', 'not-applicable'];

/** The order outcomes are listed in counts and tables: the good news first. */
export const OUTCOMES: readonly Outcome[] = ['pass', 'fail', 'warn', 'error', 'not-applicable'];

const severity = new Map(OUTCOMES_WORST_FIRST.map((outcome, index) => [outcome, OUTCOMES_WORST_FIRST.length - index]));

/** The worst of some outcomes, or undefined when there are none. */
export function worstOutcome(outcomes: Iterable<Outcome>): Outcome | undefined {
  let worst: Outcome | undefined;
  for (const outcome of outcomes) {
    if (worst === undefined || (severity.get(outcome) ?? 0) > (severity.get(worst) ?? 0)) worst = outcome;
  }
  return worst;
}

export function emptyCounts(): Record<Outcome, number> {
  return { pass: 0, fail: 0, warn: 0, error: 0, 'not-applicable': 0 };
}

export function emptyClauseCounts(): Record<ClauseOutcome, number> {
  return { ...emptyCounts(), 'not-checked': 0 };
}

/** An outcome that judged the clause on the target: coverage counts these. */
export function judged(outcome: Outcome): boolean {
  return outcome === 'pass' || outcome === 'fail' || outcome === 'warn';
}

/** An outcome a waiver can cover. */
export function isFailure(outcome: ClauseOutcome): boolean {
  return outcome === 'fail' || outcome === 'error';
}
