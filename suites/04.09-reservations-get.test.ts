/**
 * Spec 4.9 GET /reservations/{reservationId}: 200 Reservation for one's own (4.0.14); 401, 403, and 404 for an
 * unknown id and for another partner's reservation, which must be indistinguishable (spec 1.4).
 */

import { describe, expect } from 'vitest';
import type { Reservation } from '../contract/types.ts';
import { check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { expectError, expectMediaType, expectSchema } from '../harness/check/expect-api.ts';
import type { Role } from '../harness/config/target-config.ts';
import { REPRESENTATIONS } from '../harness/http/representation.ts';
import { requireQuotedBooking } from './support/booking.ts';
import { alteredIds, otherScope, unknownIds } from './support/draws.ts';
import { errorWithoutRequestId, unissuedId } from './support/ids.ts';
import { booking } from './support/presets.ts';

const twoPartners = { ...booking, needs: ['partnerA', 'partnerB'] as Role[] };

const pathOf = (id: string) => `/reservations/${encodeURIComponent(id)}`;

describe('4.9 GET /reservations/{reservationId}', () => {
  // Spec 4.0.14: "GET | /api/partner/v1/reservations/{reservationId} | reservations:read | 200 Reservation"
  check('4.0.14')(
    { ...booking, name: 'GET /reservations/{id} with a token holding only reservations:read: 200 Reservation' },
    async (t) => {
      const { reservation } = await requireQuotedBooking(t, 'partnerA');
      const res = await t.client('partnerA').get(pathOf(reservation.reservationId), {
        scopes: ['reservations:read'],
      });
      expect(res.status, res.excerpt).toBe(200);
      expectMediaType(res, t.representation);
      expectSchema(res, 'Reservation');
      expect(res.body as Reservation).toEqual(reservation);
    },
  );

  // Spec 4.9.1: "Errors: 401, 403, 404 (also for another partner's reservation), 429."
  check('4.9.1')({ ...booking, name: 'An unknown reservationId: 404 NOT_FOUND' }, async (t) => {
    const { reservation } = await requireQuotedBooking(t, 'partnerA');
    // Shaped like a real id, so a target cannot tell it apart by its format.
    await t.forAll(
      alteredIds(reservation.reservationId),
      async (id) => {
        const res = await t.client('partnerA').get(pathOf(id));
        expectError(res, 'NOT_FOUND');
      },
      { numRuns: casesFor(t, 'request') },
    );
  });

  // Spec 4.9.1 (quoted above)
  check('4.9.1')(
    {
      ...twoPartners,
      name: "Partner B reading partner A's reservation: 404, the same body as for an unknown id but the requestId",
    },
    async (t) => {
      const { reservation } = await requireQuotedBooking(t, 'partnerA');
      const id = reservation.reservationId;
      const unknownId = unissuedId(id);
      const foreign = await t.client('partnerB').get(pathOf(id));
      const unknown = await t.client('partnerB').get(pathOf(unknownId));
      expectError(foreign, 'NOT_FOUND');
      expectError(unknown, 'NOT_FOUND');
      expect(errorWithoutRequestId(foreign, id), "the 404 for A's reservation against an unknown id's").toEqual(
        errorWithoutRequestId(unknown, unknownId),
      );
      expect(foreign.text, "the 404 body does not carry A's data").not.toContain(reservation.rocketBookingCode);
      // A still reads it.
      const own = await t.client('partnerA').get(pathOf(id));
      expect(own.status, own.excerpt).toBe(200);
    },
  );

  // Spec 4.9.1 (quoted above)
  check('4.9.1')({ needs: ['partnerA'], representations: REPRESENTATIONS, name: 'Without a token: 401' }, async (t) => {
    await t.forAll(
      unknownIds,
      async (id) => {
        const res = await t.anonymous.get(pathOf(id));
        expectError(res, ['INVALID_TOKEN', 'UNAUTHORIZED']);
      },
      { numRuns: casesFor(t, 'request') },
    );
  });

  // Spec 4.0.14 (quoted above)
  check('4.0.14')({ ...booking, name: 'With a token lacking reservations:read: 403 INSUFFICIENT_SCOPE' }, async (t) => {
    const { reservation } = await requireQuotedBooking(t, 'partnerA');
    await t.forAll(
      otherScope(t, 'reservations:read'),
      async (scopes) => {
        const res = await t.client('partnerA').get(pathOf(reservation.reservationId), { scopes });
        expectError(res, 'INSUFFICIENT_SCOPE');
      },
      { numRuns: casesFor(t, 'request') },
    );
  });
});
