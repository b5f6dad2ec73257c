import { describe, expect, test } from 'vitest';
import { certifyInChild } from '../mutation/certify-child.ts';

/**
 * A target's wrong answer is a fail of the clause it breaks, never an `error` (docs/design.md "Check model"). These
 * faults of the reference's fault registry give the checks answers they cannot go on with: typed XML no client can
 * read (a property written twice with two values, 4.14.6) and a 429 without Retry-After (8.15). Each fails its own
 * clause; every check that needed what is missing is blocked by it, none ends in `error` (a TypeError on an
 * undefined body, a matcher handed an undefined header). The clauses are those whose checks read such answers.
 */
const SEED = 20261201;

describe('certify answers a check cannot read: a fail of their clause, never an error', () => {
  test.each([
    {
      fault: 'xml-response-conflicting-duplicate',
      clause: '4.14.6',
      only: [
        '1.1',
        '1.4a',
        '1.6a',
        '2.6.16',
        '2.8.2',
        '2.9.12',
        '2.10.1',
        '4.2.1',
        '4.5.3',
        '4.13.4',
        '4.14.18a',
        '7.2.1',
      ],
    },
    { fault: 'rate-limit-429-without-retry-after', clause: '8.15', only: ['8.15'] },
  ])(
    '$fault: $clause fails, no check ends in error',
    async ({ fault, clause, only }) => {
      const run = await certifyInChild({ faults: [fault], only, seed: SEED, runs: 3 });
      expect(run.problem).toBeUndefined();
      expect(run.errors, 'checks that ended in error').toEqual([]);
      expect(run.flagged).toEqual([clause]);
      expect(run.exitCode).toBe(1);
    },
    120_000,
  );
});
