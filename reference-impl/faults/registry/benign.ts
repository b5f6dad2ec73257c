import { MEDIA_TYPES } from '../../../contract/constants.ts';
import { BOOKING_SCOPES } from '../../../contract/scopes.ts';
import { parseTypedXml, serializeTypedXml } from '../../../contract/xml/index.ts';
import { OPERATOR_DATA } from '../../../fixtures/index.ts';
import type { RateLimitDecision } from '../../http/rate-limit/types.ts';
import { answerError, each, eachObject, envelopeError, isLocation, isQuote, isReservation } from '../shapes.ts';
import type { Fault, FaultResponse } from '../types.ts';

/**
 * Benign variants: what the spec allows that the reference does not choose. The suite must pass each (README "How the
 * verdicts are proven"); the clause named is the one whose freedom it uses, and docs/ambiguities.md says what the suite
 * accepts.
 */

type Obj = Record<string, unknown>;

/**
 * Whether the body just decoded holds a phone that a lenient reading of "E.164 with country code, 5 to 20 chars"
 * accepts: set by benign-lenient-phone's body seam, read by its validation seam of the same (synchronous) call.
 */
let lenientPhoneSeen = false;

function driverPhone(value: unknown): string | undefined {
  const driver = value !== null && typeof value === 'object' ? (value as Obj).driver : undefined;
  const phone = driver !== null && typeof driver === 'object' ? (driver as Obj).phone : undefined;
  return typeof phone === 'string' ? phone : undefined;
}

const WIDE = { maxBytes: 50_000_000, maxDepth: 64, maxNodes: 5_000_000 };

/** Re-serializes an XML answer with other (equally valid) choices of the serializer. */
function reserializeXml(text: string, prefix: string): string {
  const parsed = parseTypedXml(Buffer.from(text, 'utf8'), 'response', WIDE);
  return parsed.ok ? serializeTypedXml(parsed.value, 'response', { prefix }) : text;
}

function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Obj)
      .reverse()
      .map(([k, v]) => [k, reversedKeys(v)]),
  );
}

const IDS = new Map<string, string>();

/** reservationId without the reference's prefix, and back (a different opaque format). */
function publicId(id: string): string {
  const out = id.startsWith('RSV-') ? `r_${id.slice(4).replace(/-/g, '')}` : id;
  IDS.set(out, id);
  return out;
}

/** Calls per bucket in the current second of the real clock (benign-429-remaining-positive). */
const BURSTS = new Map<string, { second: number; count: number }>();

/** A burst allowance of a third of the minute limit per second on top of the minute window. */
function burstLimited(decision: RateLimitDecision, key: string, nowMs: number): RateLimitDecision {
  const second = Math.floor(nowMs / 1000);
  const seen = BURSTS.get(key);
  const count = seen?.second === second ? seen.count + 1 : 1;
  BURSTS.set(key, { second, count });
  if (!decision.allowed || count <= Math.ceil(decision.limit / 3)) return decision;
  return { ...decision, allowed: false, retryAfterSeconds: 1 };
}

/**
 * A ceiling over a sliding window on top of the minute window (benign-burst-20-per-second): a call is served when fewer
 * than `limit` calls of its bucket key were served in the `windowMs` before it, by a log of their times (a real sliding
 * window, not a calendar second). A refusal is a 429 with Retry-After of the window in whole seconds (by then the oldest
 * served call has left it) and the minute window's X-RateLimit-* (whose count holds the call, as for any refusal).
 * Only served calls enter the log; a call the minute window refuses passes unchanged.
 */
export function slidingWindowLimit(limit: number, windowMs: number) {
  const served = new Map<string, number[]>();
  let nextSweepAtMs = Number.NEGATIVE_INFINITY;
  return (decision: RateLimitDecision, key: string, nowMs: number): RateLimitDecision => {
    // At most once a window, keys idle for a whole window are dropped: memory follows the keys in use.
    if (nowMs >= nextSweepAtMs) {
      nextSweepAtMs = nowMs + windowMs;
      for (const [k, times] of served) {
        if ((times.at(-1) ?? Number.NEGATIVE_INFINITY) <= nowMs - windowMs) served.delete(k);
      }
    }
    if (!decision.allowed) return decision;
    const times = served.get(key) ?? [];
    served.set(key, times);
    while (times.length > 0 && (times[0] as number) <= nowMs - windowMs) times.shift();
    if (times.length >= limit) return { ...decision, allowed: false, retryAfterSeconds: Math.ceil(windowMs / 1000) };
    times.push(nowMs);
    return decision;
  };
}

/** benign-burst-20-per-second: 20 calls per client in any 1,000 ms, on the monotonic clock (performance.now()). */
const burst20PerSecond = slidingWindowLimit(20, 1_000);

function sliding(decision: RateLimitDecision, nowMs: number): RateLimitDecision {
  return {
    ...decision,
    resetAtMs: nowMs + 60_000,
    retryAfterSeconds: decision.allowed ? decision.retryAfterSeconds : 60,
  };
}

/** The partner account of the target config's partnerA (benign-partner-a-read-shop). */
const PARTNER_A = OPERATOR_DATA.clients.find((client) => client.role === 'partnerA')?.partnerId;

const isBusinessError = (r: FaultResponse) => r.operation !== 'issueToken' && envelopeError(r.value) !== undefined;

export const BENIGN_VARIANTS: Fault[] = [
  {
    name: 'benign-completed-cancellable',
    kind: 'benign',
    clause: '3.7',
    description: 'Completed reservations can still be cancelled (the set of cancellable states is not shown).',
    adjust: { cancellable: (states) => [...states, 'completed'] },
  },
  {
    name: 'benign-in-progress-cancellable',
    kind: 'benign',
    clause: '3.7',
    description: 'A rental in progress can be cancelled.',
    adjust: { cancellable: (states) => [...states, 'in_progress'] },
  },
  {
    name: 'benign-only-confirmed-cancellable',
    kind: 'benign',
    clause: '3.7',
    description: 'Only confirmed reservations are cancellable (pending ones are not).',
    adjust: { cancellable: (states) => states.filter((s) => s === 'confirmed') },
  },
  {
    name: 'benign-sliding-rate-window',
    kind: 'benign',
    clause: '8.14',
    description: 'A sliding one-minute window: X-RateLimit-Reset moves with every call.',
    adjust: { rateLimit: (decision) => sliding(decision, Date.now()) },
  },
  {
    name: 'benign-sliding-window-cached-date',
    kind: 'benign',
    clause: '8.14',
    description:
      'A sliding one-minute window (Reset a minute after each call) behind a Date header cached up to a second: Date lags the moment Reset is reckoned from by up to two seconds (its rounding down and the cache).',
    adjust: { rateLimit: (decision) => sliding(decision, Date.now()) },
    response(r) {
      r.setHeader('date', new Date(Date.now() - 900).toUTCString());
    },
  },
  {
    name: 'benign-429-remaining-positive',
    kind: 'benign',
    clause: '8.14',
    description:
      'A per-second burst limit (a third of the minute limit) answers 429 with Retry-After 1 while the minute window still has requests left (X-RateLimit-Remaining > 0).',
    adjust: { rateLimit: (decision, input) => burstLimited(decision, input.key, Date.now()) },
  },
  {
    name: 'benign-burst-20-per-second',
    kind: 'benign',
    clause: '8.14',
    description:
      "Besides the minute window, at most 20 calls per client within any sliding second (1,000 ms); the 21st is refused with 429 RATE_LIMITED, Retry-After 1 and the minute window's X-RateLimit-* headers.",
    adjust: { rateLimit: (decision, input) => burst20PerSecond(decision, input.key, performance.now()) },
  },
  {
    name: 'benign-rate-limit-45',
    kind: 'benign',
    clause: '8.14',
    description: 'The rate-limited client may make 45 calls a minute instead of 30 (ceilings are not shown).',
    adjust: { 'rateLimit.limit': (limit) => (limit === 30 ? 45 : limit) },
  },
  {
    // Replaces benign-token-extras (extra members RFC 6749 allows): TokenResponse is closed like every object the
    // spec does not state open (2.0.2), so those members are the fault token-response-extra-members, not a freedom.
    name: 'benign-token-scope-order',
    kind: 'benign',
    clause: '4.1.5',
    description:
      'The token response lists the granted scopes in another order (4.1: space-delimited, no order stated).',
    response(r) {
      if (r.operation === 'issueToken' && r.status === 200) {
        const token = r.value as Obj;
        if (typeof token.scope === 'string') token.scope = token.scope.split(' ').reverse().join(' ');
      }
    },
  },
  {
    name: 'benign-partner-a-read-shop',
    kind: 'benign',
    clause: '1.7',
    description:
      "partnerA's grant stops at the read and shop scopes, as a partner's does before joint certification (1.7, 5.5): its tokens carry no reservation scope, and a token request naming one is refused 400 invalid_scope.",
    adjust: {
      'token.scopes': (scopes, input) =>
        input.partnerId === PARTNER_A ? scopes.filter((scope) => !BOOKING_SCOPES.includes(scope)) : scopes,
    },
  },
  {
    name: 'benign-token-narrows-scope',
    kind: 'benign',
    clause: '5.5b',
    description:
      "A token request naming scopes the client holds but its partner lacks (narrowPartner's reservation scopes) is answered 200 with a token narrowed to the requested scopes both hold, not 400 invalid_scope (ambiguity #55); a scope beyond the client's own grant is still 400 invalid_scope (5.4a).",
    adjust: { 'token.beyondGrant': () => 'narrow' },
  },
  {
    name: 'benign-token-no-cache-pragma',
    kind: 'benign',
    clause: '4.1.6',
    description: 'The token response says Cache-Control: no-store, no-cache, private.',
    response(r) {
      if (r.operation === 'issueToken') r.setHeader('cache-control', 'no-store, no-cache, private');
    },
  },
  {
    name: 'benign-opaque-reservation-ids',
    kind: 'benign',
    clause: '2.2',
    description: 'reservationId and rocketBookingCode in another opaque format (r_<hex>, 8 digits).',
    request(r) {
      const params = r.request.params as Record<string, string> | undefined;
      if (params?.reservationId && IDS.has(params.reservationId)) {
        params.reservationId = IDS.get(params.reservationId) as string;
      }
    },
    response(r) {
      eachObject(r.value, isReservation, (res) => {
        res.reservationId = publicId(String(res.reservationId));
        res.rocketBookingCode = String(res.rocketBookingCode)
          .replace(/\W/g, '')
          .split('')
          .map((c) => c.charCodeAt(0) % 10)
          .join('')
          .slice(0, 8);
      });
      // Such a server's test hooks name its reservations by the same ids (the staff alerts of spec 3.5).
      eachObject(
        r.value,
        (o) => o.kind === 'cancellation_needs_staff' && typeof o.reservationId === 'string',
        (alert) => {
          alert.reservationId = publicId(String(alert.reservationId));
        },
      );
    },
  },
  {
    name: 'benign-reworded-messages',
    kind: 'benign',
    clause: '7.2.3',
    description: 'Error messages are worded differently (clients switch on code, never on message).',
    response(r) {
      const error = envelopeError(r.value);
      if (error) error.message = `Request refused (${String(error.code).toLowerCase().replace(/_/g, ' ')}).`;
    },
  },
  {
    name: 'benign-xml-prefix',
    kind: 'benign',
    clause: '4.14.2',
    description: 'XML answers use a namespace prefix (<p:response xmlns:p="…">).',
    text: (text, r) => (r.representation === 'xml' ? reserializeXml(text, 'p') : text),
  },
  {
    name: 'benign-xml-whitespace',
    kind: 'benign',
    clause: '4.14.12',
    description: 'XML answers are indented (whitespace between elements; <null> with whitespace inside).',
    text: (text, r) =>
      r.representation === 'xml' ? text.replace(/></g, '>\n  <').replace(/<null\/>/g, '<null> </null>') : text,
  },
  {
    name: 'benign-json-key-order',
    kind: 'benign',
    clause: '2.0.2',
    description: 'JSON object keys in another order.',
    response(r) {
      if (r.representation === 'json' && r.value !== undefined) r.value = reversedKeys(r.value);
    },
  },
  {
    name: 'benign-json-without-charset',
    kind: 'benign',
    clause: '4.13.1a',
    description: 'JSON answers say Content-Type: application/json without a charset parameter.',
    response(r) {
      if (r.representation === 'json') r.setHeader('content-type', MEDIA_TYPES.json);
    },
  },
  {
    name: 'benign-unknown-field-code',
    kind: 'benign',
    clause: '7.3',
    description: 'An unknown property is refused with 400 UNKNOWN_FIELD (a specific code beyond VALIDATION_ERROR).',
    response(r) {
      const error = envelopeError(r.value);
      const fields = error?.fields as Obj[] | undefined;
      if (error?.code === 'VALIDATION_ERROR' && fields?.some((f) => f.message === 'is not an allowed property')) {
        error.code = 'UNKNOWN_FIELD';
      }
    },
  },
  {
    name: 'benign-driver-too-young-code',
    kind: 'benign',
    clause: '2.10.7',
    description: 'A driver under 18 gets 400 DRIVER_TOO_YOUNG.',
    response(r) {
      const error = envelopeError(r.value);
      const fields = error?.fields as Obj[] | undefined;
      if (error?.code === 'VALIDATION_ERROR' && fields?.some((f) => f.field === 'driver.dateOfBirth')) {
        error.code = 'DRIVER_TOO_YOUNG';
      }
    },
  },
  {
    name: 'benign-list-count-total',
    kind: 'benign',
    clause: '2.12.6d',
    description: "ReservationList.count is the partner's total, not the page length.",
    adjust: { 'reservations.count': (count, input) => (input.listed >= 1 ? count + 1000 : count) },
  },
  {
    name: 'benign-global-idempotency-keys',
    kind: 'benign',
    clause: '4.7.4',
    description: "One key namespace for all partners: partner B reusing partner A's key gets 409 IDEMPOTENCY_CONFLICT.",
    response(r) {
      if (r.operation !== 'createReservation') return;
      const key = r.request.headers['idempotency-key'];
      const partner = r.request.ctx?.caller?.partnerId;
      if (typeof key !== 'string' || !partner) return;
      const owner = keyOwners.get(key);
      if (owner === undefined && r.status === 201) keyOwners.set(key, partner);
      else if (owner !== undefined && owner !== partner && r.status === 201) answerError(r, 'IDEMPOTENCY_CONFLICT');
    },
  },
  {
    name: 'benign-idempotency-whole-seconds',
    kind: 'benign',
    clause: '4.7.6',
    description:
      "An Idempotency-Key's time of making is kept in whole seconds, rounded down: the key ages up to a second early, so the forget hook forgets it that much sooner.",
    // A key made at 10.9 s is kept as made at 10 s: forgetting keys made at or before 11.05 s then forgets every key
    // of second 11 too (up to 11.999 s).
    adjust: { 'idempotency.forgetCutoffMs': (cutoff) => Math.floor(cutoff / 1000) * 1000 + 999 },
  },
  {
    name: 'benign-empty-availability-409',
    kind: 'benign',
    clause: '4.5.4',
    description: 'An availability search with no offer answers 409 NO_AVAILABILITY instead of an empty list.',
    response(r) {
      if (
        r.operation === 'searchAvailability' &&
        r.status === 200 &&
        ((r.value as Obj).offers as unknown[]).length === 0
      ) {
        answerError(r, 'NO_AVAILABILITY');
      }
    },
  },
  {
    name: 'benign-unknown-vehicle-invalid-vehicle',
    kind: 'benign',
    clause: '4.2.5',
    description: 'GET /fleet/{unknown} answers 404 with code INVALID_VEHICLE.',
    response(r) {
      const error = envelopeError(r.value);
      if (r.operation === 'getFleetVehicle' && error?.code === 'NOT_FOUND') error.code = 'INVALID_VEHICLE';
    },
  },
  {
    name: 'benign-missing-token-invalid-token',
    kind: 'benign',
    clause: '5.6a',
    description: 'A call without any token gets 401 INVALID_TOKEN instead of UNAUTHORIZED.',
    response(r) {
      const error = envelopeError(r.value);
      if (error?.code === 'UNAUTHORIZED' && r.operation !== null) error.code = 'INVALID_TOKEN';
    },
  },
  {
    name: 'benign-oauth-error-values',
    kind: 'benign',
    clause: '5.4a',
    description: 'A missing or unsupported grant type answers 400 invalid_grant (any 400 OAuth error is allowed).',
    response(r) {
      const error = (r.value as Obj | undefined)?.error;
      if (r.operation === 'issueToken' && (error === 'invalid_request' || error === 'unsupported_grant_type')) {
        (r.value as Obj).error = 'invalid_grant';
      }
    },
  },
  {
    name: 'benign-extras-unitemised',
    kind: 'benign',
    clause: '4.6',
    description: 'CDW is charged inside extrasTotal without a line of its own (extras prices are not shown).',
    response: each(isQuote, (q) => {
      const charges = q.charges as Obj;
      charges.extras = (charges.extras as Obj[]).filter((l) => !String(l.code).toLowerCase().includes('cdw'));
    }),
  },
  {
    name: 'benign-lenient-phone',
    kind: 'benign',
    clause: '2.10.6',
    description:
      'Phone numbers with spaces (+84 90 123 4567) or 16 to 20 characters (+8490123456789012) are accepted; numbers without a country code are still refused.',
    adjust: {
      body: (value, input) => {
        const phone = input.schema === 'ReservationRequest' ? driverPhone(value) : undefined;
        lenientPhoneSeen =
          phone !== undefined && phone.length <= 20 && /^\+[1-9][0-9]{3,18}$/.test(phone.replaceAll(' ', ''));
        return value;
      },
      validation: (fields, input) =>
        input.schema === 'ReservationRequest' && lenientPhoneSeen
          ? fields.filter((f) => !(f.field === 'driver.phone' && f.message.startsWith('must match')))
          : fields,
    },
  },
  {
    name: 'benign-min-driver-age',
    kind: 'benign',
    clause: '2.5.16',
    description: "A driver younger than the vehicle's minDriverAge is refused (400 VALIDATION_ERROR).",
    adjust: {
      body: (value, input, request) => {
        if (input.schema === 'ReservationRequest' && request && value && typeof value === 'object') {
          const dob = ((value as Obj).driver as Obj | undefined)?.dateOfBirth;
          if (typeof dob === 'string') birthDates.set(request, dob);
        }
        return value;
      },
    },
    response(r) {
      if (r.operation !== 'createReservation' || r.status !== 201) return;
      const dob = birthDates.get(r.request);
      const age = dob ? (Date.now() - Date.parse(dob)) / (365.25 * 86_400_000) : 99;
      const vehicle = OPERATOR_DATA.vehicles.find((v) => v.vehicleCode === (r.value as Obj).vehicleCode);
      if (age < (vehicle?.minDriverAge ?? 18)) {
        answerError(r, 'VALIDATION_ERROR', {
          message: 'The driver is younger than the vehicle allows.',
          fields: [{ field: 'driver.dateOfBirth', message: 'below the minimum age of the vehicle' }],
        });
      }
    },
  },
  {
    name: 'benign-random-quote-id-validation-error',
    kind: 'benign',
    clause: '4.7.9c',
    description: 'A quoteId that is no quote of ours gets 400 VALIDATION_ERROR (QUOTE_INVALID is for tampered quotes).',
    response(r) {
      const error = envelopeError(r.value);
      if (r.operation === 'createReservation' && error?.code === 'QUOTE_INVALID') {
        const quoteId = quoteIds.get(r.request) ?? '';
        if (quoteId.split('.').length !== 3) error.code = 'VALIDATION_ERROR';
      }
    },
    adjust: {
      body: (value, input, request) => {
        if (input.schema === 'ReservationRequest' && request && value && typeof value === 'object') {
          const quoteId = (value as Obj).quoteId;
          if (typeof quoteId === 'string') quoteIds.set(request, quoteId);
        }
        return value;
      },
    },
  },
  {
    name: 'benign-foreign-rate-not-approved',
    kind: 'benign',
    clause: '4.12.4b',
    description: 'A rate code of another partner answers 409 RATE_NOT_APPROVED (INVALID_RATE_CODE also allowed).',
    response(r) {
      const error = envelopeError(r.value);
      if (error?.code !== 'INVALID_RATE_CODE') return;
      // Only another partner's code: an unknown code or one outside its validity stays INVALID_RATE_CODE (4.12.4b).
      const caller = r.request.ctx?.caller?.partnerId;
      const body = Buffer.isBuffer(r.request.body) ? r.request.body.toString('utf8') : JSON.stringify(r.request.body);
      const own = new Set(OPERATOR_DATA.ratePlans.filter((p) => p.partnerId === caller).map((p) => p.rateCode));
      const foreign = OPERATOR_DATA.ratePlans.some(
        (p) => p.partnerId !== caller && !own.has(p.rateCode) && new RegExp(`[">]${p.rateCode}["<]`).test(body ?? ''),
      );
      if (foreign) answerError(r, 'RATE_NOT_APPROVED');
    },
  },
  {
    name: 'benign-plain-404-unknown-paths',
    kind: 'benign',
    clause: '9.1',
    description: 'Paths no route holds get a plain-text 404 (the framework default), not the envelope.',
    response(r) {
      if (
        r.operation === null &&
        r.status === 404 &&
        !r.request.url.startsWith('/test-hooks') &&
        !r.request.url.startsWith('/control')
      ) {
        r.value = undefined;
        r.representation = 'other';
        r.setHeader('content-type', 'text/plain; charset=utf-8');
      }
    },
    text: (text, r) => (r.representation === 'other' && r.status === 404 && r.operation === null ? 'Not Found' : text),
  },
  {
    name: 'benign-no-request-id-on-token',
    kind: 'benign',
    clause: '4.0.2',
    description: 'The token endpoint sends no X-Request-Id (only business responses must).',
    response(r) {
      if (r.operation === 'issueToken') r.removeHeader('x-request-id');
    },
  },
  {
    name: 'benign-slow-bookings',
    kind: 'benign',
    clause: '4.7.5',
    description:
      'A booking holds its claim 40 ms longer before it commits (a slower store); the unique index still holds.',
    // Also what the crash test starts the server with, so a kill always finds claims in flight (spec 4.7.5).
    adjust: { 'partnerReference.guard': (guard) => ({ ...guard, checkToInsertMs: guard.checkToInsertMs + 40 }) },
  },
  {
    name: 'benign-patch-not-rate-limited',
    kind: 'benign',
    clause: '4.0.3',
    description: 'PATCH answers carry no X-RateLimit-* headers (4.10 lists no 429).',
    response(r) {
      if (r.operation === 'modifyReservation') {
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) r.removeHeader(name);
      }
    },
  },
  {
    name: 'benign-text-xml-on-tie',
    kind: 'benign',
    clause: '4.13.1b',
    description: 'Accept: application/xml, text/xml (a tie between the two XML types) is answered as text/xml.',
    response(r) {
      const accept = String(r.request.headers.accept ?? '');
      if (
        r.representation === 'xml' &&
        /application\/xml/.test(accept) &&
        /text\/xml/.test(accept) &&
        !/json/.test(accept)
      ) {
        if (!/;\s*q=/.test(accept)) r.setHeader('content-type', 'text/xml; charset=utf-8');
      }
    },
  },
  {
    name: 'benign-airport-without-iata',
    kind: 'benign',
    clause: '2.6.11',
    description: 'One airport location has iataCode null (present only when an airport; null is allowed).',
    response(r) {
      let first = true;
      eachObject(r.value, isLocation, (l) => {
        if (l.locationType === 'airport' && first) {
          l.iataCode = null;
          first = false;
        }
      });
    },
  },
  {
    name: 'benign-no-fields-on-errors',
    kind: 'benign',
    clause: '7.2.6',
    description: 'Validation errors carry no fields array (it is optional).',
    response(r) {
      const error = envelopeError(r.value);
      if (error) delete error.fields;
    },
  },
  {
    name: 'benign-private-cache-control',
    kind: 'benign',
    clause: '5.7b',
    description: 'Business answers say Cache-Control: private, no-store and Vary: Accept, Authorization.',
    response(r) {
      if (r.operation && r.operation !== 'issueToken') {
        r.setHeader('cache-control', 'private, no-store');
        r.setHeader('vary', 'Accept, Authorization');
      }
    },
  },
  {
    name: 'benign-retry-after-full-minute',
    kind: 'benign',
    clause: '8.15',
    description: 'Retry-After on a 429 is always 60 (no bound is stated).',
    response(r) {
      if (r.status === 429 && r.header('retry-after')) r.setHeader('retry-after', '60');
    },
  },
  {
    name: 'benign-offers-by-vehicle-code',
    kind: 'benign',
    clause: '4.5.1',
    description: 'Availability offers ordered by vehicle code instead of price.',
    response(r) {
      if (r.operation === 'searchAvailability' && r.status === 200) {
        const offers = (r.value as Obj).offers as Obj[];
        offers.sort((a, b) =>
          String((a.vehicle as Obj).vehicleCode).localeCompare(String((b.vehicle as Obj).vehicleCode)),
        );
      }
    },
  },
  {
    name: 'benign-error-retry-hint-header',
    kind: 'benign',
    clause: '7.2.1',
    description: 'Error answers also carry a Link header to documentation (headers beyond the spec are allowed).',
    response(r) {
      if (isBusinessError(r)) r.setHeader('link', '<https://partner-api.example.test/docs/errors>; rel="help"');
    },
  },
];

const keyOwners = new Map<string, string>();
const birthDates = new WeakMap<object, string>();
const quoteIds = new WeakMap<object, string>();
