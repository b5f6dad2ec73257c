/**
 * Quoting and booking (spec 4.6, 4.7 to 4.11): a quote (plain or generated), then a reservation that is recorded
 * for the end-of-run cleanup (its partnerReference starts with the run's bookingPrefix, docs/design.md, profile
 * `book`); reading, listing and cancelling it. A step a check needs and does not judge (the quote, the booking)
 * is filed under its own clause and blocks the check when it fails.
 */

import fc from 'fast-check';
import type {
  Quote,
  QuoteRequest,
  Reservation,
  ReservationList,
  ReservationRequest,
  ReservationStatus,
} from '../../contract/types.ts';
import { RESERVATION_STATUSES } from '../../contract/types.ts';
import { quoteRequest, type ShoppingOptions, type TargetListings } from '../../generators/index.ts';
import { type ApiResult, type CallOptions, type CheckContext, SKIP } from '../../harness/check/check.ts';
import { casesFor } from '../../harness/check/cost.ts';
import { errorCodeOf, expectSchema, readableBody, requireSuccess } from '../../harness/check/expect-api.ts';
import { claim, currentClauseId, requireStep } from '../../harness/check/scope.ts';
import type { Role } from '../../harness/config/target-config.ts';
import { hasRecentWrites, LIST_LAG_MS, listKey, listLagMs } from '../../harness/http/list-lag.ts';
import { freshToken, scopeSet } from './auth.ts';
import { quoteAnswered, requireQuoteParts } from './endpoint-success.ts';
import { sampleOf } from './generated.ts';
import { whileHookSet } from './hook-settings.ts';
import { targetListings } from './listings.ts';
import { sameMoney, scaled } from './money.ts';
import { driverFor, freshKey, plainRequest, reservationBody } from './reservation-requests.ts';
import { sharedDraw, sharedStep } from './shared-steps.ts';
import { plainQuoteRequest } from './shopping.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAY_HEADER = 'idempotent-replay';

// ---------------------------------------------------------------------------------------------------------------
// Quotes

/**
 * POST /quotes (spec 4.6); a check that gets no quote is blocked by 4.0.11 (or 2.9.2 without a quoteId). A 409
 * NO_AVAILABILITY answers a valid request (4.5, 4.6: the target may offer nothing for that window, audit 4.5-R2):
 * never 4.0.11's failure. For the plain window other generated windows are tried (requireGeneratedQuote); for a window the
 * check chose, the check is not judged, unless the same request was quoted before (`quotedBefore`, when): then the
 * refusal is the check's to judge (spec 1.1a: availability runs out only where an allotment is kept).
 */
export async function requireQuote(
  t: CheckContext,
  role: Role,
  request?: QuoteRequest,
  options: { quotedBefore?: string } = {},
): Promise<Quote> {
  const body = request ?? (await plainQuoteRequest(t, role));
  const res = await t.client(role).post('/quotes', body);
  if (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY') {
    if (request && options.quotedBefore !== undefined) {
      // As a booking refused so (sendBooking): the allotment is 1.1a's, filed there.
      requireStep('1.1a', false, `POST /quotes of the request quoted ${options.quotedBefore} answers 201`, {
        expected: 'a quote (201)',
        actual: '409 NO_AVAILABILITY',
        response: res,
      });
    }
    if (request) return t.notApplicable('POST /quotes: 409 NO_AVAILABILITY for the window the check needs');
    return (await requireGeneratedQuote(t, role, await targetListings(t, role))).quote;
  }
  const q = requireSuccess(res, 201, '4.0.11', 'POST /quotes for the booking') as Quote;
  // Its quoteId (2.9.2), vehicle, rental, charges and payment: what the checks book and compare with.
  requireQuoteParts(q, 'the quote for the booking');
  return q;
}

export interface IssuedQuote {
  request: QuoteRequest;
  res: ApiResult;
  quote: Quote;
}

/**
 * POST /quotes for a generated request (spec 2.12 QuoteRequest): the first of up to five draws the target answers
 * with 201. A target may find nothing offerable for a window (409 NO_AVAILABILITY): the next draw is tried, and the
 * check is not applicable when all five are.
 */
export async function requireGeneratedQuote(
  t: CheckContext,
  role: Role,
  cat: TargetListings,
  options: ShoppingOptions = {},
  /** Another draw of the check's seed (the samples properties pass each case's). */
  salt = 0,
): Promise<IssuedQuote> {
  const arbitrary = quoteRequest(cat, { rate: 'public', ...options });
  let last: ApiResult | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const request = sampleOf(t, arbitrary, salt + attempt * 7919);
    const res = await t.client(role).post('/quotes', request);
    if (quoteAnswered(res)) return { request, res, quote: res.body as Quote };
    last = res;
    if (!(res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY')) break;
  }
  if (last?.status === 409) return t.notApplicable('the target offered nothing for five generated quote requests');
  // Any other answer is 4.0.11's (filed there, blocking): a quote-based check of another clause judges nothing.
  requireSuccess(last as ApiResult, 201, '4.0.11', 'POST /quotes with a generated valid request');
  throw new Error('unreachable: requireSuccess passed a non-201 answer');
}

/**
 * A quote at the public rate to book from. Each booking gets its own: a quote is not single-use (spec 3.10), but
 * that is 3.10's rule, judged there, so a check of another clause does not book one quote twice.
 */
export async function requireQuoteToBook(t: CheckContext, salt = 0): Promise<IssuedQuote> {
  return requireGeneratedQuote(t, 'partnerA', await targetListings(t), { rate: 'public' }, salt);
}

// ---------------------------------------------------------------------------------------------------------------
// Bookings

export interface BookOptions {
  /** The whole body (its partnerReference is kept as given: the caller made it unique). */
  body?: ReservationRequest;
  /** The key; null sends no Idempotency-Key header. Default: a fresh key. */
  key?: string | null;
  /** Extra call options (scopes, token, headers). */
  call?: CallOptions;
  /**
   * The clause a refusal is filed under (default 4.7.2, a first booking): booking an availability offer's quoteId
   * is 4.5.2's promise, so a step that books one names that clause.
   */
  stepClause?: string;
}

export interface Attempt {
  res: ApiResult;
  body: ReservationRequest;
  key: string | null;
}

/** Records a created reservation (201 or a replay's 200) for the end-of-run cleanup. */
export function recordIfCreated(t: CheckContext, res: ApiResult): void {
  const id = (res.body as { reservationId?: unknown } | undefined)?.reservationId;
  if ((res.status === 201 || res.status === 200) && typeof id === 'string') t.recordReservation(id);
}

/** POST /reservations (spec 4.7) as given; whatever is created is recorded. */
export async function sendBooking(
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
  // A quote refused at booking for want of a car is a unit allotment running out, which 1.1a rules out ("no
  // decrementing allotment"): filed there, blocking the check whose booking met it (audit 2026-11-29, finding 24).
  requireStep('1.1a', !(res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY'), 'a quoted vehicle books', {
    expected: 'no 409 NO_AVAILABILITY at booking (no allotment: spec 1.1a)',
    actual: { status: res.status, body: res.excerpt },
  });
  return { res, body, key };
}

/** POST /reservations with this body as it is (valid or a fault) and a fresh Idempotency-Key (or `key`). */
export async function sendReservationBody(
  t: CheckContext,
  role: Role,
  body: unknown,
  options: { key?: string } = {},
): Promise<ApiResult> {
  const attempt = await sendBooking(t, role, '', { body: body as ReservationRequest, key: options.key });
  return attempt.res;
}

/** A booking that went through: the attempt, its key and the reservation created. */
export interface Booked extends Attempt {
  reservation: Reservation;
  key: string;
}

/** A booking the check needs: 201 with a reservation, or the check is blocked by 4.7.2 (or 2.11.2). */
export async function requireBooking(
  t: CheckContext,
  role: Role,
  quoteId: string,
  options: BookOptions = {},
): Promise<Booked> {
  const { stepClause = '4.7.2', ...attemptOptions } = options;
  const attempt = await sendBooking(t, role, quoteId, attemptOptions);
  const what =
    stepClause === '4.7.2' ? 'POST /reservations (a first booking)' : "POST /reservations of an offer's quoteId";
  const { status } = attempt.res;
  // A refusal is the step clause's; a success answered with another status than 201 is 4.7.2's either way.
  if (stepClause !== '4.7.2' && status !== 429 && status !== 503) {
    requireStep(stepClause, status >= 200 && status < 300, `${what} is accepted (2xx)`, {
      expected: 201,
      actual: { status, body: attempt.res.excerpt },
    });
  }
  const reservation = requireSuccess(attempt.res, 201, '4.7.2', what) as Reservation;
  requireStep('2.11.2', typeof reservation?.reservationId === 'string', 'the reservation carries a reservationId', {
    actual: reservation?.reservationId,
  });
  // The checks that follow a booking read its state: a status spelled otherwise is 2.11.5's, filed once there.
  stateOf(reservation);
  return { ...attempt, key: attempt.key ?? '', reservation };
}

/**
 * The `limit` a ReservationList says it applied, for the checks of the limit rule (4.8.1, 8.5). A list without an
 * integer `limit` breaks its shape (2.12.6d), filed there, and blocks them: no applied limit to compare.
 */
export function appliedLimit(list: { limit?: unknown }, what: string): number {
  requireStep('2.12.6d', Number.isInteger(list.limit), `${what}: the ReservationList carries its limit (an integer)`, {
    actual: list.limit,
  });
  return list.limit as number;
}

/**
 * The state of a reservation a check judges (spec 3): its status, one of the seven values of 2.11.5. A status
 * spelled otherwise ("CONFIRMED") is 2.11.5's deviation, filed there, and blocks the check: its state is unread.
 */
export function stateOf(reservation: Reservation | undefined): ReservationStatus {
  const status = reservation?.status;
  requireStep(
    '2.11.5',
    (RESERVATION_STATUSES as readonly unknown[]).includes(status),
    `the reservation's status is one of ${RESERVATION_STATUSES.join(', ')}`,
    { actual: status },
  );
  return status as ReservationStatus;
}

/**
 * A booking the check's own clause says must be accepted (a valid driver, key, reference, body at its limits): a
 * refusal fails the check; a success answered with another status than 201 breaks 4.7.2 ("First success: 201"),
 * filed there, and the check goes on with the reservation. Returns the answered reservation.
 */
export function expectBooked(
  res: ApiResult,
  what = 'POST /reservations',
  /** The clause that says the booking is valid when not the check's own: a refusal is filed there and blocks. */
  acceptedBy?: string,
): Reservation {
  const accepted = res.status >= 200 && res.status < 300;
  const detail = { expected: 201, actual: { status: res.status, body: res.excerpt } };
  if (acceptedBy) requireStep(acceptedBy, accepted, `${what} is accepted (2xx)`, detail);
  else claim(currentClauseId() ?? 'own', accepted, `${what} is accepted (2xx)`, detail);
  claim('4.7.2', res.status === 201, `${what}: a first success answers 201`, {
    expected: 201,
    actual: res.status,
  });
  return readableBody(res, what) as Reservation;
}

/**
 * Whether a quote's total is its charges plus the security deposit (2.9.8d's deviation, which 1.3b and 2.5.17 restate).
 * A zero deposit cannot be told apart: false.
 */
export function foldsDepositIn(q: Quote): boolean {
  const { baseTotal, extrasTotal, oneWayFee, discount, total } = q.charges ?? {};
  const deposit = q.securityDeposit;
  const amounts = [baseTotal, extrasTotal, oneWayFee, discount, total, deposit];
  if (!amounts.every((m) => m && typeof m.amount === 'number' && typeof m.exponent === 'number')) return false;
  if (deposit.amount === 0) return false;
  const e = Math.max(...amounts.map((m) => m.exponent));
  const charge = scaled(baseTotal, e) + scaled(extrasTotal, e) + scaled(oneWayFee, e) - scaled(discount, e);
  return scaled(total, e) === charge + scaled(deposit, e);
}

/**
 * Spec 2.11.9c: the reservation's total equals the total of the quote booked from (judged there, filed there from
 * other checks). A quote whose total folds the deposit in is no measure: that is 2.9.8d's, filed there, and the check
 * is blocked.
 */
export function expectTotalAsQuoted(reservation: Reservation, q: Quote, what = 'the reservation'): void {
  requireStep('2.9.8d', !foldsDepositIn(q), "the quote's total excludes the security deposit", {
    actual: { charges: q.charges, securityDeposit: q.securityDeposit },
  });
  claim('2.11.9c', sameMoney(reservation.total, q.charges.total), `${what}: total equals the quote's total`, {
    expected: q.charges.total,
    actual: reservation.total,
  });
}

/**
 * A booking a role's client made without holding reservations:write, when served (2xx): whose deviation that is. When
 * the role's grant holds the scope, its credentials carry a booking scope (1.7's rule for integration credentials);
 * when it does not, the endpoint served a token lacking its scope (4.0.12's row). Filed there, and the check is
 * blocked; a refusal goes on to be judged.
 */
export async function requireUnscopedBookingRefused(t: CheckContext, role: Role, res: ApiResult): Promise<void> {
  if (res.status < 200 || res.status >= 300) return;
  const granted = scopeSet((await freshToken(t, role)).scope);
  const clause = granted.includes('reservations:write') ? '1.7' : '4.0.12';
  requireStep(clause, false, `a booking by ${role} without reservations:write is refused (it got HTTP ${res.status})`, {
    expected: '403 INSUFFICIENT_SCOPE',
    actual: { granted, status: res.status, body: res.excerpt },
  });
}

/** A quote at the public rate, then a booking of it that must succeed. */
export async function requireQuotedBooking(t: CheckContext, role: Role, options: BookOptions = {}): Promise<Booked> {
  const q = await requireQuote(t, role);
  return requireBooking(t, role, q.quoteId, options);
}

/** A booking with the quote it was made from. */
export interface QuotedBooking extends Booked {
  request: QuoteRequest;
  quote: Quote;
  quoteRes: ApiResult;
}

/**
 * A generated quote (`options` as for requireGeneratedQuote) booked at once with a generated driver; with `schema`,
 * the created reservation's schema is judged too (spec 2.11: expectSchema files a field's violation under its clause).
 */
export async function requireGeneratedBooking(
  t: CheckContext,
  role: Role = 'partnerA',
  options: ShoppingOptions & { listings?: TargetListings; salt?: number; schema?: boolean } = {},
): Promise<QuotedBooking> {
  const { listings, salt = 0, schema = false, ...shopping } = options;
  const cat = listings ?? (await targetListings(t, role));
  const issued = await requireGeneratedQuote(t, role, cat, shopping, salt);
  const body = {
    ...reservationBody(t, issued.quote.quoteId, issued.quote.vehicle),
    driver: driverFor(t, issued.quote.vehicle, salt),
  };
  const booked = await requireBooking(t, role, issued.quote.quoteId, { body });
  if (schema) expectSchema(booked.res, 'Reservation');
  return { ...booked, request: issued.request, quote: issued.quote, quoteRes: issued.res };
}

/** A drawn quote request quoted and booked by partner A (undefined: no availability for it). */
async function quoteAndBookDrawn(
  t: CheckContext,
  request: QuoteRequest,
  driverSalt: number,
): Promise<QuotedBooking | undefined> {
  const quoteRes = await t.client('partnerA').post('/quotes', request);
  if (quoteRes.status === 409 && errorCodeOf(quoteRes) === 'NO_AVAILABILITY') return undefined;
  const q = requireSuccess(quoteRes, 201, '4.0.11', 'POST /quotes for the booking') as Quote;
  requireQuoteParts(q, 'the quote for the booking');
  const body = { ...reservationBody(t, q.quoteId, q.vehicle), driver: driverFor(t, q.vehicle, driverSalt) };
  const booked = await requireBooking(t, 'partnerA', q.quoteId, { body });
  expectSchema(booked.res, 'Reservation');
  return { ...booked, request, quote: q, quoteRes };
}

/**
 * forBookings for rules that only read what a booking answered, with the reservation read back once by id: the
 * run's shared draws (sharedDraw) are booked once for every check that judges them (sharedStep), as the samples are,
 * and each check judges its own clause on them. A field rule needs no booking of its own, and a target limiting
 * partner A spends its requests on what is judged.
 */
export async function forSharedBookings(
  t: CheckContext,
  rule: (booking: QuotedBooking, readBack: ApiResult) => unknown,
): Promise<void> {
  const cat = await targetListings(t, 'partnerA');
  const runs = casesFor(t, 'request');
  const draw = fc.tuple(quoteRequest(cat, { rate: 'public' }), fc.nat({ max: 1_000_000 }));
  await t.forAll(
    fc.integer({ min: 0, max: runs - 1 }),
    async (index) => {
      const shared = await sharedStep(t, `shared booking ${t.representation} ${index}`, async () => {
        const [request, driverSalt] = fc.sample(draw, { seed: sharedDraw(t, index), numRuns: 1 })[0] ?? [];
        if (!request) throw new Error('fast-check produced no sample');
        const booking = await quoteAndBookDrawn(t, request, driverSalt ?? 0);
        if (!booking) return undefined;
        const id = encodeURIComponent(booking.reservation.reservationId);
        return { booking, readBack: await t.client('partnerA').get(`/reservations/${id}`) };
      });
      // The check that booked it recorded it for the end-of-run cleanup.
      if (!shared) return SKIP;
      return await rule(shared.booking, shared.readBack);
    },
    { numRuns: runs },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Reading, listing, cancelling

/** The role's newest reservations (GET /reservations?limit=100, JSON); blocked by 4.0.13 unless 200. */
export async function requireReservationList(t: CheckContext, role: Role, limit = 100): Promise<Reservation[]> {
  const res = await t.client(role).get(`/reservations?limit=${limit}`, { representation: 'json' });
  const list = requireSuccess(res, 200, '4.0.13', 'GET /reservations') as ReservationList;
  requireStep('2.12.6d', Array.isArray(list?.reservations), 'the list carries a reservations array');
  return list.reservations;
}

/**
 * The role's reservations carrying this partnerReference (among its newest 100). Checks read it for what must not be
 * there too (a refused booking created nothing), which a list lagging its writes would hide: it is read no sooner
 * after the call than the role's list has been seen to show a write (harness/http/list-lag.ts: at once for a list
 * that is current), and LIST_LAG_MS after it while that is unknown. A read that shows the role's recent writes
 * measures it, so with such writes the list is read first and again only if it came too soon.
 */
export async function requireReservationsByReference(
  t: CheckContext,
  role: Role,
  reference: string,
): Promise<Reservation[]> {
  const key = listKey(t.settings.target.baseUrl, role);
  const since = Date.now();
  let list = listLagMs(key) === undefined && hasRecentWrites(key) ? await requireReservationList(t, role) : undefined;
  const early = since + (listLagMs(key) ?? LIST_LAG_MS) - Date.now();
  if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
  if (list === undefined || early > 0) list = await requireReservationList(t, role);
  return list.filter((r) => r.partnerReference === reference);
}

/** GET /reservations/{id} in JSON; blocked by 4.0.14 unless 200. */
export async function requireReservation(t: CheckContext, role: Role, id: string): Promise<Reservation> {
  const res = await t.client(role).get(`/reservations/${encodeURIComponent(id)}`, { representation: 'json' });
  return requireSuccess(res, 200, '4.0.14', `GET /reservations/${id}`) as Reservation;
}

export function cancelPath(id: string): string {
  return `/reservations/${encodeURIComponent(id)}/cancel`;
}

/** POST …/cancel with a plain reason, in the check's representation. */
export function sendCancel(t: CheckContext, role: Role, id: string, reason = 'Traveller changed plans') {
  return t.client(role).post(cancelPath(id), { reason });
}

/**
 * A cancel the check needs to go through (a confirmed reservation without money, spec 3.4): anything but 200 is
 * filed under `stepClause` (default 3.4) and blocks the check. The reservation answered "in its new state" is 4.11.2's
 * rule: a status other than cancelled is filed there. Returns the answer and its reservation.
 */
export async function requireCancel(
  t: CheckContext,
  role: Role,
  id: string,
  options: { reason?: string; call?: CallOptions; stepClause?: string } = {},
): Promise<{ res: ApiResult; reservation: Reservation }> {
  const res = await t
    .client(role)
    .post(cancelPath(id), { reason: options.reason ?? 'Traveller changed plans' }, options.call);
  const reservation = requireSuccess(res, 200, options.stepClause ?? '3.4', `POST ${cancelPath(id)}`) as Reservation;
  expectNewState(reservation, 'the cancel answer');
  return { res, reservation };
}

/** Spec 4.11.2: "200 returns the reservation in its new state": cancelled, judged (or filed) under 4.11.2. */
export function expectNewState(reservation: Reservation | undefined, what: string): boolean {
  return claim('4.11.2', reservation?.status === 'cancelled', `${what} shows the reservation cancelled`, {
    expected: 'cancelled',
    actual: reservation?.status,
  });
}

/**
 * The reservation's status as both read operations show it now (spec 6.3: GET /reservations/{id} and GET
 * /reservations return the current state). When they disagree, one of them is not current: that is 6.3's, filed
 * there, and the status `expected` is taken when either shows it (the transition did happen). Reads that fail are
 * 4.0.14's and 4.0.13's and block the check.
 */
export async function currentStatus(t: CheckContext, role: Role, id: string, expected: string): Promise<string> {
  const single = (await requireReservation(t, role, id))?.status;
  const listed = (await listedWhen(t, role, id, (r) => r === undefined || r.status === single))?.status;
  if (listed === undefined || single === listed) return single;
  claim('6.3', false, `GET /reservations/${id} and GET /reservations show the same current status`, {
    expected: { single, listed: single },
    actual: { single, listed },
  });
  return single === expected || listed === expected ? expected : single;
}

/**
 * The role's list entry for `id`, read until `agrees` holds or LIST_LAG_MS has passed; the last entry read (undefined
 * when the list does not hold it). Spec 6.3: a list served from a replica may show a change a moment after GET by id
 * does (the partner client already waits for the role's own bookings and cancels, harness/http/list-lag.ts; this
 * waits for any change, a test hook's too).
 */
export async function listedWhen(
  t: CheckContext,
  role: Role,
  id: string,
  agrees: (entry: Reservation | undefined) => boolean,
): Promise<Reservation | undefined> {
  const deadline = Date.now() + LIST_LAG_MS;
  for (let wait = 250; ; wait = Math.min(wait * 2, 2_000)) {
    const entry = (await requireReservationList(t, role)).find((r) => r.reservationId === id);
    if (agrees(entry) || Date.now() + wait > deadline) return entry;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** `error.code` or the status: how race answers are counted. */
export function outcomeOf(res: ApiResult): string {
  const code = errorCodeOf(res);
  if (code) return `${res.status} ${code}`;
  if (res.status === 200 && res.headers[REPLAY_HEADER] === 'true') return '200 replay';
  return String(res.status);
}

/**
 * How long a booking holds its Idempotency-Key claim during a race, where the target offers the test hook
 * bookings.hold: long enough for every racer to arrive while the first is in process, however fast the target books.
 */
const RACE_HOLD_MS = 250;

/**
 * Runs a race of identical bookings with the target's bookings held in flight (test hook bookings.hold), then sets
 * the hold back. Without the hook the race runs as the target answers: a target that finishes each booking before the
 * next arrives never answers IDEMPOTENT_REPLAY_IN_FLIGHT, which is no fault (4.7.5), and the rounds look for one.
 */
export function withBookingsHeld<T>(t: CheckContext, race: () => Promise<T>): Promise<T> {
  return whileHookSet(t, 'bookings.hold', (hooks, on) => hooks.holdBookings(on ? RACE_HOLD_MS : 0), race);
}
