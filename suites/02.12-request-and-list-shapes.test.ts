/**
 * Spec 2.12 Request and list shapes: ReservationRequest, CancelRequest, AvailabilityRequest and QuoteRequest
 * (generated valid bodies accepted, one-fault variants refused), the availability response, and the four lists.
 */
import { describe, expect } from 'vitest';
import { LIMITS } from '../contract/limits.ts';
import type { AvailabilityResponse, CancelRequest, Reservation, ReservationList } from '../contract/types.ts';
import { availabilityRequest } from '../generators/index.ts';
import { type CheckContext, check } from '../harness/check/check.ts';
import { bodyOf, expectError, expectSchema } from '../harness/check/expect-api.ts';
import { claim } from '../harness/check/scope.ts';
import { expectBooked, requireGeneratedBooking, requireQuoteToBook, sendReservationBody } from './support/booking.ts';
import { forAvailability, forQuotes, isAvailabilityAnswer, sampleOf } from './support/generated.ts';
import { sharedListingRead, targetListings } from './support/listings.ts';
import { book, business, shop } from './support/presets.ts';
import { availabilityFaults, faultsOf, quoteFaults, reservationFaults, unmetFaults } from './support/request-faults.ts';
import { driverFor, freshReference, reservationBody } from './support/reservation-requests.ts';

/** GET of a listing: exactly the list key (an array) and count (an integer), count the number listed. */
async function listShape(
  t: CheckContext,
  path: '/fleet' | '/locations' | '/rates',
  key: 'vehicles' | 'locations' | 'rates',
  schema: 'FleetList' | 'LocationList' | 'RateList',
): Promise<void> {
  const res = await sharedListingRead(t, path);
  expect(res.status, res.excerpt).toBe(200);
  expectSchema(res, schema);
  const body = res.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['count', key].sort());
  expect(Array.isArray(body[key]), key).toBe(true);
  expect(Number.isInteger(body.count), 'count').toBe(true);
  expect(body.count, 'count (docs/ambiguities.md #34)').toBe((body[key] as unknown[]).length);
}

describe('2.12 Request and list shapes', () => {
  // Spec 2.12.1: "ReservationRequest (closed): quoteId (string, 8-4096, required); driver (Driver, required);
  // partnerReference (string, max 64, optional; unique per partner); remarks (string, max 1000); flightNumber (string,
  // max 20)."
  check('2.12.1')(
    { ...book, name: 'quoteId, partnerReference, remarks and flightNumber at their bounds are accepted' },
    async (t) => {
      const { quote } = await requireQuoteToBook(t);
      const reference = freshReference(t);
      const body = {
        quoteId: quote.quoteId,
        partnerReference: `${reference}${'X'.repeat(Math.max(0, LIMITS.partnerReferenceMaxLength - reference.length))}`,
        driver: driverFor(t, quote.vehicle),
        remarks: 'R'.repeat(LIMITS.remarksMaxLength),
        flightNumber: 'VN1234'.padEnd(LIMITS.flightNumberMaxLength, '0'),
      };
      const res = await sendReservationBody(t, 'partnerA', body);
      expect(expectBooked(res, 'a booking at the bounds').partnerReference).toBe(body.partnerReference);
    },
  );

  // partnerReference, remarks and flightNumber are optional: a request of the two required fields alone books.
  // Spec 2.12.1 (quoted above)
  check('2.12.1')({ ...book, name: 'quoteId and driver alone (no optional field) are accepted' }, async (t) => {
    const { quote } = await requireQuoteToBook(t);
    const body = { quoteId: quote.quoteId, driver: driverFor(t, quote.vehicle) };
    expectBooked(
      await sendReservationBody(t, 'partnerA', body),
      'a booking without partnerReference, remarks or flightNumber',
    );
  });

  // Spec 2.12.1 (quoted above)
  check('2.12.1')(
    { ...book, name: 'quoteId or driver missing, a field too long or of another type, an unknown property: 400' },
    async (t) => {
      for (const path of ['quoteId', 'partnerReference', 'remarks', 'flightNumber']) await reservationFaults(t, path);
      await reservationFaults(t, 'driver', ['missing-required']);
      await reservationFaults(t, '', ['unknown-property', 'type']);
    },
  );

  // Spec 2.12.1 (quoted above)
  check('2.12.1')(
    { ...book, name: 'partnerReference is unique per partner: reuse under a new key is 409' },
    async (t) => {
      const { quote } = await requireQuoteToBook(t);
      const body = reservationBody(t, quote.quoteId, quote.vehicle);
      expectBooked(await sendReservationBody(t, 'partnerA', body), 'the first booking of the reference');
      const again = await sendReservationBody(t, 'partnerA', { ...body, driver: driverFor(t, quote.vehicle, 1) });
      expectError(again, 'DUPLICATE_PARTNER_REFERENCE');
    },
  );

  // Spec 2.12.2: "CancelRequest (closed): reason (string, 1-500 chars, required)."
  check('2.12.2')({ ...book, name: 'A cancel reason of 1 to 500 characters is accepted' }, async (t) => {
    for (const reason of ['x', 'Đ'.repeat(LIMITS.cancelReasonLength.max)]) {
      const { reservation } = await requireGeneratedBooking(t, 'partnerA', { schema: true });
      const res = await t
        .client('partnerA')
        .post(`/reservations/${encodeURIComponent(reservation.reservationId)}/cancel`, {
          reason,
        } satisfies CancelRequest);
      expect(res.status, `reason of ${reason.length}: ${res.excerpt}`).toBe(200);
      expectSchema(res, 'Reservation');
    }
  });

  // Spec 2.12.2 (quoted above)
  check('2.12.2')(
    {
      ...book,
      name: 'A cancel without reason, with a reason of 0 or 501 characters or an unknown property: 400, unchanged',
    },
    async (t) => {
      const { reservation } = await requireGeneratedBooking(t, 'partnerA', { schema: true });
      const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
      const faults = faultsOf('CancelRequest', { reason: 'Traveller changed plans' }, () => true);
      const unmet = await unmetFaults(faults, (body) => t.client('partnerA').post(`${path}/cancel`, body));
      expect(unmet, 'CancelRequest faults not refused').toEqual([]);
      const read = await t.client('partnerA').get(path);
      expect(bodyOf<Reservation>(read, 'GET /reservations/{id}').status, 'the reservation after refused cancels').toBe(
        reservation.status,
      );
    },
  );

  // Spec 2.12.3: "AvailabilityRequest: RentalWindow fields plus extras (Extras) and vehicleCodes (array of VehicleCode,
  // max 50 items; omit for whole offerable fleet); closed."
  check('2.12.3')(
    {
      ...shop,
      name: 'Generated availability requests (extras, vehicleCodes) are accepted; offers keep to vehicleCodes',
    },
    async (t) => {
      await forAvailability(t, (request, response) => {
        if (!request.vehicleCodes) return;
        for (const offer of response.offers) {
          expect(request.vehicleCodes, 'an offer outside the requested vehicleCodes').toContain(
            offer.vehicle.vehicleCode,
          );
        }
      });
    },
  );

  // Spec 2.12.3 (quoted above)
  check('2.12.3')({ ...shop, name: '51 vehicleCodes, a bad code, or an unknown property: 400' }, async (t) => {
    await availabilityFaults(t, 'vehicleCodes', ['items', 'type', 'pattern']);
    await availabilityFaults(t, '', ['unknown-property']);
  });

  // Spec 2.12.4: "QuoteRequest: RentalWindow fields plus vehicleCode (VehicleCode, required) and extras; closed."
  check('2.12.4')({ ...shop, name: 'Generated quote requests (with or without extras) are accepted' }, async (t) => {
    // Accepted (forQuotes); whether the quote describes the vehicle asked for is 2.9.5's, filed there.
    await forQuotes(t, (request, quote) => {
      claim('2.9.5', quote.vehicle.vehicleCode === request.vehicleCode, 'the quoted vehicle is the requested one', {
        expected: request.vehicleCode,
        actual: quote.vehicle.vehicleCode,
      });
    });
  });

  // Spec 2.12.4 (quoted above)
  check('2.12.4')({ ...shop, name: 'vehicleCode missing or malformed, or an unknown property: 400' }, async (t) => {
    await quoteFaults(t, 'vehicleCode');
    await quoteFaults(t, '', ['unknown-property']);
  });

  // Spec 2.12.5: "AvailabilityResponse (all required): availabilityModel (constant `model_level_on_request`, restated
  // on every response), pickupLocation, dropoffLocation (LocationCode), pickupDateTime, dropoffDateTime (strings, local
  // date-time without offset), rentalDays (integer, min 1), accountCode (string or null), rateCode (string or null),
  // offers (array of AvailabilityOffer; empty array is a valid answer)."
  check('2.12.5')(
    { ...shop, name: 'Every availability response restates model_level_on_request and the window' },
    async (t) => {
      await forAvailability(t, (request, response) => {
        expect(response.availabilityModel).toBe('model_level_on_request');
        expect(response.pickupLocation).toBe(request.pickupLocation);
        expect(response.dropoffLocation).toBe(request.dropoffLocation);
        expect(Number.isInteger(response.rentalDays) && response.rentalDays >= 1, 'rentalDays >= 1').toBe(true);
        expect(response.accountCode).toBe(request.accountCode ?? null);
        expect(response.rateCode).toBe(request.rateCode ?? null);
        expect(Array.isArray(response.offers), 'offers').toBe(true);
      });
    },
  );

  // Spec 2.12.5 (quoted above)
  check('2.12.5')(
    { ...shop, name: 'An empty offer list is a valid answer (a vehicle filter matching nothing)' },
    async (t) => {
      const cat = await targetListings(t);
      const request = sampleOf(t, availabilityRequest(cat, { rate: 'public' }));
      const elsewhere = cat.vehicles.find((v) => !v.locationCodes.includes(request.pickupLocation));
      if (!elsewhere) return t.notApplicable('every vehicle is offered at every location');
      const res = await t
        .client('partnerA')
        .post('/availability', { ...request, vehicleCodes: [elsewhere.vehicleCode] });
      expect(isAvailabilityAnswer(res), `HTTP ${res.status} ${res.excerpt}`).toBe(true);
      if (res.status === 200) {
        expectSchema(res, 'AvailabilityResponse');
        expect((res.body as AvailabilityResponse).offers).toEqual([]);
        expect((res.body as AvailabilityResponse).availabilityModel).toBe('model_level_on_request');
      }
    },
  );

  // Spec 2.12.6a: "FleetList: vehicles (array), count (integer)."
  check('2.12.6a')(
    { ...business, name: 'GET /fleet: vehicles (array) and count (integer), count the number listed' },
    (t) => listShape(t, '/fleet', 'vehicles', 'FleetList'),
  );

  // Spec 2.12.6b: "LocationList: locations (array), count."
  check('2.12.6b')(
    { ...business, name: 'GET /locations: locations (array) and count (integer), count the number listed' },
    (t) => listShape(t, '/locations', 'locations', 'LocationList'),
  );

  // Spec 2.12.6c: "RateList: rates (array), count."
  check('2.12.6c')(
    { ...business, name: 'GET /rates: rates (array) and count (integer), count the number listed' },
    (t) => listShape(t, '/rates', 'rates', 'RateList'),
  );

  // Spec 2.12.6d: "ReservationList: reservations (array of Reservation), count, limit (integers)."
  check('2.12.6d')(
    { ...book, name: 'GET /reservations: reservations, count and limit (integers); default limit 25' },
    async (t) => {
      await requireGeneratedBooking(t, 'partnerA', { schema: true });
      for (const [query, limit] of [
        ['', LIMITS.reservationListLimit.default],
        ['?limit=1', 1],
        ['?limit=100', 100],
      ] as const) {
        const res = await t.client('partnerA').get(`/reservations${query}`);
        expect(res.status, res.excerpt).toBe(200);
        expectSchema(res, 'ReservationList');
        const list = res.body as ReservationList;
        expect(Object.keys(list).sort()).toEqual(['count', 'limit', 'reservations']);
        expect(list.limit, `limit of GET /reservations${query}`).toBe(limit);
        // "count (integer)": the page length or the partner's total, the spec does not say (#34).
        expect(Number.isInteger(list.count) && list.count >= list.reservations.length, 'count').toBe(true);
        expect(list.reservations.length).toBeGreaterThan(0);
        expect(list.reservations.length).toBeLessThanOrEqual(limit);
      }
    },
  );
});
