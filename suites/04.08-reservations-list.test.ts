/**
 * Spec 4.8 GET /reservations: `limit` 1 to 100 (default 25), newest first, only the caller's reservations, a
 * ReservationList; with its row of the endpoint table (4.0.13).
 */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { Reservation, ReservationList } from '../contract/types.ts';
import { type CheckContext, check, SKIP } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { expectError, expectMediaType, expectSchema } from '../harness/check/expect-api.ts';
import type { Role } from '../harness/config/target-config.ts';
import { REPRESENTATIONS } from '../harness/http/representation.ts';
import {
  appliedLimit,
  requireBooking,
  requireQuote,
  requireQuotedBooking,
  requireReservationList,
} from './support/booking.ts';
import { otherScope, quoteFor, quoteWindow } from './support/draws.ts';
import { booking } from './support/presets.ts';

const reading = { needs: ['partnerA' as Role], representations: REPRESENTATIONS };
const twoPartners = { ...booking, needs: ['partnerA', 'partnerB'] as Role[] };

const DEFAULT_LIMIT = 25;

/**
 * At least `count` reservations of the role exist, each booked from a quote of its own (a quote is not single-use, but
 * that is 3.10's rule, judged there).
 */
async function ensureReservations(t: CheckContext, role: Role, count: number) {
  const existing = (await requireReservationList(t, role)).length;
  for (let i = existing; i < count; i++) await requireBooking(t, role, (await requireQuote(t, role)).quoteId);
}

/** A 200 ReservationList in the check's representation, valid; count the page length or the total (ambiguity #34). */
function expectList(t: CheckContext, res: Parameters<typeof expectSchema>[0]): ReservationList {
  expect(res.status, res.excerpt).toBe(200);
  expectMediaType(res, t.representation);
  expectSchema(res, 'ReservationList');
  const list = res.body as ReservationList;
  expect(
    Number.isInteger(list.count) && list.count >= list.reservations.length,
    'count is the number returned or the total',
  ).toBe(true);
  return list;
}

describe('4.8 GET /reservations', () => {
  // Spec 4.0.13: "GET | /api/partner/v1/reservations | reservations:read | 200 ReservationList"
  check('4.0.13')(
    { ...booking, name: 'GET /reservations with a token holding only reservations:read: 200 ReservationList' },
    async (t) => {
      await requireQuotedBooking(t, 'partnerA');
      const res = await t.client('partnerA').get('/reservations', { scopes: ['reservations:read'] });
      expectList(t, res);
    },
  );

  // Spec 4.8.1: "Query limit: integer, 1 to 100, default 25."
  check('4.8.1')(
    { ...booking, name: 'Without limit: 25 reservations and limit 25, when more than 25 exist' },
    async (t) => {
      await ensureReservations(t, 'partnerA', DEFAULT_LIMIT + 1);
      const list = expectList(t, await t.client('partnerA').get('/reservations'));
      expect(appliedLimit(list, 'GET /reservations'), 'the default limit').toBe(DEFAULT_LIMIT);
      expect(list.reservations.length, 'reservations returned by default').toBe(DEFAULT_LIMIT);
    },
  );

  // Spec 4.8.1 (quoted above)
  check('4.8.1')({ ...booking, name: 'limit 1, 26 and 100: at most that many, limit echoed' }, async (t) => {
    await ensureReservations(t, 'partnerA', DEFAULT_LIMIT + 1);
    const limits = fc.oneof(fc.constantFrom(1, DEFAULT_LIMIT + 1, 100), fc.integer({ min: 1, max: 100 }));
    await t.forAll(
      limits,
      async (limit) => {
        const list = expectList(t, await t.client('partnerA').get(`/reservations?limit=${limit}`));
        expect(
          appliedLimit(list, `GET /reservations?limit=${limit}`),
          `limit of GET /reservations?limit=${limit}`,
        ).toBe(limit);
        expect(list.reservations.length, `reservations returned with limit ${limit}`).toBeLessThanOrEqual(limit);
        // More than 25 exist: a limit up to 26 is filled.
        if (limit <= DEFAULT_LIMIT + 1) expect(list.reservations.length).toBe(limit);
        else expect(list.reservations.length).toBeGreaterThan(DEFAULT_LIMIT);
      },
      { numRuns: casesFor(t, 'request') },
    );
  });

  // Spec 4.8.1 (quoted above)
  check('4.8.1')(
    {
      ...booking,
      name: 'limit outside 1 to 100 or not an integer: 400 VALIDATION_ERROR, or 200 with a limit from 1 to 100',
    },
    async (t) => {
      // docs/ambiguities.md #31: 4.8 lists no 400, so a target may also clamp.
      await requireQuotedBooking(t, 'partnerA');
      const limits = fc.oneof(
        fc.constantFrom('0', '101', '-1', '1.5', 'ten', ''),
        fc.integer({ min: 101, max: 1_000_000 }).map(String),
        fc.integer({ min: -1_000, max: 0 }).map(String),
        fc.tuple(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 9 })).map(([i, f]) => `${i}.${f}`),
        fc.stringMatching(/^[a-z]{1,8}$/),
      );
      await t.forAll(
        limits,
        async (limit) => {
          const res = await t.client('partnerA').get(`/reservations?limit=${encodeURIComponent(limit)}`);
          if (res.status === 200) {
            const list = expectList(t, res);
            expect(
              appliedLimit(list, `GET /reservations?limit=${limit}`),
              `applied limit for limit=${limit}`,
            ).toBeGreaterThanOrEqual(1);
            expect(list.limit, `applied limit for limit=${limit}`).toBeLessThanOrEqual(100);
            expect(list.reservations.length).toBeLessThanOrEqual(list.limit);
          } else {
            // A 400 code of the server's own passes too (7.3: the specific code of a violation "is not shown").
            expectError(res, 'VALIDATION_ERROR', { otherCodes: true });
          }
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 4.8.2: "Newest first."
  check('4.8.2')(
    { ...booking, name: 'Three reservations booked one after another are listed newest first' },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          // A quote of the request per booking: booking one quote again is 3.10's matter.
          const ids: string[] = [];
          for (let i = 0; i < 3; i++) {
            const q = await quoteFor(t, 'partnerA', request);
            if (!q) return SKIP;
            ids.push((await requireBooking(t, 'partnerA', q.quoteId)).reservation.reservationId);
          }
          const list = expectList(t, await t.client('partnerA').get('/reservations?limit=100'));
          const positions = ids.map((id) => list.reservations.findIndex((r) => r.reservationId === id));
          expect(
            positions.every((p) => p >= 0),
            `all three listed (positions ${positions})`,
          ).toBe(true);
          // Newest by the clock the target shows: two bookings whose createdAt is the same instant as written (a
          // target showing whole seconds, audit 4.8-R2) are equally new and may come in either order.
          const listed = ids.map((id) => list.reservations.find((r) => r.reservationId === id));
          const sameTime = (i: number, j: number) => {
            const [a, b] = [listed[i]?.createdAt, listed[j]?.createdAt];
            return (
              a !== undefined && (a === b || (!Number.isNaN(Date.parse(a)) && Date.parse(a) === Date.parse(b ?? '')))
            );
          };
          for (let i = 0; i < positions.length; i++) {
            for (let j = i + 1; j < positions.length; j++) {
              if (sameTime(i, j)) continue;
              expect(
                (positions[j] ?? -1) < (positions[i] ?? -1),
                `booking ${j + 1} (createdAt ${listed[j]?.createdAt}), the newer, listed after booking ${i + 1} (createdAt ${listed[i]?.createdAt}): positions ${positions}`,
              ).toBe(true);
            }
          }
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.8.2 (quoted above)
  check('4.8.2')(
    { ...booking, name: 'createdAt does not increase down the list (when it is a date-time)', level: 'SHOULD' },
    async (t) => {
      await requireQuotedBooking(t, 'partnerA');
      const list = expectList(t, await t.client('partnerA').get('/reservations?limit=100'));
      const times = list.reservations.map((r) => Date.parse(r.createdAt));
      if (times.some(Number.isNaN)) return t.notApplicable('createdAt is not a date-time (its format is not shown)');
      for (let i = 1; i < times.length; i++) {
        expect(times[i], `createdAt of item ${i} against item ${i - 1}`).toBeLessThanOrEqual(times[i - 1] as number);
      }
    },
  );

  // Spec 4.8.3: "Only the caller's reservations."
  check('4.8.3')(
    { ...twoPartners, name: "Each partner's list holds its own reservations and never the other's" },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, 'partnerA'),
        async (request) => {
          const quoted = await quoteFor(t, 'partnerA', request);
          if (!quoted) return SKIP;
          const a = await requireBooking(t, 'partnerA', quoted.quoteId);
          const b = await requireQuotedBooking(t, 'partnerB');
          const listA = expectList(t, await t.client('partnerA').get('/reservations?limit=100'));
          const listB = expectList(t, await t.client('partnerB').get('/reservations?limit=100'));
          const idsA = listA.reservations.map((r: Reservation) => r.reservationId);
          const idsB = listB.reservations.map((r: Reservation) => r.reservationId);
          expect(idsA, "A's own reservation").toContain(a.reservation.reservationId);
          expect(idsB, "B's own reservation").toContain(b.reservation.reservationId);
          expect(idsA, "B's reservation in A's list").not.toContain(b.reservation.reservationId);
          expect(idsB, "A's reservation in B's list").not.toContain(a.reservation.reservationId);
          expect(
            idsA.filter((id) => idsB.includes(id)),
            'reservations in both lists',
          ).toEqual([]);
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 4.8.4: "Response ReservationList."
  check('4.8.4')(
    { ...booking, name: 'GET /reservations: 200 ReservationList holding the new reservation' },
    async (t) => {
      const { reservation } = await requireQuotedBooking(t, 'partnerA');
      const list = expectList(t, await t.client('partnerA').get('/reservations'));
      const listed = list.reservations.find((r) => r.reservationId === reservation.reservationId);
      expect(listed, 'the newest reservation is listed on the first page').toBeDefined();
      expect(listed?.partnerReference).toBe(reservation.partnerReference);
    },
  );

  // Spec 4.8.5: "Errors: 401, 403, 429."
  check('4.8.5')({ ...reading, name: 'Without a token: 401' }, async (t) => {
    expectError(await t.anonymous.get('/reservations'), ['INVALID_TOKEN', 'UNAUTHORIZED']);
  });

  // Spec 4.0.13 (quoted above)
  check('4.0.13')({ ...reading, name: 'With a token lacking reservations:read: 403 INSUFFICIENT_SCOPE' }, async (t) => {
    await t.forAll(
      otherScope(t, 'reservations:read'),
      async (scopes) => {
        const res = await t.client('partnerA').get('/reservations', { scopes });
        expectError(res, 'INSUFFICIENT_SCOPE');
      },
      { numRuns: casesFor(t, 'request') },
    );
  });
});
