import type { FastifyRequest } from 'fastify';
import { addDays } from '../../../contract/iso-date.ts';
import type { SchemaName } from '../../../contract/schemas/index.ts';
import { validate } from '../../../contract/validation.ts';
import { apiError } from '../../domain/failure.ts';
import { localDateOf } from '../../domain/local-time.ts';
import type { RateLimitDecision } from '../../http/rate-limit/types.ts';
import { answerError, eachObject, envelopeError, isOffer, isQuote, isReservation } from '../shapes.ts';
import type { Fault, FaultResponse } from '../types.ts';

/**
 * Benign variants of servers written elsewhere (fourth set): choices the spec leaves open that the reference does not
 * make, from rows 4.7-R6, 4.12-R5, 8-R7, 8-R8, 2.2-R5 and 4.7-R12 of the 2026-11-29 clause audit
 * (docs/audit-response.md), each of which the suite used to fail.
 */

type Obj = Record<string, unknown>;

const OPERATOR_ZONE = 'Asia/Ho_Chi_Minh';
const MINUTE_MS = 60_000;

// ---------------------------------------------------------------------------------------------------------------
// Bookings that race (4.7-R6)

/**
 * Which bookings are in process together: per Idempotency-Key and per partnerReference of one caller (its
 * Authorization), how many are being served now, and whether two ever were at once (a race). Each variant keeps
 * its own, so either works alone or with the other.
 */
class Overlaps {
  private readonly active = new Map<string, number>();
  private readonly raced = new Set<string>();
  private readonly held = new WeakMap<FastifyRequest, string[]>();

  /** `request` is now in process under `key`. */
  enter(request: FastifyRequest, key: string): void {
    const now = (this.active.get(key) ?? 0) + 1;
    this.active.set(key, now);
    if (now > 1) this.raced.add(key);
    this.held.set(request, [...(this.held.get(request) ?? []), key]);
  }

  /** The keys `request` held and whether each met a race; they are let go (forgotten once none is in process). */
  leave(request: FastifyRequest): { key: string; raced: boolean }[] {
    const keys = this.held.get(request) ?? [];
    this.held.delete(request);
    return keys.map((key) => {
      const raced = this.raced.has(key);
      const left = (this.active.get(key) ?? 1) - 1;
      if (left > 0) this.active.set(key, left);
      else {
        this.active.delete(key);
        this.raced.delete(key);
      }
      return { key, raced };
    });
  }
}

/** The booking's Idempotency-Key, as its caller sent it (keys are per partner: the Authorization stands for it). */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' ? `${String(request.headers.authorization)}|key|${key}` : undefined;
}

/** The partnerReference of a booking's decoded body (JSON or XML alike), per caller. */
function referenceOf(value: unknown, request: FastifyRequest | undefined): string | undefined {
  const reference = (value as Obj | null)?.partnerReference;
  if (!request || typeof reference !== 'string') return undefined;
  return `${String(request.headers.authorization)}|reference|${reference}`;
}

/** The refusals of a racing booking that create nothing (the key or the reference is another request's). */
const RACE_REFUSALS = new Set(['IDEMPOTENT_REPLAY_IN_FLIGHT', 'IDEMPOTENCY_CONFLICT', 'DUPLICATE_PARTNER_REFERENCE']);

const racing = new Overlaps();
/** Per raced key or reference, the racers refused so far: every other one is told 503 instead. */
const turns = new Map<string, number>();

/** The in-flight marker of a raced key is cleared this long after the key's first 201 left. */
const RELEASE_LAG_MS = 200;
const lagging = new Overlaps();
/** Per raced key, until when (real clock) its marker is still set after its 201. */
const releasedAt = new Map<string, number>();

// ---------------------------------------------------------------------------------------------------------------
// Account and rate codes, and how far ahead a window may lie (4.12-R5)

const SHOPPING_SCHEMAS = new Set(['AvailabilityRequest', 'QuoteRequest']);
/** How far ahead (days from the operator's today) a rental may be picked up. */
const HORIZON_DAYS = 365;

/** `date` (YYYY-MM-DD) plus `days`. */

// ---------------------------------------------------------------------------------------------------------------
// Rate limits (8-R7, 8-R8)

/** Failed client authentications one address may make a minute before its further failures get slow_down. */
const FAILED_AUTHENTICATIONS_PER_MINUTE = 300;
const failures = new Map<string, number>();

/** Accepted business requests per client and minute window (service clock, reset hook generation). */
const accepted = new Map<string, number>();
/** The window a request was provisionally counted in, until its answer says whether it was accepted (2xx). */
const countedIn = new WeakMap<FastifyRequest, string>();

/** Keeps a counting map small: windows long past are dropped (a map per variant, bounded). */
function prune(map: Map<string, number>): void {
  if (map.size <= 1_000) return;
  for (const key of [...map.keys()].slice(0, map.size - 500)) map.delete(key);
}

/**
 * A fixed one-minute window on the service clock that counts only the requests it accepts: a request is counted when
 * it is let through and given back when its answer is not a success (a 400 it refused, a 404), so the headers every
 * answer carries describe a bucket that refused requests do not draw on.
 */
function acceptedOnly(
  decision: RateLimitDecision,
  key: string,
  request: FastifyRequest | undefined,
): RateLimitDecision {
  if (!request) return decision;
  const nowMs = request.ctx.nowMs;
  const window = Math.floor(nowMs / MINUTE_MS);
  const id = `${key}|${request.ctx.control.rateLimitGeneration}|${window}`;
  const used = accepted.get(id) ?? 0;
  const allowed = used < decision.limit;
  if (allowed) {
    accepted.set(id, used + 1);
    countedIn.set(request, id);
    prune(accepted);
  }
  const resetAtMs = (window + 1) * MINUTE_MS;
  return {
    allowed,
    limit: decision.limit,
    remaining: Math.max(0, decision.limit - used - (allowed ? 1 : 0)),
    resetAtMs,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)),
  };
}

/** The token endpoint's slow_down (spec 4.1, 8.16a), as the reference writes it. */
function slowDown(r: FaultResponse, retryAfterSeconds: number): void {
  r.setStatus(429);
  r.value = {
    error: 'slow_down',
    error_description: 'Too many failed client authentications from this address; retry after Retry-After seconds.',
  };
  r.removeHeader('www-authenticate');
  r.setHeader('retry-after', String(retryAfterSeconds));
}

// ---------------------------------------------------------------------------------------------------------------
// Sequential ids (2.2-R5, 4.7-R12)

/**
 * Ids handed out in sequence, one counter for every partner (as a database sequence does): reservations `R-1000`,
 * `R-1001` …, quotes `Q00010000` … (8 to 4096 characters, spec 2.2.5). The reference's own ids stay underneath: each
 * sequential id stands for one of them, both ways.
 */
class Sequence {
  private readonly shown = new Map<string, string>();
  private readonly real = new Map<string, string>();
  private next: number;
  constructor(
    first: number,
    private readonly format: (n: number) => string,
  ) {
    this.next = first;
  }
  /** The sequential id of a real one, given the next number the first time it is seen. */
  issue(real: string): string {
    let id = this.shown.get(real);
    if (id === undefined) {
      id = this.format(this.next++);
      this.shown.set(real, id);
      this.real.set(id, real);
    }
    return id;
  }
  /** The sequential id of a real one already issued, else the value as it is. */
  shownAs(value: string): string {
    return this.shown.get(value) ?? value;
  }
  /** The real id a sequential one stands for, else the value as it is (an id never issued names nothing). */
  realOf(value: string): string {
    return this.real.get(value) ?? value;
  }
}

const reservationIds = new Sequence(1_000, (n) => `R-${n}`);
const quoteIds = new Sequence(10_000, (n) => `Q${String(n).padStart(8, '0')}`);

/** The path's reservationId, as the handler will read it (Fastify has parsed the params before onRequest). */
function pathParams(request: FastifyRequest): Obj | undefined {
  const params = request.params;
  return params !== null && typeof params === 'object' ? (params as Obj) : undefined;
}

export const FOREIGN_VARIANTS_D: Fault[] = [
  {
    name: 'benign-race-503-retryable',
    kind: 'benign',
    clause: '4.7.5',
    description:
      'Bookings racing on one Idempotency-Key or one partnerReference meet a store that refuses conflicting writes: every other racer that would be told IN_FLIGHT, IDEMPOTENCY_CONFLICT or DUPLICATE_PARTNER_REFERENCE gets 503 DEPENDENCY_UNAVAILABLE (retryable, Retry-After 1) instead; nothing is created for it, and the identical request sent again is answered as usual.',
    request(r) {
      if (r.operation !== 'createReservation') return;
      const key = idempotencyKeyOf(r.request);
      if (key) racing.enter(r.request, key);
    },
    adjust: {
      body(value, { schema }, request) {
        const reference = schema === 'ReservationRequest' ? referenceOf(value, request) : undefined;
        if (request && reference) racing.enter(request, reference);
        return value;
      },
    },
    response(r) {
      if (r.operation !== 'createReservation') return;
      const held = racing.leave(r.request);
      const code = envelopeError(r.value)?.code;
      if (typeof code !== 'string' || !RACE_REFUSALS.has(code)) return;
      // The key's race for IN_FLIGHT and IDEMPOTENCY_CONFLICT, the reference's for DUPLICATE_PARTNER_REFERENCE.
      const own = held.find(
        (h) => h.raced && h.key.includes(code === 'DUPLICATE_PARTNER_REFERENCE' ? '|reference|' : '|key|'),
      );
      if (!own) return;
      const turn = turns.get(own.key) ?? 0;
      turns.set(own.key, turn + 1);
      prune(turns);
      if (turn % 2 !== 0) return;
      answerError(r, 'DEPENDENCY_UNAVAILABLE', {
        message: 'The reservation store refused a conflicting write; send the request again.',
      });
      r.removeHeader('idempotent-replay');
      r.setHeader('retry-after', '1');
    },
  },
  {
    name: 'benign-in-flight-release-lag',
    kind: 'benign',
    clause: '4.7.5',
    description: `A key that bookings raced on keeps its in-flight marker ${RELEASE_LAG_MS} ms after its 201 left (the claim is released after the commit, behind the other racers): the identical request within that time is told 409 IDEMPOTENT_REPLAY_IN_FLIGHT (retryable) instead of the 200 replay.`,
    request(r) {
      if (r.operation !== 'createReservation') return;
      const key = idempotencyKeyOf(r.request);
      if (key) lagging.enter(r.request, key);
    },
    response(r) {
      if (r.operation !== 'createReservation') return;
      const held = lagging.leave(r.request);
      const key = idempotencyKeyOf(r.request);
      if (!key) return;
      const now = Date.now();
      if (r.status === 201 && held.some((h) => h.raced)) {
        releasedAt.set(key, now + RELEASE_LAG_MS);
        return;
      }
      const until = releasedAt.get(key);
      if (until === undefined) return;
      if (now >= until) {
        releasedAt.delete(key);
        return;
      }
      if (r.status === 200 && r.header('idempotent-replay') === 'true') {
        answerError(r, 'IDEMPOTENT_REPLAY_IN_FLIGHT', {
          message: 'An identical request is still being processed; retry shortly.',
        });
        r.removeHeader('idempotent-replay');
      }
    },
  },
  {
    name: 'benign-account-rate-pair',
    kind: 'benign',
    clause: '4.12.4a',
    description:
      'accountCode and rateCode are taken as a pair: a shopping request with one of them alone is refused 400 VALIDATION_ERROR (fields: the other code) before either is looked up (ambiguity #7 leaves one alone open).',
    adjust: {
      body(value, { schema }) {
        if (!SHOPPING_SCHEMAS.has(schema) || value === null || typeof value !== 'object' || Array.isArray(value))
          return value;
        const body = value as Obj;
        const account = typeof body.accountCode === 'string';
        const rate = typeof body.rateCode === 'string';
        // Only a request the schema accepts: a schema fault is refused by the schema's own VALIDATION_ERROR.
        if (account === rate || !validate(schema as SchemaName, value).valid) return value;
        const missing = account ? 'rateCode' : 'accountCode';
        throw apiError('VALIDATION_ERROR', 'accountCode and rateCode are sent together or not at all.', {
          fields: [{ field: missing, message: `is required with ${account ? 'accountCode' : 'rateCode'}` }],
        });
      },
    },
  },
  {
    name: 'benign-booking-horizon-365',
    kind: 'benign',
    clause: '4.12.2',
    description: `Rentals are sold at most ${HORIZON_DAYS} days ahead: a shopping request whose pickup date lies further ahead (the operator's local date) is refused 400 INVALID_RENTAL_WINDOW before its codes are looked up.`,
    adjust: {
      body(value, { schema }, request) {
        if (!request || !SHOPPING_SCHEMAS.has(schema) || value === null || typeof value !== 'object') return value;
        const pickupDate = (value as Obj).pickupDate;
        if (typeof pickupDate !== 'string' || !validate(schema as SchemaName, value).valid) return value;
        const horizon = addDays(localDateOf(request.ctx.nowMs, OPERATOR_ZONE), HORIZON_DAYS);
        if (pickupDate <= horizon) return value;
        throw apiError('INVALID_RENTAL_WINDOW', `Rentals can be booked at most ${HORIZON_DAYS} days ahead.`);
      },
    },
  },
  {
    name: 'benign-address-bucket-failed-auth',
    kind: 'benign',
    clause: '8.16a',
    description: `The token endpoint's per-address bucket counts failed client authentications only (a brute-force guard): after ${FAILED_AUTHENTICATIONS_PER_MINUTE} in a minute from one address, its further failed attempts get 429 slow_down with Retry-After, while a client that authenticates is still served (its own bucket applies).`,
    enforce: { 'token.addressLimit': false },
    response(r) {
      if (r.operation !== 'issueToken' || r.status !== 401 || (r.value as Obj | undefined)?.error !== 'invalid_client')
        return;
      const { nowMs, control } = r.request.ctx;
      const window = Math.floor(nowMs / MINUTE_MS);
      const id = `${control.rateLimitGeneration}|${r.request.ip}|${window}`;
      const failed = (failures.get(id) ?? 0) + 1;
      failures.set(id, failed);
      prune(failures);
      if (failed > FAILED_AUTHENTICATIONS_PER_MINUTE) {
        slowDown(r, Math.max(1, Math.ceil(((window + 1) * MINUTE_MS - nowMs) / 1000)));
      }
    },
  },
  {
    name: 'benign-limit-counts-accepted-only',
    kind: 'benign',
    clause: '8.14',
    description:
      'Business calls are limited per client in fixed one-minute windows that count accepted requests only: every answer carries X-RateLimit-*, but a refused request (a 400, a 404) is given back, so Remaining does not fall for it and a flood of invalid bodies never meets a 429. With foreign-choices it takes the place of the token bucket (a server has one limiter).',
    adjust: { rateLimit: (decision, input, request) => acceptedOnly(decision, input.key, request) },
    response(r) {
      const id = countedIn.get(r.request);
      if (id === undefined) return;
      countedIn.delete(r.request);
      if (r.status >= 200 && r.status < 300) return;
      accepted.set(id, Math.max(0, (accepted.get(id) ?? 1) - 1));
    },
  },
  {
    name: 'benign-sequential-ids',
    kind: 'benign',
    clause: '2.2.5',
    description:
      'Reservation and quote ids are handed out in sequence, one counter for all partners: R-1000, R-1001 … and Q00010000, Q00010001 … (spec 2.2: formats not shown), so an id one digit off a real one is often another live reservation or quote of the same partner.',
    request(r) {
      const params = pathParams(r.request);
      if (typeof params?.reservationId === 'string') params.reservationId = reservationIds.realOf(params.reservationId);
    },
    body(raw, request) {
      // The test hook that expires a quote names it in its JSON body (docs/test-hooks.md).
      if (!request.url.endsWith('/quotes/expire')) return raw;
      try {
        const value = JSON.parse(raw.toString('utf8')) as Obj;
        if (typeof value.quoteId !== 'string') return raw;
        return Buffer.from(JSON.stringify({ ...value, quoteId: quoteIds.realOf(value.quoteId) }), 'utf8');
      } catch {
        return raw;
      }
    },
    adjust: {
      body(value, { schema }) {
        if (schema !== 'ReservationRequest' || value === null || typeof value !== 'object' || Array.isArray(value))
          return value;
        const quoteId = (value as Obj).quoteId;
        return typeof quoteId === 'string' ? { ...(value as Obj), quoteId: quoteIds.realOf(quoteId) } : value;
      },
    },
    response(r) {
      eachObject(
        r.value,
        (o) => typeof o.reservationId === 'string' || typeof o.quoteId === 'string',
        (o: Obj) => {
          // New ids are issued only where the resource itself is answered; elsewhere (a hook's echo) known ones map.
          if (typeof o.reservationId === 'string') {
            o.reservationId = isReservation(o)
              ? reservationIds.issue(o.reservationId)
              : reservationIds.shownAs(o.reservationId);
          }
          if (typeof o.quoteId === 'string') {
            o.quoteId = isQuote(o) || isOffer(o) ? quoteIds.issue(o.quoteId) : quoteIds.shownAs(o.quoteId);
          }
        },
      );
      // A message that names the id it was asked for (benign-404-names-id) names the id the partner sent.
      const error = envelopeError(r.value);
      const asked = pathParams(r.request)?.reservationId;
      if (error && typeof error.message === 'string' && typeof asked === 'string') {
        error.message = error.message.split(asked).join(reservationIds.shownAs(asked));
      }
    },
  },
];
