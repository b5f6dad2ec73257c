import { describe, expect, it } from 'vitest';
import type { LoadStepResult } from '../../harness/report/model.ts';
import { SCENARIOS } from '../scenarios/index.ts';
import { rateLimitScenario } from '../scenarios/rate-limit.ts';
import { tokenBucketsScenario } from '../scenarios/token-buckets.ts';
import {
  assembleResult,
  checkResults,
  describeThreshold,
  evaluateThresholds,
  isNotJudged,
  judgeCeiling,
  NOT_JUDGED_PREFIX,
} from './results.ts';
import { RATE_LIMIT_CEILING } from './window-monitor.ts';

const step = (name: string, count: number, errors: Record<string, number>, p99 = 10): LoadStepResult => ({
  name,
  count,
  ratePerSecond: count,
  latencyMs: { p50: 1, p90: 5, p99, max: p99 + 1 },
  errors,
});

describe('thresholds and checks into one result', () => {
  it('evaluates each kind of threshold', () => {
    const steps = [step('a', 100, { RATE_LIMITED: 40, INTERNAL_ERROR: 1 }, 900), step('b', 0, {})];
    const results = evaluateThresholds(
      [
        { kind: 'latency', step: 'a', stat: 'p99', belowMs: 1000 },
        { kind: 'latency', step: 'a', stat: 'p99', belowMs: 900 },
        { kind: 'latency', step: 'b', stat: 'p50', belowMs: 1 },
        { kind: 'unexpected-rate', step: 'a', expected: ['RATE_LIMITED'], atMost: 0.01 },
        { kind: 'unexpected-rate', step: 'a', expected: ['RATE_LIMITED'], atMost: 0 },
        { kind: 'code-count', step: 'a', code: 'RATE_LIMITED', atLeast: 1 },
        { kind: 'code-count', step: 'b', code: 'RATE_LIMITED', atLeast: 1 },
        { kind: 'dropped-iterations', atMost: 0 },
      ],
      steps,
      3,
    );
    expect(results.map((r) => [r.outcome, r.actual])).toEqual([
      ['pass', 900],
      ['fail', 900],
      ['fail', null],
      ['pass', 0.01],
      ['fail', 0.01],
      ['pass', 40],
      ['fail', 0],
      ['fail', 3],
    ]);
    expect(describeThreshold({ kind: 'code-count', step: 'a', code: 'X', atLeast: 1, atMost: 2 })).toBe(
      'a: X responses ≥ 1 and ≤ 2',
    );
  });

  it('makes a check not applicable without its capability, and fails one that never ran', () => {
    const byName = (name: string) => tokenBucketsScenario.checks.findIndex((c) => c.name === name);
    const noHeaders = 'the token endpoint never sends X-RateLimit-* headers';
    const steps = [step('token_per_client', 16, { slow_down: 8 }), step('token_per_address', 18, { slow_down: 6 })];
    const checks = checkResults(tokenBucketsScenario, { [noHeaders]: { passes: 3, fails: 0 } }, [], 'k6', {
      steps,
      ceilings: {},
    });
    expect(checks[byName(noHeaders)]?.outcome).toBe('pass');
    expect(checks.filter((c) => c.outcome === 'not-applicable').map((c) => c.detail)).toEqual([
      'needs source-address, which the k6 engine lacks',
      'needs source-address, which the k6 engine lacks',
      'needs source-address, which the k6 engine lacks',
    ]);
    // Both ceilings were reached, so the 429 checks had something to judge: never evaluated is a failure.
    const retryAfter = checks[byName('every token 429 carries Retry-After in whole seconds')];
    expect(retryAfter?.outcome).toBe('fail');
    expect(retryAfter?.detail).toContain('never evaluated');
  });

  it('passes only when every check and threshold does', () => {
    const allPass = Object.fromEntries(rateLimitScenario.checks.map((c) => [c.name, { passes: 1, fails: 0 }]));
    const input = {
      scenario: rateLimitScenario,
      engine: 'native' as const,
      target: { baseUrl: 'http://127.0.0.1:1', embedded: true },
      startedAt: '2031-01-01T00:00:00.000Z',
      durationMs: 1000,
      phases: [],
      steps: [step('locations', 40, { RATE_LIMITED: 10 })],
      droppedIterations: 0,
      notes: [],
    };
    const reached = { steps: input.steps, ceilings: {} };
    expect(
      assembleResult({ ...input, checks: checkResults(rateLimitScenario, allPass, [], 'native', reached) }).passed,
    ).toBe(true);
    const oneFails = { ...allPass, [rateLimitScenario.checks[2]?.name ?? '']: { passes: 1, fails: 1 } };
    expect(
      assembleResult({ ...input, checks: checkResults(rateLimitScenario, oneFails, [], 'native', reached) }).passed,
    ).toBe(false);
    // No 429 in 40 requests, though X-RateLimit-Limit said 30 (one window): the ceiling check fails.
    const noLimit = { ...input, steps: [step('locations', 40, {})] };
    const stated = { [RATE_LIMIT_CEILING]: { limit: 30, source: 'X-RateLimit-Limit', sureAfter: 30 } };
    const observed = { steps: noLimit.steps, ceilings: stated };
    expect(
      assembleResult({ ...noLimit, checks: checkResults(rateLimitScenario, allPass, [], 'native', observed) }).passed,
    ).toBe(false);
  });

  it('judges a ceiling check from the counts: reached, passed although stated, or not judged', () => {
    const reached = { step: 'token_per_client', code: 'slow_down' };
    const sent = [step('token_per_client', 16, {})];
    expect(judgeCeiling(reached, [step('token_per_client', 16, { slow_down: 2 })], undefined)).toEqual({
      outcome: 'pass',
      refused: 2,
    });
    expect(judgeCeiling(reached, sent, undefined)).toMatchObject({ outcome: 'not-judged' });
    const stated = (limit: number, sureAfter: number) => ({ limit, sureAfter, source: 'the target config' });
    expect(judgeCeiling(reached, sent, stated(300, 300))).toMatchObject({ outcome: 'not-judged' });
    expect(judgeCeiling(reached, sent, stated(8, 16))).toMatchObject({ outcome: 'not-judged' });
    expect(judgeCeiling(reached, sent, stated(8, 8))).toEqual({
      outcome: 'fail',
      detail:
        '16 requests of token_per_client, none refused with slow_down, though the target config states 8 a minute (a refusal is certain after 8)',
    });

    // Not judged is reported as not-applicable with its own prefix (the report model has no outcome of that name),
    // and fails nothing: neither the ceiling check nor the checks that judge what follows a refusal.
    const checks = checkResults(tokenBucketsScenario, {}, ['source-address', 'shared-memory'], 'native', {
      steps: [...sent, step('token_per_address', 18, {})],
      ceilings: {},
    });
    expect(checks.filter(isNotJudged).length).toBe(checks.length - 1);
    expect(checks.filter((c) => !isNotJudged(c)).map((c) => [c.name, c.outcome])).toEqual([
      ['the token endpoint never sends X-RateLimit-* headers', 'fail'],
    ]);
    expect(checks[0]?.detail).toBe(
      `${NOT_JUDGED_PREFIX}no slow_down within 16 requests of token_per_client: the ceiling is not shown (spec 8), and this run's bounds did not reach it`,
    );
  });

  it('every scenario names declared ceiling checks and steps', () => {
    for (const scenario of SCENARIOS) {
      const ceilings = scenario.checks.filter((c) => c.reached);
      for (const check of ceilings) expect(scenario.steps).toContain(check.reached?.step);
      for (const check of scenario.checks) {
        for (const name of check.afterCeiling ?? []) expect(ceilings.map((c) => c.name)).toContain(name);
      }
    }
  });
});
