/**
 * Spec 4.5 POST /availability. Requests are generated from what the target lists (generators/); an empty offer
 * list and 409 NO_AVAILABILITY both answer a valid request (docs/ambiguities.md #9). What a quote id looks like
 * and how rentalDays is counted are not shown and never asserted. The checks POST /quotes shares are declared by
 * support/shopping-endpoints.ts.
 */

import { describe, expect } from 'vitest';
import type { AvailabilityRequest, AvailabilityResponse, Reservation } from '../contract/types.ts';
import { type ApiResult, check, SKIP } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { errorCodeOf, expectError, expectMediaType, expectSchema, listItems } from '../harness/check/expect-api.ts';
import { expectBooked, requireBooking, requireQuote, sendBooking } from './support/booking.ts';
import { expectThirtyMinutes, isAvailabilityAnswer } from './support/limits.ts';
import { targetListings } from './support/listings.ts';
import { business } from './support/presets.ts';
import { plainRequest } from './support/reservation-requests.ts';
import { availabilityRequest as plainAvailabilityRequest } from './support/shopping.ts';
import { SHOPPING, shoppingChecks } from './support/shopping-endpoints.ts';

/** Local date-time without offset (spec 2.12): the date and time asked, seconds optional. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

function expectWindowEcho(body: AvailabilityResponse, req: AvailabilityRequest): void {
  expect(body.pickupLocation, 'pickupLocation').toBe(req.pickupLocation);
  expect(body.dropoffLocation, 'dropoffLocation').toBe(req.dropoffLocation);
  for (const [field, value, date, time] of [
    ['pickupDateTime', body.pickupDateTime, req.pickupDate, req.pickupTime],
    ['dropoffDateTime', body.dropoffDateTime, req.dropoffDate, req.dropoffTime],
  ] as const) {
    expect(value, `${field}: local date-time without offset`).toMatch(LOCAL_DATE_TIME);
    expect(value.slice(0, 16), `${field}: the date and time asked`).toBe(`${date}T${time}`);
  }
}

const requests = SHOPPING.availability.requests;

describe('4.5 POST /availability', () => {
  // Spec 4.5.1: "Body: AvailabilityRequest."
  check('4.5.1')(
    { ...business, name: 'Generated AvailabilityRequests: 200 AvailabilityResponse for the window asked' },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      let offered = 0;
      await t.forAll(requests(cat), async (req) => {
        const res = await t.client('partnerA').post('/availability', req);
        expect(isAvailabilityAnswer(res), `HTTP ${res.status}: ${res.excerpt}`).toBe(true);
        if (res.status !== 200) return expectError(res, 'NO_AVAILABILITY');
        expectMediaType(res, t.representation);
        expectSchema(res, 'AvailabilityResponse');
        const body = res.body as AvailabilityResponse;
        expectWindowEcho(body, req);
        if (req.vehicleCodes) {
          // Spec 2.12: vehicleCodes narrows the offers ("omit for the whole offerable fleet").
          const outside = body.offers.map((o) => o.vehicle.vehicleCode).filter((c) => !req.vehicleCodes?.includes(c));
          expect(outside, 'offers for vehicles outside vehicleCodes').toEqual([]);
        }
        offered += body.offers.length;
      });
      // A target that never offers anything cannot show the rest of 4.5.
      expect(offered, 'offers across all generated requests').toBeGreaterThan(0);
    },
  );

  // 4.5.2 restates 2.8.2's 30 minutes: the lifetime is judged under 2.8.2, so a server with another lifetime
  // fails the field's clause and 8.2, not every clause that repeats the rule.
  // Spec 4.5.2: "Returns offers for the window; each offer carries a quoteId valid 30 minutes so booking can follow
  // without calling /quotes."
  check('4.5.2')(
    { ...business, name: 'Every offer carries a quoteId and a quoteExpiresAt (30 minutes, judged under 2.8.2)' },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      let seen = 0;
      await t.forAll(
        requests(cat),
        async (req) => {
          const sentAt = Date.now();
          const res = await t.client('partnerA').post('/availability', req);
          if (res.status !== 200) return SKIP;
          expectSchema(res, 'AvailabilityResponse');
          for (const offer of (res.body as AvailabilityResponse).offers) {
            expect(offer.quoteId.length, `quoteId of ${offer.vehicle.vehicleCode}`).toBeGreaterThan(0);
            expectThirtyMinutes(
              offer.quoteExpiresAt,
              res,
              sentAt,
              `quoteExpiresAt of ${offer.vehicle.vehicleCode}`,
              '2.8.2',
            );
            seen += 1;
          }
        },
        { numRuns: casesFor(t, 'oneRequest') },
      );
      if (seen === 0) t.notApplicable('no generated request got an offer');
    },
  );

  // Spec 4.5.2 (quoted above)
  check('4.5.2')(
    {
      ...business,
      profile: 'book',
      bookings: true,
      name: "An offer's quoteId books without /quotes: 201 for that vehicle and window",
    },
    async (t) => {
      const req = await plainAvailabilityRequest(t, 'partnerA');
      const res = await t.client('partnerA').post('/availability', req);
      // Nothing offerable for the window (409 NO_AVAILABILITY) answers a valid request (4.5): nothing to book.
      if (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY') {
        return t.notApplicable('the plain window: 409 NO_AVAILABILITY');
      }
      expect(res.status, res.excerpt).toBe(200);
      const offers = listItems(res, 'AvailabilityResponse', 'POST /availability');
      if (offers.length === 0) return t.notApplicable('the plain window got no offer');
      // The cheapest and the dearest offer: two quote ids, two vehicles.
      const picked = offers.length === 1 ? offers : [offers[0], offers[offers.length - 1]];
      for (const offer of picked) {
        if (!offer) continue;
        const attempt = await sendBooking(t, 'partnerA', offer.quoteId, { body: plainRequest(t, offer.quoteId) });
        if (attempt.res.status < 200 || attempt.res.status >= 300) {
          // Whose refusal: a quote of /quotes for the same vehicle and window must book (book() files a refusal
          // under 4.7.2 and ends here); when it does, only the offer's quoteId is refused, which is this clause's.
          const { vehicleCodes: _v, ...window } = req;
          const control = await requireQuote(t, 'partnerA', { ...window, vehicleCode: offer.vehicle.vehicleCode });
          // A target may quote the same terms with the same id: then that id is the one refused, and it is the
          // offer's (the 4.7 checks judge bookings of /quotes ids of their own).
          if (control.quoteId !== offer.quoteId) {
            await requireBooking(t, 'partnerA', control.quoteId, { body: plainRequest(t, control.quoteId) });
          }
          expect(attempt.res.status, `booking the offer's quoteId: ${attempt.res.excerpt}`).toBe(201);
        }
        // Accepted; the exact 201 of a first success is 4.7.2's, filed there.
        expectBooked(attempt.res, "booking the offer's quoteId");
        expectSchema(attempt.res, 'Reservation');
        const reservation = attempt.res.body as Reservation;
        expect(reservation.vehicleCode, 'vehicleCode of the reservation').toBe(offer.vehicle.vehicleCode);
        expect(reservation.pickupLocation, 'pickupLocation of the reservation').toBe(req.pickupLocation);
        expect(reservation.dropoffLocation, 'dropoffLocation of the reservation').toBe(req.dropoffLocation);
      }
    },
  );

  // Spec 4.5.3: "No hold is placed."
  check('4.5.3')({ ...business, name: 'Asking again offers the same vehicles: nothing was held' }, async (t) => {
    const cat = await targetListings(t, 'partnerA');
    const vehiclesOf = (res: ApiResult) =>
      res.status === 200
        ? listItems(res, 'AvailabilityResponse', 'POST /availability')
            .map((o) => o.vehicle.vehicleCode)
            .sort()
        : [];
    await t.forAll(
      requests(cat),
      async (req) => {
        const first = await t.client('partnerA').post('/availability', req);
        expect(isAvailabilityAnswer(first), `HTTP ${first.status}: ${first.excerpt}`).toBe(true);
        // The same window asked again, once per offer it got: a hold or an allotment would show as a shrinking list.
        let again = first;
        for (let i = 0; i <= vehiclesOf(first).length && i < 3; i++) {
          again = await t.client('partnerA').post('/availability', req);
        }
        expect(vehiclesOf(again), 'vehicles offered on the last ask against the first').toEqual(vehiclesOf(first));
      },
      { numRuns: casesFor(t, 'repeatedOrTimed') },
    );
  });

  // Spec 4.5.3 (quoted above)
  check('4.5.3')(
    { ...business, profile: 'book', bookings: true, name: 'Booking an offer leaves it offered: no unit was held' },
    async (t) => {
      const req = await plainAvailabilityRequest(t, 'partnerA');
      const before = await t.client('partnerA').post('/availability', req);
      // Nothing offerable for the window (409 NO_AVAILABILITY) answers a valid request (4.5): nothing to book.
      if (before.status === 409 && errorCodeOf(before) === 'NO_AVAILABILITY') {
        return t.notApplicable('the plain window: 409 NO_AVAILABILITY');
      }
      expect(before.status, before.excerpt).toBe(200);
      const offer = listItems(before, 'AvailabilityResponse', 'POST /availability')[0];
      if (!offer) return t.notApplicable('the plain window got no offer');
      await requireBooking(t, 'partnerA', offer.quoteId, { body: plainRequest(t, offer.quoteId), stepClause: '4.5.2' });
      const after = await t.client('partnerA').post('/availability', req);
      expect(after.status, after.excerpt).toBe(200);
      const codes = listItems(after, 'AvailabilityResponse', 'POST /availability again').map(
        (o) => o.vehicle.vehicleCode,
      );
      expect(codes, 'vehicles offered after booking one').toContain(offer.vehicle.vehicleCode);
    },
  );

  // The body fault, no token, no scope, faulty requests and the rate limit, judged alike on POST /quotes.
  shoppingChecks(SHOPPING.availability);
});
