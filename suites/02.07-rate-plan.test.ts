/**
 * Spec 2.7 Rate plan: each field rule on every listed plan, plans private to their partner and usable for
 * shopping, and the public rate when no code is sent. An empty rates list is valid (the checks are then n/a).
 */

import { describe, expect } from 'vitest';
import type { RatePlan } from '../contract/types.ts';
import { availabilityRequest } from '../generators/index.ts';
import { type CheckContext, check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { errorCodeOf, expectValue } from '../harness/check/expect-api.ts';
import { requireGeneratedBooking } from './support/booking.ts';
import { forAvailability, forQuotes, sampleOf } from './support/generated.ts';
import { listedRates, listingsAsListed, targetListings, withPlans } from './support/listings.ts';
import { ISO_CURRENCIES } from './support/money.ts';
import { book, business, shop } from './support/presets.ts';
import { answerForItem, notJudgedReason, PLAN_REFUSALS } from './support/refused-for.ts';
import { expectSharedCodesOwned } from './support/shared-codes.ts';

describe('2.7 Rate plan', () => {
  async function plans(t: CheckContext): Promise<RatePlan[]> {
    const rates = await listedRates(t);
    if (rates.length === 0) t.notApplicable('the partner has no rate codes (an empty list is valid, spec 2.7)');
    return rates;
  }
  /** Judges every plan the partner lists with `rule`. */
  async function forPlans(t: CheckContext, rule: (p: RatePlan, label: string) => void): Promise<void> {
    for (const plan of await plans(t)) rule(plan, `${plan.accountCode}/${plan.rateCode}`);
  }

  // Spec 2.7.1: "Required: accountCode, rateCode, rateType, currency, status."
  check('2.7.1')(
    {
      ...business,
      name: 'Every plan has accountCode, rateCode, rateType, currency and status and validates as RatePlan',
    },
    (t) =>
      forPlans(t, (p, l) => {
        for (const key of ['accountCode', 'rateCode', 'rateType', 'currency', 'status']) {
          expect(Object.hasOwn(p, key), `${l}: key ${key}`).toBe(true);
        }
        expectValue(p, 'RatePlan', l);
      }),
  );

  // Spec 2.7.2: "accountCode, rateCode | CommercialCode"
  check('2.7.2')({ ...business, name: 'accountCode and rateCode are CommercialCodes' }, (t) =>
    forPlans(t, (p, l) => {
      expect(p.accountCode, l).toMatch(/^[A-Z0-9_-]{1,32}$/);
      expect(p.rateCode, l).toMatch(/^[A-Z0-9_-]{1,32}$/);
    }),
  );

  // Spec 2.7.3: "rateType | string | retail (public price), net (discounted, resold at own price), commissionable
  // (operator price kept, commission paid to partner), corporate, promotional"
  check('2.7.3')({ ...business, name: 'rateType is retail, net, commissionable, corporate or promotional' }, (t) =>
    forPlans(t, (p, l) =>
      expect(['retail', 'net', 'commissionable', 'corporate', 'promotional'], l).toContain(p.rateType),
    ),
  );

  // Spec 2.7.4: "currency | string | `^[A-Z]{3}$`"
  check('2.7.4')({ ...business, name: 'currency matches ^[A-Z]{3}$ (ISO 4217)' }, (t) =>
    forPlans(t, (p, l) => {
      expect(p.currency, l).toMatch(/^[A-Z]{3}$/);
      expect(ISO_CURRENCIES.has(p.currency), `${l}: ${p.currency} is an ISO 4217 code`).toBe(true);
    }),
  );

  // Spec 2.7.5: "validFrom, validTo | string (date) or null"
  check('2.7.5')({ ...business, name: 'validFrom and validTo are dates or null, validFrom not after validTo' }, (t) =>
    forPlans(t, (p, l) => {
      for (const key of ['validFrom', 'validTo'] as const) {
        const value = p[key] ?? null;
        if (value === null) continue;
        expect(value, `${l} ${key}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10), `${l} ${key} is a calendar date`).toBe(value);
      }
      if (p.validFrom && p.validTo)
        expect(p.validFrom <= p.validTo, `${l}: validFrom ${p.validFrom} ≤ validTo ${p.validTo}`).toBe(true);
    }),
  );

  // Spec 2.7.6: "status | string | constant `active`"
  check('2.7.6')({ ...business, name: 'status is the constant "active"' }, (t) =>
    forPlans(t, (p, l) => expect(p.status, l).toBe('active')),
  );

  // Spec 2.7.7: "Only codes of the authenticated partner that are approved and activated are listed."
  check('2.7.7')(
    { ...business, needs: ['partnerA', 'partnerB'], name: 'No plan of one partner is listed to another' },
    async (t) => {
      const a = await listedRates(t, 'partnerA');
      const b = await listedRates(t, 'partnerB');
      if (a.length + b.length === 0) t.notApplicable('neither partner has rate codes');
      await expectSharedCodesOwned(t, a, b);
    },
  );

  // Spec 2.7.7 (quoted above)
  check('2.7.7')(
    { ...shop, name: 'Every listed plan is approved and activated: shopping with it is never refused for the code' },
    async (t) => {
      // The plans as listed (a listed plan the target refuses is what this check judges), at usable locations.
      const cat = withPlans(await targetListings(t), (await listingsAsListed(t)).rates);
      if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
      const others: string[] = [];
      let judged = 0;
      for (const plan of cat.rates) {
        const request = sampleOf(t, availabilityRequest(withPlans(cat, [plan]), { rate: 'plan' }));
        const res = await t.client('partnerA').post('/availability', request);
        const answer = answerForItem(res, PLAN_REFUSALS, ['accountCode', 'rateCode']);
        if (answer === 'refused for something else') {
          others.push(`${plan.accountCode}/${plan.rateCode}: HTTP ${res.status} ${errorCodeOf(res) ?? ''}`.trim());
          continue;
        }
        judged += 1;
        expect(
          answer,
          `${plan.accountCode}/${plan.rateCode}: HTTP ${res.status} ${errorCodeOf(res) ?? res.excerpt}`,
        ).toBe('accepted');
      }
      if (judged === 0 && others.length > 0) t.notApplicable(notJudgedReason('listed plan', others));
    },
  );

  // Spec 2.7.8: "An empty list means no commercial terms are agreed; shopping and booking at the public rate remain
  // possible by omitting accountCode/rateCode."
  check('2.7.8')(
    { ...shop, name: 'Without accountCode and rateCode, availability and quotes use the public rate' },
    async (t) => {
      await forAvailability(
        t,
        (_request, response) => {
          expect(response.accountCode, 'accountCode').toBeNull();
          expect(response.rateCode, 'rateCode').toBeNull();
        },
        { rate: 'public', runs: casesFor(t, 'request') },
      );
      await forQuotes(
        t,
        (_request, quote) => {
          expect(quote.rate.accountCode).toBeNull();
          expect(quote.rate.rateCode).toBeNull();
          expect(quote.rate.adjustmentApplied, 'the public rate has no partner adjustment').toBe(false);
        },
        { rate: 'public', runs: casesFor(t, 'request') },
      );
    },
  );

  // Spec 2.7.8 (quoted above)
  check('2.7.8')(
    { ...book, name: 'Booking at the public rate is possible (codes null on the reservation)' },
    async (t) => {
      const { reservation } = await requireGeneratedBooking(t, 'partnerA', { rate: 'public', schema: true });
      expect(reservation.accountCode, 'accountCode').toBeNull();
      expect(reservation.rateCode, 'rateCode').toBeNull();
    },
  );
});
