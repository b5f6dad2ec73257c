import type { AnyScenario } from '../engine-neutral/model.ts';
import { bookingFunnelScenario } from './booking-funnel.ts';
import { clientIsolationScenario } from './client-isolation.ts';
import { idempotencyStormScenario } from './idempotency-storm.ts';
import { rateLimitScenario } from './rate-limit.ts';
import { tokenBucketsScenario } from './token-buckets.ts';

/** Every load scenario, by id (the CLI's first argument, the k6 entry script's name). */
export const SCENARIOS: readonly AnyScenario[] = [
  rateLimitScenario,
  clientIsolationScenario,
  tokenBucketsScenario,
  bookingFunnelScenario,
  idempotencyStormScenario,
];

export function scenarioById(id: string): AnyScenario | undefined {
  return SCENARIOS.find((scenario) => scenario.id === id);
}
