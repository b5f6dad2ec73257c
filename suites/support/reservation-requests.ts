/**
 * What a booking sends (spec 2.10, 2.12, 4.7): partnerReferences and Idempotency-Keys unique per attempt within
 * the run (references start with the run's bookingPrefix, so the end-of-run cleanup finds them), drivers, and
 * ReservationRequest bodies, plain or generated.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Driver, FleetVehicle, ReservationRequest } from '../../contract/types.ts';
import { daysBetween, driver, reservationRequest, yearsBefore } from '../../generators/index.ts';
import type { CheckContext } from '../../harness/check/check.ts';
import { sampleOf } from './generated.ts';

// ---------------------------------------------------------------------------------------------------------------
// References and keys

let attempts = 0;

/** The run's prefix, the check's seed (one per check title and representation) and a counter: unique in the run. */
function stem(t: CheckContext): string {
  attempts += 1;
  return `${t.settings.bookingPrefix}${(t.seed >>> 0).toString(36).toUpperCase()}-${attempts}`;
}

/** A partnerReference no other attempt of the run uses, starting with the run's bookingPrefix (docs/design.md). */
export function freshReference(t: CheckContext, tag = ''): string {
  const reference = `${stem(t)}${tag ? `-${tag}` : ''}`;
  if (reference.length > 64) throw new RangeError(`partnerReference over 64 characters: ${reference}`);
  return reference;
}

/**
 * An Idempotency-Key unique per attempt (spec 4.7): hex of a hash of a run-unique stem, `length` characters
 * (8 to 200). Derived from the run id, not random, so a check's requests repeat within a run's seed.
 */
export function freshKey(t: CheckContext, length = 40): string {
  let hex = '';
  const base = stem(t);
  for (let i = 0; hex.length < length; i++) {
    hex += createHash('sha256').update(`${base}/${i}`).digest('hex');
  }
  return hex.slice(0, length);
}

/** A generated key made unique for this attempt while keeping its length and most of its characters. */
export function uniquify(t: CheckContext, generatedKey: string): string {
  const unique = freshKey(t, Math.min(generatedKey.length, 16));
  return unique + generatedKey.slice(unique.length);
}

// ---------------------------------------------------------------------------------------------------------------
// Drivers

/**
 * The youngest generated driver: 19 on the run's anchor date, because that date lies ahead of the target's
 * clock (30 days by default) and the age is judged on the day of booking (docs/ambiguities.md #3).
 */
export const MIN_DRIVER_AGE = 19;

/** A plain adult driver (35 on the run's date). */
export function plainDriver(t: CheckContext): Driver {
  return {
    firstName: 'Lan',
    lastName: 'Nguyen',
    email: 'lan.nguyen@example.com',
    phone: '+84901234567',
    dateOfBirth: yearsBefore(t.settings.date, 35),
  };
}

/**
 * A generated driver well over 18 and over the vehicle's minimum age whatever day the target judges age on (#3):
 * drawn on the run's anchor date, with a year of margin for every year the anchor lies ahead of the local date
 * (a --date years ahead must not yield a driver under 18 today).
 */
export function driverFor(t: CheckContext, vehicle?: FleetVehicle, salt = 0): Driver {
  const ahead = Math.max(0, Math.ceil(daysBetween(new Date().toISOString().slice(0, 10), t.settings.date) / 365));
  const minAge = Math.max(21, (vehicle?.minDriverAge ?? 0) + 2) + ahead;
  return sampleOf(t, driver(t.settings.date, { minAge, maxAge: minAge + 50 }), salt);
}

// ---------------------------------------------------------------------------------------------------------------
// Bodies

/** A ReservationRequest for `quoteId`: the plain driver and a fresh partnerReference. */
export function plainRequest(t: CheckContext, quoteId: string, extra: Partial<ReservationRequest> = {}) {
  const request: ReservationRequest = {
    quoteId,
    driver: plainDriver(t),
    partnerReference: freshReference(t),
    ...extra,
  };
  return request;
}

/** A minimal valid ReservationRequest for a quote: a fresh partnerReference and a generated driver. */
export function reservationBody(t: CheckContext, quoteId: string, vehicle?: FleetVehicle): ReservationRequest {
  return { quoteId, partnerReference: freshReference(t), driver: driverFor(t, vehicle) };
}

/**
 * A generated ReservationRequest for the quote (drivers, remarks, flight numbers, references of spec 2.10 and
 * 2.12). Its partnerReference is only the generated suffix: pass the value through freshen() when the run
 * happens, so a shrink's re-run never repeats a reference.
 */
export function generatedRequest(
  t: CheckContext,
  quoteId: string,
  /** The quoted vehicle: its minDriverAge (spec 2.5) raises the youngest driver drawn, as driverFor does. */
  vehicle?: Pick<FleetVehicle, 'minDriverAge'>,
): fc.Arbitrary<ReservationRequest> {
  const minAge = Math.max(MIN_DRIVER_AGE, (vehicle?.minDriverAge ?? 0) + 2);
  return fc
    .tuple(
      reservationRequest(quoteId, t.settings.date, { partnerReferencePrefix: '', driver: { minAge } }),
      fc.boolean(),
    )
    .map(([request, padTo64]) => ({
      ...request,
      // '~' marks a reference to be padded to the 64-character limit by freshen().
      partnerReference: `${request.partnerReference ?? ''}${padTo64 ? '~' : ''}`,
    }));
}

/** The generated request with a run-unique partnerReference: the run's prefix, then the generated suffix. */
export function freshen(t: CheckContext, request: ReservationRequest): ReservationRequest {
  const generated = request.partnerReference ?? '';
  const pad = generated.endsWith('~');
  let reference = `${freshReference(t)}-${generated.replace(/~$/, '')}`.slice(0, 64);
  if (pad) reference = reference.padEnd(64, 'X');
  return { ...request, partnerReference: reference };
}
