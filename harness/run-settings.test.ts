import { statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  profileRank,
  RUN_SETTINGS_ENV,
  type RunSettings,
  readRunSettings,
  removeRunSettings,
  writeRunSettings,
} from './run-settings.ts';

const settings: RunSettings = {
  target: { baseUrl: 'http://127.0.0.1:1', clients: { partnerA: { clientId: 'a', clientSecret: 'secret' } } },
  embedded: true,
  profile: 'shop',
  allowBookings: false,
  strict: true,
  seed: 12,
  runs: 3,
  maxRps: 5,
  date: '2030-01-02',
  bookingPrefix: 'CERT-abc-',
  only: ['4.1'],
  hooks: ['quotes.expire'],
};

describe('run settings', () => {
  it('round-trips through a file only the user can read', () => {
    const file = writeRunSettings(settings);
    try {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readRunSettings({ [RUN_SETTINGS_ENV]: file })).toEqual(settings);
    } finally {
      removeRunSettings(file);
    }
  });

  it('each write gets its own file', () => {
    const a = writeRunSettings(settings);
    const b = writeRunSettings(settings);
    expect(a).not.toBe(b);
    removeRunSettings(a);
    removeRunSettings(b);
  });

  it('explains a missing variable, a missing file and invalid content', () => {
    expect(() => readRunSettings({})).toThrow(/PARTNER_CERT_RUN is not set/);
    expect(() => readRunSettings({ [RUN_SETTINGS_ENV]: '/nonexistent/run.json' })).toThrow(/ENOENT/);
    const file = writeRunSettings(settings);
    writeFileSync(file, JSON.stringify({ ...settings, profile: 'everything', runs: 0 }));
    try {
      expect(() => readRunSettings({ [RUN_SETTINGS_ENV]: file })).toThrow(/invalid: profile, runs/);
    } finally {
      removeRunSettings(file);
    }
  });

  it('orders profiles catalog < shop < book < full', () => {
    expect(
      ['full', 'catalog', 'book', 'shop'].sort((a, b) => profileRank(a as never) - profileRank(b as never)),
    ).toEqual(['catalog', 'shop', 'book', 'full']);
  });
});
