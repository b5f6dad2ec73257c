import { readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { clauseById } from '../../contract/clauses/index.ts';
import { BOOKING_SCOPES, isScope, type Scope } from '../../contract/scopes.ts';
import { scopesOfCheck } from '../check/applicability.ts';
import type { Profile } from '../check/outcome-and-evidence.ts';

/**
 * What the suite sources say before vitest loads them: each `check('<id>')({ … })` call with the profile it
 * declares, the scopes it needs and whether it runs in both representations. Read for the progress estimate and for
 * pre-flight's "no check could run" (a check may declare a lower profile than its clause's clause-catalogue minimum)
 * and its list of what the roles' grants leave unjudged.
 */
export interface ScannedCheck {
  clauseId: string;
  profile?: Profile;
  /**
   * The scopes the check needs its roles to hold, as check.ts decides them (applicability.ts scopesOfCheck): its
   * `scopes` when written as a literal list or BOOKING_SCOPES, else the booking scopes for a check that says
   * `bookings: true` or `profile: 'book'` (in its own options, not through a spread) or whose clause needs book.
   */
  scopes: readonly Scope[];
  /** One test per representation (JSON and XML). */
  both: boolean;
}

/** `scopes: ['reservations:read', …]` or `scopes: BOOKING_SCOPES` in a check's options; undefined without. */
function declaredScopes(options: string): Scope[] | undefined {
  const match = /\bscopes:\s*(\[[^\]]*\]|BOOKING_SCOPES)/.exec(options)?.[1];
  if (match === undefined) return undefined;
  if (match === 'BOOKING_SCOPES') return [...BOOKING_SCOPES];
  return [...match.matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '').filter(isScope);
}

const CALL = /\bcheck\(\s*'([^']+)'/g;

export function scanSource(source: string): ScannedCheck[] {
  const calls = [...source.matchAll(CALL)];
  return calls.flatMap((call, index) => {
    const clauseId = call[1];
    if (!clauseId) return [];
    const start = call.index ?? 0;
    const end = Math.min(calls[index + 1]?.index ?? source.length, start + 1_500);
    const head = source.slice(start, end);
    const profile = /\bprofile:\s*'(catalog|shop|book|full)'/.exec(head)?.[1] as Profile | undefined;
    const hooks = /\bhooks:\s*\[/.test(head);
    // The options end where the check's function begins: a body's own `{ scopes: […] }` is a call's, not the check's.
    const options = head.split(/\basync\b/)[0] ?? head;
    const minProfile = clauseById(clauseId)?.minProfile ?? 'catalog';
    const scanned: ScannedCheck = {
      clauseId,
      scopes: scopesOfCheck(declaredScopes(options), profile ?? minProfile, /\bbookings:\s*true/.test(options)),
      both: /representations:\s*REPRESENTATIONS/.test(head),
    };
    // A check that calls test hooks runs in profile full whatever it declares (check.ts).
    if (hooks) scanned.profile = 'full';
    else if (profile) scanned.profile = profile;
    return [scanned];
  });
}

/** Suite files a glob list names: `dir/**\/*.test.ts`-style globs are listed under their directory; files as they are. */
export function suiteFiles(root: string, globs: readonly string[]): string[] {
  const files = new Set<string>();
  for (const glob of globs) {
    const path = isAbsolute(glob) ? glob : join(root, glob);
    const star = path.indexOf('*');
    if (star < 0) {
      files.add(path);
      continue;
    }
    const dir = path.slice(0, path.lastIndexOf('/', star));
    const suffix = path.slice(path.lastIndexOf('*') + 1);
    // Only `**` descends into folders: `suites/*.test.ts` must not take suites/support's unit tests for checks.
    const recursive = path.includes('**');
    const walk = (at: string) => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = readdirSync(at, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = join(at, entry.name);
        if (entry.isDirectory()) {
          if (recursive) walk(full);
        } else if (full.endsWith(suffix)) files.add(full);
      }
    };
    walk(dir);
  }
  return [...files].sort();
}

export function scanFiles(files: readonly string[]): Map<string, ScannedCheck[]> {
  const out = new Map<string, ScannedCheck[]>();
  for (const file of files) {
    try {
      out.set(file, scanSource(readFileSync(file, 'utf8')));
    } catch {
      out.set(file, []);
    }
  }
  return out;
}
