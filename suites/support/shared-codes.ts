/** Rate plans listed to both partners (spec 1.4, 2.7): judged by use, since codes may be kept per partner. */
import { expect } from 'vitest';
import type { RatePlan } from '../../contract/types.ts';
import { availabilityRequest } from '../../generators/index.ts';
import type { CheckContext } from '../../harness/check/check.ts';
import { errorCodeOf } from '../../harness/check/expect-api.ts';
import type { Role } from '../../harness/config/target-config.ts';
import { profileRank } from '../../harness/run-settings.ts';
import { sampleOf } from './generated.ts';
import { targetListings, withPlans } from './listings.ts';

/**
 * Codes may be kept per partner (each its own `STANDARD`): the same account code listed to both partners is not by
 * itself another partner's plan (audit 2.7-R2, docs/ambiguities.md RS33). Such a plan is judged by use: each partner
 * shops with it as its own (profile shop; not judged below it) and is not refused for the code, as it would be for
 * another partner's plan. Nothing to judge when no account code is listed to both.
 */
export async function expectSharedCodesOwned(t: CheckContext, a: readonly RatePlan[], b: readonly RatePlan[]) {
  const accountsOfA = new Set(a.map((p) => p.accountCode));
  const accountsOfB = new Set(b.map((p) => p.accountCode));
  const shared: Array<[Role, RatePlan]> = [
    ...a.filter((p) => accountsOfB.has(p.accountCode)).map((p): [Role, RatePlan] => ['partnerA', p]),
    ...b.filter((p) => accountsOfA.has(p.accountCode)).map((p): [Role, RatePlan] => ['partnerB', p]),
  ];
  if (shared.length === 0) return;
  if (profileRank(t.settings.profile) < profileRank('shop')) {
    t.notApplicable(
      'both partners list the same account code: whether each holds it as its own is told by shopping with it (profile shop)',
    );
  }
  const cat = await targetListings(t);
  for (const [role, plan] of shared.slice(0, 6)) {
    const request = sampleOf(t, availabilityRequest(withPlans(cat, [plan]), { rate: 'plan' }));
    const res = await t.client(role).post('/availability', request);
    const code = errorCodeOf(res);
    expect(
      code === 'INVALID_ACCOUNT_CODE' || code === 'INVALID_RATE_CODE',
      `${role} shopping with its listed ${plan.accountCode}/${plan.rateCode}, which the other partner lists too: HTTP ${res.status} ${code ?? ''}`,
    ).toBe(false);
  }
}
