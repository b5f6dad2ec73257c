/**
 * Spec 4.10 PATCH /reservations/{reservationId}: always 501 MODIFICATION_NOT_SUPPORTED, after authentication
 * (401) and scope (403); with its row of the endpoint table (4.0.15). 501 for any id and any body
 * (docs/ambiguities.md #54): another partner's reservation is no exception, so it leaks nothing.
 */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { expectError } from '../harness/check/expect-api.ts';
import type { Role } from '../harness/config/target-config.ts';
import { requireQuotedBooking, requireReservation } from './support/booking.ts';
import { otherScope, patchBodies } from './support/draws.ts';
import { errorWithoutRequestId, unissuedId } from './support/ids.ts';
import { booking } from './support/presets.ts';
import { generatedRequest } from './support/reservation-requests.ts';

const twoPartners = { ...booking, needs: ['partnerA', 'partnerB'] as Role[] };

const pathOf = (id: string) => `/reservations/${encodeURIComponent(id)}`;

describe('4.10 PATCH /reservations/{reservationId}', () => {
  // Spec 4.0.15: "PATCH | /api/partner/v1/reservations/{reservationId} | reservations:write | never; always 501"
  check('4.0.15')(
    { ...booking, name: 'PATCH with a token holding only reservations:write: 501, never a success' },
    async (t) => {
      const { reservation } = await requireQuotedBooking(t, 'partnerA');
      await t.forAll(
        patchBodies,
        async (change) => {
          const res = await t
            .client('partnerA')
            .patch(pathOf(reservation.reservationId), change, { scopes: ['reservations:write'] });
          expectError(res, 'MODIFICATION_NOT_SUPPORTED');
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 4.10.1: "Always 501 MODIFICATION_NOT_SUPPORTED (after authentication and scope checks: 401, 403)."
  check('4.10.1')(
    { ...booking, name: 'PATCH of own reservation with generated bodies: 501, the reservation unchanged' },
    async (t) => {
      const { reservation, body } = await requireQuotedBooking(t, 'partnerA');
      const before = await requireReservation(t, 'partnerA', reservation.reservationId);
      const partial = generatedRequest(t, body.quoteId).chain((request) =>
        fc
          .subarray(Object.keys(request))
          .map((keys) => Object.fromEntries(keys.map((k) => [k, request[k as keyof typeof request]]))),
      );
      await t.forAll(partial, async (patch) => {
        const res = await t.client('partnerA').patch(pathOf(reservation.reservationId), patch);
        expectError(res, 'MODIFICATION_NOT_SUPPORTED');
      });
      expect(await requireReservation(t, 'partnerA', reservation.reservationId)).toEqual(before);
    },
  );

  // Spec 4.10.1 (quoted above)
  check('4.10.1')(
    {
      ...twoPartners,
      name: "PATCH by partner B of partner A's reservation and of an unknown id: the same 501, A's unchanged",
    },
    async (t) => {
      const { reservation } = await requireQuotedBooking(t, 'partnerA');
      const id = reservation.reservationId;
      const unknownId = unissuedId(id);
      await t.forAll(
        patchBodies,
        async (change) => {
          const foreign = await t.client('partnerB').patch(pathOf(id), change);
          const unknown = await t.client('partnerB').patch(pathOf(unknownId), change);
          expectError(foreign, 'MODIFICATION_NOT_SUPPORTED');
          expectError(unknown, 'MODIFICATION_NOT_SUPPORTED');
          expect(errorWithoutRequestId(foreign, id)).toEqual(errorWithoutRequestId(unknown, unknownId));
        },
        { numRuns: casesFor(t, 'request') },
      );
      expect((await requireReservation(t, 'partnerA', id)).status).toBe(reservation.status);
    },
  );

  // Spec 4.10.1 (quoted above)
  check('4.10.1')({ ...booking, name: 'PATCH without a token: 401 before any 501' }, async (t) => {
    const { reservation } = await requireQuotedBooking(t, 'partnerA');
    await t.forAll(
      patchBodies,
      async (change) => {
        const res = await t.anonymous.patch(pathOf(reservation.reservationId), change);
        expectError(res, ['INVALID_TOKEN', 'UNAUTHORIZED']);
      },
      { numRuns: casesFor(t, 'request') },
    );
  });

  // Spec 4.0.15 (quoted above)
  check('4.0.15')(
    { ...booking, name: 'PATCH with a token lacking reservations:write: 403 INSUFFICIENT_SCOPE before any 501' },
    async (t) => {
      const { reservation } = await requireQuotedBooking(t, 'partnerA');
      await t.forAll(
        fc.tuple(patchBodies, otherScope(t, 'reservations:write')),
        async ([change, scopes]) => {
          const res = await t.client('partnerA').patch(pathOf(reservation.reservationId), change, { scopes });
          expectError(res, 'INSUFFICIENT_SCOPE');
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );
});
