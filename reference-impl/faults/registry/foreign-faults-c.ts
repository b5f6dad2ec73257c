import type { FastifyRequest } from 'fastify';
import { isAdultOn } from '../../domain/reservations.ts';
import { answerError, envelopeError } from '../shapes.ts';
import type { Fault } from '../types.ts';
import { listReplicaLag } from './benign-foreign-e.ts';
import { BEHAVIOUR_FAULTS } from './s03-s04-behaviour.ts';

/**
 * Faults the 2026-11-29 clause audit found the suite let pass (its L rows, third set): each breaks one clause, and the
 * suite at that audit passed a server with it.
 */

/** The driver's dateOfBirth of the reservation request being served (driver-minimum-age-17). */
const birthDates = new WeakMap<FastifyRequest, string>();

/** The date `dateOfBirth` moved one year earlier: a driver of 17 is 18 by it (February 29 becomes March 1). */
function oneYearEarlier(dateOfBirth: string): string {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y - 1, m - 1, d)).toISOString().slice(0, 10);
}

/**
 * decline-still-books behind a list that lags its writes by a second (benign-list-replica-lag): the rental stored
 * for a declined booking is not listed yet when a check reads the list at once, so only a check that gives the
 * list the time it was seen to lag finds it (audit 6-R2, the loophole half).
 */
function declineStillBooksLaggingList(): Fault {
  const decline = BEHAVIOUR_FAULTS.find((f) => f.name === 'decline-still-books');
  const lag = listReplicaLag();
  if (!decline?.response || !lag.response) throw new Error('decline-still-books and the list lag answer responses');
  const [declined, lagged] = [decline.response, lag.response];
  return {
    ...decline,
    name: 'decline-still-books-lagging-list',
    description: `${decline.description} The reservation list is served a second behind (benign-list-replica-lag).`,
    adjust: lag.adjust,
    response(r) {
      lagged(r);
      declined(r);
    },
  };
}

/** allotment-refused-at-quote: cars per vehicle, location and window, and how long each is away after a booking. */
const QUOTE_ALLOTMENT = 10;
const QUOTE_ALLOTMENT_MS = 5_000;
const quoteAllotted = new Map<string, number[]>();
const allotmentKey = (vehicle: unknown, location: unknown, pickup: unknown, dropoff: unknown) =>
  JSON.stringify([vehicle, location, pickup, dropoff]);

/** The bookings of `key` whose car is still away. */
function away(key: string, now: number): number[] {
  return (quoteAllotted.get(key) ?? []).filter((at) => now - at < QUOTE_ALLOTMENT_MS);
}

/** The one X-Request-Id of constant-request-id. */
const CONSTANT_REQUEST_ID = 'req-0000000000000000';

export const FOREIGN_FAULTS_C: Fault[] = [
  {
    name: 'allotment-refused-at-quote',
    kind: 'fault',
    clause: '1.1a',
    description: `A vehicle class has ${QUOTE_ALLOTMENT} cars per location and window, each away for ${QUOTE_ALLOTMENT_MS / 1000} s after a booking; while none is left, POST /quotes of that vehicle and window answers 409 NO_AVAILABILITY and availability leaves the class out (the allotment kept where most servers keep one, at the quote; bookings of quotes issued before are not refused).`,
    response(r) {
      const now = Date.now();
      const value = r.value as Record<string, unknown> | undefined;
      if (r.operation === 'createReservation' && r.status === 201 && value) {
        const key = allotmentKey(value.vehicleCode, value.pickupLocation, value.pickupDateTime, value.dropoffDateTime);
        quoteAllotted.set(key, [...away(key, now), now]);
      }
      if (r.operation === 'createQuote' && r.status === 201 && value) {
        const vehicle = value.vehicle as Record<string, unknown> | undefined;
        const rental = value.rental as Record<string, unknown> | undefined;
        const key = allotmentKey(
          vehicle?.vehicleCode,
          rental?.pickupLocation,
          rental?.pickupDateTime,
          rental?.dropoffDateTime,
        );
        if (away(key, now).length >= QUOTE_ALLOTMENT) answerError(r, 'NO_AVAILABILITY');
      }
      if (r.operation === 'searchAvailability' && r.status === 200 && value && Array.isArray(value.offers)) {
        value.offers = value.offers.filter((offer: Record<string, unknown>) => {
          const vehicle = offer.vehicle as Record<string, unknown> | undefined;
          const key = allotmentKey(
            vehicle?.vehicleCode,
            value.pickupLocation,
            value.pickupDateTime,
            value.dropoffDateTime,
          );
          return away(key, now).length < QUOTE_ALLOTMENT;
        });
      }
    },
  },
  declineStillBooksLaggingList(),
  {
    name: 'driver-minimum-age-17',
    kind: 'fault',
    clause: '2.10.7',
    description: 'A driver of 17 is booked: the server enforces 17 or over instead of 18 (a 16-year-old is refused).',
    adjust: {
      body: (value, input, request) => {
        if (input.schema === 'ReservationRequest' && request && value && typeof value === 'object') {
          const driver = (value as Record<string, unknown>).driver;
          const dob =
            driver && typeof driver === 'object' ? (driver as Record<string, unknown>).dateOfBirth : undefined;
          if (typeof dob === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(dob)) birthDates.set(request, dob);
        }
        return value;
      },
    },
    enforce: {
      // Consulted only for a driver under 18: the rule holds unless the driver is 17 (18 if born a year earlier).
      'driver.adult': (request) => {
        const dob = request ? birthDates.get(request) : undefined;
        const today = new Date().toISOString().slice(0, 10);
        return dob === undefined || !isAdultOn(oneYearEarlier(dob), today);
      },
    },
  },
  {
    name: 'constant-request-id',
    kind: 'fault',
    clause: '4.0.2',
    description:
      'Every response carries the same X-Request-Id (and error.requestId equal to it): the header names no request.',
    response(r) {
      r.setHeader('x-request-id', CONSTANT_REQUEST_ID);
      const error = envelopeError(r.value);
      if (error) error.requestId = CONSTANT_REQUEST_ID;
    },
  },
];
