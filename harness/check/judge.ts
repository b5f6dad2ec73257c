import fc from 'fast-check';
import { ScopeNotGrantedError } from '../auth/token-cache.ts';
import { RateLimitedError } from '../http/rate-limits.ts';
import { countCase } from './scope.ts';
import { type CheckSignal, fewCasesSignal, isBlockedOrTransient } from './signal.ts';

/** What a generated case returns when the target gave it nothing to judge (no offer for that window, say). */
export const SKIP = Symbol('case not judged');

export interface ForAllOptions {
  seed: number;
  numRuns: number;
  /** Fewer judged cases than this fraction of the runs is not a judgement (default one third). */
  minJudgedRatio?: number;
}

/**
 * A property over generated cases that counts how many it really judged. A case that returns SKIP (the target
 * offered nothing to judge it on) does not count; when fewer than a third of the runs were judged the check is
 * not-applicable with that reason, never a silent pass. A step that blocks the check (scope.ts), or a scope the
 * role does not hold (ScopeNotGrantedError), ends the property at once, without shrinking: shrinking would only repeat
 * what the other clause already failed, or ask again for what the target does not grant.
 */
export async function forAll<T>(
  arbitrary: fc.Arbitrary<T>,
  /** Returns SKIP (or a promise of it) for a case it could not judge; any other result (void included) judged it. */
  predicate: (value: T) => unknown,
  options: ForAllOptions,
): Promise<{ runs: number; judged: number }> {
  let runs = 0;
  let judged = 0;
  let blocked: CheckSignal | RateLimitedError | ScopeNotGrantedError | undefined;
  let shrinking = false;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      if (blocked) return;
      try {
        const result = await predicate(value);
        if (!shrinking) {
          runs += 1;
          if (result !== SKIP) judged += 1;
          countCase(result !== SKIP);
        }
      } catch (error) {
        if (isBlockedOrTransient(error) || error instanceof RateLimitedError || error instanceof ScopeNotGrantedError) {
          blocked = error;
          return;
        }
        if (!shrinking) {
          runs += 1;
          judged += 1;
          countCase(true);
        }
        shrinking = true;
        throw error;
      }
    }),
    { seed: options.seed, numRuns: options.numRuns },
  );
  if (blocked) throw blocked;
  const needed = Math.ceil(runs * (options.minJudgedRatio ?? 1 / 3));
  if (judged < needed) {
    throw fewCasesSignal(
      `judged ${judged} of ${runs} generated cases (at least ${needed} needed): the target gave too few cases to judge`,
    );
  }
  return { runs, judged };
}
