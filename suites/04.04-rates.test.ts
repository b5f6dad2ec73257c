/**
 * Spec 4.4 GET /rates, with its row of the endpoint table (4.0.9). Which date a plan's validity is judged on is
 * open (docs/ambiguities.md #6): shopping checks keep the whole rental window inside the plan's validity.
 */

import { describe, expect } from 'vitest';
import type { RateList, RatePlan } from '../contract/types.ts';
import { addDays } from '../generators/index.ts';
import { check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { errorCodeOf, expectError, expectMediaType, expectSchema } from '../harness/check/expect-api.ts';
import { unauthenticated } from './support/endpoint-refusals.ts';
import { ratesOf, sharedListingRead } from './support/listings.ts';
import { business } from './support/presets.ts';
import { answerForItem, notJudgedReason, PLAN_REFUSALS } from './support/refused-for.ts';
import { scopeRefusals } from './support/scope-refusals.ts';
import { judgeSharedCases } from './support/shared-cases.ts';
import { availabilityRequest, shoppingDate } from './support/shopping.ts';

/** A one-day window inside the plan's validity, from `anchor` on; undefined when there is none. */
function dateWithin(plan: RatePlan, anchor: string): string | undefined {
  const pickup = plan.validFrom && plan.validFrom > anchor ? plan.validFrom : anchor;
  if (plan.validTo && addDays(pickup, 1) > plan.validTo) return undefined;
  return pickup;
}

describe('4.4 GET /rates', () => {
  // Spec 4.0.9: "GET | /api/partner/v1/rates | rates:read | 200 RateList"
  check('4.0.9')({ ...business, name: 'GET /rates with a rates:read token: 200 RateList' }, async (t) => {
    const res = await t.client('partnerA').get('/rates', { scopes: ['rates:read'] });
    expect(res.status, res.excerpt).toBe(200);
    expectMediaType(res, t.representation);
    expectSchema(res, 'RateList');
  });

  // Spec 4.4.1: "Only the caller's active, approved codes."
  check('4.4.1')({ ...business, name: 'Only active plans are listed' }, async (t) => {
    const res = await sharedListingRead(t, '/rates');
    expect(res.status, res.excerpt).toBe(200);
    expectSchema(res, 'RateList');
    const rates = (res.body as RateList).rates;
    for (const plan of rates) expect(plan.status, `${plan.accountCode}/${plan.rateCode}`).toBe('active');
  });

  // Spec 4.4.1 (quoted above)
  check('4.4.1')(
    { ...business, profile: 'shop', name: 'Every listed code is accepted in shopping within its validity' },
    async (t) => {
      const rates = await ratesOf(t, 'partnerA');
      if (rates.length === 0) return t.notApplicable('the partner has no rate codes');
      let tried = 0;
      const others: string[] = [];
      for (const plan of rates) {
        const pickupDate = dateWithin(plan, shoppingDate(t));
        if (!pickupDate) continue;
        tried += 1;
        const body = {
          ...(await availabilityRequest(t, 'partnerA', { pickupDate, days: 1 })),
          accountCode: plan.accountCode,
          rateCode: plan.rateCode,
        };
        const res = await t.client('partnerA').post('/availability', body);
        // An offer list (possibly empty) or "nothing offerable" both accept the code; a code error does not, and
        // another refusal (the window, say) leaves the code not judged.
        const answer = answerForItem(res, PLAN_REFUSALS, ['accountCode', 'rateCode']);
        if (answer === 'refused for something else') {
          tried -= 1;
          others.push(`${plan.accountCode}/${plan.rateCode}: HTTP ${res.status} ${errorCodeOf(res) ?? ''}`.trim());
          continue;
        }
        expect(answer, `${plan.accountCode}/${plan.rateCode}: HTTP ${res.status} ${errorCodeOf(res) ?? ''}`).toBe(
          'accepted',
        );
        if (res.status === 200) expectSchema(res, 'AvailabilityResponse');
      }
      if (tried === 0 && others.length > 0) t.notApplicable(notJudgedReason('listed plan', others));
      if (tried === 0) t.notApplicable('no listed plan is valid on or after the shopping date');
    },
  );

  // Spec 4.4.1 (quoted above)
  check('4.4.1')(
    {
      ...business,
      needs: ['partnerA', 'partnerB'],
      profile: 'shop',
      name: "Another partner's codes are refused to the caller",
    },
    async (t) => {
      const own = new Set((await ratesOf(t, 'partnerA')).map((p) => p.accountCode));
      const foreign = (await ratesOf(t, 'partnerB')).filter((p) => !own.has(p.accountCode));
      if (foreign.length === 0) return t.notApplicable('partner B lists no account code partner A lacks');
      for (const plan of foreign.slice(0, 3)) {
        const pickupDate = dateWithin(plan, shoppingDate(t)) ?? shoppingDate(t);
        const body = {
          ...(await availabilityRequest(t, 'partnerA', { pickupDate, days: 1 })),
          accountCode: plan.accountCode,
          rateCode: plan.rateCode,
        };
        const res = await t.client('partnerA').post('/availability', body);
        // 4.12: an account code not enabled for the caller is refused; which code error names it is open (a plan of
        // the caller's with the same codes could even be awaiting approval), so any of the three.
        expectError(res, ['INVALID_ACCOUNT_CODE', 'INVALID_RATE_CODE', 'RATE_NOT_APPROVED']);
      }
    },
  );

  // Spec 4.4.2: "Errors: 401, 403, 429."
  check('4.4.2')({ ...business, name: 'GET /rates without a token: 401' }, async (t) => {
    // The refusal 7.1.2 and 4.0.2 judge too (endpointRefusals): sent once for the run.
    expectError(await unauthenticated(t, 'catalog', 'listRates'), ['INVALID_TOKEN', 'UNAUTHORIZED']);
  });

  // Spec 4.0.9 (quoted above)
  check('4.0.9')(
    { ...business, name: 'GET /rates with a token lacking rates:read: 403 INSUFFICIENT_SCOPE' },
    async (t) => {
      // The reads 5.6b and 7.3.4 judge too (scope-refusals.ts): sent once for the run, a distinct scope each case.
      await judgeSharedCases(t, scopeRefusals('rates'), casesFor(t, 'request'), ({ answer }) =>
        expectError(answer, 'INSUFFICIENT_SCOPE'),
      );
    },
  );
});
