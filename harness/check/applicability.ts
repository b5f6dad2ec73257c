import type { Clause } from '../../contract/clauses/index.ts';
import type { Role } from '../config/target-config.ts';
import { profileRank, type RunSettings } from '../run-settings.ts';
import type { NotApplicableReason, Profile } from './meta.ts';

export interface Requirements {
  needs: readonly Role[];
  profile: Profile;
  control: boolean;
  bookings: boolean;
  https: boolean;
}

/** Why a check cannot run on this target with these settings; undefined when it can. One reason, the first. */
export function notApplicableReason(
  req: Requirements,
  settings: RunSettings,
  hasControl: boolean = settings.target.control !== undefined,
): NotApplicableReason | undefined {
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
  if (req.control && !hasControl) {
    return { kind: 'missing-control', detail: 'needs the target control adapter (control in the target config)' };
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
