/**
 * The business endpoints that take a body (spec 4.13: "business calls with a body"): POST /availability, /quotes,
 * /reservations and /reservations/{id}/cancel. PATCH /reservations/{id} is not one: 4.10 defines no body and
 * answers 501 whatever is sent (docs/ambiguities.md "OpenAPI: a PATCH body"). Each gets a valid body to break one
 * way (Content-Type, JSON text, Accept) and the judges of what comes back. On /reservations and /cancel only
 * requests the target must refuse before acting are meant to be sent, with a valid Idempotency-Key and a
 * reservation the check booked itself (the spec does not order media-type checks before the resource lookup).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { cancelRequest, type Rejection } from '../../generators/index.ts';
import {
  type ApiResult,
  type CheckContext,
  type CheckOptions,
  check,
  type DeclareCheck,
} from '../../harness/check/check.ts';
import { errorCodeOf, expectError, expectSchema } from '../../harness/check/expect-api.ts';
import { ACCEPT_OF } from '../../harness/http/partner-client.ts';
import type { Representation } from '../../harness/http/representation.ts';
import { bearer } from './auth.ts';
import {
  cancelPath,
  IDEMPOTENCY_HEADER,
  recordIfCreated,
  requireGeneratedBooking,
  requireQuoteToBook,
} from './booking.ts';
import { quoteWindow, shoppingWindow } from './draws.ts';
import { availabilityAnswered, quoteAnswered } from './endpoint-success.ts';
import { freshKey, reservationBody } from './reservation-requests.ts';

export type BodyEndpoint = 'availability' | 'quotes' | 'reservations' | 'cancel';

export const BODY_ENDPOINTS: readonly BodyEndpoint[] = ['availability', 'quotes', 'reservations', 'cancel'];

/** The shopping endpoints: a request they accept changes nothing, so accepted variants are sent there only. */
export const SHOPPING_ENDPOINTS: readonly BodyEndpoint[] = ['availability', 'quotes'];

export const LABEL: Record<BodyEndpoint, string> = {
  availability: 'POST /availability',
  quotes: 'POST /quotes',
  reservations: 'POST /reservations',
  cancel: 'POST /reservations/{id}/cancel',
};

/** Declares a check of each endpoint's request shape (spec 2.12), for the suites that loop over the endpoints. */
export const REQUEST_CHECK: Record<BodyEndpoint, DeclareCheck> = {
  // Spec 2.12.3: "AvailabilityRequest: RentalWindow fields plus extras (Extras) and vehicleCodes (array of VehicleCode,
  // max 50 items; omit for whole offerable fleet); closed."
  availability: check('2.12.3'),
  // Spec 2.12.4: "QuoteRequest: RentalWindow fields plus vehicleCode (VehicleCode, required) and extras; closed."
  quotes: check('2.12.4'),
  // Spec 2.12.1: "ReservationRequest (closed): quoteId (string, 8-4096, required); driver (Driver, required);
  // partnerReference (string, max 64, optional; unique per partner); remarks (string, max 1000); flightNumber (string,
  // max 20)."
  reservations: check('2.12.1'),
  // Spec 2.12.2: "CancelRequest (closed): reason (string, 1-500 chars, required)."
  cancel: check('2.12.2'),
};

/** Check options an endpoint needs beyond partner A: booking endpoints book (the cancel one to have something). */
export function endpointOptions(endpoint: BodyEndpoint): Pick<CheckOptions, 'profile' | 'bookings'> {
  // POSTs of the shopping endpoints need profile shop even under a clause any profile may judge (4.13.1).
  return endpoint === 'reservations' || endpoint === 'cancel'
    ? { profile: 'book', bookings: true }
    : { profile: 'shop' };
}

export interface BodyTarget {
  endpoint: BodyEndpoint;
  path: string;
  /** Valid request bodies for the path. */
  valid: fc.Arbitrary<object>;
  /** Sends exactly these bytes with this Content-Type (null: none) and Accept (null: none), as partner A. */
  send(bytes: Uint8Array, contentType: string | null, accept: string | null): Promise<ApiResult>;
}

/** The endpoint with a valid body: a quote to book from, or a reservation of the check's own to cancel. */
export async function bodyTarget(t: CheckContext, endpoint: BodyEndpoint): Promise<BodyTarget> {
  let path: string;
  let valid: fc.Arbitrary<object>;
  const headers = (): Record<string, string> => {
    const extra: Record<string, string> = {};
    if (endpoint === 'reservations') extra[IDEMPOTENCY_HEADER] = freshKey(t);
    return extra;
  };
  switch (endpoint) {
    case 'availability':
      path = '/availability';
      valid = await shoppingWindow(t, 'partnerA');
      break;
    case 'quotes':
      path = '/quotes';
      valid = await quoteWindow(t, 'partnerA');
      break;
    case 'reservations': {
      const { quote } = await requireQuoteToBook(t);
      path = '/reservations';
      // One body for every case: a wrongly accepted case books it once, and later ones would be duplicates.
      valid = fc.constant(reservationBody(t, quote.quoteId, quote.vehicle));
      break;
    }
    case 'cancel': {
      const { reservation } = await requireGeneratedBooking(t, 'partnerA');
      path = cancelPath(reservation.reservationId);
      valid = cancelRequest();
      break;
    }
  }
  const client = t.client('partnerA');
  return {
    endpoint,
    path,
    valid,
    async send(bytes, contentType, accept) {
      const all: Record<string, string> = { ...bearer(await client.token()), ...headers() };
      if (contentType !== null) all['content-type'] = contentType;
      if (accept !== null) all.accept = accept;
      const res = await client.raw({ method: 'POST', path, headers: all, body: bytes });
      if (endpoint === 'reservations') recordIfCreated(t, res);
      return res;
    },
  };
}

/** The Accept header of the check's representation. */
export function acceptOf(representation: Representation): string {
  return ACCEPT_OF[representation];
}

/** A refusal as one of the case's answers, in a 7.2 envelope of `representation` (a 406 is always JSON). */
export function expectRefusal(res: ApiResult, expectation: Rejection, representation: Representation): void {
  const codes = expectation.reject.flatMap((answer) => answer.codes);
  const otherCodes = expectation.reject.some((answer) => answer.otherCodes === true);
  expectError(res, codes, { representation, otherCodes });
}

/**
 * A shopping request answered as a valid one is (200 offers or 201 quote, or 409 NO_AVAILABILITY when nothing is
 * offerable), with a response media type among `mediaTypes` when given.
 */
export function expectAnswered(res: ApiResult, endpoint: BodyEndpoint, mediaTypes?: readonly string[]): void {
  // The exact 2xx is the endpoint row's (4.0.10, 4.0.11), filed there: this check judges that the body was read.
  const ok = endpoint === 'availability' ? availabilityAnswered(res) : quoteAnswered(res);
  const answered = ok || (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY');
  expect(answered, `answered as a valid request: HTTP ${res.status} ${res.excerpt}`).toBe(true);
  if (mediaTypes) expect(mediaTypes, 'response Content-Type').toContain(res.mediaType);
  if (ok) expectSchema(res, endpoint === 'availability' ? 'AvailabilityResponse' : 'Quote');
}

/** The cases a check draws: those `keep` selects, for each valid body (a property over both). */
export function casesOf<C>(
  valid: fc.Arbitrary<object>,
  cases: (value: object) => readonly C[],
  keep: (c: C) => boolean,
): fc.Arbitrary<C> {
  return valid.chain((value) => {
    const kept = cases(value).filter(keep);
    if (kept.length === 0) throw new Error('no case of the generator meets the check');
    return fc.constantFrom(...kept);
  });
}
