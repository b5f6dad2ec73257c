import type { LoadScenarioResult } from '../model.ts';
import { XSS_PROBE } from './sample.ts';

/** A load scenario result with every outcome, a time series and the XSS probe in every text the page shows. */
export function loadResult(overrides: Partial<LoadScenarioResult> = {}): LoadScenarioResult {
  return {
    schemaVersion: 1,
    scenario: 'rate-limit',
    title: `Rate limit under load ${XSS_PROBE}`,
    engine: 'native',
    target: { baseUrl: 'http://127.0.0.1:4010', embedded: true },
    startedAt: '2031-01-01T10:00:00.000Z',
    durationMs: 4200,
    phases: [{ name: 'load', arrival: 'open model: 15 iterations/s for 4 s' }],
    passed: false,
    steps: [
      {
        name: 'locations',
        count: 60,
        ratePerSecond: 15,
        latencyMs: { p50: 3.1, p90: 4.2, p99: 9.8, max: 12.5 },
        errors: { RATE_LIMITED: 30, [XSS_PROBE]: 1 },
      },
    ],
    checks: [
      { name: 'every 429 carries Retry-After', description: 'Spec 8.15.', outcome: 'pass', passes: 30, fails: 0 },
      {
        name: `successes within one window ${XSS_PROBE}`,
        description: 'Spec 8.',
        outcome: 'fail',
        passes: 29,
        fails: 1,
        detail: `31 successes ${XSS_PROBE}`,
      },
      {
        name: 'per client: from a fresh address',
        description: 'needs a source address',
        outcome: 'not-applicable',
        passes: 0,
        fails: 0,
        detail: 'needs source-address, which the k6 engine lacks',
      },
    ],
    thresholds: [
      { name: 'locations: RATE_LIMITED responses ≥ 1', outcome: 'pass', actual: 30 },
      { name: 'locations p99 < 5 ms', outcome: 'fail', actual: 9.8 },
    ],
    droppedIterations: 0,
    series: {
      intervalMs: 1000,
      t: [0, 1, 2, 3],
      requests: { locations: [15, 15, 15, 15] },
      latencyP50Ms: { locations: [3, 3.2, null, 3.1] },
      latencyP99Ms: { locations: [8, 9.8, null, 7] },
      rateLimited: [0, 0, 15, 15],
      remaining: { rateLimit: [15, 0, 0, 0] },
    },
    notes: [`note ${XSS_PROBE}`],
    ...overrides,
  };
}
