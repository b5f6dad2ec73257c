/**
 * The patient path (docs/test-hooks.md "Without hooks: the patient path"): quote and token expiry judged by waiting,
 * for targets without test hooks (the live service, a partner's self-check). The runner issues a token and a quote
 * before the suites start (--patient) and this file runs last, waiting out what is left of their lifetimes:
 * spec 5.3 / 8.1 (600 s) and 3 / 8.2 (30 minutes).
 */
import { describe, expect } from 'vitest';
import type { Reservation } from '../contract/types.ts';
import { type CheckContext, check } from '../harness/check/check.ts';
import { expectError } from '../harness/check/expect-api.ts';
import { requireReservationsByReference, sendBooking } from './support/booking.ts';

const patient = { needs: ['partnerA' as const], patient: true };

/** Resolves at `issuedAtMs + seconds`: the waits are the clocks' own, whatever else ran since they started. */
function until(issuedAtMs: number, seconds: number): Promise<void> {
  const ms = issuedAtMs + seconds * 1000 - Date.now();
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Waits longer than any other check may take: the 30 minutes of a quote, plus margins. */
const WAIT_TIMEOUT_MS = 45 * 60_000;

function clock(t: CheckContext) {
  const clock = t.settings.patient;
  if (!clock) throw new Error('the patient clocks are missing (the check declares patient: true)');
  return clock;
}

describe('patient: expiry judged by waiting', () => {
  // Spec 5.3b: "Tokens are valid 600 seconds"
  check('5.3b')(
    {
      ...patient,
      name: 'A token works until its 600 seconds are nearly over and not after them (by waiting)',
      timeoutMs: WAIT_TIMEOUT_MS,
    },
    async (t) => {
      const { token, tokenSeconds, marginSeconds } = clock(t);
      if (!token) return t.notApplicable('no token could be issued before the run');
      const call = () => t.client('partnerA').get('/locations', { token: token.accessToken, representation: 'json' });
      // Shortly before the end it must still work (a server whose tokens die early fails too).
      if (tokenSeconds > 30) {
        await until(token.issuedAtMs, tokenSeconds - 10);
        const before = await call();
        expect(before.status, `${tokenSeconds - 10} s after issue the token still works`).toBe(200);
      }
      await until(token.issuedAtMs, tokenSeconds + marginSeconds);
      expectError(await call(), ['INVALID_TOKEN', 'UNAUTHORIZED'], { representation: 'json' });
    },
  );

  // Spec 3.9: "Quotes are not a reservation state but expire 30 minutes after issue (QUOTE_EXPIRED afterwards)."
  check('3.9')(
    {
      ...patient,
      profile: 'book',
      bookings: true,
      name: 'A quote expires 30 minutes after issue: booking it then gets 409 QUOTE_EXPIRED (by waiting)',
      timeoutMs: WAIT_TIMEOUT_MS,
    },
    async (t) => {
      const { quote, quoteSeconds, marginSeconds } = clock(t);
      if (!quote) return t.notApplicable('no quote could be issued before the run (the profile must allow shopping)');
      await until(quote.issuedAtMs, quoteSeconds + marginSeconds);
      expectError((await sendBooking(t, 'partnerA', quote.quoteId)).res, 'QUOTE_EXPIRED');
    },
  );

  // Spec 4.7.9a: "Quote expired: 409 QUOTE_EXPIRED"
  check('4.7.9a')(
    {
      ...patient,
      profile: 'book',
      bookings: true,
      name: 'A quote booked after its 30 minutes gets 409 QUOTE_EXPIRED and creates nothing (by waiting)',
      timeoutMs: WAIT_TIMEOUT_MS,
    },
    async (t) => {
      const { quote, quoteSeconds, marginSeconds } = clock(t);
      if (!quote) return t.notApplicable('no quote could be issued before the run (the profile must allow shopping)');
      await until(quote.issuedAtMs, quoteSeconds + marginSeconds);
      const attempt = await sendBooking(t, 'partnerA', quote.quoteId);
      expectError(attempt.res, 'QUOTE_EXPIRED');
      const reference = attempt.body.partnerReference as string;
      expect(
        (await requireReservationsByReference(t, 'partnerA', reference)).map((r: Reservation) => r.reservationId),
        'reservations created by the expired quote',
      ).toEqual([]);
    },
  );
});
