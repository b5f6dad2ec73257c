import { API_PREFIX } from '../../contract/constants.ts';
import { PROFILES, type Profile } from '../../contract/vocabulary.ts';

/**
 * What each profile may send, enforced by the HTTP client (docs/design.md "Target config and profiles"). A profile
 * allows what the one before allows, and:
 * - catalog: GET requests (any path) and POST /oauth/token; nothing else;
 * - shop: POST /availability, POST /quotes;
 * - book: POST /reservations, PATCH /reservations/{id}, POST /reservations/{id}/cancel;
 * - full: the target's test hooks, and any other request (a test deployment: other methods and paths too).
 */
export const PROFILE_RULES: readonly { profile: Profile; method: string; path: RegExp; what: string }[] = [
  { profile: 'catalog', method: 'POST', path: /^\/oauth\/token$/, what: 'POST /oauth/token' },
  { profile: 'shop', method: 'POST', path: /^\/availability$/, what: 'POST /availability' },
  { profile: 'shop', method: 'POST', path: /^\/quotes$/, what: 'POST /quotes' },
  { profile: 'book', method: 'POST', path: /^\/reservations$/, what: 'POST /reservations' },
  { profile: 'book', method: 'PATCH', path: /^\/reservations\/[^/]+$/, what: 'PATCH /reservations/{id}' },
  { profile: 'book', method: 'POST', path: /^\/reservations\/[^/]+\/cancel$/, what: 'POST /reservations/{id}/cancel' },
];

const ORDER = PROFILES;

export interface GuardTarget {
  baseUrl: string;
  /** The test hooks' base URL, when the target has them (only `full` may call them). */
  hooksBaseUrl?: string;
}

/** A request the run's profile does not allow: refused before it is sent, an error of the check (never a fail). */
export class ProfileViolation extends Error {
  override readonly name = 'ProfileViolation';
}

function pathOf(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

function within(url: string, base: string | undefined): boolean {
  if (!base) return false;
  const normal = base.replace(/\/+$/, '');
  return url === normal || url.startsWith(`${normal}/`) || url.startsWith(`${normal}?`);
}

/** The least profile that may send this request. */
export function profileNeeded(method: string, url: string, target: GuardTarget): Profile {
  if (within(url, target.hooksBaseUrl)) return 'full';
  if (method === 'GET') return 'catalog';
  const apiBase = `${target.baseUrl.replace(/\/+$/, '')}${API_PREFIX}`;
  if (!within(url, apiBase)) return 'full';
  const path = pathOf(url)?.slice(new URL(apiBase).pathname.length);
  if (path === undefined) return 'full';
  return PROFILE_RULES.find((rule) => rule.method === method && rule.path.test(path))?.profile ?? 'full';
}

/** Throws ProfileViolation when `profile` may not send this request; names the profile it needs. */
export function assertProfileAllows(profile: Profile, method: string, url: string, target: GuardTarget): void {
  const needed = profileNeeded(method, url, target);
  if (ORDER.indexOf(needed) <= ORDER.indexOf(profile)) return;
  const shown = pathOf(url) ?? url;
  throw new ProfileViolation(
    `harness: profile ${profile} does not send ${method} ${shown} (profile ${needed} does): the check must declare profile '${needed}'`,
  );
}
