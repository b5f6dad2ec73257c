/**
 * Generated cases several clauses judge on the same answers: each case drawn from the run's seed (sharedDraw) and
 * sent once for every check that judges it (sharedStep). A condition stated by one clause and given its code by a
 * row of 7.3 (a malformed token, a scope lacking) is provoked once, and each check judges its own rule on the
 * answer, so the run spends a target's rate limit (spec 8) on what is judged rather than on asking again.
 *
 * The checks loop over the cases instead of drawing their own (t.forAll): a case is already a draw, and fast-check
 * would draw the same index twice where the loop judges each case once. No case is shrunk: a failing case is shown
 * as drawn. Each judged case counts as a property's case (countCase), so the report still counts the check a property.
 */
import fc from 'fast-check';
import { type CheckContext, SKIP } from '../../harness/check/check.ts';
import { countCase } from '../../harness/check/scope.ts';
import { sharedDraw, sharedStep } from './shared-steps.ts';

export interface SharedCase<I, R> {
  input: I;
  answer: R;
}

/** A family of cases: its name (part of the key) and how a case is drawn and sent. */
export interface CaseFamily<I, R> {
  name: string;
  /** What case `index` is drawn from (a family may give each index its own part of one draw). */
  draw: (t: CheckContext, index: number) => fc.Arbitrary<I> | Promise<fc.Arbitrary<I>>;
  send: (t: CheckContext, input: I) => Promise<R>;
}

/** The run's case `index` of `family` in the check's representation: drawn and sent by the first check that needs it. */
export async function sharedCase<I, R>(
  t: CheckContext,
  family: CaseFamily<I, R>,
  index: number,
): Promise<SharedCase<I, R>> {
  const draw = await family.draw(t, index);
  return sharedStep(t, `shared case ${family.name} ${t.representation} ${index}`, async () => {
    const [input] = fc.sample(draw, { seed: sharedDraw(t, index), numRuns: 1 });
    return { input: input as I, answer: await family.send(t, input as I) };
  });
}

/** The run's first `count` cases of `family`, each judged by `judge` in turn (SKIP: a case not judged). */
export async function judgeSharedCases<I, R>(
  t: CheckContext,
  family: CaseFamily<I, R>,
  count: number,
  judge: (c: SharedCase<I, R>) => unknown,
): Promise<void> {
  for (let index = 0; index < count; index++) {
    const c = await sharedCase(t, family, index);
    // Each case is a generated one, counted as a property's case is (the report's properties and examples).
    let result: unknown;
    try {
      result = await judge(c);
    } catch (error) {
      countCase(true);
      throw error;
    }
    countCase(result !== SKIP);
  }
}
