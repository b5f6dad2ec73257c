/**
 * Spec 4.7 POST /reservations: idempotency (required key, replay, conflict, in-flight, 24-hour memory), one
 * partnerReference per rental, quotes that are not single-use, the quote errors and the operator's decline;
 * with its row of the endpoint table (4.0.12), the idempotency races and the cross-partner probes (spec 1.4).
 */

import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { Quote, QuoteRequest, RatePlan, Reservation, ReservationRequest } from '../contract/types.ts';
import {
  badIdempotencyKey,
  idempotencyKey,
  idempotencyKeyCases,
  quoteRequest,
  schemaFault,
  UNKNOWN_PROPERTY,
  xmlText,
} from '../generators/index.ts';
import { type CheckContext, check, SKIP } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import {
  bodyOf,
  errorCodeOf,
  expectError,
  expectMediaType,
  expectSchema,
  listItems,
} from '../harness/check/expect-api.ts';
import { claim, requireStep } from '../harness/check/scope.ts';
import { isBlockedOrTransient } from '../harness/check/signal.ts';
import type { Role } from '../harness/config/target-config.ts';
import { expectRefusal } from './support/body-endpoints.ts';
import {
  expectBooked,
  expectTotalAsQuoted,
  IDEMPOTENCY_HEADER,
  outcomeOf,
  recordIfCreated,
  requireBooking,
  requireQuote,
  requireQuotedBooking,
  requireReservation,
  requireReservationList,
  requireReservationsByReference,
  requireUnscopedBookingRefused,
  sendBooking,
  sendCancel,
  withBookingsHeld,
} from './support/booking.ts';
import { otherScope, quoteFor, quoteWindow } from './support/draws.ts';
import { observeReplayHeader, retryPastInFlight, settleRetryable } from './support/idempotency.ts';
import { unissuedId } from './support/ids.ts';
import { fleetOf, targetListings } from './support/listings.ts';
import { booking } from './support/presets.ts';
import { faultsOf } from './support/request-faults.ts';
import {
  freshen,
  freshKey,
  freshReference,
  generatedRequest,
  plainRequest,
  uniquify,
} from './support/reservation-requests.ts';
import { plainQuoteRequest } from './support/shopping.ts';

const twoPartners = { ...booking, needs: ['partnerA', 'partnerB'] as Role[] };

/**
 * Spec 4.7.6 and 8: the idempotency memory is 24 hours. The hook forgets keys at least this old, which stands for
 * "24 hours have passed" for the check's own key while sparing keys other checks are replaying right now.
 */
const FORGET_OLDER_THAN_SECONDS = 0.05;

/**
 * Makes the check's key at least FORGET_OLDER_THAN_SECONDS old, then has the target forget keys that old. The key
 * was made before its answer came, so after this wait its age on the target's clock is past the bound whatever
 * the clocks' offset; the margin only covers a coarse timer.
 */
async function pastIdempotencyMemory(t: CheckContext): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, FORGET_OLDER_THAN_SECONDS * 1000 + 20));
  await t.hooks.forgetIdempotencyKeys(FORGET_OLDER_THAN_SECONDS);
}

/** Concurrent identical requests of the idempotency race. */
const RACE_SIZE = 20;
/** Concurrent requests with one key and different bodies. */
const CONFLICT_RACE_SIZE = 10;
/** How many bookings of one partnerReference race under different keys. */
const REFERENCE_RACE_SIZES = { min: 4, max: 6 };
/** Rounds of the identical race tried until one meets an IN_FLIGHT answer. */
const RACE_ROUNDS = 5;

/**
 * What a race was answered, for the report: each settled answer by outcome, and the refusals for now that were sent
 * again (audit 4.7-R6: not judged, their retries are) as "retried 503 DEPENDENCY_UNAVAILABLE".
 */
function countsOf(answers: readonly Parameters<typeof outcomeOf>[0][], refused: readonly string[]) {
  const counts: Record<string, number> = {};
  for (const res of answers) counts[outcomeOf(res)] = (counts[outcomeOf(res)] ?? 0) + 1;
  for (const r of refused) counts[`retried ${r}`] = (counts[`retried ${r}`] ?? 0) + 1;
  return counts;
}

/**
 * A booking accepted, in the check's representation, valid against the schema. The exact 201 of a first success is
 * 4.7.2's (judged there, filed there from the other checks: expectBooked).
 */
function expectCreated(t: CheckContext, res: Parameters<typeof expectSchema>[0]) {
  expectBooked(res);
  expectMediaType(res, t.representation);
  expectSchema(res, 'Reservation');
}

/**
 * The steps the race checks stand on, tried one request at a time on a quote of their own: a first booking answers
 * 201 (4.7.2) and, with `replay`, the same key and body again answers the 200 replay (4.7.3). Either failing is filed
 * under its clause and blocks the race, whose answers would otherwise be judged against a rule already broken.
 */
async function sequentialSteps(t: CheckContext, replay: boolean): Promise<void> {
  const first = await requireQuotedBooking(t, 'partnerA');
  if (!replay) return;
  const again = await sendBooking(t, 'partnerA', first.body.quoteId, { body: first.body, key: first.key });
  requireStep('4.7.3', again.res.status === 200, 'the same key and body again, one at a time, replays with 200', {
    expected: 200,
    actual: { status: again.res.status, body: again.res.excerpt },
  });
}

/**
 * Runs a race check and, only when it fails, the sequential steps it stands on (sequentialSteps): a step that fails
 * then blocks the check instead of the race's failure. The race goes first so its timing is that of a first booking
 * of the check (a warmed-up target serialises more of a race).
 */
async function raceOnSteps(t: CheckContext, replay: boolean, race: () => Promise<unknown>): Promise<void> {
  try {
    await race();
  } catch (error) {
    if (!isBlockedOrTransient(error)) await sequentialSteps(t, replay);
    throw error;
  }
}

/** Spec 4.7.4, 4.7.9, 4.7.10, 3: "nothing created": no reservation carries the attempt's partnerReference. */
async function expectNothingCreated(t: CheckContext, role: Role, reference: string | undefined) {
  if (reference === undefined) throw new Error('the attempt carries no partnerReference to look for');
  expect(
    (await requireReservationsByReference(t, role, reference)).map((r) => r.reservationId),
    `reservations of ${role} with partnerReference ${reference}`,
  ).toEqual([]);
}

/**
 * The booked reservation is the one asked for: the quote's vehicle, window and total, the request's driver. A quote
 * that describes another vehicle than the one asked for (`asked`) is 2.9.5's deviation: filed there, and the booking
 * is not compared with it. The total is 2.11.9c's rule (filed there: expectTotalAsQuoted).
 */
function expectBookedFrom(reservation: Reservation, q: Quote, request: ReservationRequest, asked?: QuoteRequest) {
  if (asked) {
    requireStep('2.9.5', q.vehicle?.vehicleCode === asked.vehicleCode, 'the quote is for the vehicle asked for', {
      expected: asked.vehicleCode,
      actual: q.vehicle?.vehicleCode,
    });
  }
  expectTotalAsQuoted(reservation, q);
  expect(reservation.partnerReference, 'partnerReference as sent').toBe(request.partnerReference ?? null);
  const nullOr = (actual: unknown, expected: unknown, what: string) => {
    if (actual !== null) expect(actual, what).toBe(expected);
  };
  nullOr(reservation.vehicleCode, q.vehicle.vehicleCode, 'vehicleCode of the quote');
  nullOr(reservation.pickupLocation, q.rental.pickupLocation, 'pickupLocation of the quote');
  nullOr(reservation.dropoffLocation, q.rental.dropoffLocation, 'dropoffLocation of the quote');
  nullOr(reservation.driver.firstName, request.driver.firstName, 'driver.firstName as sent');
  nullOr(reservation.driver.lastName, request.driver.lastName, 'driver.lastName as sent');
  nullOr(reservation.driver.email?.toLowerCase() ?? null, request.driver.email.toLowerCase(), 'driver.email as sent');
}

/** The plan codes of a role (GET /rates in JSON). */
async function plansOf(t: CheckContext, role: Role): Promise<RatePlan[]> {
  const res = await t.client(role).get('/rates', { representation: 'json' });
  expect(res.status, `GET /rates as ${role}: ${res.excerpt}`).toBe(200);
  return listItems(res, 'RateList', 'GET /rates');
}

describe('4.7 POST /reservations', () => {
  // Spec 4.0.12: "POST | /api/partner/v1/reservations | reservations:write | 201 Reservation (200 on replay)"
  check('4.0.12')(
    { ...booking, name: 'POST /reservations with a token holding only reservations:write: 201, then 200 on replay' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          const scopes = ['reservations:write'];
          const first = await sendBooking(t, 'partnerA', q.quoteId, { call: { scopes } });
          // Served with the scope (this row); the exact 201 is 4.7.2's and the replay's 200 4.7.3's, filed there.
          expectCreated(t, first.res);
          const again = await sendBooking(t, 'partnerA', q.quoteId, {
            body: first.body,
            key: first.key,
            call: { scopes },
          });
          // How the same key and body again is answered is 4.7.3's rule (a booking again answers 201 or 409).
          const replayed = claim(
            '4.7.3',
            again.res.status === 200,
            'the same key and body again answers the 200 replay',
            {
              expected: 200,
              actual: { status: again.res.status, body: again.res.excerpt },
            },
          );
          if (replayed) expectSchema(again.res, 'Reservation');
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.1: "Missing header: 400 IDEMPOTENCY_KEY_REQUIRED."
  check('4.7.1')(
    { ...booking, name: 'No Idempotency-Key header: 400 IDEMPOTENCY_KEY_REQUIRED, nothing created' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          const attempt = await sendBooking(t, 'partnerA', q.quoteId, { key: null });
          expectError(attempt.res, 'IDEMPOTENCY_KEY_REQUIRED');
          await expectNothingCreated(t, 'partnerA', attempt.body.partnerReference);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.2: "First success: 201 Reservation."
  check('4.7.2')(
    { ...booking, name: 'First success: 201 Reservation, booked from the quote, read back in the same state' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          const booked = await sendBooking(t, 'partnerA', q.quoteId);
          expectCreated(t, booked.res);
          observeReplayHeader(booked.res, false, 'Idempotent-Replay on a first success');
          expectBookedFrom(booked.res.body as Reservation, q, booked.body, request);
          const read = await requireReservation(t, 'partnerA', (booked.res.body as Reservation).reservationId);
          // Created confirmed is 1.3a's rule (judged there); here the read agrees with the 201.
          expect(read.status, 'status read back').toBe((booked.res.body as Reservation).status);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.3: "Same key and same body within 24 hours: 200, the original response, with header `Idempotent-Replay:
  // true`; no second reservation."
  check('4.7.3')(
    { ...booking, name: 'Same key and body again: 200, the original body, Idempotent-Replay: true, one reservation' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const quoted = await quoteFor(t, 'partnerA', request);
          if (!quoted) return SKIP;
          const first = await requireBooking(t, 'partnerA', quoted.quoteId);
          for (let i = 0; i < 2; i++) {
            const again = await sendBooking(t, 'partnerA', first.body.quoteId, { body: first.body, key: first.key });
            expect(again.res.status, `replay ${i + 1}: ${again.res.excerpt}`).toBe(200);
            observeReplayHeader(again.res, true, 'Idempotent-Replay header');
            expectMediaType(again.res, t.representation);
            expect(again.res.body, 'the replay carries the original response body').toEqual(first.res.body);
          }
          const found = await requireReservationsByReference(t, 'partnerA', first.body.partnerReference as string);
          expect(
            found.map((r) => r.reservationId),
            'reservations with the partnerReference',
          ).toEqual([first.reservation.reservationId]);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.3 (quoted above)
  check('4.7.3')(
    { ...booking, name: 'A replay after the reservation was cancelled still returns the original response' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const quoted = await quoteFor(t, 'partnerA', request);
          if (!quoted) return SKIP;
          const first = await requireBooking(t, 'partnerA', quoted.quoteId);
          const cancelled = await sendCancel(t, 'partnerA', first.reservation.reservationId);
          expect(cancelled.status, `cancel: ${cancelled.excerpt}`).toBe(200);
          const again = await sendBooking(t, 'partnerA', first.body.quoteId, { body: first.body, key: first.key });
          expect(again.res.status, again.res.excerpt).toBe(200);
          observeReplayHeader(again.res, true, 'Idempotent-Replay header');
          expect(again.res.body, 'the original response body').toEqual(first.res.body);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.3 (quoted above)
  check('4.7.3')(
    {
      ...twoPartners,
      name: "Partner B sending partner A's Idempotency-Key with its own body gets its own outcome, never A's",
    },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const quoted = await quoteFor(t, 'partnerA', request);
          if (!quoted) return SKIP;
          const a = await requireBooking(t, 'partnerA', quoted.quoteId);
          const qb = await requireQuote(t, 'partnerB');
          const b = await sendBooking(t, 'partnerB', qb.quoteId, { key: a.key });
          // Keys per partner (B's own 201) or one namespace for all (409 IDEMPOTENCY_CONFLICT, as 4.7.4 reads
          // literally): both allowed (docs/ambiguities.md R4). A's reservation replayed to B never is.
          if (b.res.status === 409) {
            expectError(b.res, 'IDEMPOTENCY_CONFLICT');
            return;
          }
          expectCreated(t, b.res);
          observeReplayHeader(b.res, false, "B's booking is no replay of A's");
          const reservation = b.res.body as Reservation;
          expect(reservation.reservationId, "B's reservation is not A's").not.toBe(a.reservation.reservationId);
          expect(reservation.partnerReference, "B's own partnerReference").toBe(b.body.partnerReference);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.4: "Same key, different body: 409 IDEMPOTENCY_CONFLICT; nothing created."
  check('4.7.4')(
    { ...booking, name: 'Same key, different body: 409 IDEMPOTENCY_CONFLICT, nothing created (generated bodies)' },
    async (t) => {
      const first = await requireQuotedBooking(t, 'partnerA');
      const { vehicles } = await fleetOf(t, 'partnerA');
      await t.forAll(
        generatedRequest(
          t,
          first.body.quoteId,
          vehicles.find((v) => v.vehicleCode === first.reservation.vehicleCode),
        ),
        async (generated) => {
          const other = freshen(t, generated);
          const attempt = await sendBooking(t, 'partnerA', other.quoteId, { body: other, key: first.key });
          expectError(attempt.res, 'IDEMPOTENCY_CONFLICT');
          await expectNothingCreated(t, 'partnerA', other.partnerReference);
        },
        { numRuns: casesFor(t, 'generatedBooking') },
      );
      const found = await requireReservationsByReference(t, 'partnerA', first.body.partnerReference as string);
      expect(found.length, 'still one reservation with the first partnerReference').toBe(1);
    },
  );

  // Spec 4.7.4 (quoted above)
  check('4.7.4')(
    { ...booking, name: 'Same key, body differing only in remarks: 409 IDEMPOTENCY_CONFLICT, the key still replays' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const quoted = await quoteFor(t, 'partnerA', request);
          if (!quoted) return SKIP;
          const first = await requireBooking(t, 'partnerA', quoted.quoteId);
          const changed = { ...first.body, remarks: 'Late arrival, about 23:00' };
          const conflict = await sendBooking(t, 'partnerA', changed.quoteId, { body: changed, key: first.key });
          expectError(conflict.res, 'IDEMPOTENCY_CONFLICT');
          const found = await requireReservationsByReference(t, 'partnerA', first.body.partnerReference as string);
          expect(
            found.map((r) => r.reservationId),
            'reservations with the partnerReference',
          ).toEqual([first.reservation.reservationId]);
          const replay = await sendBooking(t, 'partnerA', first.body.quoteId, { body: first.body, key: first.key });
          // The refused body did not take the key over: the original body is no conflict now. How it replays (200,
          // the original response) is 4.7.3's rule, filed there.
          expect(errorCodeOf(replay.res), `the original body after the conflict: ${replay.res.excerpt}`).not.toBe(
            'IDEMPOTENCY_CONFLICT',
          );
          claim('4.7.3', replay.res.status === 200, 'the original body replays with 200', {
            expected: 200,
            actual: { status: replay.res.status, body: replay.res.excerpt },
          });
          if (replay.res.status === 200) {
            claim('4.7.3', isDeepStrictEqual(replay.res.body, first.res.body), 'the replay is the original response', {
              expected: first.res.body,
              actual: replay.res.body,
            });
          }
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.5: "Same key while an identical request is in process: 409 IDEMPOTENT_REPLAY_IN_FLIGHT (retryable)."
  check('4.7.5')(
    {
      ...booking,
      name: `${RACE_SIZE} concurrent identical requests with one key: one 201, the rest 200 replays or 409 IN_FLIGHT, one reservation`,
    },
    async (t) => {
      await raceOnSteps(t, true, () =>
        withBookingsHeld(t, async () => {
          // A server that finishes each request before the next arrives never answers IN_FLIGHT: that is no fault, so
          // a few rounds are tried to meet one, and every answer is judged either way. A quote per round: booking one
          // quote again is 3.10's matter.
          for (let round = 0; round < RACE_ROUNDS; round++) {
            const q = await requireQuote(t, 'partnerA');
            const body = plainRequest(t, q.quoteId);
            const key = freshKey(t);
            const headers = { [IDEMPOTENCY_HEADER]: key };
            const send = () => t.client('partnerA').post('/reservations', body, { headers });
            const raced = await Promise.all(Array.from({ length: RACE_SIZE }, send));
            // A racer refused for now (429, 503: retryable) is sent again and its retry judged in its place.
            const { answers, refused } = await settleRetryable(raced, send, 'the race');
            for (const res of answers) recordIfCreated(t, res);
            const counts = countsOf(answers, refused);
            const created = answers.filter((res) => res.status === 201);
            expect(created.length, `answers ${JSON.stringify(counts)}: exactly one 201`).toBe(1);
            const original = created[0]?.body as Reservation;
            for (const res of answers) {
              if (res.status === 201) continue;
              if (res.status === 200) {
                observeReplayHeader(res, true, 'a 200 in the race is a replay');
                expect(res.body, 'a replay carries the original body').toEqual(original);
              } else {
                expectError(res, 'IDEMPOTENT_REPLAY_IN_FLIGHT');
              }
            }
            const found = await requireReservationsByReference(t, 'partnerA', body.partnerReference as string);
            expect(
              found.map((r) => r.reservationId),
              `one reservation after the race (${JSON.stringify(counts)})`,
            ).toEqual([original.reservationId]);
            // What an IN_FLIGHT answer tells a client to do: retry the identical request, and get the replay. A server
            // may clear its in-flight marker a moment after the race's first answer (ambiguity #12): the retry may be
            // told IN_FLIGHT again for a while, and is sent again after a short backoff.
            const { res: retry, inFlight } = await retryPastInFlight(send, 'the retry after the race');
            for (const res of inFlight) expectError(res, 'IDEMPOTENT_REPLAY_IN_FLIGHT');
            expect(
              retry.status,
              `retry after the race (${inFlight.length} times in flight first): ${retry.excerpt}`,
            ).toBe(200);
            expect(retry.body).toEqual(original);
            if (counts['409 IDEMPOTENT_REPLAY_IN_FLIGHT']) break;
          }
        }),
      );
    },
  );

  // Spec 4.7.5 (quoted above)
  check('4.7.5')(
    {
      ...booking,
      name: `${CONFLICT_RACE_SIZE} concurrent requests with one key and different bodies: one 201, the rest 409, one reservation`,
    },
    async (t) => {
      await raceOnSteps(t, false, async () => {
        const q = await requireQuote(t, 'partnerA');
        const key = freshKey(t);
        const bodies = Array.from({ length: CONFLICT_RACE_SIZE }, () => plainRequest(t, q.quoteId));
        const send = (i: number) =>
          t.client('partnerA').post('/reservations', bodies[i], { headers: { [IDEMPOTENCY_HEADER]: key } });
        const raced = await Promise.all(bodies.map((_, i) => send(i)));
        // A racer refused for now (429, 503: retryable) is sent again and its retry judged in its place.
        const { answers, refused } = await settleRetryable(raced, send, 'the race');
        for (const res of answers) recordIfCreated(t, res);
        const counts = countsOf(answers, refused);
        const winners = answers.flatMap((res, i) => (res.status === 201 ? [i] : []));
        expect(winners.length, `answers ${JSON.stringify(counts)}: exactly one 201`).toBe(1);
        for (const res of answers) {
          if (res.status !== 201) {
            expectError(res, ['IDEMPOTENCY_CONFLICT', 'IDEMPOTENT_REPLAY_IN_FLIGHT']);
          }
        }
        const references = new Set(bodies.map((b) => b.partnerReference));
        const mine = (await requireReservationList(t, 'partnerA')).filter((r) =>
          references.has(r.partnerReference ?? ''),
        );
        const winner = bodies[winners[0] ?? 0] as ReservationRequest;
        expect(
          mine.map((r) => r.partnerReference),
          `one reservation among the ${CONFLICT_RACE_SIZE} bodies (${JSON.stringify(counts)})`,
        ).toEqual([winner.partnerReference]);
      });
    },
  );

  // Spec 4.7.6: "A key reused after 24 hours is treated as new."
  check('4.7.6')(
    {
      ...booking,
      hooks: ['idempotency.forget'],
      name: 'A key reused after its 24 hours (another body, a fresh quote) is new: 201',
    },
    async (t) => {
      const first = await requireQuotedBooking(t, 'partnerA');
      await pastIdempotencyMemory(t);
      // The reused key carries a fresh quote, so the body differs from the first.
      const q = await requireQuote(t, 'partnerA');
      const again = await sendBooking(t, 'partnerA', q.quoteId, { key: first.key });
      expectCreated(t, again.res);
      observeReplayHeader(again.res, false, 'no replay after 24 hours');
      const reservation = again.res.body as Reservation;
      expect(reservation.reservationId, 'a new reservation').not.toBe(first.reservation.reservationId);
      expect(reservation.partnerReference).toBe(again.body.partnerReference);
    },
  );

  // Spec 4.7.7: "partnerReference already used by the partner under a different key: 409 DUPLICATE_PARTNER_REFERENCE.
  // One reference is one rental, permanently."
  check('4.7.7')(
    {
      ...booking,
      name: 'partnerReference reused under another key: 409 DUPLICATE_PARTNER_REFERENCE, also after a cancel',
    },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const quoted = await quoteFor(t, 'partnerA', request);
          if (!quoted) return SKIP;
          const first = await requireBooking(t, 'partnerA', quoted.quoteId);
          const reference = first.body.partnerReference as string;
          const q = await requireQuote(t, 'partnerA');
          const duplicate = await sendBooking(t, 'partnerA', q.quoteId, {
            body: plainRequest(t, q.quoteId, { partnerReference: reference }),
          });
          expectError(duplicate.res, 'DUPLICATE_PARTNER_REFERENCE');
          const cancelled = await sendCancel(t, 'partnerA', first.reservation.reservationId);
          expect(cancelled.status, `cancel: ${cancelled.excerpt}`).toBe(200);
          const afterCancel = await sendBooking(t, 'partnerA', q.quoteId, {
            body: plainRequest(t, q.quoteId, { partnerReference: reference }),
          });
          expectError(afterCancel.res, 'DUPLICATE_PARTNER_REFERENCE');
          const found = await requireReservationsByReference(t, 'partnerA', reference);
          expect(
            found.map((r) => r.reservationId),
            'one reservation with the reference',
          ).toEqual([first.reservation.reservationId]);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.7 (quoted above)
  check('4.7.7')(
    {
      ...booking,
      name: `${REFERENCE_RACE_SIZES.min} to ${REFERENCE_RACE_SIZES.max} concurrent bookings of one partnerReference under different keys: at most one 201, the rest 409 DUPLICATE_PARTNER_REFERENCE, one reservation`,
    },
    async (t) => {
      // "One reference is one rental, permanently" holds for requests arriving together too: a server that looks
      // for the reference and then inserts without a unique guard books one rental per request of the race.
      await raceOnSteps(t, false, () =>
        t.forAll(
          fc.integer(REFERENCE_RACE_SIZES),
          async (size) => {
            // A quote per case: booking one quote again is 3.10's matter.
            const q = await requireQuote(t, 'partnerA');
            const reference = freshReference(t, 'RACE');
            // Each racer its own key and body, kept for a retry of the identical request.
            const requests = Array.from({ length: size }, () => ({
              body: plainRequest(t, q.quoteId, { partnerReference: reference }),
              key: freshKey(t),
            }));
            const send = (i: number) => {
              const { body, key } = requests[i] as (typeof requests)[number];
              return t.client('partnerA').post('/reservations', body, { headers: { [IDEMPOTENCY_HEADER]: key } });
            };
            const raced = await Promise.all(requests.map((_, i) => send(i)));
            // A racer refused for now (429, 503: retryable) is sent again and its retry judged in its place.
            const { answers, refused } = await settleRetryable(raced, send, 'the race');
            for (const res of answers) recordIfCreated(t, res);
            const counts = countsOf(answers, refused);
            const created = answers.filter((res) => res.status === 201);
            expect(created.length, `answers ${JSON.stringify(counts)}: at most one 201`).toBeLessThanOrEqual(1);
            for (const res of answers) {
              if (res.status !== 201) {
                expectError(res, 'DUPLICATE_PARTNER_REFERENCE');
              }
            }
            const found = await requireReservationsByReference(t, 'partnerA', reference);
            expect(
              found.map((r) => r.reservationId),
              `reservations with the reference after the race (${JSON.stringify(counts)}): the one created`,
            ).toEqual(created.map((res) => (res.body as Reservation).reservationId));
            expect(found.length, `one rental with the reference (${JSON.stringify(counts)})`).toBe(1);
          },
          { numRuns: casesFor(t, 'request') },
        ),
      );
    },
  );

  // Spec 4.7.7 (quoted above)
  check('4.7.7')(
    {
      ...booking,
      hooks: ['idempotency.forget'],
      name: 'partnerReference reused after the 24-hour idempotency memory: still 409 DUPLICATE_PARTNER_REFERENCE',
    },
    async (t) => {
      const first = await requireQuotedBooking(t, 'partnerA');
      await pastIdempotencyMemory(t);
      const q = await requireQuote(t, 'partnerA');
      const late = await sendBooking(t, 'partnerA', q.quoteId, {
        body: plainRequest(t, q.quoteId, { partnerReference: first.body.partnerReference }),
      });
      expectError(late.res, 'DUPLICATE_PARTNER_REFERENCE');
    },
  );

  // Spec 4.7.7 (quoted above)
  check('4.7.7')(
    {
      ...twoPartners,
      name: "Partner B may use partner A's partnerReference (references are per partner): 201, no duplicate",
    },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const quoted = await quoteFor(t, 'partnerA', request);
          if (!quoted) return SKIP;
          const a = await requireBooking(t, 'partnerA', quoted.quoteId);
          const reference = a.body.partnerReference as string;
          const qb = await requireQuote(t, 'partnerB');
          const b = await sendBooking(t, 'partnerB', qb.quoteId, {
            body: plainRequest(t, qb.quoteId, { partnerReference: reference }),
          });
          expectCreated(t, b.res);
          expect((b.res.body as Reservation).partnerReference).toBe(reference);
          const found = await requireReservationsByReference(t, 'partnerA', reference);
          const bId = (b.res.body as Reservation).reservationId;
          // B's reservation in A's list is partner isolation's deviation (1.4a), not a second rental of A's.
          claim('1.4a', !found.some((r) => r.reservationId === bId), "B's reservation is not in A's list", {
            actual: bId,
          });
          expect(
            found.map((r) => r.reservationId).filter((id) => id !== bId),
            "A's reservations with the reference",
          ).toEqual([a.reservation.reservationId]);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.8: "The same quoteId under a new key creates a second real reservation (a quote is not single-use)."
  check('4.7.8')(
    { ...booking, name: 'The same quoteId under a new key creates a second, distinct reservation' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          // The first booking is 4.7.2's step; the second, from the same quote, is what this clause judges.
          const first = await requireBooking(t, 'partnerA', q.quoteId);
          const second = await sendBooking(t, 'partnerA', q.quoteId);
          const reservation = expectBooked(second.res, 'the same quoteId under a new key');
          expect(reservation.reservationId, 'a second reservation').not.toBe(first.reservation.reservationId);
          for (const booked of [first, { body: second.body, reservation }]) {
            const read = await requireReservation(t, 'partnerA', booked.reservation.reservationId);
            expect(read.partnerReference).toBe(booked.body.partnerReference);
          }
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.9a: "Quote expired: 409 QUOTE_EXPIRED"
  check('4.7.9a')(
    { ...booking, hooks: ['quotes.expire'], name: 'A quote past its 30 minutes: 409 QUOTE_EXPIRED, nothing created' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          await t.hooks.expireQuote(q.quoteId);
          const attempt = await sendBooking(t, 'partnerA', q.quoteId);
          expectError(attempt.res, 'QUOTE_EXPIRED');
          await expectNothingCreated(t, 'partnerA', attempt.body.partnerReference);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.9b: "price moved: 409 QUOTE_STALE"
  check('4.7.9b')(
    {
      ...booking,
      hooks: ['prices.move'],
      name: 'The quoted vehicle’s price moved after the quote: 409 QUOTE_STALE, nothing created',
    },
    async (t) => {
      const control = t.hooks;
      // Up or down, by a generated share: any move of the price makes the quote stale.
      const moves = fc.integer({ min: 5, max: 50 }).chain((p) => fc.constantFrom(p, -p));
      await t.forAll(
        fc.tuple(await quoteWindow(t, 'partnerA'), moves),
        async ([request, percent]) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          // The vehicle asked for: whether the quote describes it is 2.9.5's, not this clause's.
          try {
            await control.movePrice(request.vehicleCode, percent);
            const attempt = await sendBooking(t, 'partnerA', q.quoteId);
            expectError(attempt.res, 'QUOTE_STALE');
            await expectNothingCreated(t, 'partnerA', attempt.body.partnerReference);
          } finally {
            await control.movePrice(request.vehicleCode, 0);
          }
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.9c: "quote not valid for this partner or tampered: 400 QUOTE_INVALID."
  check('4.7.9c')(
    {
      ...booking,
      name: 'A quoteId changed in one character (a digit raised to 9): 400 QUOTE_INVALID, nothing created',
    },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          const tampered = unissuedId(q.quoteId);
          expect(tampered).not.toBe(q.quoteId);
          const attempt = await sendBooking(t, 'partnerA', tampered);
          expectError(attempt.res, 'QUOTE_INVALID');
          await expectNothingCreated(t, 'partnerA', attempt.body.partnerReference);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.9c (quoted above)
  check('4.7.9c')(
    {
      ...booking,
      name: 'A random string of 8 to 4096 characters as quoteId: 400 QUOTE_INVALID or VALIDATION_ERROR (generated)',
    },
    async (t) => {
      const visible = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
      const randomId = fc.oneof(
        { arbitrary: xmlText({ minLength: 8, maxLength: 300, unit: visible }), weight: 4 },
        { arbitrary: xmlText({ minLength: 8, maxLength: 4096, unit: visible }), weight: 1 },
      );
      await t.forAll(randomId, async (quoteId) => {
        const attempt = await sendBooking(t, 'partnerA', quoteId);
        // A string of valid length that is no quote: either code (docs/ambiguities.md RS20).
        expectError(attempt.res, ['QUOTE_INVALID', 'VALIDATION_ERROR']);
      });
    },
  );

  // Spec 4.7.9c (quoted above)
  check('4.7.9c')(
    { ...twoPartners, name: "Another partner's quote, either way round: 400 QUOTE_INVALID, nothing created" },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const qa = await quoteFor(t, 'partnerA', request);
          if (!qa) return SKIP;
          const qb = await requireQuote(t, 'partnerB');
          const bWithA = await sendBooking(t, 'partnerB', qa.quoteId);
          expectError(bWithA.res, 'QUOTE_INVALID');
          await expectNothingCreated(t, 'partnerB', bWithA.body.partnerReference);
          const aWithB = await sendBooking(t, 'partnerA', qb.quoteId);
          expectError(aWithB.res, 'QUOTE_INVALID');
          await expectNothingCreated(t, 'partnerA', aWithB.body.partnerReference);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.9c (quoted above)
  check('4.7.9c')(
    {
      ...twoPartners,
      name: "Partner B quoting with partner A's accountCode or rateCode: 400 INVALID_ACCOUNT_CODE / INVALID_RATE_CODE",
    },
    async (t) => {
      const plansA = await plansOf(t, 'partnerA');
      const plansB = await plansOf(t, 'partnerB');
      const accountsB = new Set(plansB.map((p) => p.accountCode));
      const foreign = plansA.find((p) => !accountsB.has(p.accountCode));
      if (!foreign) return t.notApplicable('partner A lists no account code that partner B lacks');
      const base = await plainQuoteRequest(t, 'partnerB');
      // A's account with A's rate: the account is unknown to B (either code names the fault: both are foreign).
      const both = await t.client('partnerB').post('/quotes', {
        ...base,
        accountCode: foreign.accountCode,
        rateCode: foreign.rateCode,
      });
      expectError(both, ['INVALID_ACCOUNT_CODE', 'INVALID_RATE_CODE']);
      const ownPlan = plansB[0];
      if (ownPlan && !plansB.some((p) => p.rateCode === foreign.rateCode)) {
        // B's own enabled account with A's rate code: only the rate code is at fault; B could also hold an unlisted
        // pending plan of that code (docs/ambiguities.md S10).
        const rate = await t.client('partnerB').post('/quotes', {
          ...base,
          accountCode: ownPlan.accountCode,
          rateCode: foreign.rateCode,
        });
        expectError(rate, ['INVALID_RATE_CODE', 'RATE_NOT_APPROVED']);
        // A's account with B's own rate code: the account is at fault (the pair does not exist either).
        const account = await t.client('partnerB').post('/quotes', {
          ...base,
          accountCode: foreign.accountCode,
          rateCode: ownPlan.rateCode,
        });
        expectError(account, ['INVALID_ACCOUNT_CODE', 'INVALID_RATE_CODE']);
      }
    },
  );

  // Spec 4.7.10: "Declined: 422 RESERVATION_REJECTED."
  check('4.7.10')(
    {
      ...booking,
      hooks: ['bookings.declineNext'],
      name: 'The operator declines the booking: 422 RESERVATION_REJECTED, nothing created',
    },
    async (t) => {
      const control = t.hooks;
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          try {
            await control.declineNextBookings(1);
            const attempt = await sendBooking(t, 'partnerA', q.quoteId);
            expectError(attempt.res, 'RESERVATION_REJECTED');
            await expectNothingCreated(t, 'partnerA', attempt.body.partnerReference);
          } finally {
            await control.declineNextBookings(0);
          }
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.11: "Header `Idempotency-Key` (required, string, 8 to 200 chars, unique per attempt)."
  check('4.7.11')(
    { ...booking, name: 'Idempotency-Keys of 8 to 200 characters are accepted (bounds and generated keys)' },
    async (t) => {
      // A quote per booking (booking one quote again is 3.10's matter); the exact 201 is 4.7.2's (expectBooked).
      for (const length of [8, 200]) {
        const key = freshKey(t, length);
        const booked = await sendBooking(t, 'partnerA', (await requireQuote(t, 'partnerA')).quoteId, { key });
        expectBooked(booked.res, `a booking with a key of ${length} characters`);
      }
      await t.forAll(
        idempotencyKey(),
        async (generated) => {
          const key = uniquify(t, generated);
          const booked = await sendBooking(t, 'partnerA', (await requireQuote(t, 'partnerA')).quoteId, { key });
          expectBooked(booked.res, `a booking with the key ${JSON.stringify(key)}`);
        },
        { numRuns: casesFor(t, 'generatedBooking') },
      );
    },
  );

  // Spec 4.7.11 (quoted above)
  check('4.7.11')(
    {
      ...booking,
      name: 'Idempotency-Key empty, shorter than 8 or longer than 200: 400 (VALIDATION_ERROR or IDEMPOTENCY_KEY_REQUIRED)',
    },
    async (t) => {
      const q = await requireQuote(t, 'partnerA');
      for (const c of idempotencyKeyCases()) {
        const key = c.headers[IDEMPOTENCY_HEADER];
        if (key === null || key === undefined || c.expect === 'unspecified' || !('reject' in c.expect)) continue;
        const attempt = await sendBooking(t, 'partnerA', q.quoteId, { key });
        try {
          expectRefusal(attempt.res, c.expect, t.representation);
        } catch (error) {
          if (error instanceof Error) error.message = `${c.name} (${c.expect.basis}): ${error.message}`;
          throw error;
        }
        await expectNothingCreated(t, 'partnerA', attempt.body.partnerReference);
      }
      await t.forAll(badIdempotencyKey(), async (key) => {
        const attempt = await sendBooking(t, 'partnerA', q.quoteId, { key });
        expectError(attempt.res, ['VALIDATION_ERROR', 'IDEMPOTENCY_KEY_REQUIRED'], {
          otherCodes: true,
        });
      });
    },
  );

  // Spec 4.7.12: "Body: ReservationRequest."
  check('4.7.12')(
    {
      ...booking,
      name: 'Generated ReservationRequests (drivers, remarks, flight numbers, references) on generated quotes: 201',
    },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      await t.forAll(
        quoteRequest(cat).chain((qr) =>
          fc.tuple(
            fc.constant(qr),
            generatedRequest(
              t,
              'quote-id-to-come',
              cat.vehicles.find((v) => v.vehicleCode === qr.vehicleCode),
            ),
          ),
        ),
        async ([qr, generated]) => {
          const q = await requireQuote(t, 'partnerA', qr);
          const body = freshen(t, { ...generated, quoteId: q.quoteId });
          const attempt = await sendBooking(t, 'partnerA', q.quoteId, { body });
          expectCreated(t, attempt.res);
          expectBookedFrom(attempt.res.body as Reservation, q, body, qr);
        },
        { numRuns: casesFor(t, 'generatedBooking') },
      );
    },
  );

  // Spec 4.7.12 (quoted above)
  check('4.7.12')(
    { ...booking, name: 'A ReservationRequest with one schema fault: 400, nothing created (generated faults)' },
    async (t) => {
      const q = await requireQuote(t, 'partnerA');
      // An unknown top-level key is always among the faults sent (a closed body: spec 2.12); the others are drawn.
      const unknownKey = faultsOf(
        'ReservationRequest',
        plainRequest(t, q.quoteId),
        (f) => f.kind === 'unknown-property' && f.path === UNKNOWN_PROPERTY,
      );
      const expectRefused = async (fault: (typeof unknownKey)[number]) => {
        const attempt = await sendBooking(t, 'partnerA', q.quoteId, {
          body: fault.value as unknown as ReservationRequest,
        });
        try {
          expectRefusal(attempt.res, fault.expect, t.representation);
        } catch (error) {
          if (error instanceof Error) error.message = `${fault.name} (${fault.expect.basis}): ${error.message}`;
          throw error;
        }
      };
      for (const fault of unknownKey) await expectRefused(fault);
      const valid = generatedRequest(t, q.quoteId).map((generated) => freshen(t, generated));
      await t.forAll(schemaFault('ReservationRequest', valid), expectRefused);
    },
  );

  // Spec 4.7.13: "Other errors: 400, 401, 403, 429."
  check('4.7.13')(
    { ...booking, name: 'Without a token: 401, nothing created; the same request with a token then books' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          const body = plainRequest(t, q.quoteId);
          const headers = { [IDEMPOTENCY_HEADER]: freshKey(t) };
          const anonymous = await t.anonymous.post('/reservations', body, { headers });
          expectError(anonymous, ['INVALID_TOKEN', 'UNAUTHORIZED']);
          await expectNothingCreated(t, 'partnerA', body.partnerReference);
          // A fresh key: whether a refused call's key may be reused is left open (rows 10 and 49 of the ambiguity list).
          const booked = await t.client('partnerA').post('/reservations', body, {
            headers: { [IDEMPOTENCY_HEADER]: freshKey(t) },
          });
          recordIfCreated(t, booked);
          expectBooked(booked, 'the same request with a token');
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.0.12 (quoted above)
  check('4.0.12')(
    { ...booking, name: 'A token lacking reservations:write: refused (403 INSUFFICIENT_SCOPE), nothing created' },
    async (t) => {
      await t.forAll(
        fc.tuple(await quoteWindow(t, 'partnerA'), otherScope(t, 'reservations:write')),
        async ([request, scopes]) => {
          const q = await quoteFor(t, 'partnerA', request);
          if (!q) return SKIP;
          const body = plainRequest(t, q.quoteId);
          const scoped = await t.client('partnerA').post('/reservations', body, {
            headers: { [IDEMPOTENCY_HEADER]: freshKey(t) },
            scopes,
          });
          recordIfCreated(t, scoped);
          expectError(scoped, 'INSUFFICIENT_SCOPE');
          await expectNothingCreated(t, 'partnerA', body.partnerReference);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.7.13 (quoted above)
  check('4.7.13')(
    { ...booking, needs: ['partnerA', 'readOnly'], name: 'A client without booking scopes: 403 INSUFFICIENT_SCOPE' },
    async (t) => {
      // Cases the readOnly client cannot quote are not judged (few of them: not applicable).
      await t.forAll(
        await quoteWindow(t, 'readOnly'),
        async (request) => {
          const shopped = await t.client('readOnly').post('/quotes', request);
          if (shopped.status !== 201) return SKIP;
          const q = bodyOf<Quote>(shopped, 'POST /quotes');
          const attempt = await sendBooking(t, 'readOnly', q.quoteId);
          // Served: a booking scope in the grant is 1.7's, a token lacking it served 4.0.12's (filed there).
          await requireUnscopedBookingRefused(t, 'readOnly', attempt.res);
          expectError(attempt.res, 'INSUFFICIENT_SCOPE');
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );
});
