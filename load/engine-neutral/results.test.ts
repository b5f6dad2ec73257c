import { describe, expect, it } from 'vitest';
import type { LoadStepResult } from '../../harness/report/model.ts';
import { rateLimitScenario } from '../scenarios/rate-limit.ts';
import { tokenBucketsScenario } from '../scenarios/token-buckets.ts';
import { assembleResult, checkResults, describeThreshold, evaluateThresholds } from './results.ts';

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
    const checks = checkResults(
      tokenBucketsScenario,
      { [tokenBucketsScenario.checks[0]?.name ?? '']: { passes: 3, fails: 0 } },
      [],
      'k6',
    );
    expect(checks[0]?.outcome).toBe('pass');
    expect(checks.filter((c) => c.outcome === 'not-applicable').map((c) => c.detail)).toEqual([
      'needs source-address, which the k6 engine lacks',
      'needs source-address, which the k6 engine lacks',
      'needs source-address, which the k6 engine lacks',
    ]);
    expect(checks[1]?.outcome).toBe('fail');
    expect(checks[1]?.detail).toContain('never evaluated');
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
    expect(assembleResult({ ...input, checks: checkResults(rateLimitScenario, allPass, [], 'native') }).passed).toBe(
      true,
    );
    const oneFails = { ...allPass, [rateLimitScenario.checks[2]?.name ?? '']: { passes: 1, fails: 1 } };
    expect(assembleResult({ ...input, checks: checkResults(rateLimitScenario, oneFails, [], 'native') }).passed).toBe(
      false,
    );
    const noLimit = { ...input, steps: [step('locations', 40, {})] };
    expect(assembleResult({ ...noLimit, checks: checkResults(rateLimitScenario, allPass, [], 'native') }).passed).toBe(
      false,
    );
  });
});
