import type { Clause } from '../../contract/clauses/index.ts';
import { BOOKING_SCOPES, type Scope } from '../../contract/scopes.ts';
import type { Role, TargetProbes } from '../config/target-config.ts';
import type { HookName } from '../hooks/adapter.ts';
import { profileRank, type RunSettings } from '../run-settings.ts';
import type { NotApplicableReason, Profile } from './outcome-and-evidence.ts';

/** The roles that carry the suite's business calls, and so hold what a check needs; the others exist to be refused. */
export const WORKING_ROLES: readonly Role[] = ['partnerA', 'partnerB'];

/**
 * The scopes a check needs its roles to hold: those it declares (`scopes`), else the booking scopes for a check that
 * creates reservations (`bookings`) or is of profile book (the profile that adds reservations), else none. `profile`
 * is the one the check declares, or its clause's minimum, before test hooks raise it to full.
 */
export function scopesOfCheck(
  declared: readonly Scope[] | undefined,
  profile: Profile,
  bookings = false,
): readonly Scope[] {
  if (declared) return declared;
  return bookings || profile === 'book' ? BOOKING_SCOPES : [];
}

/** The roles whose tokens must carry a check's scopes: the working roles it needs, else partnerA. */
export function scopeHolders(needs: readonly Role[]): Role[] {
  const working = needs.filter((role) => WORKING_ROLES.includes(role));
  return working.length > 0 ? working : ['partnerA'];
}

/** Whether the role's token carries the scope on this target (pre-flight's reading; unknown: every scope). */
export function holdsScope(settings: Pick<RunSettings, 'granted'>, role: Role, scope: string): boolean {
  const granted = settings.granted?.[role];
  return granted === undefined || (granted as readonly string[]).includes(scope);
}

/**
 * Why a role's missing scopes leave a check unjudged: "no role holds reservations:write" when no role's token
 * carries them, else "partnerA does not hold reservations:write".
 */
export function missingScopeDetail(
  settings: Pick<RunSettings, 'granted'>,
  role: Role,
  scopes: readonly string[],
): string {
  const known = Object.values(settings.granted ?? {}) as readonly (readonly string[])[];
  const heldByNone = scopes.every((scope) => known.every((granted) => !granted.includes(scope)));
  return heldByNone ? `no role holds ${scopes.join(', ')}` : `${role} does not hold ${scopes.join(', ')}`;
}

/** The reason a check whose roles lack some of `scopes` is not judged; undefined when they hold them all. */
export function missingScopeReason(
  settings: Pick<RunSettings, 'granted'>,
  roles: readonly Role[],
  scopes: readonly string[],
): NotApplicableReason | undefined {
  for (const role of roles) {
    const lacking = scopes.filter((scope) => !holdsScope(settings, role, scope));
    if (lacking.length > 0) return { kind: 'missing-scope', detail: missingScopeDetail(settings, role, lacking) };
  }
  return undefined;
}

export interface Requirements {
  needs: readonly Role[];
  profile: Profile;
  /**
   * Scopes the check's working roles must hold (scopeHolders; scopesOfCheck decides them from its options). Checked
   * before the profile: a role the target has not granted a scope cannot be judged on it at any profile.
   */
  scopes?: readonly Scope[];
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
  const configured = scopeHolders(req.needs).filter((role) => settings.target.clients[role] !== undefined);
  const scopes = missingScopeReason(settings, configured, req.scopes ?? []);
  if (scopes) return scopes;
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
