import type { Scope } from '../contract/scopes.ts';
import type { Profile } from './check/outcome-and-evidence.ts';
import type { XmlCoverage } from './check/representations.ts';
import type { Role, TargetConfig } from './config/target-config.ts';
import type { HookName } from './hooks/adapter.ts';

/**
 * The key the runner hands the settings to the vitest workers under (vitest's `provide`, harness/runner/vitest-run.ts)
 * and every suite reads them back with `inject` (harness/check/harness-state.ts): no file, no environment variable.
 */
export const RUN_SETTINGS_KEY = 'partnerCertRun';

/**
 * The key the runner hands pre-flight's tokens to the workers under: a worker's first call of a role uses the token
 * pre-flight was issued for it, as a client reuses its token until it expires (spec 5.3), instead of asking again.
 */
export const RUN_TOKENS_KEY = 'partnerCertTokens';

/** A token pre-flight was issued for a role: without a scope (all the role holds), by the role's client authentication. */
export interface IssuedToken {
  accessToken: string;
  method: 'basic' | 'post';
  /** Epoch ms after which it is not handed out again (its lifetime less the token cache's margin). */
  reuseUntil: number;
}

export type PreflightTokens = Partial<Record<Role, IssuedToken>>;

declare module 'vitest' {
  export interface ProvidedContext {
    partnerCertRun: RunSettings;
    partnerCertTokens: PreflightTokens;
  }
}

/** Everything a suite needs to know about the run; built once by the runner, read by every suite at import. */
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
  /** --xml: which checks also run in XML (check/representations.ts); absent: mirror. */
  xml?: XmlCoverage;
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
  /**
   * The scopes each role's token carries, as pre-flight read them from the token response's `scope` (spec 4.1, 5.5):
   * a check draws only scopes its role holds, and one that needs a scope its role lacks is not judged. A role absent
   * here (not configured, refused a token, or a scope string in names other than the spec's, which 5.5a judges) is
   * taken to hold every scope, as is every role when the field is absent.
   */
  granted?: Partial<Record<Role, Scope[]>>;
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
