import { describe, expect, it } from 'vitest';
import { BOOKING_SCOPES } from '../../contract/scopes.ts';
import type { RunSettings } from '../run-settings.ts';
import { DEFAULT_SUITES } from './options.ts';
import { PROJECT_ROOT } from './paths.ts';
import { suiteFiles } from './suite-scan.ts';
import { collectChecks } from './vitest-run.ts';

const FIXTURE = 'harness/runner/test-support/declared.checks.ts';

function settings(overrides: Partial<RunSettings> = {}): RunSettings {
  return {
    target: { baseUrl: 'http://127.0.0.1:9', clients: {} },
    embedded: false,
    profile: 'full',
    allowBookings: true,
    strict: false,
    seed: 1,
    runs: 25,
    maxRps: null,
    date: '2027-01-04',
    bookingPrefix: 'CERT-test-',
    only: [],
    hooks: [],
    ...overrides,
  } as RunSettings;
}

describe('collectChecks: the checks a run will run, read from vitest before any runs', () => {
  it('resolves what each check declares, through spreads and loops, one entry per representation', async () => {
    const collected = await collectChecks({ root: PROJECT_ROOT, include: [FIXTURE], settings: settings() });
    const [declared] = [...collected.values()];
    expect(declared?.map(({ clauseId, profile }) => `${clauseId} ${profile}`)).toEqual([
      '4.2.1 catalog',
      '4.2.1 book',
      '4.7.1 book',
      '4.2.1 full',
      '4.2.2 catalog',
      '4.2.2 catalog',
      '4.13.1a catalog',
      '4.13.1a catalog',
      '4.2.3 catalog',
    ]);
    expect(declared?.[0]?.scopes).toEqual(['rates:read']);
    expect(declared?.[1]?.scopes).toEqual(BOOKING_SCOPES);
    expect(declared?.[2]?.scopes).toEqual(BOOKING_SCOPES);
    expect(declared?.[4]?.scopes).toEqual([]);
  });

  it('applies the run’s --only and --xml as the run does', async () => {
    const only = await collectChecks({ root: PROJECT_ROOT, include: [FIXTURE], settings: settings({ only: ['4.2'] }) });
    expect([...only.values()][0]?.map((check) => check.clauseId)).toEqual([
      '4.2.1',
      '4.2.1',
      '4.2.1',
      '4.2.2',
      '4.2.2',
      '4.2.3',
    ]);
    const every = await collectChecks({
      root: PROJECT_ROOT,
      include: [FIXTURE],
      settings: settings({ only: ['4.2.3'], xml: 'every-check' }),
    });
    expect([...every.values()][0]).toHaveLength(2);
  });

  it('lists every suite file of the run, those without a selected check too', async () => {
    const collected = await collectChecks({
      root: PROJECT_ROOT,
      include: [...DEFAULT_SUITES],
      settings: settings({ only: ['4.7.1'] }),
    });
    expect([...collected.keys()].sort()).toEqual(suiteFiles(PROJECT_ROOT, DEFAULT_SUITES));
    expect([...collected.values()].flat().every((check) => check.clauseId === '4.7.1')).toBe(true);
  });
});
