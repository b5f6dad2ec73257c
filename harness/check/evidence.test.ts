import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_WORDS } from '../report/test-support/framework-words.ts';
import { buildEvidence, describeValue, isAssertionFailure, plainMessage } from './evidence.ts';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

async function rejected(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('did not reject');
}

function text(evidence: ReturnType<typeof buildEvidence>): string {
  return [evidence.message, evidence.expected ?? '', evidence.actual ?? ''].join('\n');
}

describe('evidence in the words of a person, not of the test framework', () => {
  it('plain values for expected and actual; no Object.is equality', () => {
    const evidence = buildEvidence(
      thrown(() => expect(false).toBe(true)),
      [],
    );
    expect(evidence).toEqual({
      message: 'expected true; got false',
      expected: 'true',
      actual: 'false',
      exchanges: [],
    });
  });

  it('a value of another type than a matcher compares is a failed assertion about the value, not a harness error', () => {
    // A target sending rocketBookingCode as a number: vitest's toMatch throws a TypeError before it compares.
    const error = thrown(() => expect(12345 as unknown as string).toMatch(/\S/));
    expect((error as Error).name).toBe('TypeError');
    expect(isAssertionFailure(error)).toBe(true);
    expect(buildEvidence(error, [], 'rocketBookingCode is a non-empty string').message).toBe(
      'rocketBookingCode is a non-empty string: expected a string; got a number',
    );
    expect(isAssertionFailure(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
  });

  it('asymmetric matchers in words, never their internals', () => {
    const containing = buildEvidence(
      thrown(() => expect({ a: 2, timezone: 'ICT' }).toEqual(expect.objectContaining({ a: 1 }))),
      [],
    );
    expect(containing.expected).toBe('<an object containing { a: 1 }>');
    expect(containing.message).toBe("expected <an object containing { a: 1 }>; got { a: 2, timezone: 'ICT' }");
    expect(containing.actual).toBe("{ a: 2, timezone: 'ICT' }");
    const matching = buildEvidence(
      thrown(() => expect({ timezone: 'ICT' }).toMatchObject({ timezone: expect.stringMatching(/^[A-Z][a-z]+\//) })),
      [],
    );
    expect(matching.expected).toBe('{ timezone: <a string matching /^[A-Z][a-z]+\\//> }');
    expect(describeValue({ id: expect.any(String) })).toBe('{ id: <any String> }');
    for (const evidence of [containing, matching]) {
      for (const word of FRAMEWORK_WORDS) expect(text(evidence)).not.toContain(word);
    }
  });

  it('a property that failed on a network error says the error, with the seed and case to replay it', async () => {
    const error = await rejected(
      fc.assert(
        fc.asyncProperty(fc.integer(), async (n) => {
          if (n > 5) throw new Error('connect ECONNREFUSED 127.0.0.1:1');
        }),
        { seed: 1 },
      ),
    );
    const evidence = buildEvidence(error, []);
    expect(evidence.message).toBe('connect ECONNREFUSED 127.0.0.1:1');
    expect(evidence.property).toMatchObject({ seed: 1, counterexample: '[6]' });
    for (const word of FRAMEWORK_WORDS) expect(text(evidence)).not.toContain(word);
  });

  it('a property that failed on an assertion says the assertion', async () => {
    const error = await rejected(
      fc.assert(
        fc.asyncProperty(fc.integer(), async (n) => {
          expect(n).toBeLessThan(3);
        }),
        { seed: 1 },
      ),
    );
    const evidence = buildEvidence(error, []);
    expect(evidence.message).toBe('expected less than 3; got 3');
    expect(evidence.property?.seed).toBe(1);
  });

  it('cleans framework wording out of any text', () => {
    const cleaned = plainMessage(
      "expected 1 to be 2 // Object.is equality\nHint: Enable verbose mode\nObjectContaining {\n  '$$typeof': Symbol(jest.asymmetricMatcher),\n  sample: { a: 1 },\n  inverse: false\n}",
    );
    for (const word of FRAMEWORK_WORDS) expect(cleaned).not.toContain(word);
    expect(cleaned).toContain('expected 1 to be 2');
    expect(cleaned).toContain('sample: { a: 1 }');
  });
});
