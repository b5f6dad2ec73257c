import { describe, expect, it } from 'vitest';
import { combineSlices, type Slice } from './measure.ts';

const slice = (rate: number, p50: number, p99: number, cpuSeconds: number, errors = {}): Slice => ({
  measurement: { requestsPerSecond: rate, p50Ms: p50, p99Ms: p99, errors },
  seconds: 1,
  cpuSeconds,
});

describe('combineSlices (interleaved runs of one server)', () => {
  it('takes the rate over all requests and seconds, CPU over all requests, the median p50 and p99', () => {
    const combined = combineSlices([
      slice(1000, 1, 5, 0.05),
      slice(3000, 3, 9, 0.09, { '429': 2 }),
      slice(2000, 2, 7, 0.06, { '429': 1, NETWORK: 1 }),
    ]);
    expect(combined.requestsPerSecond).toBe(2000);
    expect(combined.cpuUsPerRequest).toBeCloseTo((0.2 * 1e6) / 6000);
    expect(combined.p50Ms).toBe(2);
    expect(combined.p99Ms).toBe(7);
    expect(combined.errors).toEqual({ '429': 3, NETWORK: 1 });
  });

  it('averages the two middle percentiles of an even count, and leaves CPU out when it is unknown', () => {
    const combined = combineSlices([slice(10, 1, 4, Number.NaN), slice(30, 3, 8, 0.1)]);
    expect(combined.p50Ms).toBe(2);
    expect(combined.p99Ms).toBe(6);
    expect(combined.cpuUsPerRequest).toBeUndefined();
    expect(() => combineSlices([])).toThrow(/no slices/);
  });
});
