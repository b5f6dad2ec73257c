import { describe, expect, it } from 'vitest';
import type { Measurement } from './measure.ts';
import { p99Ratio, type ScaleRow, scaleVerdict } from './scale.ts';
import { formatScale } from './table.ts';

const m = (p99Ms: number): Measurement => ({ requestsPerSecond: 100, p50Ms: 1, p99Ms, errors: {} });
const row = (store: string, rows: number, operation: string, p99: number): ScaleRow => ({
  store,
  rows,
  operation,
  measurement: m(p99),
});

describe('bench scale rows: p99 against the same operation before seeding', () => {
  const rows = [
    row('sqlite', 0, 'GET /reservations', 10),
    row('sqlite', 10_000, 'GET /reservations', 15),
    row('sqlite', 100_000, 'GET /reservations', 15.1),
    row('postgres', 0, 'GET /reservations', 30),
    row('postgres', 10_000, 'GET /reservations', 20),
    row('sqlite', 10_000, 'POST /reservations', 5),
  ];

  it('divides by the baseline of the same store and operation; 1.5 × is still met', () => {
    expect(p99Ratio(rows[1] as ScaleRow, rows)).toBe(1.5);
    expect(scaleVerdict(rows[1] as ScaleRow, rows)).toBe('met');
    expect(scaleVerdict(rows[2] as ScaleRow, rows)).toBe('NOT met');
    expect(p99Ratio(rows[4] as ScaleRow, rows)).toBeCloseTo(0.667, 3);
    expect(scaleVerdict(rows[0] as ScaleRow, rows)).toBe('baseline');
  });

  it('a row without a baseline has no ratio and no verdict', () => {
    expect(p99Ratio(rows[5] as ScaleRow, rows)).toBeUndefined();
    expect(scaleVerdict(rows[5] as ScaleRow, rows)).toBe('-');
  });

  it('prints one line per row, grouped by store and operation, sizes ascending', () => {
    const lines = formatScale(rows).split('\n').slice(2);
    expect(lines).toHaveLength(rows.length);
    expect(lines[0]).toMatch(/^\| postgres .* 0 .* baseline \|$/);
    expect(lines[3]).toMatch(/^\| sqlite +\| GET \/reservations +\| +10,000 .* 1\.50 .* met \|$/);
    expect(lines[4]).toMatch(/100,000 .* 1\.51 .* NOT met \|$/);
  });
});
