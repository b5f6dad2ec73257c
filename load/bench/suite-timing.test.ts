import { describe, expect, it } from 'vitest';
import { type SuiteTiming, suiteVerdict } from './suite-timing.ts';
import { formatSuite, goalOf } from './table.ts';

const certify: SuiteTiming = {
  name: 'npm run certify',
  detail: 'embedded, full, default runs',
  seconds: 31.4,
  exitCode: 0,
  goalSeconds: 40,
};

describe('the suite rows of the bench (issue 13)', () => {
  it('meets its goal only when it passed within it', () => {
    expect(suiteVerdict(certify)).toBe('met');
    expect(suiteVerdict({ ...certify, seconds: 40 })).toBe('NOT met');
    expect(suiteVerdict({ ...certify, exitCode: 1, seconds: 5 })).toBe('failed (exit 1)');
  });

  it('prints each row with its goal and verdict', () => {
    const text = formatSuite([
      certify,
      { ...certify, name: 'npm test', detail: 'fresh clone of HEAD', seconds: 301, goalSeconds: 300 },
    ]);
    expect(text).toMatch(/npm run certify .*31\.4 .*< 40 s .*met/);
    expect(text).toMatch(/npm test .*301\.0 .*< 300 s .*NOT met/);
  });
});

describe('goalOf', () => {
  it('sets the read ratios on either store and a booking rate for each', () => {
    expect(goalOf('sqlite', 'GET /locations')).toEqual({ ratio: 0.6 });
    expect(goalOf('sqlite', 'POST /availability')).toEqual({ ratio: 0.3, p50Ms: 5 });
    expect(goalOf('postgres', 'GET /locations')).toEqual({ ratio: 0.6 });
    expect(goalOf('postgres', 'POST /reservations')).toEqual({ requestsPerSecond: 1500 });
    expect(goalOf('sqlite', 'POST /reservations')).toEqual({ requestsPerSecond: 2000 });
  });
});
