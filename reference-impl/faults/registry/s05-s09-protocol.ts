import { XML_NAMESPACE } from '../../../contract/constants.ts';
import { answerError, envelopeError, rowOf } from '../shapes.ts';
import type { Fault, FaultResponse } from '../types.ts';

/** Faults of spec sections 5 (authentication), 6 (events), 7 (errors), 8 (limits) and 9 (versioning). */

type Obj = Record<string, unknown>;

const isToken = (r: FaultResponse) => r.operation === 'issueToken';
const isBusiness = (r: FaultResponse) => r.operation !== null && r.operation !== 'issueToken';

/** The limit asked for, above 100 (for the fault that serves it). */
const askedLimits = new WeakMap<object, number>();
/** The driver's email of the reservation request being answered (for the fault that echoes it). */
const driverEmails = new WeakMap<object, string>();

export const PROTOCOL_FAULTS: Fault[] = [
  // --- 5: authentication ---
  {
    name: 'basic-auth-refused',
    kind: 'fault',
    clause: '5.2a',
    description: 'The token endpoint refuses HTTP Basic client authentication (client_secret_basic).',
    request(r) {
      const auth = String(r.request.headers.authorization ?? '');
      if (r.request.url.endsWith('/oauth/token') && /^basic /i.test(auth)) {
        r.respond(401, { error: 'invalid_client', error_description: 'Use client_secret_post.' });
      }
    },
  },
  {
    name: 'post-auth-refused',
    kind: 'fault',
    clause: '5.2b',
    description: 'The token endpoint refuses client credentials in the form body (client_secret_post).',
    body(raw, request) {
      if (request.url.endsWith('/oauth/token') && raw.toString('utf8').includes('client_secret=')) {
        const form = new URLSearchParams(raw.toString('utf8'));
        form.set('client_secret', 'refused-by-fault');
        return Buffer.from(form.toString(), 'utf8');
      }
      return raw;
    },
  },
  {
    name: 'bearer-scheme-optional',
    kind: 'fault',
    clause: '5.3a',
    description: 'A token sent without the Bearer scheme (Authorization: <token>) is accepted.',
    request(r) {
      const auth = r.request.headers.authorization;
      if (typeof auth === 'string' && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(auth.trim())) {
        r.request.headers.authorization = `Bearer ${auth.trim()}`;
      }
    },
  },
  {
    name: 'token-signature-unchecked',
    kind: 'fault',
    clause: '5.6a',
    description:
      'A bearer token whose signature does not verify (tampered, re-signed, alg "none") is accepted on its claims.',
    enforce: { 'token.signature': false },
  },
  {
    name: 'tokens-never-expire',
    kind: 'fault',
    clause: '5.3b',
    description: 'Access tokens never expire.',
    enforce: { 'token.expiry': false },
  },
  {
    name: 'refresh-token-issued',
    kind: 'fault',
    clause: '5.3c',
    description: 'The token response also carries a refresh_token.',
    response(r) {
      if (isToken(r) && r.status === 200) (r.value as Obj).refresh_token = 'rt-fault-0000000000000000';
    },
  },
  {
    name: 'unsupported-grant-401',
    kind: 'fault',
    clause: '5.4a',
    description: 'An unsupported grant type answers 401 invalid_client instead of a 400.',
    response(r) {
      if (isToken(r) && (r.value as Obj | undefined)?.error === 'unsupported_grant_type') {
        r.setStatus(401);
        r.value = { error: 'invalid_client', error_description: 'Client authentication failed.' };
      }
    },
  },
  {
    name: 'disabled-partner-gets-token',
    kind: 'fault',
    clause: '5.4b',
    description: 'A client of an inactive partner is issued tokens.',
    enforce: { 'token.partnerActive': false },
  },
  {
    name: 'token-endpoint-ignores-api-switch',
    kind: 'fault',
    clause: '5.4d',
    description: 'With the API disabled the token endpoint still issues tokens (no 503 temporarily_unavailable).',
    enforce: { 'api.enabled': (request) => !request?.url.endsWith('/oauth/token') },
  },
  {
    name: 'scope-names-dotted',
    kind: 'fault',
    clause: '5.5a',
    description: 'The token response spells scopes fleet.read instead of fleet:read.',
    response(r) {
      if (isToken(r) && r.status === 200) (r.value as Obj).scope = String((r.value as Obj).scope).replace(/:/g, '.');
    },
  },
  {
    name: 'scope-intersection-ignored',
    kind: 'fault',
    clause: '5.5b',
    description: 'A token carries every scope its client holds, also those its partner account lacks.',
    adjust: {
      'token.scopes': (scopes, input) =>
        [...new Set([...scopes, ...input.clientScopes.filter((s) => /^[a-z]+:[a-z]+$/.test(s))])] as typeof scopes,
    },
  },
  {
    name: 'malformed-token-500',
    kind: 'fault',
    clause: '5.6a',
    description: 'A malformed bearer token (characters outside the token alphabet) answers 500.',
    request(r) {
      const auth = String(r.request.headers.authorization ?? '');
      if (/^bearer /i.test(auth) && /[^A-Za-z0-9\-._~+/=]/.test(auth.slice(7))) {
        r.respond(500, {
          error: {
            code: 'INTERNAL_ERROR',
            message: 'Unexpected error.',
            requestId: String(r.request.id),
            retryable: true,
          },
        });
      }
    },
  },
  {
    name: 'insufficient-scope-401',
    kind: 'fault',
    clause: '5.6b',
    description: 'A valid token lacking the scope gets 401 INVALID_TOKEN instead of 403 INSUFFICIENT_SCOPE.',
    response(r) {
      if (envelopeError(r.value)?.code === 'INSUFFICIENT_SCOPE') answerError(r, 'INVALID_TOKEN');
    },
  },
  {
    name: 'disabled-partner-served',
    kind: 'fault',
    clause: '5.6c',
    description: 'A token of a partner disabled since it was issued is still served.',
    enforce: { 'partner.active': false },
  },
  {
    name: 'responses-shared-cacheable',
    kind: 'fault',
    clause: '5.7b',
    description: 'Business GET answers are marked Cache-Control: public, max-age=300.',
    response(r) {
      if (isBusiness(r) && r.request.method === 'GET' && r.status === 200)
        r.setHeader('cache-control', 'public, max-age=300');
    },
  },
  {
    name: 'api-switch-ignored',
    kind: 'fault',
    clause: '5.8',
    description: 'With the API disabled business calls are served anyway (no 503 API_DISABLED).',
    enforce: { 'api.enabled': (request) => Boolean(request?.url.endsWith('/oauth/token')) },
  },
  // --- 6: events ---
  {
    name: 'webhook-registration',
    kind: 'fault',
    clause: '6.1',
    description: 'POST /webhooks registers a callback (201).',
    request(r) {
      if (r.request.method === 'POST' && /\/api\/partner\/v1\/(webhooks|subscriptions)\b/.test(r.request.url)) {
        r.respond(201, { webhookId: 'wh-0001', url: 'https://partner.example.test/hook', events: ['reservation.*'] });
      }
    },
  },
  {
    name: 'reservation-history-served',
    kind: 'fault',
    clause: '6.2',
    description: 'GET /reservations/{id}/history answers a list of transitions.',
    request(r) {
      if (r.request.method === 'GET' && /\/api\/partner\/v1\/reservations\/[^/]+\/history$/.test(r.request.url)) {
        r.respond(200, { transitions: [{ from: null, to: 'confirmed', at: new Date().toISOString() }] });
      }
    },
  },
  {
    name: 'read-after-cancel-stale',
    kind: 'fault',
    clause: '6.3',
    description: 'GET /reservations/{id} answers the state at booking (a stale cache), not the current one.',
    response(r) {
      if (r.operation === 'getReservation' && r.status === 200) {
        const reservation = r.value as Obj;
        if (reservation.status === 'cancelled') reservation.status = 'confirmed';
      }
    },
  },
  // --- 7: errors ---
  {
    name: 'oauth-error-extra-field',
    kind: 'fault',
    clause: '7.1.1',
    description: 'Token endpoint errors carry an extra field (hint).',
    response(r) {
      if (isToken(r) && r.status >= 400 && r.value && typeof r.value === 'object') {
        (r.value as Obj).hint = 'check the client credentials';
      }
    },
  },
  {
    name: 'business-errors-oauth-shape',
    kind: 'fault',
    clause: '7.1.2',
    description: 'Business 401 answers use the OAuth error shape instead of the envelope.',
    response(r) {
      const error = envelopeError(r.value);
      if (isBusiness(r) && r.status === 401 && error) {
        r.value = { error: 'invalid_token', error_description: String(error.message) };
      }
    },
  },
  {
    name: 'envelope-extra-field',
    kind: 'fault',
    clause: '7.2.1',
    description: 'Every error envelope carries an extra field (error.details).',
    response(r) {
      const error = envelopeError(r.value);
      if (error) error.details = [];
    },
  },
  {
    name: 'error-code-number',
    kind: 'fault',
    clause: '7.2.2',
    description: 'error.code is the HTTP status number instead of the code string.',
    response(r) {
      const error = envelopeError(r.value);
      if (error) error.code = r.status;
    },
  },
  {
    name: 'message-echoes-driver-email',
    kind: 'fault',
    clause: '7.2.3',
    description: "Validation errors of a booking repeat the driver's email in the message.",
    adjust: {
      body: (value, input, request) => {
        if (input.schema === 'ReservationRequest' && request && value && typeof value === 'object') {
          const email = ((value as Obj).driver as Obj | undefined)?.email;
          if (typeof email === 'string') driverEmails.set(request, email);
        }
        return value;
      },
    },
    response(r) {
      const error = envelopeError(r.value);
      const email = driverEmails.get(r.request);
      if (error && email && r.status === 400) error.message = `${String(error.message)} (driver ${email})`;
    },
  },
  {
    name: 'request-id-differs',
    kind: 'fault',
    clause: '7.2.4',
    description: 'error.requestId differs from the X-Request-Id header.',
    response(r) {
      const error = envelopeError(r.value);
      if (error) error.requestId = `err-${String(error.requestId).slice(0, 8)}`;
    },
  },
  {
    name: 'retryable-as-string',
    kind: 'fault',
    clause: '7.2.5',
    description: 'error.retryable is the string "false" or "true".',
    response(r) {
      const error = envelopeError(r.value);
      if (error) error.retryable = String(error.retryable);
    },
  },
  {
    name: 'fields-without-message',
    kind: 'fault',
    clause: '7.2.6',
    description: 'error.fields items carry field only, no message.',
    response(r) {
      const fields = envelopeError(r.value)?.fields;
      if (Array.isArray(fields)) for (const f of fields as Obj[]) delete f.message;
    },
  },
  {
    name: 'unauthorized-403',
    kind: 'fault',
    clause: '7.3.1',
    description: 'UNAUTHORIZED answers 403.',
    response: rowOf('UNAUTHORIZED', { status: 403 }),
  },
  {
    name: 'invalid-token-retryable',
    kind: 'fault',
    clause: '7.3.3',
    description: 'INVALID_TOKEN is marked retryable.',
    response: rowOf('INVALID_TOKEN', { retryable: true }),
  },
  {
    name: 'insufficient-scope-retryable',
    kind: 'fault',
    clause: '7.3.4',
    description: 'INSUFFICIENT_SCOPE is marked retryable.',
    response: rowOf('INSUFFICIENT_SCOPE', { retryable: true }),
  },
  {
    name: 'partner-disabled-retryable',
    kind: 'fault',
    clause: '7.3.5',
    description: 'PARTNER_DISABLED is marked retryable.',
    response: rowOf('PARTNER_DISABLED', { retryable: true }),
  },
  {
    name: 'validation-error-422',
    kind: 'fault',
    clause: '7.3.6',
    description: 'VALIDATION_ERROR answers 422.',
    response: rowOf('VALIDATION_ERROR', { status: 422 }),
  },
  {
    name: 'malformed-json-retryable',
    kind: 'fault',
    clause: '7.3.7',
    description: 'MALFORMED_JSON is marked retryable.',
    response: rowOf('MALFORMED_JSON', { retryable: true }),
  },
  {
    name: 'malformed-xml-422',
    kind: 'fault',
    clause: '7.3.8',
    description: 'MALFORMED_XML answers 422.',
    response: rowOf('MALFORMED_XML', { status: 422 }),
  },
  {
    name: 'not-acceptable-retryable',
    kind: 'fault',
    clause: '7.3.9',
    description: 'NOT_ACCEPTABLE is marked retryable.',
    response: rowOf('NOT_ACCEPTABLE', { retryable: true }),
  },
  {
    name: 'too-large-retryable',
    kind: 'fault',
    clause: '7.3.10',
    description: 'REQUEST_TOO_LARGE is marked retryable.',
    response: rowOf('REQUEST_TOO_LARGE', { retryable: true }),
  },
  {
    name: 'unsupported-media-type-400',
    kind: 'fault',
    clause: '7.3.11',
    description: 'UNSUPPORTED_MEDIA_TYPE answers 400.',
    response: rowOf('UNSUPPORTED_MEDIA_TYPE', { status: 400 }),
  },
  {
    name: 'invalid-account-code-retryable',
    kind: 'fault',
    clause: '7.3.12',
    description: 'INVALID_ACCOUNT_CODE is marked retryable.',
    response: rowOf('INVALID_ACCOUNT_CODE', { retryable: true }),
  },
  {
    name: 'invalid-rate-code-404',
    kind: 'fault',
    clause: '7.3.13',
    description: 'INVALID_RATE_CODE answers 404.',
    response: rowOf('INVALID_RATE_CODE', { status: 404 }),
  },
  {
    name: 'rate-not-approved-retryable',
    kind: 'fault',
    clause: '7.3.14',
    description: 'RATE_NOT_APPROVED is marked retryable.',
    response: rowOf('RATE_NOT_APPROVED', { retryable: true }),
  },
  {
    name: 'invalid-location-404',
    kind: 'fault',
    clause: '7.3.15',
    description: 'INVALID_LOCATION answers 404.',
    response: rowOf('INVALID_LOCATION', { status: 404 }),
  },
  {
    name: 'not-one-way-409',
    kind: 'fault',
    clause: '7.3.16',
    description: 'LOCATION_NOT_ONE_WAY answers 409.',
    response: rowOf('LOCATION_NOT_ONE_WAY', { status: 409 }),
  },
  {
    name: 'rental-window-retryable',
    kind: 'fault',
    clause: '7.3.17',
    description: 'INVALID_RENTAL_WINDOW is marked retryable.',
    response: rowOf('INVALID_RENTAL_WINDOW', { retryable: true }),
  },
  {
    name: 'invalid-vehicle-retryable',
    kind: 'fault',
    clause: '7.3.18',
    description: 'INVALID_VEHICLE is marked retryable.',
    response: rowOf('INVALID_VEHICLE', { retryable: true }),
  },
  {
    name: 'profile-incomplete-422',
    kind: 'fault',
    clause: '7.3.19',
    description: 'FLEET_PROFILE_INCOMPLETE answers 422.',
    response: rowOf('FLEET_PROFILE_INCOMPLETE', { status: 422 }),
  },
  {
    name: 'not-found-retryable',
    kind: 'fault',
    clause: '7.3.20',
    description: 'NOT_FOUND is marked retryable.',
    response: rowOf('NOT_FOUND', { retryable: true }),
  },
  {
    name: 'no-availability-retryable',
    kind: 'fault',
    clause: '7.3.21',
    description: 'NO_AVAILABILITY is marked retryable.',
    response: rowOf('NO_AVAILABILITY', { retryable: true }),
  },
  {
    name: 'quote-expired-410',
    kind: 'fault',
    clause: '7.3.22',
    description: 'QUOTE_EXPIRED answers 410.',
    response: rowOf('QUOTE_EXPIRED', { status: 410 }),
  },
  {
    name: 'quote-invalid-retryable',
    kind: 'fault',
    clause: '7.3.23',
    description: 'QUOTE_INVALID is marked retryable.',
    response: rowOf('QUOTE_INVALID', { retryable: true }),
  },
  {
    name: 'quote-stale-retryable',
    kind: 'fault',
    clause: '7.3.24',
    description: 'QUOTE_STALE is marked retryable.',
    response: rowOf('QUOTE_STALE', { retryable: true }),
  },
  {
    name: 'key-required-428',
    kind: 'fault',
    clause: '7.3.25',
    description: 'IDEMPOTENCY_KEY_REQUIRED answers 428.',
    response: rowOf('IDEMPOTENCY_KEY_REQUIRED', { status: 428 }),
  },
  {
    name: 'conflict-retryable',
    kind: 'fault',
    clause: '7.3.26',
    description: 'IDEMPOTENCY_CONFLICT is marked retryable.',
    response: rowOf('IDEMPOTENCY_CONFLICT', { retryable: true }),
  },
  {
    name: 'in-flight-not-retryable',
    kind: 'fault',
    clause: '7.3.27',
    description: 'IDEMPOTENT_REPLAY_IN_FLIGHT is marked not retryable.',
    response: rowOf('IDEMPOTENT_REPLAY_IN_FLIGHT', { retryable: false }),
  },
  {
    name: 'duplicate-reference-400',
    kind: 'fault',
    clause: '7.3.28',
    description: 'DUPLICATE_PARTNER_REFERENCE answers 400.',
    response: rowOf('DUPLICATE_PARTNER_REFERENCE', { status: 400 }),
  },
  {
    name: 'rejected-retryable',
    kind: 'fault',
    clause: '7.3.29',
    description: 'RESERVATION_REJECTED is marked retryable.',
    response: rowOf('RESERVATION_REJECTED', { retryable: true }),
  },
  {
    name: 'state-transition-422',
    kind: 'fault',
    clause: '7.3.30',
    description: 'INVALID_STATE_TRANSITION answers 422.',
    response: rowOf('INVALID_STATE_TRANSITION', { status: 422 }),
  },
  {
    name: 'needs-staff-202',
    kind: 'fault',
    clause: '7.3.31',
    description: 'CANCELLATION_NEEDS_STAFF answers 202.',
    response: rowOf('CANCELLATION_NEEDS_STAFF', { status: 202 }),
  },
  {
    name: 'modification-405',
    kind: 'fault',
    clause: '7.3.32',
    description: 'MODIFICATION_NOT_SUPPORTED answers 405.',
    response: rowOf('MODIFICATION_NOT_SUPPORTED', { status: 405 }),
  },
  {
    name: 'rate-limited-not-retryable',
    kind: 'fault',
    clause: '7.3.33',
    description: 'RATE_LIMITED is marked not retryable.',
    response: rowOf('RATE_LIMITED', { retryable: false }),
  },
  {
    name: 'api-disabled-not-retryable',
    kind: 'fault',
    clause: '7.3.34',
    description: 'API_DISABLED is marked not retryable.',
    response: rowOf('API_DISABLED', { retryable: false }),
  },
  {
    name: 'dependency-unavailable-500',
    kind: 'fault',
    clause: '7.3.35',
    description: 'DEPENDENCY_UNAVAILABLE answers 500.',
    response: rowOf('DEPENDENCY_UNAVAILABLE', { status: 500 }),
  },
  {
    name: 'internal-error-not-retryable',
    kind: 'fault',
    clause: '7.3.36',
    description: 'INTERNAL_ERROR is marked not retryable.',
    response: rowOf('INTERNAL_ERROR', { retryable: false }),
  },
  // --- 8: limits ---
  {
    name: 'quote-validity-one-hour',
    kind: 'fault',
    clause: '8.2',
    description: 'Quotes and offers are valid 60 minutes instead of 30.',
    adjust: { 'quote.validityMs': (ms) => ms * 2 },
  },
  {
    name: 'short-idempotency-key-accepted',
    kind: 'fault',
    clause: '8.3',
    description:
      'An Idempotency-Key of fewer than 8 characters is accepted. The length is 8.3\'s ("Idempotency-Key length | 8 ' +
      'to 200 characters"), which states it alone; 4.7.11 repeats it in the description of the whole header.',
    enforce: {
      'idempotency.keyLength': (request) => {
        const key = request?.headers['idempotency-key'];
        return typeof key !== 'string' || key.length >= 8;
      },
    },
  },
  {
    name: 'long-idempotency-key-accepted',
    kind: 'fault',
    clause: '8.3',
    description: 'An Idempotency-Key of more than 200 characters is accepted.',
    enforce: {
      'idempotency.keyLength': (request) => {
        const key = request?.headers['idempotency-key'];
        return typeof key !== 'string' || key.length <= 200;
      },
    },
  },
  {
    name: 'list-limit-above-100',
    kind: 'fault',
    clause: '8.5',
    description: 'GET /reservations?limit=101 is served and says limit 101.',
    request(r) {
      const query = r.request.query as Obj | undefined;
      const limit = Number(query?.limit);
      if (query && Number.isInteger(limit) && limit > 100) {
        askedLimits.set(r.request, limit);
        query.limit = '100';
      }
    },
    response(r) {
      const asked = askedLimits.get(r.request);
      if (asked !== undefined && r.operation === 'listReservations' && r.status === 200) (r.value as Obj).limit = asked;
    },
  },
  {
    name: 'list-default-ten',
    kind: 'fault',
    clause: '8.5',
    description:
      "GET /reservations without limit answers pages of 10 instead of 25. The list limit's default is 8.5's " +
      '("Reservation list limit | 1 to 100, default 25"), the limit the answer carries; 4.8.1 describes the query ' +
      'parameter that asks for it.',
    response(r) {
      if (r.operation !== 'listReservations' || r.status !== 200) return;
      if ((r.request.query as Record<string, unknown> | undefined)?.limit !== undefined) return;
      const list = r.value as Obj;
      list.reservations = (list.reservations as Obj[]).slice(0, 10);
      list.limit = 10;
      list.count = (list.reservations as Obj[]).length;
    },
  },
  {
    name: 'vehicle-codes-above-50',
    kind: 'fault',
    clause: '8.6',
    description: 'More than 50 vehicleCodes are accepted.',
    adjust: {
      validation: (fields) =>
        fields.filter((f) => !(f.field === 'vehicleCodes' && f.message.startsWith('must have at most'))),
    },
  },
  {
    name: 'partner-reference-long',
    kind: 'fault',
    clause: '8.8',
    description: 'A partnerReference of more than 64 characters is accepted.',
    // Only the length: a wrong type of the field is still refused (the fault breaks the limit, nothing else).
    adjust: {
      validation: (fields) =>
        fields.filter((f) => !(f.field === 'partnerReference' && f.message.startsWith('must be at most'))),
    },
  },
  {
    name: 'remarks-long',
    kind: 'fault',
    clause: '8.9',
    description: 'remarks of more than 1000 characters are accepted.',
    // Only the length: a wrong type of the field is still refused (the fault breaks the limit, nothing else).
    adjust: {
      validation: (fields) => fields.filter((f) => !(f.field === 'remarks' && f.message.startsWith('must be at most'))),
    },
  },
  {
    name: 'flight-number-long',
    kind: 'fault',
    clause: '8.10',
    description: 'A flightNumber of more than 20 characters is accepted.',
    // Only the length: a wrong type of the field is still refused (the fault breaks the limit, nothing else).
    adjust: {
      validation: (fields) =>
        fields.filter((f) => !(f.field === 'flightNumber' && f.message.startsWith('must be at most'))),
    },
  },
  {
    name: 'cancel-reason-long',
    kind: 'fault',
    clause: '8.11',
    description: 'A cancel reason of more than 500 characters is accepted.',
    adjust: {
      validation: (fields) => fields.filter((f) => !(f.field === 'reason' && f.message.startsWith('must be at most'))),
    },
  },
  {
    name: 'rate-limit-per-address',
    kind: 'fault',
    clause: '8.13',
    description: 'Rate limits are counted per source address: one client exhausting its bucket throttles all.',
    adjust: { 'rateLimit.key': (_key, input) => `address:${input.ip}` },
  },
  {
    name: 'rate-limit-never-enforced',
    kind: 'fault',
    clause: '8.14',
    description: 'X-RateLimit-Remaining reaches 0 but requests beyond it are still served (no 429).',
    enforce: { rateLimit: false },
  },
  {
    name: 'rate-limit-reset-epoch',
    kind: 'fault',
    clause: '8.14',
    description: 'X-RateLimit-Reset is epoch seconds instead of an ISO 8601 timestamp.',
    response(r) {
      const reset = r.header('x-ratelimit-reset');
      if (reset) r.setHeader('x-ratelimit-reset', String(Math.floor(Date.parse(reset) / 1000)));
    },
  },
  {
    name: 'rate-limit-reset-next-window',
    kind: 'fault',
    clause: '8.14',
    description: 'X-RateLimit-Reset names the end of the window after the current one (a minute late).',
    response(r) {
      const reset = Date.parse(r.header('x-ratelimit-reset') ?? '');
      if (Number.isFinite(reset)) r.setHeader('x-ratelimit-reset', new Date(reset + 60_000).toISOString());
    },
  },
  {
    name: 'retry-after-http-date',
    kind: 'fault',
    clause: '8.15',
    description: 'Retry-After on a 429 is an HTTP date instead of whole seconds.',
    response(r) {
      const after = r.header('retry-after');
      if (r.status === 429 && after)
        r.setHeader('retry-after', new Date(Date.now() + Number(after) * 1000).toUTCString());
    },
  },
  {
    name: 'rate-limit-429-without-retry-after',
    kind: 'fault',
    clause: '8.15',
    description: 'A 429 carries no Retry-After header (the X-RateLimit-* headers still say when the window resets).',
    response(r) {
      if (r.status === 429) r.removeHeader('retry-after');
    },
  },
  {
    name: 'token-rate-limit-headers',
    kind: 'fault',
    clause: '8.16b',
    description: 'The token endpoint sends X-RateLimit-* headers.',
    response(r) {
      if (!isToken(r)) return;
      r.setHeader('x-ratelimit-limit', '120');
      r.setHeader('x-ratelimit-remaining', '119');
      r.setHeader('x-ratelimit-reset', new Date(Date.now() + 60_000).toISOString());
    },
  },
  // --- 9: versioning ---
  {
    name: 'v2-prefix-served',
    kind: 'fault',
    clause: '9.1',
    description: 'Paths under /api/partner/v2 are served like v1.',
    request(r) {
      if (/^\/api\/partner\/v2\//.test(r.request.url)) r.respond(200, { vehicles: [], count: 0 });
    },
  },
  {
    name: 'openapi-release-wrong',
    kind: 'fault',
    clause: '9.2a',
    description: 'The served OpenAPI document names release 1.3.0.',
    text: (text, r) => (r.request.url.endsWith('/openapi.json') ? text.replaceAll('1.4.0', '1.3.0') : text),
  },
  {
    name: 'openapi-version-3-0',
    kind: 'fault',
    clause: '9.2b',
    description: 'The served OpenAPI document is OpenAPI 3.0.3.',
    text: (text, r) =>
      r.request.url.endsWith('/openapi.json') ? text.replace(/"openapi"\s*:\s*"3\.1\.\d+"/, '"openapi":"3.0.3"') : text,
  },
  {
    name: 'field-names-snake-case',
    kind: 'fault',
    clause: '9.3b',
    description: 'Locations spell locationCode as location_code.',
    response(r) {
      if ((r.operation === 'listLocations' || r.operation === 'getLocation') && r.status === 200) {
        const rename = (l: Obj) => {
          l.location_code = l.locationCode;
          delete l.locationCode;
        };
        const value = r.value as Obj;
        if (Array.isArray(value.locations)) for (const l of value.locations as Obj[]) rename(l);
        else rename(value);
      }
    },
  },
  {
    name: 'xml-namespace-v2',
    kind: 'fault',
    clause: '9.4',
    description: 'The XML namespace says v2 (urn:service:partner-api:v2).',
    text: (text, r) =>
      r.representation === 'xml' ? text.replace(XML_NAMESPACE, XML_NAMESPACE.replace(/v1$/, 'v2')) : text,
  },
];
