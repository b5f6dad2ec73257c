import { lastRecordedExchange } from '../http/recorder.ts';
import type { EvidenceExchange } from './outcome-and-evidence.ts';

/**
 * What a suite's own `expect(…)` failed on, taken when it fails, before the assertion library has made it a sentence:
 * the matcher, its label, the values, and the exchange the check had just received. evidence.ts says it in plain
 * words from these (plain-assertion.ts) rather than from vitest's message, which reads `expected 409 to be 200`
 * (which is which?) and cannot say which of the check's requests it was about.
 */
export interface AssertionFacts {
  /** vitest's matcher name (`toBe`, `toContain`), when the assertion came through one. */
  matcher?: string;
  /** The assertion's message template (`expected #{this} to include 'x'`), without the values filled in. */
  template: string;
  negated: boolean;
  /** The label given as `expect(value, label)`. */
  label?: string;
  /** The value under test (`expect(value)`). */
  subject: unknown;
  /** What the matcher compared against, when it says (toContain does not: its item is in the template). */
  expected: unknown;
  /** The value the matcher reports as actual (a length, a property's value; else the subject). */
  actual: unknown;
  /** The check's last exchange when the assertion failed: the response it was judging, unless it was an earlier one. */
  exchange?: EvidenceExchange;
}

const FACTS = Symbol.for('partner-api-certification.assertionFacts');

/** The facts of an assertion error, if it came from an `expect(…)` made while the facts were recorded. */
export function assertionFactsOf(error: unknown): AssertionFacts | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  return (error as { [FACTS]?: AssertionFacts })[FACTS];
}

type ChaiAssert = (this: object, ...args: unknown[]) => unknown;

/** What of vitest's chai the recording uses (vitest's `chai` export), passed in: this module loads without vitest. */
export interface ChaiLike {
  use(
    plugin: (api: { Assertion: { prototype: object } }, utils: { flag(target: object, name: string): unknown }) => void,
  ): unknown;
}

const installedIn = new WeakSet<object>();

/**
 * Wraps chai's one assertion point (`Assertion.prototype.assert`, which every vitest matcher calls) so a failing
 * assertion carries its facts. Passing assertions cost one try block. Once per chai; the worker calls it when the
 * check model loads (check.ts), with vitest's chai: the report module, which reads the facts, must load without
 * vitest (the runner's process, the mutation matrix).
 */
export function recordAssertionFacts(chai: ChaiLike): void {
  if (installedIn.has(chai)) return;
  installedIn.add(chai);
  chai.use((api, utils) => {
    const proto = api.Assertion.prototype as unknown as { assert: ChaiAssert };
    const original = proto.assert;
    proto.assert = function assert(this: object, ...args: unknown[]) {
      try {
        return original.apply(this, args);
      } catch (error) {
        if (typeof error === 'object' && error !== null && !(FACTS in error)) {
          const negated = Boolean(utils.flag(this, 'negate'));
          const raw = negated ? args[2] : args[1];
          const template = typeof raw === 'function' ? String(raw()) : String(raw ?? '');
          const label = utils.flag(this, 'message');
          const subject = utils.flag(this, 'object');
          const facts: AssertionFacts = {
            template,
            negated,
            subject,
            expected: args[3],
            actual: args.length > 4 ? args[4] : subject,
          };
          const matcher = utils.flag(this, '_name');
          if (typeof matcher === 'string') facts.matcher = matcher;
          if (typeof label === 'string' && label !== '') facts.label = label;
          const exchange = lastRecordedExchange();
          if (exchange) facts.exchange = exchange;
          // Not enumerable: vitest serializes the error for its reporter, and the exchange is large.
          Object.defineProperty(error, FACTS, { value: facts, enumerable: false });
        }
        throw error;
      }
    };
  });
}
