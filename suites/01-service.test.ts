/**
 * Spec 1 What the service does: the rules that hold across the service. Each is judged where it shows on the
 * wire (model-level availability, Money everywhere, confirmed bookings, partner isolation, no modification,
 * SIPP, IATA only on airports, a proprietary XML, read-only integration credentials); the statements about the
 * service itself (no unit-level option, no claim of certification, no SOAP) also on the published contract.
 * The sandbox and settlement sentences of 1.3 and 1.7 bind the agreement, not the service: they are
 * NON_SERVICE_STATEMENTS of contract/clauses, not clauses.
 */

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { MEDIA_TYPES, XML_NAMESPACE } from '../contract/constants.ts';
import type {
  AvailabilityOffer,
  AvailabilityResponse,
  LocationList,
  Quote,
  QuoteRequest,
  Reservation,
} from '../contract/types.ts';
import { availabilityRequest, quoteRequest } from '../generators/index.ts';
import { type ApiResult, type CheckContext, check, SKIP } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { bodyOf, errorCodeOf, expectError, expectSchema, listItems } from '../harness/check/expect-api.ts';
import { claim } from '../harness/check/scope.ts';
import type { Role } from '../harness/config/target-config.ts';
import { REPRESENTATIONS } from '../harness/http/representation.ts';
import { freshToken, scopeSet } from './support/auth.ts';
import {
  expectBooked,
  requireQuote as quoteStep,
  requireCancel,
  requireGeneratedBooking,
  requireGeneratedQuote,
  requireUnscopedBookingRefused,
  sendReservationBody,
} from './support/booking.ts';
import { heldScopes } from './support/draws.ts';
import { availabilityAnswered, quoteAnswered } from './support/endpoint-success.ts';
import { sampleOf } from './support/generated.ts';
import { errorWithoutRequestId, unissuedId } from './support/ids.ts';
import { sharedListingRead, targetListings } from './support/listings.ts';
import { bareAmounts, isMoneyObject, moneyValue, scaled } from './support/money.ts';
import { book, business, shop } from './support/presets.ts';
import { requireUnknownKeysRefused } from './support/request-faults.ts';
import { reservationBody } from './support/reservation-requests.ts';
import { forSamples, levelOptions, SAMPLE_LEVELS } from './support/samples.ts';
import { expectSharedCodesOwned } from './support/shared-codes.ts';
import { invalidSippPositions, SIPP_MANUAL, SIPP_WITH_AIR } from './support/sipp.ts';
import { xmlRootOf } from './support/xml-root.ts';

const onlyPartnerA: Role[] = ['partnerA'];
const twoPartners = { ...book, needs: ['partnerA', 'partnerB'] as Role[] };

/** The machine-readable contract this suite ships (spec 9.2), read as data. */
const OPENAPI_TEXT = readFileSync(new URL('../contract/openapi/partner-api-v1.openapi.json', import.meta.url), 'utf8');
const OPENAPI = JSON.parse(OPENAPI_TEXT) as { components: { schemas: Record<string, { properties?: object }> } };

/** The vehicle classes offered, in code order. */
function offeredClasses(offers: readonly AvailabilityOffer[]): string[] {
  return offers.map((o) => o.vehicle.vehicleCode).sort();
}

/** What an offer says about a class: price and days, without the quote id and its expiry. */
function offerTerms(offers: readonly AvailabilityOffer[]): Record<string, unknown> {
  return Object.fromEntries(
    offers.map((o) => [
      o.vehicle.vehicleCode,
      {
        rentalDays: o.rentalDays,
        // Compared by value: display is for humans only (spec 2.1, audit 2.1-R5).
        dailyRate: moneyValue(o.dailyRate),
        estimatedTotal: moneyValue(o.estimatedTotal),
        currency: o.currency,
      },
    ]),
  );
}

async function availability(t: CheckContext, body: unknown): Promise<AvailabilityResponse> {
  const res = await t.client('partnerA').post('/availability', body);
  expect(res.status, `POST /availability: ${res.excerpt}`).toBe(200);
  expectSchema(res, 'AvailabilityResponse');
  return res.body as AvailabilityResponse;
}

/** The availability request of a quote request's window, limited to its vehicle. */
function windowOf(request: QuoteRequest) {
  const { vehicleCode, extras: _x, ...window } = request;
  return { ...window, vehicleCodes: [vehicleCode] };
}

/** Claims of membership or certification by the classification, airport or travel-messaging bodies. */
const CLAIM =
  /\b(member(ship)?|certified|certification|accredited|accreditation|approved|endorsed)\b[^.]{0,60}\b(ACRISS|IATA|OpenTravel|OTA|SITA|HEDNA)\b|\b(ACRISS|IATA|OpenTravel|OTA|SITA|HEDNA)\b[^.]{0,40}\b(member|certified|accredited|approved|endorsed)\b/i;

/** Namespaces of SOAP 1.1 and 1.2, WSDL 1.1 and 2.0, and OpenTravel. */
const FOREIGN_NAMESPACES = [
  'http://schemas.xmlsoap.org/soap/envelope/',
  'http://www.w3.org/2003/05/soap-envelope',
  'http://schemas.xmlsoap.org/wsdl/',
  'http://www.w3.org/ns/wsdl',
  'http://www.opentravel.org/OTA/2003/05',
];

/**
 * Bookings of one vehicle and window in 1.1a: more than a branch's cars of one class, so a decrementing allotment of a
 * realistic size (a handful to ten a window) runs out within the check (audit 2026-11-29, finding 24).
 */
const SAME_WINDOW_BOOKINGS = 12;

describe('1 What the service does', () => {
  // Spec 1.1a: "Availability is model-level, not unit-level. There is no per-unit date-overlap check, no unit inventory
  // and no decrementing allotment."
  check('1.1a')(
    {
      ...book,
      name: `${SAME_WINDOW_BOOKINGS} bookings of the same vehicle and window: all accepted, availability unchanged`,
    },
    async (t) => {
      const { quote: first, request } = await requireGeneratedQuote(t, 'partnerA', await targetListings(t), {
        rate: 'public',
      });
      const probe = windowOf(request);
      // Measured before the first booking: an allotment decremented by that one would otherwise go unseen.
      const before = await availability(t, probe);
      for (let i = 0; i < SAME_WINDOW_BOOKINGS; i++) {
        // A quote of the same request per booking: booking one quote again is 3.10's matter, not this clause's.
        // A class the target quoted before the first booking and refuses now for want of availability ran out.
        const q =
          i === 0 ? first : await quoteStep(t, 'partnerA', request, { quotedBefore: `before ${i} bookings of it` });
        const res = await sendReservationBody(t, 'partnerA', reservationBody(t, q.quoteId, q.vehicle));
        expectBooked(res, `booking ${i + 1} of the same vehicle and window`);
      }
      const after = await availability(t, probe);
      // The classes offered, not their prices: a price may move with demand (QUOTE_STALE exists, 4.6 does not show
      // price computation); a class no longer offered is what an allotment that ran out looks like.
      expect(
        offeredClasses(after.offers),
        `classes offered after ${SAME_WINDOW_BOOKINGS} overlapping bookings (no allotment decremented)`,
      ).toEqual(offeredClasses(before.offers));
    },
  );

  // Spec 1.1b: "An offer means the vehicle class is offered at that location, for those dates, at that price."
  check('1.1b')(
    { ...shop, name: 'An offer is the class at the pickup location, for the window, at the offered price' },
    async (t) => {
      const cat = await targetListings(t);
      let compared = 0;
      await t.forAll(
        availabilityRequest(cat, { rate: 'public' }),
        async (request) => {
          const res = await t.client('partnerA').post('/availability', request);
          if (!availabilityAnswered(res)) return SKIP;
          const response = res.body as AvailabilityResponse;
          for (const offer of response.offers.slice(0, 2)) {
            expect(
              offer.vehicle.locationCodes,
              `${offer.vehicle.vehicleCode} offered at the pickup location`,
            ).toContain(request.pickupLocation);
            const { vehicleCodes: _v, ...window } = request;
            const quoted = await t
              .client('partnerA')
              .post('/quotes', { ...window, vehicleCode: offer.vehicle.vehicleCode });
            expect(
              quoteAnswered(quoted),
              `a quote for the offered ${offer.vehicle.vehicleCode}: HTTP ${quoted.status} ${quoted.excerpt}`,
            ).toBe(true);
            const quote = quoted.body as Quote;
            // By value, display apart (spec 2.1: display is for humans only).
            expect(moneyValue(quote.charges.dailyRate), 'the quoted daily rate is the offered one').toEqual(
              moneyValue(offer.dailyRate),
            );
            expect(quote.rental.rentalDays, 'the quoted rental days are the offered ones').toBe(offer.rentalDays);
            compared += 1;
          }
        },
        { numRuns: casesFor(t, 'request') },
      );
      if (compared === 0) t.notApplicable('no generated availability request got an offer');
    },
  );

  // Spec 1.1b (quoted above)
  check('1.1b')(
    { ...shop, level: 'SHOULD', name: "An offer's estimated total is the total of the same quote" },
    async (t) => {
      const cat = await targetListings(t);
      await t.forAll(
        availabilityRequest(cat, { rate: 'public' }),
        async (request) => {
          const response = await availability(t, request);
          const offer = response.offers[0];
          if (!offer) return SKIP;
          const { vehicleCodes: _v, ...window } = request;
          const quoted = await t
            .client('partnerA')
            .post('/quotes', { ...window, vehicleCode: offer.vehicle.vehicleCode });
          expect(quoteAnswered(quoted), `POST /quotes: HTTP ${quoted.status} ${quoted.excerpt}`).toBe(true);
          expect(moneyValue((quoted.body as Quote).charges.total)).toEqual(moneyValue(offer.estimatedTotal));
        },
        { numRuns: casesFor(t, 'severalRequests') },
      );
    },
  );

  // Spec 1.1c: "No physical car is held or guaranteed at shop, quote or reservation time."
  check('1.1c')(
    { ...shop, name: 'Shopping and quoting hold nothing: repeated quotes leave the offers unchanged' },
    async (t) => {
      const cat = await targetListings(t);
      await t.forAll(
        quoteRequest(cat, { rate: 'public' }),
        async (request) => {
          const probe = windowOf(request);
          const before = await availability(t, probe);
          for (let i = 0; i < 5; i++) {
            const res = await t.client('partnerA').post('/quotes', request);
            expect(quoteAnswered(res), `POST /quotes: HTTP ${res.status} ${res.excerpt}`).toBe(true);
          }
          const after = await availability(t, probe);
          expect(offerTerms(after.offers), 'offers after five quotes').toEqual(offerTerms(before.offers));
        },
        { numRuns: casesFor(t, 'severalRequests') },
      );
    },
  );

  // Spec 1.1c (quoted above)
  check('1.1c')(
    { ...book, name: 'A reservation holds no unit: the class stays offered and a second booking succeeds' },
    async (t) => {
      // The vehicle asked for (whether the quote describes it is 2.9.5's).
      const { request } = await requireGeneratedBooking(t, 'partnerA', { rate: 'public' });
      const after = await availability(t, windowOf(request));
      expect(
        after.offers.map((o) => o.vehicle.vehicleCode),
        'the booked class is still offered for the booked window',
      ).toContain(request.vehicleCode);
      // A new quote of the same request: booking the first again is 3.10's matter, not this clause's.
      const second = await quoteStep(t, 'partnerA', request);
      const again = await sendReservationBody(t, 'partnerA', reservationBody(t, second.quoteId, second.vehicle));
      expectBooked(again, 'a second booking of the same vehicle and window');
    },
  );

  // Spec 1.1d: "Unit-level availability is not an API option."
  check('1.1d')(
    { needs: onlyPartnerA, name: 'The contract has no unit-level option: availability is model_level_on_request only' },
    async () => {
      const schemas = OPENAPI.components.schemas;
      for (const name of ['AvailabilityRequest', 'QuoteRequest', 'ReservationRequest']) {
        const keys = Object.keys(schemas[name]?.properties ?? {});
        expect(
          keys.filter((k) => /unit|inventory|allot|hold|vin|plate/i.test(k)),
          `${name} properties of the shipped OpenAPI`,
        ).toEqual([]);
      }
      expect(JSON.stringify(schemas.AvailabilityResponse?.properties), 'availabilityModel').toContain(
        '"const":"model_level_on_request"',
      );
    },
  );

  // Spec 1.1d (quoted above)
  check('1.1d')(
    { ...shop, name: 'Asking for unit-level availability is refused (400); every answer is model-level' },
    async (t) => {
      const cat = await targetListings(t);
      const request = sampleOf(t, availabilityRequest(cat, { rate: 'public' }));
      const send = (body: object) => t.client('partnerA').post('/availability', body);
      for (const extra of [{ availabilityModel: 'unit_level' }, { unitLevel: true }]) {
        const res = await send({ ...request, ...extra });
        // Served because every unknown key is: 2.12.3's (filed there), not a unit-level option.
        await requireUnknownKeysRefused('AvailabilityRequest', request, res, send);
        // 7.3: an unknown field's specific code beyond VALIDATION_ERROR is not shown.
        expectError(res, 'VALIDATION_ERROR', {
          otherCodes: true,
        });
      }
      await t.forAll(
        availabilityRequest(cat),
        async (body) => {
          const res = await t.client('partnerA').post('/availability', body);
          if (res.status === 200)
            expect(bodyOf<AvailabilityResponse>(res, 'POST /availability').availabilityModel).toBe(
              'model_level_on_request',
            );
        },
        { numRuns: casesFor(t, 'availability') },
      );
    },
  );

  for (const level of SAMPLE_LEVELS) {
    // Spec 1.2: "Every money amount is a Money object (see section 2). Bare floating-point amounts do not occur."
    check('1.2')(
      {
        ...business,
        ...levelOptions(level),
        name: `No bare amount in any response: every amount is a Money (${level})`,
      },
      (t) =>
        forSamples(t, level, (samples) => {
          const bare = samples.flatMap((s) => bareAmounts(s.res.body).map((b) => `${s.label}: ${b}`));
          expect(bare, 'numbers outside Money under money names, or fractional numbers').toEqual([]);
          const money = samples.flatMap((s) => JSON.stringify(s.res.body).match(/"amount":/g) ?? []);
          if (money.length === 0) t.notApplicable(`no ${level} response carried an amount`);
        }),
    );
  }

  // Spec 1.2 (quoted above)
  check('1.2')({ ...shop, name: 'Every priced field of offers and quotes is a Money object' }, (t) =>
    forSamples(t, 'shop', (samples) => {
      for (const s of samples) {
        if (s.schema === 'AvailabilityResponse') {
          for (const offer of listItems(s.res, 'AvailabilityResponse', 'the sample answer')) {
            for (const key of ['dailyRate', 'estimatedTotal'] as const)
              expect(isMoneyObject(offer[key]), key).toBe(true);
          }
        }
        if (s.schema === 'Quote') {
          const quote = bodyOf<Quote>(s.res, 'the sample quote');
          for (const [key, value] of Object.entries(quote.charges)) {
            if (key === 'extras' || value === null) continue;
            expect(isMoneyObject(value), `charges.${key}`).toBe(true);
          }
          expect(isMoneyObject(quote.securityDeposit), 'securityDeposit').toBe(true);
        }
      }
    }),
  );

  // Spec 1.3a: "Reservations are created as confirmed with no online payment."
  check('1.3a')({ ...book, name: 'A booking needs no payment data and is created confirmed (201)' }, async (t) => {
    // The booking's 201 is 4.7.2's (requireGeneratedBooking files another status there); this clause is the state and payment.
    const { reservation, body } = await requireGeneratedBooking(t, 'partnerA');
    expect(reservation.status, 'status of a new reservation').toBe('confirmed');
    expect(Object.keys(body).sort(), 'the request carried no payment data').toEqual([
      'driver',
      'partnerReference',
      'quoteId',
    ]);
  });

  // Spec 1.3a (quoted above)
  check('1.3a')(
    { ...shop, level: 'SHOULD', name: 'Quotes ask for no online prepayment (settled with the partner)' },
    async (t) => {
      const cat = await targetListings(t);
      await t.forAll(
        quoteRequest(cat),
        async (request) => {
          const res = await t.client('partnerA').post('/quotes', request);
          if (!quoteAnswered(res)) return SKIP;
          const quote = bodyOf<Quote>(res, 'POST /quotes');
          expect(quote.payment.model).toBe('settled_with_partner');
          expect(quote.payment.prepaymentRequired.amount, 'prepaymentRequired').toBe(0);
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 1.3b: "The refundable security deposit is collected from the driver at pickup and is shown separately from the
  // rental charge."
  check('1.3b')(
    { ...shop, name: 'Quotes show the security deposit apart from the rental charge, which excludes it' },
    async (t) => {
      const cat = await targetListings(t);
      await t.forAll(
        quoteRequest(cat),
        async (request) => {
          const res = await t.client('partnerA').post('/quotes', request);
          if (!quoteAnswered(res)) return SKIP;
          const quote = bodyOf<Quote>(res, 'POST /quotes');
          expect(isMoneyObject(quote.securityDeposit), 'securityDeposit is shown').toBe(true);
          const { baseTotal, extrasTotal, oneWayFee, discount, total } = quote.charges;
          const deposit = quote.securityDeposit;
          // A zero deposit cannot be told apart from none folded in: nothing to judge.
          if (deposit.amount === 0) return SKIP;
          // Amounts of any exponents, compared at the finest of them all (spec 2.1: exponent is per amount).
          const e = Math.max(...[baseTotal, extrasTotal, oneWayFee, discount, total, deposit].map((m) => m.exponent));
          const charge = scaled(baseTotal, e) + scaled(extrasTotal, e) + scaled(oneWayFee, e) - scaled(discount, e);
          expect(scaled(total, e), 'charges.total does not include the deposit').not.toBe(charge + scaled(deposit, e));
          return undefined;
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 1.3b (quoted above)
  check('1.3b')({ ...book, name: 'A reservation shows the security deposit apart from its total' }, async (t) => {
    const { reservation, quote } = await requireGeneratedBooking(t, 'partnerA');
    expect(isMoneyObject(reservation.securityDeposit), 'securityDeposit').toBe(true);
    expect(moneyValue(reservation.securityDeposit), 'deposit as quoted (by value)').toEqual(
      moneyValue(quote.securityDeposit),
    );
    // That the total equals the quote's is 2.11.9c's rule (judged there); here it must not fold the deposit in.
    const { baseTotal, extrasTotal, oneWayFee, discount } = quote.charges;
    const deposit = reservation.securityDeposit;
    if (deposit.amount === 0) return;
    const amounts = [baseTotal, extrasTotal, oneWayFee, discount, deposit, reservation.total];
    const e = Math.max(...amounts.map((m) => m.exponent));
    const charge = scaled(baseTotal, e) + scaled(extrasTotal, e) + scaled(oneWayFee, e) - scaled(discount, e);
    expect(scaled(reservation.total, e), 'total is not the rental charge plus the deposit').not.toBe(
      charge + scaled(deposit, e),
    );
  });

  // Spec 1.4a: "A partner only ever sees its own reservations, rates and codes."
  check('1.4a')(
    {
      ...business,
      needs: ['partnerA', 'partnerB'],
      name: "A partner's rate list holds none of another partner's codes",
    },
    async (t) => {
      const codes = async (role: Role) => {
        // The read every check of the rate list shares (sharedListingRead): the same request, answered once.
        const res = await sharedListingRead(t, '/rates', role);
        expect(res.status, `GET /rates as ${role}`).toBe(200);
        return listItems(res, 'RateList', 'GET /rates');
      };
      const a = await codes('partnerA');
      const b = await codes('partnerB');
      await expectSharedCodesOwned(t, a, b);
    },
  );

  // Spec 1.4a (quoted above)
  check('1.4a')({ ...twoPartners, name: "A partner's reservation list holds only its own reservations" }, async (t) => {
    const { reservation } = await requireGeneratedBooking(t, 'partnerA');
    const listOf = async (role: Role) => {
      const res = await t.client(role).get('/reservations?limit=100');
      expect(res.status, `GET /reservations as ${role}: ${res.excerpt}`).toBe(200);
      return listItems(res, 'ReservationList', 'GET /reservations');
    };
    const ofB = await listOf('partnerB');
    expect(
      ofB.filter(
        (r) => r.reservationId === reservation.reservationId || r.partnerReference === reservation.partnerReference,
      ),
      "partner A's reservation in partner B's list",
    ).toEqual([]);
    expect(
      (await listOf('partnerA')).map((r) => r.reservationId),
      "A's own list",
    ).toContain(reservation.reservationId);
    // Every reservation B lists is readable by B: none of them is another partner's.
    for (const r of ofB.slice(0, 5)) {
      const one = await t.client('partnerB').get(`/reservations/${encodeURIComponent(r.reservationId)}`);
      expect(one.status, `B reads its listed ${r.reservationId}`).toBe(200);
    }
  });

  // Spec 1.4b: "Another partner's resource is indistinguishable from a nonexistent one (404)."
  check('1.4b')(
    { ...twoPartners, name: "Another partner's reservation: 404, the body of a nonexistent id's but for requestId" },
    async (t) => {
      const { reservation } = await requireGeneratedBooking(t, 'partnerA');
      const id = reservation.reservationId;
      const missing = unissuedId(id);
      const own = () => t.client('partnerA').get(`/reservations/${encodeURIComponent(id)}`);
      const before = ((await own()).body as Reservation | undefined)?.status;
      const pairs: Array<[string, () => Promise<ApiResult>, () => Promise<ApiResult>]> = [
        [
          'GET',
          () => t.client('partnerB').get(`/reservations/${encodeURIComponent(id)}`),
          () => t.client('partnerB').get(`/reservations/${encodeURIComponent(missing)}`),
        ],
        [
          'POST cancel',
          () => t.client('partnerB').post(`/reservations/${encodeURIComponent(id)}/cancel`, { reason: 'Probe' }),
          () => t.client('partnerB').post(`/reservations/${encodeURIComponent(missing)}/cancel`, { reason: 'Probe' }),
        ],
      ];
      for (const [what, foreign, nonexistent] of pairs) {
        const a = await foreign();
        const b = await nonexistent();
        expectError(a, 'NOT_FOUND');
        expectError(b, 'NOT_FOUND');
        // Each id masked, as 4.9.1 and 4.11.3 compare: a message may name the id it was asked for (audit 1-R4).
        expect(errorWithoutRequestId(a, id), `${what}: another partner's id against a nonexistent one`).toEqual(
          errorWithoutRequestId(b, missing),
        );
        expect(a.mediaType, `${what}: media type`).toBe(b.mediaType);
      }
      const after = ((await own()).body as Reservation | undefined)?.status;
      expect(after, "partner B's cancel left A's reservation as it was").toBe(before);
    },
  );

  // Spec 1.5: "Reservation modification is deliberately unsupported in v1 (cancel and re-book)."
  check('1.5')(
    { ...book, name: 'PATCH of a reservation: 501 MODIFICATION_NOT_SUPPORTED, nothing changed' },
    async (t) => {
      const { reservation } = await requireGeneratedBooking(t, 'partnerA');
      const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
      const change = fc.record(
        {
          dropoffTime: fc.constantFrom('09:00', '18:30'),
          partnerReference: fc.constant(`${t.settings.bookingPrefix}PATCHED`),
          driver: fc.record({ firstName: fc.constantFrom('Minh', 'Anna') }),
          status: fc.constantFrom('cancelled', 'completed'),
        },
        { requiredKeys: [] },
      );
      await t.forAll(
        change,
        async (body) => {
          expectError(await t.client('partnerA').patch(path, body), 'MODIFICATION_NOT_SUPPORTED');
        },
        { numRuns: casesFor(t, 'request') },
      );
      const after = await t.client('partnerA').get(path);
      expect(after.body, 'the reservation after the PATCH attempts').toEqual(reservation);
    },
  );

  // Spec 1.5 (quoted above)
  check('1.5')({ ...book, name: 'Change by cancel and re-book: both succeed' }, async (t) => {
    const { reservation, request } = await requireGeneratedBooking(t, 'partnerA');
    // The cancel's 200 is 3.4's and the state it answers 4.11.2's (cancelStep files them there).
    await requireCancel(t, 'partnerA', reservation.reservationId, { reason: 'Re-booking with other dates' });
    // Re-booked from a new quote of the same request: booking the first quote again is 3.10's matter.
    const again = await quoteStep(t, 'partnerA', request);
    const rebooked = await sendReservationBody(t, 'partnerA', reservationBody(t, again.quoteId, again.vehicle));
    expectBooked(rebooked, 'the re-booking');
  });

  // Spec 1.6a: "Vehicle classification uses SIPP (ACRISS) codes."
  check('1.6a')(
    { ...business, name: 'Every listed vehicle is classified by a valid SIPP (ACRISS) code' },
    async (t) => {
      const res = await sharedListingRead(t, '/fleet');
      expect(res.status, res.excerpt).toBe(200);
      const vehicles = listItems(res, 'FleetList', 'GET /fleet');
      if (vehicles.length === 0) t.notApplicable('the fleet list is empty');
      for (const v of vehicles) {
        expect(v.sippCode, v.vehicleCode).toMatch(/^[A-Z]{4}$/);
        expect(invalidSippPositions(v.sippCode ?? ''), `${v.vehicleCode} ${v.sippCode}: positions not ACRISS`).toEqual(
          [],
        );
      }
    },
  );

  // Spec 1.6a (quoted above)
  check('1.6a')({ ...shop, name: 'Offered and quoted vehicles carry valid SIPP codes' }, (t) =>
    forSamples(t, 'shop', (samples) => {
      for (const s of samples) {
        const vehicles =
          s.schema === 'AvailabilityResponse'
            ? listItems(s.res, 'AvailabilityResponse', 'the sample answer').map((o) => o.vehicle)
            : [bodyOf<Quote>(s.res, 'the sample quote').vehicle];
        for (const v of vehicles) {
          expect(invalidSippPositions(v.sippCode ?? ''), `${s.label} ${v.vehicleCode} ${v.sippCode}`).toEqual([]);
        }
      }
    }),
  );

  // Spec 1.6a (quoted above)
  check('1.6a')(
    { ...business, level: 'SHOULD', name: 'The SIPP code agrees with transmission and air conditioning' },
    async (t) => {
      const res = await sharedListingRead(t, '/fleet');
      for (const v of listItems(res, 'FleetList', 'GET /fleet')) {
        const code = v.sippCode ?? '';
        if (v.transmission !== null) {
          expect(SIPP_MANUAL.includes(code.charAt(2)) ? 'manual' : 'automatic', `${v.vehicleCode} ${code}`).toBe(
            v.transmission,
          );
        }
        if (v.airConditioning !== null) {
          expect(SIPP_WITH_AIR.includes(code.charAt(3)), `${v.vehicleCode} ${code} air conditioning`).toBe(
            v.airConditioning,
          );
        }
      }
    },
  );

  // Spec 1.6b: "IATA airport identifiers appear only as an optional field of airport locations."
  check('1.6b')({ ...business, name: 'An IATA code appears only as iataCode of an airport location' }, (t) =>
    forSamples(t, 'catalog', (samples) => {
      const locations =
        (samples.find((s) => s.schema === 'LocationList')?.res.body as LocationList | undefined)?.locations ?? [];
      for (const l of locations) {
        if (l.locationType !== 'airport') expect(l.iataCode, `${l.locationCode} (${l.locationType})`).toBeNull();
      }
      const iataKeys = samples.flatMap((s) =>
        [...JSON.stringify(s.res.body).matchAll(/"([^"]*iata[^"]*)":/gi)]
          .map((m) => m[1])
          .filter((key) => key !== 'iataCode')
          .map((key) => `${s.label}: ${key}`),
      );
      expect(iataKeys, 'IATA fields outside Location.iataCode').toEqual([]);
    }),
  );

  // Spec 1.6b (quoted above)
  check('1.6b')({ ...shop, name: 'Shopping answers carry no IATA field' }, (t) =>
    forSamples(t, 'shop', (samples) => {
      for (const s of samples) expect(JSON.stringify(s.res.body), s.label).not.toMatch(/"[^"]*iata[^"]*":/i);
    }),
  );

  // Spec 1.6c: "The operator claims no membership of or certification by those bodies, nor by any travel-messaging
  // standards body."
  check('1.6c')(
    {
      needs: onlyPartnerA,
      name: 'The published contract claims no membership or certification of ACRISS, IATA or OpenTravel',
    },
    async () => {
      expect(OPENAPI_TEXT.match(CLAIM)?.[0] ?? null, 'a claim in the shipped OpenAPI').toBeNull();
    },
  );

  // Spec 1.6c (quoted above)
  check('1.6c')(
    { ...business, name: 'No response claims membership or certification of ACRISS, IATA or OpenTravel' },
    (t) =>
      forSamples(t, 'catalog', (samples) => {
        for (const s of samples) expect(s.res.text.match(CLAIM)?.[0] ?? null, s.label).toBeNull();
      }),
  );

  // Spec 1.6d: "The XML representation is proprietary: it is not SOAP, has no WSDL, and is not OpenTravel-compatible."
  check('1.6d')(
    {
      needs: onlyPartnerA,
      representations: ['xml'],
      name: 'XML answers are the proprietary typed XML: no SOAP, WSDL or OpenTravel',
    },
    (t) =>
      forSamples(t, 'catalog', (samples) => {
        for (const s of samples) {
          const root = xmlRootOf(s.res.text);
          expect(root, `${s.label}: well-formed XML`).toBeDefined();
          // 1.6d forbids the industry envelopes; the exact root and namespace are 4.14's rules, judged there.
          expect(
            ['Envelope', 'definitions', 'description'].includes(root?.local ?? '') || /^OTA_/.test(root?.local ?? ''),
            `${s.label}: root <${root?.local}> is a SOAP, WSDL or OpenTravel element`,
          ).toBe(false);
          claim('4.14.3', root?.local === 'response', `${s.label}: the response root is response`, {
            expected: 'response',
            actual: root?.local,
          });
          claim('4.14.1', root?.uri === XML_NAMESPACE, `${s.label}: the root is in ${XML_NAMESPACE}`, {
            expected: XML_NAMESPACE,
            actual: root?.uri,
          });
          expect(
            root?.namespaces.filter((ns) => FOREIGN_NAMESPACES.includes(ns)),
            `${s.label}: namespaces`,
          ).toEqual([]);
        }
      }),
  );

  // Spec 1.6d (quoted above)
  check('1.6d')(
    { ...business, name: 'There is no WSDL: ?wsdl is not answered with a service description' },
    async (t) => {
      const token = await t.client('partnerA').token();
      // GET /reservations is asked only of a partner that holds reservations:read (spec 5.5): it means to be served.
      const reservations = heldScopes(t).includes('reservations:read') ? ['/reservations?wsdl'] : [];
      for (const path of ['?wsdl', '/?wsdl', '/fleet?wsdl', ...reservations]) {
        const res = await t.client('partnerA').raw({
          method: 'GET',
          path,
          headers: { authorization: `Bearer ${token}`, accept: 'application/xml, text/xml;q=0.9, */*;q=0.1' },
        });
        const root = res.mediaType?.includes('xml') ? xmlRootOf(res.text) : undefined;
        expect(root?.local === 'definitions' || root?.local === 'description', `GET ${path}: a WSDL document`).toBe(
          false,
        );
        expect(res.text, `GET ${path}`).not.toMatch(/schemas\.xmlsoap\.org\/wsdl|www\.w3\.org\/ns\/wsdl/);
      }
    },
  );

  // Spec 1.6d (quoted above)
  check('1.6d')({ ...shop, name: 'A SOAP envelope is not accepted as a request (400 MALFORMED_XML)' }, async (t) => {
    const cat = await targetListings(t);
    await t.forAll(
      availabilityRequest(cat, { rate: 'public' }),
      async (request) => {
        const fields = Object.entries(request)
          .filter(([, v]) => typeof v === 'string')
          .map(([k, v]) => `<${k}>${v}</${k}>`)
          .join('');
        const envelope =
          '<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
          `<soap:Body><Availability xmlns="${XML_NAMESPACE}">${fields}</Availability></soap:Body></soap:Envelope>`;
        for (const contentType of [MEDIA_TYPES.textXml, MEDIA_TYPES.xml]) {
          const res = await t.client('partnerA').post('/availability', new TextEncoder().encode(envelope), {
            headers: { 'content-type': contentType, soapaction: '"Availability"' },
          });
          // Refused is 1.6d's; MALFORMED_XML's status is its row's (7.3.8).
          expectError(res, 'MALFORMED_XML');
        }
      },
      { numRuns: casesFor(t, 'severalRequests') },
    );
  });

  // Spec 1.7: "Initial integration credentials read live catalogue and pricing data and carry no reservation scope."
  check('1.7')(
    {
      needs: ['readOnly'],
      representations: REPRESENTATIONS,
      name: 'Integration (read-only) credentials carry no reservation scope',
    },
    async (t) => {
      const token = await freshToken(t, 'readOnly');
      const scopes = scopeSet(token.scope);
      expect(
        scopes.filter((s) => s.startsWith('reservations:')),
        'reservation scopes granted',
      ).toEqual([]);
      expectError(await t.client('readOnly').get('/reservations'), 'INSUFFICIENT_SCOPE');
      for (const [path, schema] of [
        ['/fleet', 'FleetList'],
        ['/locations', 'LocationList'],
        ['/rates', 'RateList'],
      ] as const) {
        const res = await t.client('readOnly').get(path);
        expect(res.status, `GET ${path} with integration credentials: ${res.excerpt}`).toBe(200);
        expectSchema(res, schema);
      }
    },
  );

  // Spec 1.7 (quoted above)
  check('1.7')(
    {
      needs: ['readOnly'],
      representations: REPRESENTATIONS,
      profile: 'shop',
      name: 'Integration credentials read live pricing',
    },
    async (t) => {
      const cat = await targetListings(t, 'readOnly');
      await t.forAll(
        quoteRequest(cat, { rate: 'public' }),
        async (request) => {
          const quoted = await t.client('readOnly').post('/quotes', request);
          expect(
            quoteAnswered(quoted),
            `POST /quotes with integration credentials: HTTP ${quoted.status} ${quoted.excerpt}`,
          ).toBe(true);
          expectSchema(quoted, 'Quote');
          const { vehicleCode: _v, ...window } = request;
          const shopped = await t.client('readOnly').post('/availability', window);
          expect(
            shopped.status === 200 || errorCodeOf(shopped) === 'NO_AVAILABILITY',
            `POST /availability: ${shopped.excerpt}`,
          ).toBe(true);
        },
        { numRuns: casesFor(t, 'severalRequests') },
      );
    },
  );

  // Spec 1.7 (quoted above)
  check('1.7')(
    {
      needs: ['readOnly'],
      representations: REPRESENTATIONS,
      profile: 'book',
      bookings: true,
      name: 'Integration credentials cannot book: 403 INSUFFICIENT_SCOPE',
    },
    async (t) => {
      const cat = await targetListings(t, 'readOnly');
      await t.forAll(
        quoteRequest(cat, { rate: 'public' }),
        async (request) => {
          const quoted = await t.client('readOnly').post('/quotes', request);
          expect(quoteAnswered(quoted), `POST /quotes: HTTP ${quoted.status} ${quoted.excerpt}`).toBe(true);
          const quote = quoted.body as Quote;
          // A refused booking creates nothing; the id is recorded anyway should the target accept it.
          const res = await sendReservationBody(t, 'readOnly', reservationBody(t, quote.quoteId, quote.vehicle));
          // Served without the scope in the grant: the endpoint's scope check (4.0.12) failed, not this clause.
          await requireUnscopedBookingRefused(t, 'readOnly', res);
          expectError(res, 'INSUFFICIENT_SCOPE');
        },
        { numRuns: casesFor(t, 'severalRequests') },
      );
    },
  );
});
