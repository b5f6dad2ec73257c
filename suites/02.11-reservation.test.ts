/**
 * Spec 2.11 Reservation: each field rule on a created reservation and on the same one read back, the total as
 * quoted (and kept after a price move), the commission by plan, and no customer data beyond names and email.
 */
import { describe, expect } from 'vitest';
import { SCHEMA_BUNDLE } from '../contract/schemas/index.ts';
import type { Reservation } from '../contract/types.ts';
import { RESERVATION_STATUSES } from '../contract/types.ts';
import { type CheckContext, check } from '../harness/check/check.ts';
import { bodyOf, expectSchema, listItems } from '../harness/check/expect-api.ts';
import {
  currentStatus,
  expectBooked,
  expectTotalAsQuoted,
  forSharedBookings,
  type QuotedBooking,
  requireCancel,
  requireGeneratedBooking,
  requireQuoteToBook,
  sendReservationBody,
} from './support/booking.ts';
import { targetListings, withPlans } from './support/listings.ts';
import { expectMoney, ISO_CURRENCIES, moneyValue } from './support/money.ts';
import { book } from './support/presets.ts';
import { driverFor, freshReference, plainRequest } from './support/reservation-requests.ts';

describe('2.11 Reservation', () => {
  const reservationKeys = SCHEMA_BUNDLE.$defs.Reservation.required;
  const stringOrNull = (value: unknown, what: string) =>
    expect(value === null || typeof value === 'string', `${what}: string or null`).toBe(true);

  /**
   * A property over the run's shared bookings at the public rate (booked once for every field rule): each
   * reservation judged as created and as read back.
   */
  function readTwice(t: CheckContext, rule: (b: QuotedBooking, r: Reservation) => void): Promise<void> {
    return forSharedBookings(t, (b, again) => {
      rule(b, b.reservation);
      expect(again.status, `GET the reservation: ${again.excerpt}`).toBe(200);
      expectSchema(again, 'Reservation');
      rule(b, again.body as Reservation);
    });
  }

  // Spec 2.11.1: "Required keys (all): reservationId, partnerReference, rocketBookingCode, status, vehicleCode,
  // pickupLocation, dropoffLocation, pickupDateTime, dropoffDateTime, rentalDays, currency, total, commission,
  // securityDeposit, driver, accountCode, rateCode, createdAt."
  check('2.11.1')({ ...book, name: 'A reservation has all eighteen keys and validates' }, (t) =>
    readTwice(t, (_b, r) => {
      for (const key of reservationKeys) expect(Object.hasOwn(r, key), `key ${key}`).toBe(true);
    }),
  );

  // Spec 2.11.2: "reservationId | string"
  check('2.11.2')({ ...book, name: 'reservationId is a non-empty string' }, (t) =>
    readTwice(t, (_b, r) => expect(r.reservationId).toMatch(/./)),
  );

  // Spec 2.11.3: "partnerReference | string or null"
  check('2.11.3')({ ...book, name: 'partnerReference is the one sent (string or null)' }, (t) =>
    readTwice(t, (b, r) => expect(r.partnerReference).toBe(b.body.partnerReference ?? null)),
  );

  // Spec 2.11.3 (quoted above)
  check('2.11.3')({ ...book, name: 'Booked without partnerReference, the reservation says null' }, async (t) => {
    const { quote } = await requireQuoteToBook(t);
    const { partnerReference: _omitted, ...body } = plainRequest(t, quote.quoteId);
    const res = await sendReservationBody(t, 'partnerA', body);
    // partnerReference is optional (2.12.1): a refusal is that clause's deviation, and this one cannot be judged;
    // a success answered with another status than 201 is 4.7.2's.
    const reservation = expectBooked(res, 'a booking without partnerReference', '2.12.1');
    expect(reservation.partnerReference, 'partnerReference of the 201').toBeNull();
    const read = await t.client('partnerA').get(`/reservations/${encodeURIComponent(reservation.reservationId)}`);
    expect((read.body as Reservation | undefined)?.partnerReference, 'partnerReference read back').toBeNull();
  });

  // Spec 2.11.4: "rocketBookingCode | string | the confirmation number the traveller quotes at the rental desk (field
  // name as given in the interface)"
  check('2.11.4')({ ...book, name: 'rocketBookingCode is a non-empty string' }, (t) =>
    readTwice(t, (_b, r) => expect(r.rocketBookingCode).toMatch(/\S/)),
  );

  // Spec 2.11.5: "status | string | pending, confirmed, in_progress, completed, cancelled, expired, rejected"
  check('2.11.5')({ ...book, name: 'status is one of the seven values, as created and read back' }, (t) =>
    readTwice(t, (_b, r) => {
      // The status a new reservation has is 1.3a's (judged there); this clause is the set of values.
      expect(RESERVATION_STATUSES).toContain(r.status);
    }),
  );

  // Spec 2.11.6: "vehicleCode, pickupLocation, dropoffLocation, pickupDateTime, dropoffDateTime | string or null"
  check('2.11.6')({ ...book, name: 'vehicleCode, locations and date-times are strings or null' }, (t) =>
    readTwice(t, (_b, r) => {
      for (const key of [
        'vehicleCode',
        'pickupLocation',
        'dropoffLocation',
        'pickupDateTime',
        'dropoffDateTime',
      ] as const) {
        stringOrNull(r[key], key);
      }
    }),
  );

  // Spec 2.11.7: "rentalDays | integer or null"
  check('2.11.7')({ ...book, name: 'rentalDays is an integer or null' }, (t) =>
    readTwice(t, (_b, r) =>
      expect(r.rentalDays === null || Number.isInteger(r.rentalDays), `rentalDays ${r.rentalDays}`).toBe(true),
    ),
  );

  // Spec 2.11.8: "currency | string | `^[A-Z]{3}$`"
  check('2.11.8')({ ...book, name: 'currency matches ^[A-Z]{3}$ (ISO 4217)' }, (t) =>
    readTwice(t, (_b, r) => {
      expect(r.currency).toMatch(/^[A-Z]{3}$/);
      expect(ISO_CURRENCIES.has(r.currency), `${r.currency} is an ISO 4217 code`).toBe(true);
    }),
  );

  // Spec 2.11.9a: "total | Money | billed to the partner"
  check('2.11.9a')({ ...book, name: 'total is Money' }, (t) => readTwice(t, (_b, r) => expectMoney(r.total, 'total')));

  // Spec 2.11.9c: "equals the quote booked from (may differ from the operator's internal gross under a net or markup
  // plan)"
  check('2.11.9c')({ ...book, name: 'total equals the total of the quote booked from' }, (t) =>
    readTwice(t, (b, r) => expectTotalAsQuoted(r, b.quote)),
  );

  // Spec 2.11.10: "commission | Money or null | null unless commissionable"
  check('2.11.10')({ ...book, name: 'commission is null at the public rate' }, (t) =>
    readTwice(t, (_b, r) => expect(r.commission, 'commission at the public rate').toBeNull()),
  );

  // Spec 2.11.11: "securityDeposit | Money"
  check('2.11.11')({ ...book, name: 'securityDeposit is Money' }, (t) =>
    readTwice(t, (_b, r) => expectMoney(r.securityDeposit, 'securityDeposit')),
  );

  // Spec 2.11.12: "driver | object | required firstName, lastName, email (each string or null); no other customer data
  // is returned"
  check('2.11.12')({ ...book, name: 'driver holds exactly firstName, lastName and email (strings or null)' }, (t) =>
    readTwice(t, (_b, r) => {
      expect(Object.keys(r.driver).sort()).toEqual(['email', 'firstName', 'lastName']);
      for (const value of Object.values(r.driver)) {
        expect(value === null || typeof value === 'string', 'driver field: string or null').toBe(true);
      }
    }),
  );

  // Spec 2.11.13: "accountCode, rateCode | string or null"
  check('2.11.13')({ ...book, name: 'accountCode and rateCode are strings or null (null at the public rate)' }, (t) =>
    readTwice(t, (_b, r) => {
      expect(r.accountCode).toBeNull();
      expect(r.rateCode).toBeNull();
    }),
  );

  // Spec 2.11.14: "createdAt | string"
  check('2.11.14')({ ...book, name: 'createdAt is a string' }, (t) =>
    readTwice(t, (_b, r) => expect(typeof r.createdAt, 'createdAt').toBe('string')),
  );

  // Spec 2.11.6 (quoted above)
  check('2.11.6')(
    { ...book, level: 'SHOULD', name: 'The reservation restates the booked vehicle and window' },
    async (t) => {
      const { reservation: r, quote } = await requireGeneratedBooking(t, 'partnerA', { schema: true });
      expect({
        vehicleCode: r.vehicleCode,
        pickupLocation: r.pickupLocation,
        dropoffLocation: r.dropoffLocation,
        pickupDateTime: r.pickupDateTime,
        dropoffDateTime: r.dropoffDateTime,
        rentalDays: r.rentalDays,
      }).toEqual({
        vehicleCode: quote.vehicle.vehicleCode,
        pickupLocation: quote.rental.pickupLocation,
        dropoffLocation: quote.rental.dropoffLocation,
        pickupDateTime: quote.rental.pickupDateTime,
        dropoffDateTime: quote.rental.dropoffDateTime,
        rentalDays: quote.rental.rentalDays,
      });
    },
  );

  // Spec 2.11.5 (quoted above)
  check('2.11.5')({ ...book, name: 'A cancelled reservation reads status cancelled' }, async (t) => {
    const { reservation } = await requireGeneratedBooking(t, 'partnerA', { schema: true });
    const id = reservation.reservationId;
    // The cancel's 200 is 3.4's, the state it answers 4.11.2's, reads that disagree 6.3's (filed there): this clause
    // is the value read, spelled `cancelled`.
    await requireCancel(t, 'partnerA', id, { reason: 'Certification: spec 2.11 status' });
    expect(await currentStatus(t, 'partnerA', id, 'cancelled'), 'status read after the cancel').toBe('cancelled');
  });

  // Spec 2.11.9b: "frozen at booking time"
  check('2.11.9b')(
    { ...book, hooks: ['prices.move'], name: 'A later price move leaves the reservation total as booked' },
    async (t) => {
      const control = t.hooks;
      const { reservation } = await requireGeneratedBooking(t, 'partnerA', { schema: true });
      const vehicle = reservation.vehicleCode ?? '';
      try {
        await control.movePrice(vehicle, 25);
        const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
        const read = await t.client('partnerA').get(path);
        expect(read.status, read.excerpt).toBe(200);
        expect(bodyOf<Reservation>(read, 'GET /reservations/{id}').total, 'total after a 25% price move').toEqual(
          reservation.total,
        );
        const list = await t.client('partnerA').get('/reservations?limit=100');
        const listed = listItems(list, 'ReservationList', 'GET /reservations').find(
          (r) => r.reservationId === reservation.reservationId,
        );
        if (listed) expect(listed.total, 'listed total after the price move').toEqual(reservation.total);
      } finally {
        await control.movePrice(vehicle, 0);
      }
    },
  );

  // Spec 2.11.9c (quoted above)
  check('2.11.9c')({ ...book, name: 'Booked under a plan, the total is the plan quote total' }, async (t) => {
    const cat = await targetListings(t);
    if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
    const { reservation, quote } = await requireGeneratedBooking(t, 'partnerA', {
      listings: cat,
      rate: 'plan',
      schema: true,
    });
    expectTotalAsQuoted(reservation, quote);
    expect(reservation.accountCode, 'accountCode (2.11.13)').toBe(quote.rate.accountCode);
    expect(reservation.rateCode, 'rateCode (2.11.13)').toBe(quote.rate.rateCode);
  });

  // Spec 2.11.10 (quoted above)
  check('2.11.10')({ ...book, name: 'Under a commissionable plan the commission is Money, as quoted' }, async (t) => {
    const cat = await targetListings(t);
    const commissionable = cat.rates.filter((p) => p.rateType === 'commissionable');
    if (commissionable.length === 0) t.notApplicable('the partner has no commissionable plan');
    const { reservation, quote } = await requireGeneratedBooking(t, 'partnerA', {
      listings: withPlans(cat, commissionable),
      rate: 'plan',
      schema: true,
    });
    expect(reservation.commission, 'commission under a commissionable plan').not.toBeNull();
    expectMoney(reservation.commission, 'commission');
    // By value, display apart (spec 2.1: display is for humans only).
    expect(moneyValue(reservation.commission), 'commission as quoted').toEqual(moneyValue(quote.charges.commission));
  });

  // Spec 2.11.10 (quoted above)
  check('2.11.10')({ ...book, name: 'Under a plan that is not commissionable the commission is null' }, async (t) => {
    const cat = await targetListings(t);
    const others = cat.rates.filter((p) => p.rateType !== 'commissionable');
    if (others.length === 0) t.notApplicable('the partner has no plan that is not commissionable');
    const { reservation } = await requireGeneratedBooking(t, 'partnerA', {
      listings: withPlans(cat, others),
      rate: 'plan',
      schema: true,
    });
    expect(reservation.commission).toBeNull();
  });

  // Spec 2.11.12 (quoted above)
  check('2.11.12')({ ...book, level: 'SHOULD', name: 'The driver names and email are returned as sent' }, async (t) => {
    const { reservation, body } = await requireGeneratedBooking(t, 'partnerA', { schema: true });
    expect(reservation.driver).toEqual({
      firstName: body.driver.firstName,
      lastName: body.driver.lastName,
      email: body.driver.email,
    });
  });

  // Spec 2.11.12 (quoted above)
  check('2.11.12')(
    { ...book, name: 'No other customer data (phone, date of birth, id number) is returned' },
    async (t) => {
      const { quote } = await requireQuoteToBook(t);
      const driver = { ...driverFor(t, quote.vehicle), idNumber: `ID${(t.seed >>> 0).toString(10).padStart(10, '7')}` };
      const created = await sendReservationBody(t, 'partnerA', {
        quoteId: quote.quoteId,
        partnerReference: freshReference(t),
        driver,
      });
      const id = expectBooked(created, 'a booking with an idNumber').reservationId;
      const read = await t.client('partnerA').get(`/reservations/${encodeURIComponent(id)}`);
      const list = await t.client('partnerA').get('/reservations?limit=100');
      for (const [what, res] of [
        ['POST /reservations', created],
        ['GET /reservations/{id}', read],
        ['GET /reservations', list],
      ] as const) {
        for (const [field, value] of [
          ['phone', driver.phone],
          ['dateOfBirth', driver.dateOfBirth],
          ['idNumber', driver.idNumber],
        ] as const) {
          expect(res.text.includes(value), `${what} returns driver.${field}`).toBe(false);
        }
      }
    },
  );
});
