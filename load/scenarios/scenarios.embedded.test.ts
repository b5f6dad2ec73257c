import { describe, expect, it } from 'vitest';
import type { LoadScenarioResult } from '../../harness/report/model.ts';
import { startEmbeddedTarget } from '../../harness/target/embedded.ts';
import type { AnyScenario } from '../engine-neutral/model.ts';
import { runNative } from '../native/engine.ts';
import { embeddedLoadTarget } from '../target.ts';
import { validateLoadResult } from '../test-support/load-result-schema.ts';
import { bookingFunnelScenario } from './booking-funnel.ts';
import { clientIsolationScenario } from './client-isolation.ts';
import { idempotencyStormScenario } from './idempotency-storm.ts';
import { tokenBucketsScenario } from './token-buckets.ts';

const validate = validateLoadResult;

/**
 * Each scenario against a fresh reference implementation (its own server environment), with the CI settings and the
 * control API, as `npm run load` gives it.
 */
async function runAgainstReference(scenario: AnyScenario): Promise<LoadScenarioResult> {
  const target = await startEmbeddedTarget({
    transport: 'http',
    ...(scenario.embeddedEnv ? { env: scenario.embeddedEnv } : {}),
  });
  try {
    return await runNative(scenario, {
      target: embeddedLoadTarget(target.config),
      embedded: true,
      options: scenario.ci,
    });
  } finally {
    await target.stop();
  }
}

function expectPassed(result: LoadScenarioResult): void {
  expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
  const failed = [
    ...result.checks.filter((c) => c.outcome !== 'pass'),
    ...result.thresholds.filter((t) => t.outcome !== 'pass'),
  ];
  expect(failed).toEqual([]);
  expect(result.notes).toEqual([]);
  expect(result.passed).toBe(true);
}

/** Starting a server and running a few seconds of load; generous for a busy CI machine. */
const TIMEOUT_MS = 90_000;

// rate-limit runs through the CLI in load/cli.test.ts.
describe('load scenarios against the reference implementation (CI settings)', () => {
  it(
    'client-isolation: the limited client gets 429s, the other none',
    async () => {
      const result = await runAgainstReference(clientIsolationScenario);
      expectPassed(result);
      const [noisy, quiet] = result.steps;
      // 30 a window: one window, or two when the run straddles a minute boundary; more than 60 calls are refused
      // either way.
      const count = noisy?.count ?? 0;
      const limited = noisy?.errors.RATE_LIMITED ?? 0;
      expect(count).toBeGreaterThan(60);
      expect(limited).toBeGreaterThan(0);
      expect(limited).toBeLessThanOrEqual(count - 30);
      expect(limited).toBeGreaterThanOrEqual(count - 60);
      expect(quiet?.errors).toEqual({});
      expect(Object.keys(result.series?.remaining ?? {}).sort()).toEqual(['partnerA', 'rateLimit']);
    },
    TIMEOUT_MS,
  );

  it(
    'token-buckets: both buckets refuse with slow_down, told apart by fresh addresses',
    async () => {
      const result = await runAgainstReference(tokenBucketsScenario);
      expectPassed(result);
      expect(result.checks.every((c) => c.passes > 0)).toBe(true);
      // The embedded limits are 8 per client and 12 per address: partnerA gets exactly 8 tokens, from 4 addresses.
      const [perClient, perAddress] = result.steps;
      expect((perClient?.count ?? 0) - (perClient?.errors.slow_down ?? 0)).toBe(8);
      // The per-address phase's address had not been used before: 12 tokens, whatever the clients.
      expect((perAddress?.count ?? 0) - (perAddress?.errors.slow_down ?? 0)).toBe(12);
    },
    TIMEOUT_MS,
  );

  it(
    'booking-funnel: every journey books and cancels, latency per step',
    async () => {
      const result = await runAgainstReference(bookingFunnelScenario);
      expectPassed(result);
      const journeys = bookingFunnelScenario.ci.rate * bookingFunnelScenario.ci.durationS;
      expect(result.steps.map((s) => [s.name, s.count])).toEqual(
        ['availability', 'quote', 'reservation', 'get', 'cancel'].map((name) => [name, journeys]),
      );
      for (const step of result.steps) expect(step.latencyMs.p50).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );

  it(
    'idempotency-storm: exactly one reservation per key',
    async () => {
      const result = await runAgainstReference(idempotencyStormScenario);
      expectPassed(result);
      const exactlyOne = result.checks.find((c) => c.name === 'exactly one reservation per key afterwards');
      expect(exactlyOne).toMatchObject({ passes: 4, fails: 0 });
      expect(result.checks.find((c) => c.name === 'at most one 201 per key')).toMatchObject({ passes: 4, fails: 0 });
    },
    TIMEOUT_MS,
  );
});
