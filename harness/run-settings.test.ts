import { describe, expect, it } from 'vitest';
import { readRunSettings } from './check/harness-state.ts';
import { profileRank } from './run-settings.ts';

describe('run settings', () => {
  it('are read from what the runner provided; outside a certify run the suites say so', () => {
    // This unit-test run provides none (harness/runner/vitest-run.ts provides them to the suites' workers).
    expect(() => readRunSettings()).toThrow(/run through the certify runner/);
  });

  it('orders profiles catalog < shop < book < full', () => {
    expect(
      ['full', 'catalog', 'book', 'shop'].sort((a, b) => profileRank(a as never) - profileRank(b as never)),
    ).toEqual(['catalog', 'shop', 'book', 'full']);
  });
});
