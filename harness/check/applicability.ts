import type { Clause } from '../../contract/clauses/index.ts';
import type { Role, TargetProbes } from '../config/target-config.ts';
import type { HookName } from '../hooks/adapter.ts';
import { profileRank, type RunSettings } from '../run-settings.ts';
import type { NotApplicableReason, Profile } from './outcome-and-evidence.ts';

export interface Requirements {
  needs: readonly Role[];
  profile: Profile;
  /** Test hooks the check calls (docs/test-hooks.md). */
  hooks: readonly HookName[];
  /** Judges by waiting (--patient). */
  patient?: boolean;
  /** Probe codes of the target config the check uses. */
  probes: readonly (keyof TargetProbes)[];
  bookings: boolean;
  https: boolean;
}

/** Why a check cannot run on this target with these settings; undefined when it can. One reason, the first. */
export function notApplicableReason(req: Requirements, settings: RunSettings): NotApplicableReason | undefined {
  if (profileRank(req.profile) > profileRank(settings.profile)) {
    return { kind: 'profile', detail: `needs profile ${req.profile}; the run's profile is ${settings.profile}` };
  }
  const missing = req.needs.filter((role) => !settings.target.clients[role]);
  if (missing.length > 0) {
    return {
      kind: 'missing-credential',
      detail: `needs credentials for ${missing.join(', ')} in the target config`,
    };
  }
  if (req.patient && !settings.patient) {
    return { kind: 'not-patient', detail: 'judged by waiting for the expiry: run with --patient (about 31 minutes)' };
  }
  if (req.patient && settings.patient?.unavailable) {
    return { kind: 'target', detail: `the patient clocks could not start: ${settings.patient.unavailable}` };
  }
  const missingProbes = req.probes.filter((probe) => settings.target.probes?.[probe] === undefined);
  if (missingProbes.length > 0) {
    return {
      kind: 'missing-probe',
      detail: `needs the probe code(s) ${missingProbes.join(', ')} in the target config (probes)`,
    };
  }
  const missingHooks = req.hooks.filter((hook) => !settings.hooks.includes(hook));
  if (missingHooks.length > 0) {
    return {
      kind: 'missing-hooks',
      detail:
        settings.hooks.length === 0
          ? `needs the target's test hooks (${missingHooks.join(', ')}; hooks in the target config, docs/test-hooks.md)`
          : `needs the test hook(s) ${missingHooks.join(', ')}, which the target does not offer`,
    };
  }
  if (req.bookings && !settings.allowBookings) {
    return { kind: 'bookings-not-allowed', detail: 'creates reservations: run with --allow-bookings' };
  }
  if (req.https && !settings.target.baseUrl.startsWith('https:')) {
    return { kind: 'plain-http', detail: 'only observable on an https target' };
  }
  return undefined;
}

/**
 * `only` holds clause ids ('4.7.3'; '4.7.9' also selects 4.7.9a, 4.7.9b …) or section prefixes ('4.7', '5').
 * Empty selects everything.
 */
export function isSelected(clause: Clause, only: readonly string[]): boolean {
  if (only.length === 0) return true;
  return only.some((entry) => {
    const e = entry.trim();
    if (e === '') return false;
    return (
      clause.id === e ||
      clause.id.replace(/[a-z]+$/, '') === e ||
      clause.section === e ||
      clause.section.startsWith(`${e}.`)
    );
  });
}
