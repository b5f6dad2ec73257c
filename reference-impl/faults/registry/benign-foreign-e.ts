import { LIMITS } from '../../../contract/limits.ts';
import type { Reservation } from '../../../contract/types.ts';
import { eachObject, envelopeError, isReservation } from '../shapes.ts';
import type { Fault } from '../types.ts';

/**
 * Benign variants of servers written elsewhere (fifth set), from rows 6-R2, 7.3-R2 and 4.13-R6 of the 2026-11-29 clause audit
 * (docs/audit-response.md): the list read from a copy that lags the primary, which spec 6 allows (the read
 * operations "return current state at least once"; clients poll); codes of the server's own for limits it enforces; offers in another order in XML.
 */

/** How far the list's copy is behind: a replica or search index a second behind the primary. */
const REPLICA_LAG_MS = 1_000;

/** One state of a reservation as the primary held it, and when it began (this process's clock, ms). */
interface Seen {
  at: number;
  reservation: Reservation;
}

/**
 * The states each reservation went through, as the primary's answers (a booking, a read by id, a cancel) and the
 * list itself showed them. A change made without an answer (a test hook moving a rental on) is dated when the list
 * first meets it, so it too reaches the list a second late.
 */
class Replica {
  private readonly history = new Map<string, Seen[]>();

  record(reservation: Reservation, now: number): void {
    const states = this.history.get(reservation.reservationId) ?? [];
    const last = states.at(-1);
    if (last && last.reservation.status === reservation.status) return;
    states.push({ at: now, reservation: structuredClone(reservation) });
    this.history.set(reservation.reservationId, states);
  }

  /** What the copy holds of `current` at `now`: the state it had REPLICA_LAG_MS ago, or nothing before it existed. */
  lagged(current: Reservation, now: number): Reservation | undefined {
    this.record(current, now);
    const states = this.history.get(current.reservationId) ?? [];
    return states.findLast((s) => s.at <= now - REPLICA_LAG_MS)?.reservation;
  }
}

export function listReplicaLag(): Fault {
  const replica = new Replica();
  return {
    name: 'benign-list-replica-lag',
    kind: 'benign',
    clause: '6.3',
    description: `GET /reservations is served from a copy ${REPLICA_LAG_MS} ms behind the primary: a booking appears in the list, and a cancel shows there, a second after GET /reservations/{reservationId} shows it.`,
    adjust: {
      'reservations.list': (reservations) => {
        const now = Date.now();
        return reservations.flatMap((r) => replica.lagged(r, now) ?? []);
      },
    },
    response(r) {
      if (r.operation === 'listReservations' || r.status >= 300) return;
      const now = Date.now();
      eachObject(r.value, isReservation, (reservation) => replica.record(reservation as unknown as Reservation, now));
    },
  };
}

/** The Idempotency-Key a booking was sent with, if any. */
function idempotencyKeyOf(headers: Record<string, unknown>): string | undefined {
  const key = headers['idempotency-key'];
  return typeof key === 'string' ? key : undefined;
}

const ownLimitCodes: Fault = {
  name: 'benign-own-limit-codes',
  kind: 'benign',
  clause: '7.3.6',
  description:
    'Limits enforced with 400 codes of the server\'s own (7.3: the specific code of "violations such as …" is not shown): a list limit out of 1 to 100 INVALID_LIMIT, an Idempotency-Key of 1 to 7 or over 200 characters IDEMPOTENCY_KEY_INVALID, more than 50 vehicleCodes TOO_MANY_VEHICLE_CODES.',
  response(r) {
    const error = envelopeError(r.value);
    if (r.status !== 400 || !error) return;
    const fields = Array.isArray(error.fields) ? (error.fields as { field?: unknown }[]) : [];
    if (r.operation === 'listReservations' && error.code === 'VALIDATION_ERROR') error.code = 'INVALID_LIMIT';
    if (r.operation === 'createReservation') {
      const key = idempotencyKeyOf(r.request.headers);
      const { min, max } = LIMITS.idempotencyKeyLength;
      if (key !== undefined && key.length > 0 && (key.length < min || key.length > max)) {
        error.code = 'IDEMPOTENCY_KEY_INVALID';
      }
    }
    if (
      r.operation === 'searchAvailability' &&
      error.code === 'VALIDATION_ERROR' &&
      fields.some((f) => f.field === 'vehicleCodes')
    ) {
      error.code = 'TOO_MANY_VEHICLE_CODES';
    }
  },
};

const xmlOffersReversed: Fault = {
  name: 'benign-xml-offers-reversed',
  kind: 'benign',
  clause: '4.14.18a',
  description:
    'Availability offers come in the opposite order in XML to JSON (the XML writer walks the list from its end): no clause orders offers (ambiguity S33).',
  response(r) {
    const value = r.value as { offers?: unknown } | undefined;
    if (r.representation === 'xml' && r.operation === 'searchAvailability' && r.status === 200) {
      if (Array.isArray(value?.offers)) value.offers.reverse();
    }
  },
};

export const FOREIGN_VARIANTS_E: Fault[] = [listReplicaLag(), ownLimitCodes, xmlOffersReversed];
