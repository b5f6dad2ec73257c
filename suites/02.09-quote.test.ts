/**
 * Spec 2.9 Quote: each field rule on generated quotes, the charge arithmetic the spec states (baseTotal,
 * total, extras lines) and the commission of commissionable plans. Price computation itself is left open.
 */

import { describe, expect } from 'vitest';
import { SCHEMA_BUNDLE } from '../contract/schemas/index.ts';
import type { Money, Quote, QuoteRequest } from '../contract/types.ts';
import { locationPairs, quoteRequest } from '../generators/index.ts';
import { check, SKIP } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { errorCodeOf, expectSchema, expectValue } from '../harness/check/expect-api.ts';
import { expectAboutThirtyMinutes, expectRentalWindow, isIanaZone } from './support/datetime.ts';
import { quoteAnswered } from './support/endpoint-success.ts';
import { forQuotes, sampleOf } from './support/generated.ts';
import { targetListings, withPlans } from './support/listings.ts';
import { asCurrency, expectMoney, ISO_CURRENCIES, sameAmount, scaled } from './support/money.ts';
import { shop } from './support/presets.ts';

describe('2.9 Quote', () => {
  const quoteKeys = SCHEMA_BUNDLE.$defs.Quote.required;
  const chargeKeys = [...SCHEMA_BUNDLE.$defs.Quote.properties.charges.required].sort();

  // Spec 2.9.1: "Required: quoteId, expiresAt, currency, vehicle, rental, rate, charges, securityDeposit, payment,
  // inclusions, exclusions."
  check('2.9.1')({ ...shop, name: 'A quote has the eleven required keys and validates' }, (t) =>
    forQuotes(
      t,
      (_r, quote) => {
        for (const key of quoteKeys) expect(Object.hasOwn(quote, key), `key ${key}`).toBe(true);
      },
      { runs: casesFor(t, 'request') },
    ),
  );

  // Spec 2.9.2: "quoteId | string"
  check('2.9.2')({ ...shop, name: 'quoteId is a string' }, (t) =>
    forQuotes(t, (_r, quote) => expect(typeof quote.quoteId).toBe('string'), { runs: casesFor(t, 'request') }),
  );

  // Spec 2.9.3: "expiresAt | string, date-time | quotes are valid 30 minutes"
  check('2.9.3')({ ...shop, name: 'expiresAt is a date-time 30 minutes after issue' }, (t) =>
    forQuotes(t, (_r, quote, res) => expectAboutThirtyMinutes(res, quote.expiresAt, 'expiresAt'), {
      runs: casesFor(t, 'request'),
    }),
  );

  // Spec 2.9.4: "currency | string | `^[A-Z]{3}$`"
  check('2.9.4')({ ...shop, name: 'currency matches ^[A-Z]{3}$ (ISO 4217)' }, (t) =>
    forQuotes(
      t,
      (_r, quote) => {
        expect(quote.currency).toMatch(/^[A-Z]{3}$/);
        expect(ISO_CURRENCIES.has(quote.currency), `${quote.currency} is an ISO 4217 code`).toBe(true);
      },
      { runs: casesFor(t, 'request') },
    ),
  );

  // Spec 2.9.5: "vehicle | FleetVehicle"
  check('2.9.5')({ ...shop, name: 'vehicle is the requested FleetVehicle' }, (t) =>
    forQuotes(
      t,
      (request, quote) => {
        expectValue(quote.vehicle, 'FleetVehicle', 'FleetVehicle');
        expect(quote.vehicle.vehicleCode).toBe(request.vehicleCode);
      },
      { runs: casesFor(t, 'request') },
    ),
  );

  // Spec 2.9.6: "rental | object | required pickupLocation, dropoffLocation (LocationCode), pickupDateTime,
  // dropoffDateTime (strings, local date-time without offset), rentalDays (integer, min 1), timezone (string)"
  check('2.9.6')(
    { ...shop, name: 'rental restates the locations, the local date-times, rentalDays >= 1 and the timezone' },
    (t) =>
      forQuotes(
        t,
        (request, quote) => {
          expect(Object.keys(quote.rental).sort()).toEqual(
            [...SCHEMA_BUNDLE.$defs.Quote.properties.rental.required].sort(),
          );
          expect(quote.rental.pickupLocation).toBe(request.pickupLocation);
          expect(quote.rental.dropoffLocation).toBe(request.dropoffLocation);
          expectRentalWindow(quote.rental, request);
          expect(Number.isInteger(quote.rental.rentalDays) && quote.rental.rentalDays >= 1, 'rentalDays >= 1').toBe(
            true,
          );
          expect(isIanaZone(quote.rental.timezone), `timezone ${quote.rental.timezone}`).toBe(true);
        },
        { runs: casesFor(t, 'request') },
      ),
  );

  // Spec 2.9.7: "rate | object | required accountCode (string or null), rateCode (string or null), rateType (string),
  // adjustmentApplied (boolean: an approved partner-specific adjustment moved the price off the public price)"
  check('2.9.7')(
    { ...shop, name: 'rate restates the codes (null for the public rate), with rateType and adjustmentApplied' },
    (t) =>
      forQuotes(
        t,
        (request, quote) => {
          expect(Object.keys(quote.rate).sort()).toEqual(['accountCode', 'adjustmentApplied', 'rateCode', 'rateType']);
          expect(quote.rate.accountCode, 'rate.accountCode').toBe(request.accountCode ?? null);
          expect(quote.rate.rateCode, 'rate.rateCode').toBe(request.rateCode ?? null);
          expect(['retail', 'net', 'commissionable', 'corporate', 'promotional']).toContain(quote.rate.rateType);
          expect(typeof quote.rate.adjustmentApplied, 'adjustmentApplied').toBe('boolean');
          if (request.rateCode === undefined)
            expect(quote.rate.adjustmentApplied, 'public rate: no adjustment').toBe(false);
        },
        { runs: casesFor(t, 'request') },
      ),
  );

  // Spec 2.9.8a: "charges | object | required dailyRate (Money), baseTotal (Money; rental days times applicable daily
  // rate, before extras and fees), extras (array of ExtraLine), extrasTotal (Money), oneWayFee (Money; charged when
  // pickup and dropoff are in different branches, zero otherwise), discount (Money), total (Money; payable for the
  // rental, excludes the security deposit), commission (Money or null; owed to partner out of total; null unless the
  // plan is commissionable)"
  check('2.9.8a')(
    {
      ...shop,
      name: 'charges has exactly dailyRate, baseTotal, extras, extrasTotal, oneWayFee, discount, total and commission',
    },
    (t) =>
      forQuotes(
        t,
        (_r, quote) => {
          expect(Object.keys(quote.charges).sort()).toEqual(chargeKeys);
          for (const key of ['dailyRate', 'baseTotal', 'extrasTotal', 'oneWayFee', 'discount', 'total'] as const) {
            expectMoney(quote.charges[key], `charges.${key}`);
          }
          expect(Array.isArray(quote.charges.extras), 'charges.extras').toBe(true);
          if (quote.charges.commission !== null) expectMoney(quote.charges.commission, 'charges.commission');
        },
        { runs: casesFor(t, 'request') },
      ),
  );

  // Price computation is not shown (4.6): the "applicable daily rate" may vary by day (weekday, season) and be
  // reported as their average rounded to the minor unit (docs/ambiguities.md RS35). At MUST baseTotal is within
  // rentalDays × half a minor unit of rentalDays × dailyRate (what rounding an average to the minor unit leaves);
  // the exact product is graded SHOULD.
  for (const level of ['MUST', 'SHOULD'] as const) {
    // Spec 2.9.8b: "baseTotal (Money; rental days times applicable daily rate, before extras and fees)"
    check('2.9.8b')(
      {
        ...shop,
        level,
        name:
          level === 'MUST'
            ? 'baseTotal is rentalDays times dailyRate, dailyRate rounded to the minor unit'
            : 'baseTotal is exactly rentalDays times dailyRate',
      },
      (t) =>
        forQuotes(
          t,
          (_r, quote) => {
            const { dailyRate, baseTotal } = quote.charges;
            expect(asCurrency(baseTotal.currency)).toBe(asCurrency(dailyRate.currency));
            const days = quote.rental.rentalDays;
            const e = Math.max(dailyRate.exponent, baseTotal.exponent);
            const product = days * scaled(dailyRate, e);
            // Half a minor unit of dailyRate's own exponent, at exponent e, per day.
            const tolerance = level === 'MUST' ? (days * 10 ** (e - dailyRate.exponent)) / 2 : 0;
            const off = Math.abs(scaled(baseTotal, e) - product);
            expect(
              off <= tolerance,
              `${days} × ${dailyRate.display}: baseTotal ${baseTotal.display} is ${off} off (at most ${tolerance})`,
            ).toBe(true);
          },
          { runs: casesFor(t, 'request') },
        ),
    );
  }

  // Spec 2.9.8c: "oneWayFee (Money; charged when pickup and dropoff are in different branches, zero otherwise)"
  check('2.9.8c')({ ...shop, name: 'oneWayFee is zero when pickup and dropoff are in one branch' }, (t) =>
    // `+ 0` compares numerically: an amount written -0 is the integer zero (toBe alone is Object.is).
    forQuotes(t, (_r, quote) => expect(quote.charges.oneWayFee.amount + 0, 'oneWayFee within a branch').toBe(0), {
      runs: casesFor(t, 'request'),
    }),
  );

  // Spec 2.9.8d: "total (Money; payable for the rental, excludes the security deposit)"
  check('2.9.8d')({ ...shop, name: 'total excludes the security deposit' }, async (t) => {
    const cat = await targetListings(t);
    await t.forAll(
      quoteRequest(cat),
      async (request) => {
        const res = await t.client('partnerA').post('/quotes', request);
        if (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY') return SKIP;
        expect(quoteAnswered(res), `POST /quotes: HTTP ${res.status} ${res.excerpt}`).toBe(true);
        expectSchema(res, 'Quote');
        const quote = res.body as Quote;
        const { baseTotal, extrasTotal, oneWayFee, discount, total } = quote.charges;
        const deposit = quote.securityDeposit;
        // A zero deposit cannot be told apart from none folded in: nothing to judge.
        if (deposit.amount === 0) return SKIP;
        // Amounts of any exponents, compared at the finest of them all, total's included.
        const e = Math.max(...[baseTotal, extrasTotal, oneWayFee, discount, total, deposit].map((m) => m.exponent));
        const charges = scaled(baseTotal, e) + scaled(extrasTotal, e) + scaled(oneWayFee, e) - scaled(discount, e);
        expect(scaled(total, e), 'total is not the charges plus the deposit').not.toBe(charges + scaled(deposit, e));
        return undefined;
      },
      { numRuns: casesFor(t, 'request') },
    );
  });

  // Spec 2.9.9: "securityDeposit | Money"
  check('2.9.9')({ ...shop, name: 'securityDeposit is Money' }, (t) =>
    forQuotes(t, (_r, quote) => expectMoney(quote.securityDeposit, 'securityDeposit'), {
      runs: casesFor(t, 'request'),
    }),
  );

  // Spec 2.9.10: "payment | object | required model (constant `settled_with_partner`), prepaymentRequired (Money),
  // dueAtPickup (Money)"
  check('2.9.10')(
    { ...shop, name: 'payment has model settled_with_partner, prepaymentRequired and dueAtPickup (Money)' },
    (t) =>
      forQuotes(
        t,
        (_r, quote) => {
          expect(Object.keys(quote.payment).sort()).toEqual(['dueAtPickup', 'model', 'prepaymentRequired']);
          expect(quote.payment.model).toBe('settled_with_partner');
          expectMoney(quote.payment.prepaymentRequired, 'payment.prepaymentRequired');
          expectMoney(quote.payment.dueAtPickup, 'payment.dueAtPickup');
        },
        { runs: casesFor(t, 'request') },
      ),
  );

  // Spec 2.9.11: "inclusions, exclusions | array of string"
  check('2.9.11')({ ...shop, name: 'inclusions and exclusions are arrays of strings' }, (t) =>
    forQuotes(
      t,
      (_r, quote) => {
        for (const key of ['inclusions', 'exclusions'] as const) {
          expect(Array.isArray(quote[key]), key).toBe(true);
          for (const item of quote[key]) expect(typeof item, `${key} item`).toBe('string');
        }
      },
      { runs: casesFor(t, 'request') },
    ),
  );

  // Spec 2.9.12: "ExtraLine (required all): code (string), description (string), quantity (integer), total (Money)."
  check('2.9.12')(
    { ...shop, name: 'Every ExtraLine has code, description, quantity (integer) and total (Money)' },
    (t) =>
      forQuotes(
        t,
        (_r, quote) => {
          for (const [i, line] of quote.charges.extras.entries()) {
            expect(Object.keys(line).sort(), `extras[${i}] keys`).toEqual(['code', 'description', 'quantity', 'total']);
            expect(typeof line.code, `extras[${i}].code`).toBe('string');
            expect(typeof line.description, `extras[${i}].description`).toBe('string');
            expect(Number.isInteger(line.quantity), `extras[${i}].quantity`).toBe(true);
            expectMoney(line.total, `extras[${i}].total`);
          }
        },
        { runs: casesFor(t, 'request') },
      ),
  );

  // Spec 2.9.4 (quoted above)
  check('2.9.4')({ ...shop, level: 'SHOULD', name: 'The charges are in the quote currency' }, async (t) => {
    await forQuotes(
      t,
      (_r, quote) => {
        for (const [key, value] of Object.entries(quote.charges)) {
          if (value !== null && !Array.isArray(value))
            expect(asCurrency((value as Money).currency), `charges.${key}`).toBe(asCurrency(quote.currency));
        }
      },
      { runs: casesFor(t, 'request') },
    );
  });

  // Spec 2.9.7 (quoted above)
  check('2.9.7')({ ...shop, name: "With a plan, rateType is the listed plan's" }, async (t) => {
    const cat = await targetListings(t);
    if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
    const types = new Map(cat.rates.map((p) => [`${p.accountCode}/${p.rateCode}`, p.rateType]));
    await forQuotes(
      t,
      (request, quote) => {
        expect(quote.rate.rateType, `${request.accountCode}/${request.rateCode}`).toBe(
          types.get(`${request.accountCode}/${request.rateCode}`),
        );
      },
      { listings: cat, rate: 'plan', runs: casesFor(t, 'request') },
    );
  });

  // Spec 2.9.7 (quoted above)
  check('2.9.7')(
    { ...shop, level: 'SHOULD', name: 'adjustmentApplied is true exactly when the total is off the public price' },
    async (t) => {
      const cat = await targetListings(t);
      if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
      await forQuotes(
        t,
        async (request, quote) => {
          const { accountCode: _a, rateCode: _r, ...publicRequest } = request;
          const res = await t.client('partnerA').post('/quotes', publicRequest);
          expect(quoteAnswered(res), `the same request at the public rate: HTTP ${res.status} ${res.excerpt}`).toBe(
            true,
          );
          const publicTotal = (res.body as Quote).charges.total;
          expect(
            quote.rate.adjustmentApplied,
            `${request.rateCode}: total ${quote.charges.total.display} vs public ${publicTotal.display}`,
          ).toBe(!sameAmount(quote.charges.total, publicTotal));
        },
        { listings: cat, rate: 'plan', runs: casesFor(t, 'request') },
      );
    },
  );

  // Spec 2.9.8c (quoted above)
  check('2.9.8c')(
    { ...shop, level: 'SHOULD', name: 'A one-way rental between branches is charged a one-way fee' },
    async (t) => {
      const cat = await targetListings(t);
      const pairs = locationPairs(cat, { sameBranch: false });
      for (const { pickup, dropoff } of pairs) {
        const vehicle = cat.vehicles.find((v) => v.locationCodes.includes(pickup.locationCode));
        if (!vehicle) continue;
        const window = sampleOf(t, quoteRequest(cat, { rate: 'public', pickupLocations: [pickup.locationCode] }));
        const request = { ...window, dropoffLocation: dropoff.locationCode, vehicleCode: vehicle.vehicleCode };
        const res = await t.client('partnerA').post('/quotes', request);
        if (!quoteAnswered(res)) continue; // LOCATION_NOT_ONE_WAY: the route is not offered
        expect(
          (res.body as Quote).charges.oneWayFee.amount,
          `${pickup.branchCode} → ${dropoff.branchCode}`,
        ).toBeGreaterThan(0);
        return;
      }
      t.notApplicable('the target offers no one-way route between branches');
    },
  );

  // Spec 2.9.8d (quoted above)
  check('2.9.8d')(
    { ...shop, level: 'SHOULD', name: 'total is baseTotal + extrasTotal + oneWayFee - discount' },
    async (t) => {
      await forQuotes(
        t,
        (_r, quote) => {
          const { baseTotal, extrasTotal, oneWayFee, discount, total } = quote.charges;
          const e = Math.max(
            baseTotal.exponent,
            extrasTotal.exponent,
            oneWayFee.exponent,
            discount.exponent,
            total.exponent,
          );
          expect(scaled(total, e)).toBe(
            scaled(baseTotal, e) + scaled(extrasTotal, e) + scaled(oneWayFee, e) - scaled(discount, e),
          );
        },
        { runs: casesFor(t, 'request') },
      );
    },
  );

  // Spec 2.9.8e: "commission (Money or null; owed to partner out of total; null unless the plan is commissionable)"
  check('2.9.8e')({ ...shop, name: 'commission is null unless the plan is commissionable' }, async (t) => {
    const cat = await targetListings(t);
    await forQuotes(
      t,
      (request, quote) => {
        const plan = cat.rates.find((p) => p.accountCode === request.accountCode && p.rateCode === request.rateCode);
        if (plan?.rateType !== 'commissionable') {
          expect(
            quote.charges.commission,
            `${request.rateCode ?? 'public rate'} (${plan?.rateType ?? 'retail'})`,
          ).toBeNull();
        }
      },
      { listings: cat, runs: casesFor(t, 'request') },
    );
  });

  // Spec 2.9.8e (quoted above)
  check('2.9.8e')({ ...shop, name: 'A commissionable plan owes its commission out of the total' }, async (t) => {
    const cat = await targetListings(t);
    const commissionable = cat.rates.filter((p) => p.rateType === 'commissionable');
    if (commissionable.length === 0) t.notApplicable('the partner has no commissionable plan');
    await forQuotes(
      t,
      (_r, quote) => {
        const commission = quote.charges.commission;
        expect(commission, 'commission of a commissionable plan').not.toBeNull();
        if (commission === null) return;
        expectMoney(commission, 'commission');
        const e = Math.max(commission.exponent, quote.charges.total.exponent);
        expect(scaled(commission, e), 'commission is out of total').toBeLessThanOrEqual(scaled(quote.charges.total, e));
        expect(commission.amount, 'commission').toBeGreaterThanOrEqual(0);
      },
      { listings: withPlans(cat, commissionable), rate: 'plan', runs: casesFor(t, 'request') },
    );
  });

  // Spec 2.9.9 (quoted above)
  check('2.9.9')({ ...shop, level: 'SHOULD', name: "The quote's security deposit is the vehicle's" }, async (t) => {
    await forQuotes(t, (_r, quote) => expect(quote.securityDeposit).toEqual(quote.vehicle.securityDeposit), {
      runs: casesFor(t, 'request'),
    });
  });

  // The lines' shape is the MUST check above; that requested extras come itemised and add up to extrasTotal is a
  // SHOULD, since 4.6 leaves how extras are priced "not shown" (a target may charge an extra inside extrasTotal
  // without a line of its own).
  // Spec 2.9.12 (quoted above)
  check('2.9.12')(
    { ...shop, level: 'SHOULD', name: 'Requested extras are itemised as ExtraLines adding up to extrasTotal' },
    async (t) => {
      const cat = await targetListings(t);
      const withExtras = quoteRequest(cat, { rate: 'public' }).map(
        (r): QuoteRequest => ({ ...r, extras: { cdwInsurance: true, childSeats: 1, additionalDriver: true } }),
      );
      await t.forAll(
        withExtras,
        async (request) => {
          const res = await t.client('partnerA').post('/quotes', request);
          if (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY') return SKIP;
          expect(quoteAnswered(res), `POST /quotes: HTTP ${res.status} ${res.excerpt}`).toBe(true);
          const quote = res.body as Quote;
          expect(quote.charges.extras.length, 'extras lines for three requested extras').toBeGreaterThan(0);
          const e = Math.max(quote.charges.extrasTotal.exponent, ...quote.charges.extras.map((l) => l.total.exponent));
          const sum = quote.charges.extras.reduce((s, l) => s + scaled(l.total, e), 0);
          expect(scaled(quote.charges.extrasTotal, e), 'extrasTotal is the sum of the lines').toBe(sum);
          return undefined;
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );
});
