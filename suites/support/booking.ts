/**
 * Booking helpers of the reservation suites (spec 3, 4.7 to 4.11): a quote, then a reservation whose
 * partnerReference starts with the run's bookingPrefix and that is recorded for the end-of-run cleanup
 * (design.md, profile `book`). Idempotency keys and references are unique per attempt within the run.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type {
  Driver,
  Money,
  Quote,
  QuoteRequest,
  RatePlan,
  Reservation,
  ReservationList,
  ReservationRequest,
} from '../../contract/types.ts';
import { reservationRequest, type TargetCatalogue, yearsBefore } from '../../generators/index.ts';
import type { ApiResult, CallOptions, CheckContext } from '../../harness/check/check.ts';
import { errorCodeOf, requireSuccess } from '../../harness/check/expect-api.ts';
import { requireStep } from '../../harness/check/scope.ts';
import type { Role } from '../../harness/config/target-config.ts';
import { fleetOf, locationsOf } from './catalogue.ts';
import { addDays, shoppingDate } from './shopping.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAY_HEADER = 'idempotent-replay';

let attempts = 0;

/** The run's prefix, the check's seed (one per check title and representation) and a counter: unique in the run. */
function stem(t: CheckContext): string {
  attempts += 1;
  return `${t.settings.bookingPrefix}${(t.seed >>> 0).toString(36).toUpperCase()}-${attempts}`;
}

/** A partnerReference no other attempt of the run uses, starting with the run's bookingPrefix. */
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

/** What the target exposes to the role (GET /locations, /fleet, /rates), for the generators. */
export async function targetCatalogue(t: CheckContext, role: Role): Promise<TargetCatalogue> {
  const res = await t.client(role).get('/rates', { representation: 'json' });
  const rates = (requireSuccess(res, 200, '4.0.9', 'GET /rates') as { rates?: RatePlan[] }).rates;
  return {
    locations: (await locationsOf(t, role)).locations,
    vehicles: (await fleetOf(t, role)).vehicles,
    rates: Array.isArray(rates) ? rates : [],
    today: t.settings.date,
  };
}

const plainWindows = new Map<string, { vehicleCode: string; locationCode: string }>();

/**
 * A QuoteRequest at the public rate: a vehicle offered at a round-trip location, from shoppingDate() for 3 days,
 * 10:00 to 10:00. The vehicle and location are read from the target once per role.
 */
export async function plainQuoteRequest(
  t: CheckContext,
  role: Role,
  options: { days?: number; pickupDate?: string } = {},
): Promise<QuoteRequest> {
  const cacheKey = `${t.settings.target.baseUrl}|${role}`;
  let pick = plainWindows.get(cacheKey);
  if (!pick) {
    const locations = (await locationsOf(t, role)).locations.filter(
      (l) => l.capabilities?.pickup && l.capabilities?.dropoff,
    );
    const vehicles = (await fleetOf(t, role)).vehicles.filter((v) => v.sippCode !== null);
    for (const vehicle of vehicles) {
      const location = locations.find((l) => vehicle.locationCodes.includes(l.locationCode));
      if (location) {
        pick = { vehicleCode: vehicle.vehicleCode, locationCode: location.locationCode };
        break;
      }
    }
    if (!pick) return t.notApplicable('no listed vehicle is offered at a location allowing pickup and dropoff');
    plainWindows.set(cacheKey, pick);
  }
  const pickupDate = options.pickupDate ?? shoppingDate(t);
  return {
    pickupLocation: pick.locationCode,
    dropoffLocation: pick.locationCode,
    pickupDate,
    pickupTime: '10:00',
    dropoffDate: addDays(pickupDate, options.days ?? 3),
    dropoffTime: '10:00',
    vehicleCode: pick.vehicleCode,
  };
}

/** POST /quotes (spec 4.6); a check that gets no quote is blocked by 4.0.11 (or 2.9.2 without a quoteId). */
export async function quote(t: CheckContext, role: Role, request?: QuoteRequest): Promise<Quote> {
  const body = request ?? (await plainQuoteRequest(t, role));
  const res = await t.client(role).post('/quotes', body);
  const q = requireSuccess(res, 201, '4.0.11', 'POST /quotes for the booking') as Quote;
  requireStep('2.9.2', typeof q?.quoteId === 'string', 'the quote carries a quoteId string', { actual: q?.quoteId });
  return q;
}

export interface BookOptions {
  /** The whole body (its partnerReference is kept as given: the caller made it unique). */
  body?: ReservationRequest;
  /** The key; null sends no Idempotency-Key header. Default: a fresh key. */
  key?: string | null;
  /** Extra call options (scopes, token, headers). */
  call?: CallOptions;
}

export interface Attempt {
  res: ApiResult;
  body: ReservationRequest;
  key: string | null;
}

/** A ReservationRequest for `quoteId`: a plain driver and a fresh partnerReference. */
export function plainRequest(t: CheckContext, quoteId: string, extra: Partial<ReservationRequest> = {}) {
  const request: ReservationRequest = {
    quoteId,
    driver: plainDriver(t),
    partnerReference: freshReference(t),
    ...extra,
  };
  return request;
}

/** Records a created reservation (201 or a replay's 200) for the end-of-run cleanup. */
export function recordIfCreated(t: CheckContext, res: ApiResult): void {
  const id = (res.body as { reservationId?: unknown } | undefined)?.reservationId;
  if ((res.status === 201 || res.status === 200) && typeof id === 'string') t.recordReservation(id);
}

/** POST /reservations (spec 4.7) as given; whatever is created is recorded. */
export async function attemptBooking(
  t: CheckContext,
  role: Role,
  quoteId: string,
  options: BookOptions = {},
): Promise<Attempt> {
  // A body given as null (a schema fault) is sent as null, not replaced.
  const body = options.body !== undefined ? options.body : plainRequest(t, quoteId);
  const key = options.key === undefined ? freshKey(t) : options.key;
  const headers = { ...(options.call?.headers ?? {}) };
  if (key !== null) headers[IDEMPOTENCY_HEADER] = key;
  const res = await t.client(role).post('/reservations', body, { ...options.call, headers });
  recordIfCreated(t, res);
  return { res, body, key };
}

export interface Booked extends Attempt {
  reservation: Reservation;
  key: string;
}

/** A booking the check needs: 201 with a reservation, or the check is blocked by 4.7.2 (or 2.11.2). */
export async function book(t: CheckContext, role: Role, quoteId: string, options: BookOptions = {}): Promise<Booked> {
  const attempt = await attemptBooking(t, role, quoteId, options);
  const reservation = requireSuccess(attempt.res, 201, '4.7.2', 'POST /reservations (a first booking)') as Reservation;
  requireStep('2.11.2', typeof reservation?.reservationId === 'string', 'the reservation carries a reservationId', {
    actual: reservation?.reservationId,
  });
  return { ...attempt, key: attempt.key ?? '', reservation };
}

/** A quote at the public rate, then a booking of it that must succeed. */
export async function quoteAndBook(t: CheckContext, role: Role, options: BookOptions = {}): Promise<Booked> {
  const q = await quote(t, role);
  return book(t, role, q.quoteId, options);
}

/** The role's newest reservations (GET /reservations?limit=100, JSON); blocked by 4.0.13 unless 200. */
export async function listReservations(t: CheckContext, role: Role, limit = 100): Promise<Reservation[]> {
  const res = await t.client(role).get(`/reservations?limit=${limit}`, { representation: 'json' });
  const list = requireSuccess(res, 200, '4.0.13', 'GET /reservations') as ReservationList;
  requireStep('2.12.6d', Array.isArray(list?.reservations), 'the list carries a reservations array');
  return list.reservations;
}

/** The role's reservations carrying this partnerReference (among its newest 100). */
export async function withReference(t: CheckContext, role: Role, reference: string): Promise<Reservation[]> {
  return (await listReservations(t, role)).filter((r) => r.partnerReference === reference);
}

/** GET /reservations/{id} in JSON; blocked by 4.0.14 unless 200. */
export async function readReservation(t: CheckContext, role: Role, id: string): Promise<Reservation> {
  const res = await t.client(role).get(`/reservations/${encodeURIComponent(id)}`, { representation: 'json' });
  return requireSuccess(res, 200, '4.0.14', `GET /reservations/${id}`) as Reservation;
}

export function cancelPath(id: string): string {
  return `/reservations/${encodeURIComponent(id)}/cancel`;
}

/** POST …/cancel with a plain reason, in the check's representation. */
export function cancel(t: CheckContext, role: Role, id: string, reason = 'Traveller changed plans') {
  return t.client(role).post(cancelPath(id), { reason });
}

/** The same Money: currency, amount and exponent (display is for humans only, spec 2.1). */
export function sameMoney(actual: Money | null | undefined, expected: Money | null | undefined): boolean {
  if (actual === null || actual === undefined || expected === null || expected === undefined) {
    return actual === expected || (actual == null && expected == null);
  }
  return (
    actual.currency === expected.currency && actual.amount === expected.amount && actual.exponent === expected.exponent
  );
}

/**
 * Another string of the same length and alphabet: one character in the middle (or the nearest alphanumeric one)
 * moved to the next of its class (a digit, a-f / A-F kept hexadecimal, other letters in their case). A tampered
 * quote id, or an id that does not exist, shaped like a real one.
 */
export function alterMiddle(s: string): string {
  const middle = Math.floor(s.length / 2);
  for (let d = 0; d < s.length; d++) {
    for (const i of [middle + d, middle - d]) {
      const c = s[i];
      if (c === undefined) continue;
      const next = nextOfClass(c);
      if (next !== undefined) return s.slice(0, i) + next + s.slice(i + 1);
    }
  }
  return `${s}0`;
}

function nextOfClass(c: string): string | undefined {
  const rotate = (first: string, size: number) =>
    String.fromCharCode(first.charCodeAt(0) + ((c.charCodeAt(0) - first.charCodeAt(0) + 1) % size));
  if (c >= '0' && c <= '9') return rotate('0', 10);
  if (c >= 'a' && c <= 'f') return rotate('a', 6);
  if (c >= 'A' && c <= 'F') return rotate('A', 6);
  if (c >= 'a' && c <= 'z') return rotate('a', 26);
  if (c >= 'A' && c <= 'Z') return rotate('A', 26);
  return undefined;
}

/** The error object of an envelope without its requestId, with `id` replaced (a message may name the id). */
export function errorWithoutRequestId(res: ApiResult, id: string): unknown {
  const error = (res.body as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error) return undefined;
  const { requestId: _requestId, ...rest } = error;
  return JSON.parse(JSON.stringify(rest).split(id).join('<id>'));
}

/**
 * A generated ReservationRequest for the quote (drivers, remarks, flight numbers, references of spec 2.10 and
 * 2.12). Its partnerReference is only the generated suffix: pass the value through freshen() when the run
 * happens, so a shrink's re-run never repeats a reference.
 */
export function generatedRequest(t: CheckContext, quoteId: string): fc.Arbitrary<ReservationRequest> {
  return fc
    .tuple(
      reservationRequest(quoteId, t.settings.date, { partnerReferencePrefix: '', driver: { minAge: MIN_DRIVER_AGE } }),
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

/** `error.code` or the status: how race answers are counted. */
export function outcomeOf(res: ApiResult): string {
  const code = errorCodeOf(res);
  if (code) return `${res.status} ${code}`;
  if (res.status === 200 && res.headers[REPLAY_HEADER] === 'true') return '200 replay';
  return String(res.status);
}
