import { inSection } from './define.ts';
import type { Clause } from './types.ts';

/** Spec 3: reservation states, one clause per row of the transition table (3.2–3.8), then the quote rules. */
export const STATE_CLAUSES: readonly Clause[] = inSection('3', [
  {
    id: '3.1',
    title: 'Reservation status values: pending, confirmed, in_progress, completed, cancelled, expired, rejected',
    text: 'Reservation `status` values: pending, confirmed, in_progress, completed, cancelled, expired, rejected.',
    verification: 'wire',
    minProfile: 'book',
  },
  {
    id: '3.2',
    title: 'A valid, accepted booking creates a confirmed reservation: 201, no payment, no unit held',
    text: '(none) | POST reservations | valid quote, accepted | confirmed | 201; no online payment; no unit held',
    verification: 'wire',
    minProfile: 'book',
  },
  {
    id: '3.3',
    title: 'A booking declined by the operator: 422 RESERVATION_REJECTED, no reservation described',
    text: '(none) | POST reservations | declined by the operator | no reservation described | 422 RESERVATION_REJECTED',
    verification: 'hooks',
    minProfile: 'full',
  },
  {
    id: '3.4',
    title: 'Cancelling a cancellable reservation with no money associated: 200, cancelled',
    text: 'a cancellable state | POST cancel | no money (rental payment or security deposit) associated | cancelled | 200 with the reservation',
    verification: 'wire',
    minProfile: 'book',
  },
  {
    id: '3.5',
    title: 'Cancelling with money associated: 409 CANCELLATION_NEEDS_STAFF, state unchanged, request recorded',
    text: 'a cancellable state | POST cancel | money associated | unchanged | 409 CANCELLATION_NEEDS_STAFF; request recorded; staff alerted; staff apply the published cancellation-fee and refund policy',
    verification: 'hooks',
    minProfile: 'full',
  },
  {
    id: '3.6',
    title: 'Repeating a cancel on a cancelled reservation: 200 with the current state',
    text: 'cancelled | POST cancel | repeated | cancelled | 200 with current state (success)',
    verification: 'wire',
    minProfile: 'book',
  },
  {
    id: '3.7',
    title: 'Cancelling a non-cancellable reservation: 409 INVALID_STATE_TRANSITION, state unchanged',
    text: 'a non-cancellable state | POST cancel | | unchanged | 409 INVALID_STATE_TRANSITION',
    verification: 'hooks',
    minProfile: 'full',
  },
  {
    id: '3.8',
    title: 'PATCH on a reservation in any state: 501 MODIFICATION_NOT_SUPPORTED, state unchanged',
    text: 'any | PATCH | | unchanged | 501 MODIFICATION_NOT_SUPPORTED',
    verification: 'wire',
    minProfile: 'book',
  },
  {
    id: '3.9',
    title: 'Quotes expire 30 minutes after issue; QUOTE_EXPIRED afterwards',
    text: 'Quotes are not a reservation state but expire 30 minutes after issue (QUOTE_EXPIRED afterwards).',
    verification: 'hooks',
    minProfile: 'full',
  },
  {
    id: '3.10',
    title: 'A quote is not single-use',
    text: 'A quote is not single-use.',
    verification: 'wire',
    minProfile: 'book',
  },
]);
