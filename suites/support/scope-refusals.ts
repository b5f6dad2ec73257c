/**
 * Listing reads with a genuine token of another scope (spec 5.6b: 403 INSUFFICIENT_SCOPE), sent once for the run and
 * judged by every clause that states the refusal: the endpoint rows 4.0.5 to 4.0.9 on their own path, 5.6b on every
 * path, 7.3.4's row on the lists. Each path's cases name the other scopes partnerA holds in an order drawn from the
 * run's seed, one scope per case, so the cases of one path are distinct requests.
 */
import fc from 'fast-check';
import type { Scope } from '../../contract/scopes.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { heldScopes } from './draws.ts';
import { fleetOf, locationsOf } from './listings.ts';
import type { CaseFamily } from './shared-cases.ts';
import { sharedRead } from './shared-reads.ts';
import { sharedDraw } from './shared-steps.ts';

/** A listing read and the scope its token needs; the code paths name a listed member. */
export type ScopedRead = 'fleet' | 'vehicle' | 'locations' | 'location' | 'rates';

const NEEDED: Record<ScopedRead, Scope> = {
  fleet: 'fleet:read',
  vehicle: 'fleet:read',
  locations: 'locations:read',
  location: 'locations:read',
  rates: 'rates:read',
};

export const SCOPED_READS = Object.keys(NEEDED) as ScopedRead[];

export interface ScopeRefusalInput {
  path: string;
  scopes: Scope[];
}

async function pathOf(t: CheckContext, read: ScopedRead): Promise<string> {
  if (read === 'fleet' || read === 'locations' || read === 'rates') return `/${read}`;
  // The one list the path needs: a listed member, so the only thing wrong with the read is the scope.
  const code =
    read === 'vehicle'
      ? (await fleetOf(t, 'partnerA')).vehicles[0]?.vehicleCode
      : (await locationsOf(t, 'partnerA')).locations[0]?.locationCode;
  if (!code) return t.notApplicable(`the target lists no ${read === 'vehicle' ? 'vehicle' : 'location'}`);
  return read === 'vehicle' ? `/fleet/${encodeURIComponent(code)}` : `/locations/${encodeURIComponent(code)}`;
}

/** The scopes partnerA holds besides `needed`, in the run's order (not-applicable when it holds none besides). */
function othersInRunOrder(t: CheckContext, needed: Scope): Scope[] {
  const others = heldScopes(t, 'partnerA').filter((scope) => scope !== needed);
  if (others.length === 0) {
    return t.notApplicable(`partnerA holds no scope besides ${needed}: no token of it lacking it can be asked for`);
  }
  const [order] = fc.sample(fc.shuffledSubarray(others, { minLength: others.length }), {
    seed: sharedDraw(t, 0),
    numRuns: 1,
  });
  return order ?? others;
}

/** The reads of `read` with another scope's token: the run's cases, judged with judgeSharedCases. */
export function scopeRefusals(read: ScopedRead): CaseFamily<ScopeRefusalInput, ApiResult> {
  return {
    name: `another scope ${read}`,
    draw: async (t, index) => {
      const others = othersInRunOrder(t, NEEDED[read]);
      const scope = others[index % others.length] as Scope;
      return fc.constant({ path: await pathOf(t, read), scopes: [scope] });
    },
    send: (t, { path, scopes }) => sharedRead(t, path, { scopes }),
  };
}
