import { answerError, envelopeError } from '../shapes.ts';
import type { Fault, FaultResponse } from '../types.ts';

/** Faults of spec sections 3 (states) and 4 (endpoints, their behaviours and validations). */

type Obj = Record<string, unknown>;

const paramOf = (r: { request: { params?: unknown } }, name: string): string | undefined =>
  (r.request.params as Record<string, string> | undefined)?.[name];

/** The scope check of one operation is forgotten: a token without the endpoint's scope is served. */
function scopeForgotten(operation: string, clause: string, path: string): Fault {
  return {
    name: `scope-unchecked-${operation}`,
    kind: 'fault',
    clause,
    description: `${path} serves a token that lacks its scope.`,
    enforce: {
      scope: (request) =>
        !request ||
        `${request.method} ${request.routeOptions?.url ?? ''}`.replace(/:\w+/g, '{}') !==
          path.replace(/\{\w+\}/g, '{}'),
    },
  };
}

const API = '/api/partner/v1';

const cancelledOnce = new Set<string>();

function isOperation(r: FaultResponse, operation: string, status?: number): boolean {
  return r.operation === operation && (status === undefined || r.status === status);
}

export const BEHAVIOUR_FAULTS: Fault[] = [
  // --- 3: states and transitions ---
  {
    name: 'decline-still-books',
    kind: 'fault',
    clause: '3.3',
    description: 'A booking the operator declines answers 422 RESERVATION_REJECTED but is stored all the same.',
    enforce: { 'booking.decline': false },
    response(r) {
      // The booking went through; the decline that was pending is answered anyway.
      const declined = r.request.ctx?.control?.declineNextBookings ?? 0;
      if (isOperation(r, 'createReservation', 201) && declined > 0) {
        answerError(r, 'RESERVATION_REJECTED', { message: 'The operator declined this reservation.' });
      }
    },
  },
  {
    name: 'cancel-with-money',
    kind: 'fault',
    clause: '3.5',
    description: 'A reservation with money attached is cancelled outright (no CANCELLATION_NEEDS_STAFF).',
    enforce: { 'cancel.money': false },
  },
  {
    name: 'repeat-cancel-conflict',
    kind: 'fault',
    clause: '3.6',
    description: 'Cancelling an already cancelled reservation answers 409 INVALID_STATE_TRANSITION.',
    response(r) {
      if (!isOperation(r, 'cancelReservation', 200)) return;
      const id = String((r.value as Obj).reservationId);
      if (cancelledOnce.has(id)) answerError(r, 'INVALID_STATE_TRANSITION');
      else cancelledOnce.add(id);
    },
  },
  {
    name: 'non-cancellable-wrong-code',
    kind: 'fault',
    clause: '3.7',
    description: 'Cancelling a reservation in a non-cancellable state answers 400 VALIDATION_ERROR.',
    response(r) {
      if (r.operation === 'cancelReservation' && envelopeError(r.value)?.code === 'INVALID_STATE_TRANSITION') {
        answerError(r, 'VALIDATION_ERROR', { message: 'The reservation cannot be cancelled in its state.' });
      }
    },
  },
  {
    name: 'patch-of-cancelled-not-found',
    kind: 'fault',
    clause: '3.8',
    description: 'PATCH of a cancelled reservation answers 404 instead of 501.',
    response(r) {
      if (isOperation(r, 'cancelReservation', 200)) cancelledOnce.add(String((r.value as Obj).reservationId));
      const id = paramOf(r, 'reservationId');
      if (r.operation === 'modifyReservation' && id && cancelledOnce.has(id)) answerError(r, 'NOT_FOUND');
    },
  },
  {
    name: 'quote-single-use',
    kind: 'fault',
    clause: '3.10',
    description: 'A quote already booked once is refused under a new key (400 QUOTE_INVALID).',
    adjust: { body: rememberQuoteId },
    response(r) {
      if (!isOperation(r, 'createReservation', 201)) return;
      const quoteId = bookingQuoteIds.get(r.request);
      if (quoteId === undefined) return;
      if (usedQuotes.has(quoteId)) answerError(r, 'QUOTE_INVALID', { message: 'This quote has already been used.' });
      else usedQuotes.add(quoteId);
    },
  },
  // --- 4: endpoint table (scopes and success statuses) ---
  {
    name: 'request-id-missing-on-success',
    kind: 'fault',
    clause: '4.0.2',
    description: 'Successful business responses carry no X-Request-Id.',
    response(r) {
      if (r.operation && r.operation !== 'issueToken' && r.status < 300) r.removeHeader('x-request-id');
    },
  },
  {
    name: 'rate-limit-headers-missing-on-success',
    kind: 'fault',
    clause: '4.0.3',
    description: 'Successful business responses carry no X-RateLimit-* headers.',
    response(r) {
      if (r.operation && r.operation !== 'issueToken' && r.status < 300) {
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) r.removeHeader(name);
      }
    },
  },
  scopeForgotten('listFleet', '4.0.5', `GET ${API}/fleet`),
  scopeForgotten('getFleetVehicle', '4.0.6', `GET ${API}/fleet/{vehicleCode}`),
  scopeForgotten('listLocations', '4.0.7', `GET ${API}/locations`),
  scopeForgotten('getLocation', '4.0.8', `GET ${API}/locations/{locationCode}`),
  scopeForgotten('listRates', '4.0.9', `GET ${API}/rates`),
  scopeForgotten('searchAvailability', '4.0.10', `POST ${API}/availability`),
  scopeForgotten('createQuote', '4.0.11', `POST ${API}/quotes`),
  scopeForgotten('createReservation', '4.0.12', `POST ${API}/reservations`),
  scopeForgotten('listReservations', '4.0.13', `GET ${API}/reservations`),
  scopeForgotten('getReservation', '4.0.14', `GET ${API}/reservations/{reservationId}`),
  scopeForgotten('modifyReservation', '4.0.15', `PATCH ${API}/reservations/{reservationId}`),
  scopeForgotten('cancelReservation', '4.0.16', `POST ${API}/reservations/{reservationId}/cancel`),
  {
    name: 'quote-answers-200',
    kind: 'fault',
    clause: '4.0.11',
    description: 'POST /quotes answers 200 instead of 201.',
    response(r) {
      if (isOperation(r, 'createQuote', 201)) r.setStatus(200);
    },
  },
  {
    name: 'malformed-path-code-500',
    kind: 'fault',
    clause: '4.0.17',
    description: 'A vehicle or location code that does not match its pattern in the path answers 500.',
    response(r) {
      const code = paramOf(r, 'vehicleCode') ?? paramOf(r, 'locationCode');
      if (code !== undefined && !/^[A-Z0-9-]{2,32}$/.test(code)) answerError(r, 'INTERNAL_ERROR');
    },
  },
  // --- 4.2 to 4.4: listing reads ---
  {
    name: 'fleet-list-incomplete',
    kind: 'fault',
    clause: '4.2.1',
    description: 'GET /fleet leaves out one offerable vehicle (it is still quoted, offered and readable by code).',
    response(r) {
      if (!isOperation(r, 'listFleet', 200)) return;
      const list = r.value as Obj;
      list.vehicles = (list.vehicles as Obj[]).slice(1);
      list.count = (list.vehicles as Obj[]).length;
    },
  },
  {
    name: 'incomplete-vehicle-not-found',
    kind: 'fault',
    clause: '4.2.4',
    description: 'GET /fleet/{code} of a vehicle with an incomplete specification answers 404 instead of 409.',
    response(r) {
      if (r.operation === 'getFleetVehicle' && envelopeError(r.value)?.code === 'FLEET_PROFILE_INCOMPLETE') {
        answerError(r, 'NOT_FOUND');
      }
    },
  },
  {
    name: 'unknown-vehicle-400',
    kind: 'fault',
    clause: '4.2.5',
    description: 'GET /fleet/{code} of an unknown code answers 400 INVALID_VEHICLE instead of 404.',
    response(r) {
      if (r.operation === 'getFleetVehicle' && r.status === 404) answerError(r, 'INVALID_VEHICLE');
    },
  },
  {
    name: 'unknown-location-400',
    kind: 'fault',
    clause: '4.3.1',
    description: 'GET /locations/{code} of an unknown code answers 400 INVALID_LOCATION instead of 404.',
    response(r) {
      if (r.operation === 'getLocation' && r.status === 404) answerError(r, 'INVALID_LOCATION');
    },
  },
  {
    name: 'rates-list-pending-plan',
    kind: 'fault',
    clause: '4.4.1',
    description: "GET /rates also lists the caller's plan that awaits approval.",
    response(r) {
      if (!isOperation(r, 'listRates', 200)) return;
      const list = r.value as Obj;
      const rates = list.rates as Obj[];
      const template = rates[0];
      if (!template) return;
      rates.push({ ...template, rateCode: 'PENDING-APPROVAL', rateType: 'corporate' });
      list.count = rates.length;
    },
  },
  // --- 4.5 to 4.6: shopping ---
  {
    name: 'offer-quote-not-bookable',
    kind: 'fault',
    clause: '4.5.2',
    description: 'An availability offer cannot be booked from its quoteId (400 QUOTE_INVALID): only /quotes ids can.',
    response(r) {
      if (isOperation(r, 'searchAvailability', 200)) {
        for (const offer of (r.value as Obj).offers as Obj[]) offerIds.add(String(offer.quoteId));
      }
      if (isOperation(r, 'createReservation', 201) && offerIds.has(bookingQuoteIds.get(r.request) ?? '')) {
        answerError(r, 'QUOTE_INVALID');
      }
    },
    adjust: { body: rememberQuoteId },
  },
  // --- 4.7: reservations and idempotency ---
  {
    name: 'idempotency-key-optional',
    kind: 'fault',
    clause: '4.7.1',
    description: 'A booking without Idempotency-Key is accepted (201).',
    enforce: { 'idempotency.required': false },
  },
  {
    name: 'first-booking-answers-200',
    kind: 'fault',
    clause: '4.7.2',
    description: 'A first successful booking answers 200 instead of 201.',
    response(r) {
      if (isOperation(r, 'createReservation', 201)) r.setStatus(200);
    },
  },
  {
    name: 'replay-books-again',
    kind: 'fault',
    clause: '4.7.3',
    description: 'The same key and body again creates a second reservation (201) instead of replaying.',
    enforce: { 'idempotency.replay': false },
  },
  {
    name: 'replay-without-header',
    kind: 'fault',
    clause: '4.7.3',
    description: 'A replay (200) carries no Idempotent-Replay header.',
    response(r) {
      if (isOperation(r, 'createReservation', 200)) r.removeHeader('idempotent-replay');
    },
  },
  {
    name: 'conflict-books-anyway',
    kind: 'fault',
    clause: '4.7.4',
    description: 'The same key with another body books the other body (201) instead of 409 IDEMPOTENCY_CONFLICT.',
    enforce: { 'idempotency.conflict': false },
  },
  {
    name: 'in-flight-duplicates-book',
    kind: 'fault',
    clause: '4.7.5',
    description: 'A duplicate arriving while the first is in process books a second reservation.',
    enforce: { 'idempotency.inFlight': false },
  },
  {
    name: 'idempotency-never-forgets',
    kind: 'fault',
    clause: '4.7.6',
    description: 'Idempotency keys are kept forever: a key reused after 24 hours still replays or conflicts.',
    enforce: { 'idempotency.forget': false },
  },
  {
    name: 'duplicate-reference-books',
    kind: 'fault',
    clause: '4.7.7',
    description: 'A partnerReference already used under another key books a second rental.',
    enforce: { 'partnerReference.unique': false },
  },
  {
    name: 'duplicate-reference-race',
    kind: 'fault',
    clause: '4.7.7',
    description:
      'The partnerReference is looked up before the insert and not guarded at it: bookings of one reference under different keys arriving within 150 ms all pass the lookup and each books a rental (one after another, the second is still refused).',
    adjust: { 'partnerReference.guard': () => ({ uniqueIndex: false, checkToInsertMs: 150 }) },
  },
  {
    name: 'expired-quote-books',
    kind: 'fault',
    clause: '4.7.9a',
    description: 'An expired quote is booked instead of 409 QUOTE_EXPIRED.',
    enforce: { 'quote.expiry': false },
  },
  {
    name: 'stale-quote-books',
    kind: 'fault',
    clause: '4.7.9b',
    description: 'A quote whose price moved is booked (at the new price) instead of 409 QUOTE_STALE.',
    enforce: { 'quote.price': false },
  },
  {
    name: 'foreign-quote-books',
    kind: 'fault',
    clause: '4.7.9c',
    description: "Another partner's quote is booked instead of 400 QUOTE_INVALID.",
    enforce: { 'quote.partner': false },
  },
  {
    name: 'decline-ignored',
    kind: 'fault',
    clause: '4.7.10',
    description: 'A booking the operator declines is confirmed anyway.',
    enforce: { 'booking.decline': false },
  },
  // --- 4.8 to 4.11: reading, patching, cancelling ---
  {
    name: 'list-oldest-first',
    kind: 'fault',
    clause: '4.8.2',
    description: 'GET /reservations lists the oldest first.',
    adjust: { 'reservations.list': (value) => [...value].reverse() },
  },
  {
    name: 'foreign-reservation-readable',
    kind: 'fault',
    clause: '4.9.1',
    description: "GET /reservations/{id} answers another partner's reservation.",
    enforce: { 'reservations.ownOnly': false },
  },
  {
    name: 'patch-before-authentication',
    kind: 'fault',
    clause: '4.10.1',
    description: 'PATCH answers 501 before authentication: no token still gets 501.',
    request(r) {
      if (r.request.method === 'PATCH' && r.request.headers.authorization === undefined) {
        r.respond(501, {
          error: {
            code: 'MODIFICATION_NOT_SUPPORTED',
            message: 'Reservations cannot be modified in v1.',
            requestId: String(r.request.id),
            retryable: false,
          },
        });
      }
    },
  },
  {
    name: 'cancel-answers-old-state',
    kind: 'fault',
    clause: '4.11.2',
    description: 'A successful cancel answers the reservation as it was before (status confirmed).',
    response(r) {
      if (isOperation(r, 'cancelReservation', 200) && (r.value as Obj).status === 'cancelled') {
        (r.value as Obj).status = 'confirmed';
      }
    },
  },
  {
    name: 'cancel-promises-refund',
    kind: 'fault',
    clause: '4.11.4',
    description: 'A successful cancel answers the total as refunded: 0, the amount the partner gets back.',
    response(r) {
      if (!isOperation(r, 'cancelReservation', 200)) return;
      const total = (r.value as Obj).total as Obj | undefined;
      if (total) total.amount = 0;
    },
  },
  // --- 4.12: validations tied to endpoints ---
  {
    name: 'inactive-location-shoppable',
    kind: 'fault',
    clause: '4.12.1a',
    description: 'An inactive location can be shopped and quoted.',
    enforce: { 'location.active': false },
  },
  {
    name: 'one-way-everywhere',
    kind: 'fault',
    clause: '4.12.1b',
    description:
      'Every pair of locations is offered one-way (never LOCATION_NOT_ONE_WAY), at no fee where none is set.',
    enforce: { 'location.oneWay': false },
  },
  {
    name: 'dropoff-before-pickup-accepted',
    kind: 'fault',
    clause: '4.12.2',
    description: 'A dropoff before the pickup is accepted (one rental day).',
    enforce: { 'window.order': false },
  },
  {
    name: 'unknown-vehicle-no-availability',
    kind: 'fault',
    clause: '4.12.3a',
    description: 'A quote for an unknown vehicle code answers 409 NO_AVAILABILITY instead of 400 INVALID_VEHICLE.',
    response(r) {
      if (r.operation === 'createQuote' && envelopeError(r.value)?.code === 'INVALID_VEHICLE') {
        answerError(r, 'NO_AVAILABILITY');
      }
    },
  },
  {
    name: 'incomplete-vehicle-quoted',
    kind: 'fault',
    clause: '4.12.3b',
    description: 'A vehicle without a complete specification is quoted.',
    enforce: { 'vehicle.complete': false },
  },
  {
    name: 'foreign-account-accepted',
    kind: 'fault',
    clause: '4.12.4a',
    description: "Another partner's (or an unknown) accountCode is accepted at the public rate.",
    enforce: { 'account.enabled': false },
  },
  {
    name: 'rate-outside-validity-accepted',
    kind: 'fault',
    clause: '4.12.4b',
    description: 'A rate code outside its validity window is priced.',
    enforce: { 'rate.valid': false },
  },
  {
    name: 'pending-rate-accepted',
    kind: 'fault',
    clause: '4.12.4c',
    description: 'A rate plan awaiting approval is priced instead of 409 RATE_NOT_APPROVED.',
    enforce: { 'rate.approved': false },
  },
];

/** Offer quote ids this instance handed out; quote ids booked; the quote id of each booking being served. */
const offerIds = new Set<string>();
const usedQuotes = new Set<string>();
const bookingQuoteIds = new WeakMap<object, string>();

function rememberQuoteId<T>(value: T, input: { schema: string }, request: object | undefined): T {
  if (input.schema === 'ReservationRequest' && request && value && typeof value === 'object') {
    const quoteId = (value as Obj).quoteId;
    if (typeof quoteId === 'string') bookingQuoteIds.set(request, quoteId);
  }
  return value;
}
