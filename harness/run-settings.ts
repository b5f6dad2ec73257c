import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Profile } from './check/meta.ts';
import type { TargetConfig } from './config/target-config.ts';
import type { HookName } from './hooks/adapter.ts';

/** Environment variable naming the run-settings file the suites read (set by the runner for the vitest workers). */
export const RUN_SETTINGS_ENV = 'PARTNER_CERT_RUN';

/** Everything a suite needs to know about the run; written by the runner, read by every suite at import. */
export interface RunSettings {
  target: TargetConfig;
  /** The target is the bundled reference implementation started by the runner. */
  embedded: boolean;
  profile: Profile;
  allowBookings: boolean;
  strict: boolean;
  seed: number;
  /** fast-check runs per property. */
  runs: number;
  /** Global request ceiling (--max-rps); null = unpaced. */
  maxRps: number | null;
  /** YYYY-MM-DD anchor for generated dates. */
  date: string;
  /** partnerReference prefix of every reservation the run creates, e.g. 'CERT-<runId>-'. */
  bookingPrefix: string;
  /** Clause ids or section prefixes to run; empty = all. */
  only: string[];
  /** The test hooks the target lists (discovered before the run); empty without hooks. */
  hooks: HookName[];
  /** --patient: the clocks the runner started for the checks that judge expiry by waiting. */
  patient?: PatientClock;
  /** --fuzz: the campaign's bounds (suites/fuzz.campaign.ts). */
  fuzz?: FuzzSettings;
}

export interface FuzzSettings {
  durationMs: number;
  maxFailures: number;
  /** Stop after this many requests (default: only the duration bounds the campaign). */
  maxRequests?: number;
  /** Where the campaign appends a JSON line of progress every few seconds (the runner prints it). */
  progressFile?: string;
}

/** What the patient checks wait for (harness/runner/patient.ts). */
export interface PatientClock {
  /** The lifetimes waited out (the spec's 600 s and 30 minutes; shorter only in the harness's own tests). */
  tokenSeconds: number;
  quoteSeconds: number;
  marginSeconds: number;
  token?: { role: 'partnerA'; accessToken: string; issuedAtMs: number };
  quote?: { role: 'partnerA'; quoteId: string; issuedAtMs: number };
  /** Why the clocks could not be started (the checks are then not-applicable with it). */
  unavailable?: string;
}

import { PROFILES } from '../contract/vocabulary.ts';

export { PROFILES };

/** Profiles are ordered: each allows what the one before allows. */
export function profileRank(profile: Profile): number {
  return PROFILES.indexOf(profile);
}

/**
 * Writes the settings to a fresh temp file readable only by the user (it holds the target's secrets) and
 * returns its path; remove it with removeRunSettings when the run ends.
 */
export function writeRunSettings(settings: RunSettings): string {
  const file = join(tmpdir(), `partner-cert-run-${randomBytes(8).toString('hex')}.json`);
  writeFileSync(file, `${JSON.stringify(settings)}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}

export function removeRunSettings(file: string): void {
  rmSync(file, { force: true });
}

let cached: { file: string; settings: RunSettings } | undefined;

/** The settings of the current run, from the file named by PARTNER_CERT_RUN (read once per process). */
export function readRunSettings(env: NodeJS.ProcessEnv = process.env): RunSettings {
  const file = env[RUN_SETTINGS_ENV];
  if (!file) {
    throw new Error(
      `${RUN_SETTINGS_ENV} is not set: the suites run through the certify runner (npm run certify), not on their own`,
    );
  }
  if (cached?.file === file) return cached.settings;
  let settings: RunSettings;
  try {
    settings = JSON.parse(readFileSync(file, 'utf8')) as RunSettings;
  } catch (error) {
    throw new Error(`cannot read run settings ${file}: ${(error as NodeJS.ErrnoException).code ?? 'invalid JSON'}`);
  }
  assertRunSettings(settings, file);
  cached = { file, settings };
  return settings;
}

function assertRunSettings(settings: RunSettings, file: string): void {
  const problems: string[] = [];
  if (typeof settings !== 'object' || settings === null) problems.push('not an object');
  else {
    if (typeof settings.target?.baseUrl !== 'string') problems.push('target.baseUrl');
    if (!PROFILES.includes(settings.profile)) problems.push('profile');
    if (!Number.isInteger(settings.seed)) problems.push('seed');
    if (!Number.isInteger(settings.runs) || settings.runs < 1) problems.push('runs');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(settings.date))) problems.push('date');
    if (!Array.isArray(settings.only)) problems.push('only');
    if (!Array.isArray(settings.hooks)) problems.push('hooks');
  }
  if (problems.length > 0) throw new Error(`run settings ${file} are invalid: ${problems.join(', ')}`);
}
