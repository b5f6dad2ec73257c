import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { LIMITS } from '../../contract/limits.ts';
import type { JsonValue, Reservation, ReservationRequest, ReservationStatus } from '../../contract/types.ts';
import type { FaultSwitch } from '../faults/switch.ts';
import type { ReferenceGuard } from '../faults/types.ts';
import type { Store, StoredReservation } from '../store/types.ts';
import { apiError } from './failure.ts';
import { localDateOf } from './local-time.ts';
import { type QuoteTokens, quoteDigest } from './quote-tokens.ts';
import { type CallContext, Shopping } from './shopping.ts';
import { timeOrderedUuid } from './time-ordered-id.ts';

/**
 * The states a partner may cancel from (spec 3 leaves the set open): before the rental starts. A rental in
 * progress, completed, expired or rejected is past cancelling; cancelled is handled as a repeat (200).
 */
export const CANCELLABLE_STATES: readonly ReservationStatus[] = ['pending', 'confirmed'];

/** How long a claimed key may stay in flight before a crashed request's claim lapses (spec 4.7.5). */
export const IN_FLIGHT_LEASE_MS = 30_000;
/** The memory of an Idempotency-Key (spec 4.7.3, 4.7.6): older records count as absent. */
export const IDEMPOTENCY_RETENTION_MS = LIMITS.idempotencyMemoryHours * 3_600_000;
const OPERATOR_ZONE = 'Asia/Ho_Chi_Minh';

/** Spec 4.7.7: the store's unique index holds a partnerReference, with no pause after the domain's own check. */
const REFERENCE_GUARD: ReferenceGuard = { uniqueIndex: true, checkToInsertMs: 0 };

export type CreateOutcome = { status: 201 | 200; reservation: Reservation; replay: boolean };

/** Canonical JSON (sorted keys) so the same body in JSON or XML, in any key order, is the same request. */
function canonical(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k] as JsonValue)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function requestHash(body: ReservationRequest): string {
  return createHash('sha256')
    .update(canonical(body as unknown as JsonValue))
    .digest('hex');
}

/** Spec 2.10: the driver must be 18 or over on the day of booking (operator's local date). */
export function isAdultOn(dateOfBirth: string, today: string): boolean {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  const age = ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
  return age >= 18;
}

function bookingCode(): string {
  // Crockford base32 without look-alike letters: read aloud at a rental desk.
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = randomBytes(8);
  let code = '';
  for (const b of bytes) code += alphabet[b % 32];
  return `RKT-${code}`;
}

export class Reservations {
  constructor(
    private readonly store: Store,
    private readonly shopping: Shopping,
    private readonly quotes: QuoteTokens,
    private readonly faults: FaultSwitch,
  ) {}

  /**
   * Spec 4.7: idempotent creation. The key is claimed in the store before any work, released on failure. A request
   * without the header is refused by the route (IDEMPOTENCY_KEY_REQUIRED) unless a fault lifts that rule, and then
   * comes with a key of its own.
   */
  async create(ctx: CallContext, key: string, body: ReservationRequest): Promise<CreateOutcome> {
    const claimToken = randomUUID();
    const claim = await this.store.claimIdempotencyKey({
      partnerId: ctx.partnerId,
      key,
      claimToken,
      requestHash: requestHash(body),
      nowMs: ctx.nowMs,
      leaseMs: IN_FLIGHT_LEASE_MS,
      retentionMs: IDEMPOTENCY_RETENTION_MS,
    });
    switch (claim.kind) {
      case 'replay':
        if (this.faults.enforce('idempotency.replay')) {
          return { status: 200, reservation: claim.body as Reservation, replay: true };
        }
        return this.createUnclaimed(ctx, body);
      case 'conflict':
        if (this.faults.enforce('idempotency.conflict')) {
          throw apiError(
            'IDEMPOTENCY_CONFLICT',
            'This Idempotency-Key was already used with a different request body.',
          );
        }
        return this.createUnclaimed(ctx, body);
      case 'in_flight':
        if (this.faults.enforce('idempotency.inFlight')) throw inFlight();
        return this.createUnclaimed(ctx, body);
    }
    try {
      // The test hook bookings.hold: the claim is held as a slower operator system would hold it, so an identical
      // request that arrives meanwhile meets it in flight (spec 4.7.5).
      if (ctx.control.bookingHoldMs > 0) await sleep(ctx.control.bookingHoldMs);
      const reservation = await this.book(ctx, body);
      const stored: StoredReservation = {
        reservationId: reservation.reservationId,
        partnerId: ctx.partnerId,
        reservation,
        moneyAttached: false,
        createdAtMs: ctx.nowMs,
      };
      if (!this.faults.enforce('partnerReference.unique')) stored.uniqueReference = null;
      // book() looked for the reference already; the store's unique index is what holds it when bookings race.
      const guard = this.faults.adjust('partnerReference.guard', REFERENCE_GUARD, { partnerId: ctx.partnerId });
      if (guard.checkToInsertMs > 0) await sleep(guard.checkToInsertMs);
      const completion = {
        partnerId: ctx.partnerId,
        key,
        claimToken,
        reservation: stored,
        responseStatus: 201,
        responseBody: reservation,
      };
      let done = await this.store.completeReservation(completion);
      if (done.kind === 'duplicate_partner_reference' && !guard.uniqueIndex) {
        // Without the guard the clash is ignored: the rental is stored all the same, outside the unique column (the
        // first holder keeps it, so the lookup in book() still finds the reference).
        done = await this.store.completeReservation({
          ...completion,
          reservation: { ...stored, uniqueReference: null },
        });
      }
      if (done.kind === 'duplicate_partner_reference') throw duplicateReference();
      // Our lease lapsed and another attempt took the key over: it answers for the key, we create nothing.
      if (done.kind === 'claim_lost') throw inFlight();
      return { status: 201, reservation, replay: false };
    } catch (error) {
      await this.store.releaseIdempotencyKey(ctx.partnerId, key, claimToken);
      throw error;
    }
  }

  /** What a server without idempotency does: book whatever the key says (only a fault takes this path). */
  private async createUnclaimed(ctx: CallContext, body: ReservationRequest): Promise<CreateOutcome> {
    // A key of its own per attempt: the store keeps every reservation under some key.
    const key = `unclaimed:${randomUUID()}`;
    const claimToken = randomUUID();
    await this.store.claimIdempotencyKey({
      partnerId: ctx.partnerId,
      key,
      claimToken,
      requestHash: requestHash(body),
      nowMs: ctx.nowMs,
      leaseMs: IN_FLIGHT_LEASE_MS,
      retentionMs: IDEMPOTENCY_RETENTION_MS,
    });
    const reservation = await this.book(ctx, body);
    const done = await this.store.completeReservation({
      partnerId: ctx.partnerId,
      key,
      claimToken,
      reservation: {
        reservationId: reservation.reservationId,
        partnerId: ctx.partnerId,
        reservation,
        moneyAttached: false,
        createdAtMs: ctx.nowMs,
        ...(this.faults.enforce('partnerReference.unique') ? {} : { uniqueReference: null }),
      },
      responseStatus: 201,
      responseBody: reservation,
    });
    if (done.kind === 'duplicate_partner_reference') throw duplicateReference();
    return { status: 201, reservation, replay: false };
  }

  private async book(ctx: CallContext, body: ReservationRequest): Promise<Reservation> {
    const today = localDateOf(ctx.nowMs, OPERATOR_ZONE);
    if (!isAdultOn(body.driver.dateOfBirth, today) && this.faults.enforce('driver.adult')) {
      throw apiError('VALIDATION_ERROR', 'The request body failed validation.', {
        fields: [{ field: 'driver.dateOfBirth', message: 'the driver must be 18 or over' }],
      });
    }
    if (
      body.partnerReference !== undefined &&
      this.faults.enforce('partnerReference.unique') &&
      (await this.store.partnerReferenceExists(ctx.partnerId, body.partnerReference))
    ) {
      throw duplicateReference();
    }
    const checked = await this.quotes.verify(body.quoteId, ctx.nowMs);
    // Test hook "expire a quote": an authentic quote the hooks expired is past its 30 minutes.
    const verified =
      checked.kind === 'valid' &&
      ctx.control.expiredQuotes.length > 0 &&
      ctx.control.expiredQuotes.includes(quoteDigest(body.quoteId))
        ? { kind: 'expired' as const, claims: checked.claims }
        : checked;
    if (
      verified.kind === 'invalid' ||
      (verified.claims.partnerId !== ctx.partnerId && this.faults.enforce('quote.partner'))
    ) {
      throw apiError('QUOTE_INVALID', 'The quote reference is not valid for this partner.');
    }
    if (verified.kind === 'expired' && this.faults.enforce('quote.expiry')) {
      throw apiError('QUOTE_EXPIRED', 'The quote has expired; request a new one.');
    }
    const claims = verified.claims;
    // Spec 4.6: the price is computed again; the quote is evidence of what was asked, not a price on trust.
    const { window, price } = this.shopping.priceRequest(ctx, Shopping.requestOf(claims));
    if (
      (price.total.amount !== claims.totalAmount || price.total.currency !== claims.currency) &&
      this.faults.enforce('quote.price')
    ) {
      throw apiError('QUOTE_STALE', 'The price has changed since the quote was issued; request a new quote.');
    }
    // Taking a decline is a write under the control row's lock: only when the state read for this request has one
    // to take (a write per booking serialised every booking on that row). Concurrent takers still race in
    // the store, which gives each decline to one booking only.
    if (
      ctx.control.declineNextBookings > 0 &&
      (await this.store.takeDeclineNextBooking()) &&
      this.faults.enforce('booking.decline')
    ) {
      throw apiError(
        'RESERVATION_REJECTED',
        'The operator declined this reservation; contact support with the requestId.',
      );
    }
    return {
      reservationId: `RSV-${timeOrderedUuid()}`,
      partnerReference: body.partnerReference ?? null,
      rocketBookingCode: bookingCode(),
      status: this.faults.adjust('reservation.initialStatus', 'confirmed' as ReservationStatus, {}),
      vehicleCode: claims.vehicleCode,
      pickupLocation: claims.pickupLocation,
      dropoffLocation: claims.dropoffLocation,
      pickupDateTime: `${claims.pickupDate}T${claims.pickupTime}:00`,
      dropoffDateTime: `${claims.dropoffDate}T${claims.dropoffTime}:00`,
      rentalDays: window.rentalDays,
      currency: price.total.currency,
      total: price.total,
      commission: price.commission,
      securityDeposit: price.securityDeposit,
      driver: { firstName: body.driver.firstName, lastName: body.driver.lastName, email: body.driver.email },
      accountCode: claims.accountCode,
      rateCode: claims.rateCode,
      createdAt: new Date(ctx.nowMs).toISOString(),
    };
  }

  async list(partnerId: string, limit: number) {
    const rows = await this.store.listReservations(partnerId, limit);
    const reservations = this.faults.adjust(
      'reservations.list',
      rows.map((r) => r.reservation),
      { partnerId, limit },
    );
    const count = this.faults.adjust('reservations.count', reservations.length, {
      partnerId,
      listed: reservations.length,
    });
    return { reservations, count, limit };
  }

  /** Spec 1.4, 4.9: another partner's reservation is indistinguishable from a nonexistent one. */
  async get(partnerId: string, reservationId: string): Promise<Reservation> {
    const row = this.faults.enforce('reservations.ownOnly')
      ? await this.store.getReservation(partnerId, reservationId)
      : await this.store.getReservationById(reservationId);
    if (!row) throw notFound();
    return row.reservation;
  }

  /** Spec 3 and 4.11. */
  async cancel(ctx: CallContext, reservationId: string, reason: string, attempt = 1): Promise<Reservation> {
    const row = await this.store.getReservation(ctx.partnerId, reservationId);
    if (!row) throw notFound();
    const status = row.reservation.status;
    if (status === 'cancelled') return row.reservation;
    const cancellable = this.faults.adjust('cancellable', CANCELLABLE_STATES, { status });
    if (!cancellable.includes(status)) {
      throw apiError('INVALID_STATE_TRANSITION', `A reservation in state ${status} cannot be cancelled.`);
    }
    if (row.moneyAttached && this.faults.enforce('cancel.money')) {
      await this.store.recordStaffAlert({
        alertId: randomUUID(),
        kind: 'cancellation_needs_staff',
        reservationId,
        partnerId: ctx.partnerId,
        reason,
        createdAtMs: ctx.nowMs,
      });
      throw apiError(
        'CANCELLATION_NEEDS_STAFF',
        'A rental payment or security deposit exists; the cancellation request was recorded and staff will review it.',
      );
    }
    // Status and money are judged again in the store's atomic step: money attached meanwhile is never missed.
    const result = await this.store.transitionReservation(reservationId, cancellable, 'cancelled', {
      onlyWithoutMoney: this.faults.enforce('cancel.money'),
    });
    if (!result) throw notFound();
    const now = result.reservation.reservation.status;
    if (result.changed || now === 'cancelled') return result.reservation.reservation;
    // Something moved between our read and the compare-and-set: judge again on the state it is in now.
    if (attempt >= 5) throw apiError('DEPENDENCY_UNAVAILABLE', 'The reservation is changing; retry the cancellation.');
    return this.cancel(ctx, reservationId, reason, attempt + 1);
  }
}

function inFlight() {
  return apiError(
    'IDEMPOTENT_REPLAY_IN_FLIGHT',
    'An identical request with this Idempotency-Key is still being processed.',
  );
}

function duplicateReference() {
  return apiError('DUPLICATE_PARTNER_REFERENCE', 'A reservation with this partnerReference already exists.');
}

/** One message for every miss, so a 404 body differs from another only by its requestId. */
function notFound() {
  return apiError('NOT_FOUND', 'The resource does not exist.');
}
