/**
 * Spec 4.6 POST /quotes. Requests are generated from what the target lists (generators/): a vehicle offered at
 * the pickup location. Price computation is not shown: no amount is ever predicted, only the breakdown's shape
 * and the rules 2.9 states (no one-way fee within a branch, no commission off a commissionable plan), and that
 * booking prices again instead of taking the quote on trust. The checks POST /availability shares are declared by
 * support/shopping-endpoints.ts.
 */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { Quote, QuoteRequest } from '../contract/types.ts';
import { type ApiResult, check, SKIP } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import {
  errorCodeOf,
  errorStatusAmong,
  expectError,
  expectMediaType,
  expectSchema,
} from '../harness/check/expect-api.ts';
import { claim } from '../harness/check/scope.ts';
import { expectTotalAsQuoted, requireBooking, sendBooking } from './support/booking.ts';
import { quoteFor, quoteWindow } from './support/draws.ts';
import { quoteAnswered } from './support/endpoint-success.ts';
import { unissuedId } from './support/ids.ts';
import { expectSomeError } from './support/limits.ts';
import { targetListings } from './support/listings.ts';
import { business } from './support/presets.ts';
import { plainRequest } from './support/reservation-requests.ts';
import { plainQuoteRequest } from './support/shopping.ts';
import { SHOPPING, shoppingChecks } from './support/shopping-endpoints.ts';

/** Local date-time without offset (spec 2.9 rental): the date and time asked, seconds optional. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

const requests = SHOPPING.quotes.requests;

/**
 * A quote (201; another 2xx is 4.0.11's, filed there), or 409 NO_AVAILABILITY (a vehicle class need not be offerable
 * for every window, spec 7.3).
 */
function isQuoteAnswer(res: ApiResult): boolean {
  return quoteAnswered(res) || (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY');
}

function expectRentalEcho(q: Quote, req: QuoteRequest): void {
  // Whether the quote describes the vehicle asked for is 2.9.5's ("vehicle | FleetVehicle"), filed there.
  claim('2.9.5', q.vehicle?.vehicleCode === req.vehicleCode, 'vehicle.vehicleCode is the one asked for', {
    expected: req.vehicleCode,
    actual: q.vehicle?.vehicleCode,
  });
  expect(q.rental.pickupLocation, 'rental.pickupLocation').toBe(req.pickupLocation);
  expect(q.rental.dropoffLocation, 'rental.dropoffLocation').toBe(req.dropoffLocation);
  for (const [field, value, date, time] of [
    ['rental.pickupDateTime', q.rental.pickupDateTime, req.pickupDate, req.pickupTime],
    ['rental.dropoffDateTime', q.rental.dropoffDateTime, req.dropoffDate, req.dropoffTime],
  ] as const) {
    expect(value, `${field}: local date-time without offset`).toMatch(LOCAL_DATE_TIME);
    expect(value.slice(0, 16), `${field}: the date and time asked`).toBe(`${date}T${time}`);
  }
}

describe('4.6 POST /quotes', () => {
  // Spec 4.6.1: "Body: QuoteRequest."
  check('4.6.1')(
    { ...business, name: 'Generated QuoteRequests: 201 Quote for the vehicle and window asked' },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      let quoted = 0;
      await t.forAll(requests(cat), async (req) => {
        const res = await t.client('partnerA').post('/quotes', req);
        expect(isQuoteAnswer(res), `HTTP ${res.status}: ${res.excerpt}`).toBe(true);
        if (res.status === 409) return expectError(res, 'NO_AVAILABILITY');
        expectMediaType(res, t.representation);
        expectSchema(res, 'Quote');
        expectRentalEcho(res.body as Quote, req);
        quoted += 1;
      });
      expect(quoted, 'quotes issued across all generated requests').toBeGreaterThan(0);
    },
  );

  // Spec 4.6.2: "Returns a server-authoritative Quote with a full charge breakdown."
  check('4.6.2')(
    { ...business, name: 'The quote carries the full breakdown of 2.9 and its stated rules' },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      const branchOf = new Map(cat.locations.map((l) => [l.locationCode, l.branchCode]));
      const plans = new Map(cat.rates.map((p) => [`${p.accountCode}/${p.rateCode}`, p]));
      await t.forAll(
        requests(cat),
        async (req) => {
          const res = await t.client('partnerA').post('/quotes', req);
          if (!quoteAnswered(res)) return SKIP;
          expectSchema(res, 'Quote');
          const q = res.body as Quote;
          // Spec 2.9: oneWayFee "charged when pickup and dropoff are in different branches, zero otherwise".
          if (branchOf.get(req.pickupLocation) === branchOf.get(req.dropoffLocation)) {
            // `+ 0` compares numerically: an amount written -0 is the integer zero.
            expect(q.charges.oneWayFee.amount + 0, 'oneWayFee within one branch').toBe(0);
          }
          // Spec 2.9: commission "null unless the plan is commissionable".
          const plan = plans.get(`${req.accountCode}/${req.rateCode}`);
          if (plan?.rateType !== 'commissionable') {
            expect(q.charges.commission, `commission under rate type ${plan?.rateType ?? 'public'}`).toBeNull();
          }
          expect(q.payment.model, 'payment.model').toBe('settled_with_partner');
        },
        { numRuns: casesFor(t, 'quoteCharges') },
      );
    },
  );

  // Spec 4.6.2 (quoted above)
  check('4.6.2')(
    { ...business, name: 'A price sent by the client is refused: 400 (server-authoritative)' },
    async (t) => {
      // A generated request carrying its own quote's prices, or a price the client made up.
      await t.forAll(
        fc.tuple(await quoteWindow(t, 'partnerA'), fc.integer({ min: 0, max: 10_000_000 })),
        async ([req, amount]) => {
          const priced = await quoteFor(t, 'partnerA', req);
          if (!priced) return SKIP;
          const sent: [name: string, body: object][] = [
            ['total', { ...req, total: { ...priced.charges.total, amount } }],
            ['dailyRate', { ...req, dailyRate: priced.charges.dailyRate }],
            ['charges', { ...req, charges: priced.charges }],
          ];
          for (const [name, body] of sent) {
            const res = await t.client('partnerA').post('/quotes', body);
            // An unknown field: 400; which code beyond VALIDATION_ERROR is not shown (spec 7.3).
            expect(
              errorStatusAmong(res, [400]),
              `${name} in the request: HTTP 400 (${res.status} ${res.excerpt})`,
            ).toBe(true);
            expectSomeError(res, t.representation);
          }
        },
        { numRuns: casesFor(t, 'severalRequests') },
      );
    },
  );

  // Spec 2.11.9c: "equals the quote booked from (may differ from the operator's internal gross under a net or markup
  // plan)"
  check('2.11.9c')(
    { ...business, bookings: true, name: 'The reservation bills the price of the quote it was booked from' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          const booked = await requireBooking(t, 'partnerA', q.quoteId, { body: plainRequest(t, q.quoteId) });
          // Billing the quote's total is 2.11.9c's rule; 4.6.3's re-pricing is judged by the checks below.
          expectTotalAsQuoted(booked.reservation, q);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.6.3: "The price is re-computed at booking; the quote is evidence of what was asked, never a price taken on
  // trust."
  check('4.6.3')(
    {
      ...business,
      bookings: true,
      hooks: ['prices.move'],
      name: 'A price moved after the quote: booking re-prices and answers 409 QUOTE_STALE',
    },
    async (t) => {
      const control = t.hooks;
      await t.forAll(
        fc.tuple(await quoteWindow(t, 'partnerA'), fc.integer({ min: 5, max: 50 })),
        async ([req, percent]) => {
          const q = await quoteFor(t, 'partnerA', req);
          if (!q) return SKIP;
          try {
            await control.movePrice(req.vehicleCode, percent);
            const stale = await sendBooking(t, 'partnerA', q.quoteId);
            expectError(stale.res, 'QUOTE_STALE');
            await control.movePrice(req.vehicleCode, 0);
            // Back at the quoted price, the same quote books (it was never judged on its own word).
            await requireBooking(t, 'partnerA', q.quoteId);
          } finally {
            await control.movePrice(req.vehicleCode, 0);
          }
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.6.3 (quoted above)
  check('4.6.3')(
    { ...business, bookings: true, name: 'A tampered quoteId is not taken on trust: 400 QUOTE_INVALID' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          const tampered = unissuedId(q.quoteId);
          const res = (await sendBooking(t, 'partnerA', tampered, { body: plainRequest(t, tampered) })).res;
          expectError(res, 'QUOTE_INVALID');
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.6.4: "Errors: 400, 401, 403, 409, 429."
  check('4.6.4')(
    { ...business, name: 'A listed vehicle at a location it is not offered at: 400 or 409 in the envelope' },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      const base = await plainQuoteRequest(t, 'partnerA');
      const pairs = cat.locations
        .filter((l) => l.capabilities.pickup && l.capabilities.dropoff)
        .flatMap((l) => cat.vehicles.filter((v) => !v.locationCodes.includes(l.locationCode)).map((v) => ({ l, v })));
      const pair = pairs[(t.seed >>> 0) % Math.max(1, pairs.length)];
      if (!pair) return t.notApplicable('every listed vehicle is offered at every location');
      const { l: location, v: vehicle } = pair;
      const res = await t.client('partnerA').post('/quotes', {
        ...base,
        pickupLocation: location.locationCode,
        dropoffLocation: location.locationCode,
        vehicleCode: vehicle.vehicleCode,
      });
      expect(errorStatusAmong(res, [400, 409]), `HTTP 400 or 409: ${res.status} ${res.excerpt}`).toBe(true);
      expectSomeError(res, t.representation);
    },
  );

  // The body fault, no token, no scope, faulty requests and the rate limit, judged alike on POST /availability.
  shoppingChecks(SHOPPING.quotes);
});
