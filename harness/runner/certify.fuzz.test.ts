import { describe, expect, test } from 'vitest';
import { shortFuzzCampaigns } from './test-support/short-fuzz.ts';

/**
 * A short fuzz campaign against the reference (README "Fuzz campaigns"), in `npm test`: it finds nothing and cleans
 * up. certify.fuzz-faults.test.ts (npm run test:long) shows a fault found and shrunk.
 */
const fuzz = shortFuzzCampaigns('certify-fuzz-');

describe('certify --fuzz', () => {
  test('a short campaign against the reference finds nothing and cleans up its bookings', async () => {
    const { report, exitCode, cleanup } = await fuzz([], 'plain');
    const campaign = report.sections.flatMap((s) => s.clauses).find((c) => c.id === '7.3.36');
    expect(campaign?.checks[0]?.outcome).toBe('pass');
    expect(exitCode).toBe(0);
    expect(cleanup?.leftovers ?? []).toEqual([]);
  }, 120_000);
});
