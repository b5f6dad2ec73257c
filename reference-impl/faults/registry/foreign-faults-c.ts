import type { FastifyRequest } from 'fastify';
import { isAdultOn } from '../../domain/reservations.ts';
import { envelopeError } from '../shapes.ts';
import type { Fault } from '../types.ts';

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

/** The one X-Request-Id of constant-request-id. */
const CONSTANT_REQUEST_ID = 'req-0000000000000000';

export const FOREIGN_FAULTS_C: Fault[] = [
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
