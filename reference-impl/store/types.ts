import type { Reservation, ReservationStatus } from '../../contract/types.ts';

/**
 * The one storage interface of the reference implementation. Two implementations: SQLite (embedded default,
 * one file) and PostgreSQL (many instances). Everything that must hold across instances (idempotency,
 * in-flight detection, partnerReference uniqueness, control state) is enforced here by the database,
 * never by process memory. All times are epoch milliseconds of the service's (virtual) clock.
 */

export interface StoredReservation {
  reservationId: string;
  partnerId: string;
  /** The public representation as last answered (spec 2.11). `status` inside it is kept in step. */
  reservation: Reservation;
  /** Rental payment or security deposit attached by the operator (spec 3: cancel then needs staff). */
  moneyAttached: boolean;
  createdAtMs: number;
  /** The partnerReference held unique per partner; default `reservation.partnerReference` (a fault may lift it). */
  uniqueReference?: string | null;
}

export type IdempotencyClaim =
  /** The caller owns the key now and must finish with completeReservation or releaseIdempotencyKey. */
  | { kind: 'claimed' }
  /** Same key and same request hash, finished within the memory window: answer the stored response. */
  | { kind: 'replay'; status: number; body: unknown }
  /** Same key, different request hash, within the memory window. */
  | { kind: 'conflict' }
  /** Same key and same request hash, still being processed (lease not expired). */
  | { kind: 'in_flight' };

export interface ClaimIdempotencyKeyInput {
  partnerId: string;
  key: string;
  requestHash: string;
  nowMs: number;
  /** In-flight lease; a claim whose lease has lapsed (a crashed request) may be taken over. */
  leaseMs: number;
  /** Memory window (24 h, spec 4.7.6): a record older than this is treated as absent. */
  retentionMs: number;
  /**
   * Random per attempt: the fencing token completion and release must present. A holder whose lease lapsed and
   * whose key was taken over can then neither complete (no second reservation) nor release the new holder's claim.
   */
  claimToken: string;
}

export interface CompleteReservationInput {
  partnerId: string;
  key: string;
  /** The token of the claim being completed (see ClaimIdempotencyKeyInput). */
  claimToken: string;
  reservation: StoredReservation;
  responseStatus: number;
  responseBody: unknown;
}

export type CompleteReservationResult =
  | { kind: 'created' }
  | { kind: 'duplicate_partner_reference' }
  /** The claim lapsed and another attempt holds or finished the key: nothing was written. */
  | { kind: 'claim_lost' };

export interface TransitionOptions {
  /** Change nothing when money is attached, judged in the same atomic step as the status (spec 3: cancel). */
  onlyWithoutMoney?: boolean;
}

export interface StaffAlert {
  alertId: string;
  kind: 'cancellation_needs_staff';
  reservationId: string;
  partnerId: string;
  /** The partner's cancel reason as recorded (operator-only; never returned on partner paths). */
  reason: string;
  createdAtMs: number;
}

/** Operator-controlled state shared by every instance (control API, docs/design.md "Target control"). */
export interface ControlState {
  clockOffsetMs: number;
  apiDisabled: boolean;
  disabledPartnerIds: string[];
  /** vehicleCode -> percentage moved on the public daily rate (e.g. 10 = +10 %). */
  priceMovesPercent: Record<string, number>;
  /** Number of upcoming bookings the operator will decline (422 RESERVATION_REJECTED). */
  declineNextBookings: number;
  /** SHA-256 (hex) of quote ids the test hooks expired (spec 3.9: QUOTE_EXPIRED from then on); newest last. */
  expiredQuotes: string[];
  /** clientId -> epoch ms: access tokens issued to the client before it are expired (test hook). */
  tokensExpiredBefore: Record<string, number>;
  /** Bumped by the rate-limit reset hook: buckets are counted per generation, so a new one starts empty. */
  rateLimitGeneration: number;
  /** Set by the test hook rateLimits.tokenAddressCeiling: the token endpoint's per-address ceiling (null: config's). */
  tokenAddressCeiling: number | null;
  /** Set by the test hook bookings.hold: how long a booking holds its Idempotency-Key claim before it goes on (ms). */
  bookingHoldMs: number;
  /** Named faults partner developers switch on to rehearse failures (docs/design.md "Reference implementation"). */
  faults: Faults;
}

export interface Faults {
  /** Every business call past authentication answers 503 DEPENDENCY_UNAVAILABLE. */
  dependencyUnavailable: boolean;
  /** Every business call past authentication fails unexpectedly: 500 INTERNAL_ERROR. */
  internalError: boolean;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';

  /** Creates tables on first start and applies pending versioned migrations. Idempotent. */
  migrate(): Promise<void>;
  close(): Promise<void>;

  /** A persisted secret (token and quote signing keys) shared by every instance; created once. */
  getOrCreateSecret(name: string, create: () => string): Promise<string>;

  // --- idempotency (spec 4.7) ---
  /**
   * Atomic across instances. A record created at or before `nowMs - retentionMs` counts as absent (new
   * claim, window restarts). A lapsed lease is taken over only by the same request hash, keeping the
   * record's creation time; a different hash within the window is `conflict` even when its lease lapsed.
   */
  claimIdempotencyKey(input: ClaimIdempotencyKeyInput): Promise<IdempotencyClaim>;
  /** Gives a claimed key back (the request failed without creating anything). A done key is kept. */
  releaseIdempotencyKey(partnerId: string, key: string, claimToken: string): Promise<void>;
  /**
   * Forgets every done key first used at or before `createdAtOrBeforeMs` (test hook "forget idempotency keys
   * older than an age"); keys in flight are kept. Returns how many were forgotten.
   */
  forgetIdempotencyKeys(createdAtOrBeforeMs: number): Promise<number>;
  /**
   * One batch of the background purge (domain/idempotency-purge.ts): deletes at most `batchSize` done keys first
   * used at or before `createdAtOrBeforeMs`, found by the creation-time index, and returns how many it deleted
   * (fewer than `batchSize`: nothing older is left). Keys in flight are never deleted. Small batches keep each
   * statement short, so requests are never held up behind a purge of a large backlog.
   */
  purgeIdempotencyKeys(createdAtOrBeforeMs: number, batchSize: number): Promise<number>;
  /**
   * In one transaction: inserts the reservation and marks the key done with the response to replay.
   * A partnerReference already used by the partner yields `duplicate_partner_reference` and writes nothing
   * (the key stays claimed; the caller releases it). Only an in-flight key is marked done: if the key was
   * meanwhile completed by a lapsed holder, that first response stays the one replayed.
   */
  completeReservation(input: CompleteReservationInput): Promise<CompleteReservationResult>;
  partnerReferenceExists(partnerId: string, partnerReference: string): Promise<boolean>;

  // --- reservations (spec 4.8 to 4.11) ---
  /** Null when absent or owned by another partner (spec 1.4). */
  getReservation(partnerId: string, reservationId: string): Promise<StoredReservation | null>;
  /** Operator view, any partner. */
  getReservationById(reservationId: string): Promise<StoredReservation | null>;
  /** Newest first (createdAt, then insertion order). */
  listReservations(partnerId: string, limit: number): Promise<StoredReservation[]>;
  /**
   * Compare-and-set of the status: applies `to` only when the current status is one of `from`.
   * Returns the reservation after the call (changed or not), or null when it does not exist.
   * `changed` is true when the compare matched and `to` was written.
   */
  transitionReservation(
    reservationId: string,
    from: readonly ReservationStatus[],
    to: ReservationStatus,
    options?: TransitionOptions,
  ): Promise<{ changed: boolean; reservation: StoredReservation } | null>;
  /** False when the reservation does not exist. */
  setMoneyAttached(reservationId: string, attached: boolean): Promise<boolean>;

  // --- staff alerts (spec 3: CANCELLATION_NEEDS_STAFF) ---
  recordStaffAlert(alert: StaffAlert): Promise<void>;
  /** Oldest first (createdAtMs, then insertion order). */
  listStaffAlerts(): Promise<StaffAlert[]>;

  // --- control state ---
  /**
   * The control state as of a moment no earlier than the last updateControlState answered on any instance. Declines
   * taken by takeDeclineNextBooking are the exception: another instance may go on showing them for up to a lease
   * (PostgreSQL's control watch), which only sends its next booking to takeDeclineNextBooking, where the row decides.
   */
  getControlState(): Promise<ControlState>;
  /** Atomic read-modify-write of the control state; answered once every instance reads the change. */
  updateControlState(update: (state: ControlState) => ControlState): Promise<ControlState>;
  /**
   * Atomically takes one pending decline; true when this booking must be declined. Each decline is taken once across
   * all instances; the others' copies of the count catch up without being waited for (see getControlState).
   */
  takeDeclineNextBooking(): Promise<boolean>;
}
