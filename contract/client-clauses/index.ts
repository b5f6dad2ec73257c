import type { ClientClause } from './types.ts';

export type { ClientClause } from './types.ts';

/** One entry as written below: its level defaults to MUST. */
type Entry = Omit<ClientClause, 'level'> & { level?: ClientClause['level'] };

const entries: readonly Entry[] = [
  {
    id: 'C2a',
    section: '2',
    title: 'Request bodies are valid: closed objects, valid JSON or XML, within the size limits',
    text: 'Objects are closed (no unknown properties) unless stated.',
    evidence:
      'no answer 400 VALIDATION_ERROR, MALFORMED_JSON or MALFORMED_XML, nor 413 REQUEST_TOO_LARGE, to a business call',
    observation: 'traffic',
  },
  {
    id: 'C2.1a',
    section: '2.1',
    title: 'Money arithmetic uses amount and exponent',
    text: 'Arithmetic uses amount and exponent.',
    evidence: 'none: what the client computes with a Money value never reaches the wire',
    observation: 'outside-traffic',
  },
  {
    id: 'C2.1b',
    section: '2.1',
    title: 'Money.display is never parsed as authoritative',
    text: 'rendering for humans only; never parsed as authoritative',
    evidence: 'none: how the client reads a field never reaches the wire',
    observation: 'outside-traffic',
  },
  {
    id: 'C4.1a',
    section: '4.1',
    title: 'Token requests are application/x-www-form-urlencoded',
    text: 'Request `application/x-www-form-urlencoded`',
    evidence: 'the Content-Type of every POST /oauth/token',
    observation: 'traffic',
  },
  {
    id: 'C4.1b',
    section: '4.1',
    title: 'Token requests carry grant_type=client_credentials',
    text: 'grant_type (required, must be client_credentials)',
    evidence: 'the grant_type form field of every POST /oauth/token',
    observation: 'traffic',
  },
  {
    id: 'C4.1c',
    section: '4.1',
    title: 'A requested scope is a space-delimited subset of the grant',
    text: 'scope (optional, space-delimited subset of the grant; omitted means everything held)',
    evidence: 'no token request answered 400 invalid_scope',
    observation: 'traffic',
  },
  {
    id: 'C4.1d',
    section: '4.1',
    title: 'client_secret in the form only with client_secret_post, never beside Basic',
    text: 'client_id and client_secret (only for client_secret_post)',
    evidence: 'no token request with both an Authorization: Basic header and a client_secret form field',
    observation: 'traffic',
  },
  {
    id: 'C4.7a',
    section: '4.7',
    title: 'Every booking carries an Idempotency-Key',
    text: 'Header `Idempotency-Key` (required, string, 8 to 200 chars, unique per attempt).',
    evidence: 'the Idempotency-Key header of every POST /reservations',
    observation: 'traffic',
  },
  {
    id: 'C4.7b',
    section: '4.7',
    title: 'An Idempotency-Key is 8 to 200 characters',
    text: 'Header `Idempotency-Key` (required, string, 8 to 200 chars, unique per attempt).',
    evidence: 'the length of the Idempotency-Key of every POST /reservations',
    observation: 'traffic',
  },
  {
    id: 'C4.7c',
    section: '4.7',
    title: 'An Idempotency-Key is unique per attempt: never reused for a different body',
    text: 'Header `Idempotency-Key` (required, string, 8 to 200 chars, unique per attempt).',
    evidence: 'no key sent with two different booking bodies (nor answered 409 IDEMPOTENCY_CONFLICT)',
    observation: 'traffic',
  },
  {
    id: 'C4.7d',
    section: '4.7',
    title: 'A retry of a booking whose answer was lost or retryable keeps its key and identical body',
    text: 'Same key and same body within 24 hours: 200, the original response, with header `Idempotent-Replay: true`; no second reservation.',
    evidence:
      'after a booking answered 5xx or 409 IDEMPOTENT_REPLAY_IN_FLIGHT, the next booking with the same body carries the same key',
    observation: 'traffic',
  },
  {
    id: 'C4.7e',
    section: '4.7',
    title: 'IDEMPOTENT_REPLAY_IN_FLIGHT is retried with the same key and body',
    text: 'Same key while an identical request is in process: 409 IDEMPOTENT_REPLAY_IN_FLIGHT (retryable).',
    evidence: 'after a 409 IDEMPOTENT_REPLAY_IN_FLIGHT, a later booking with the same key and the same body',
    observation: 'traffic',
    level: 'SHOULD',
  },
  {
    id: 'C4.7f',
    section: '4.7',
    title: 'A partnerReference names one rental: never sent again under another key',
    text: 'One reference is one rental, permanently.',
    evidence:
      'no partnerReference in the bodies of two bookings with different keys (nor answered 409 DUPLICATE_PARTNER_REFERENCE)',
    observation: 'traffic',
  },
  {
    id: 'C4.10',
    section: '4.10',
    title: 'A reservation is changed by cancel and re-book, never by PATCH',
    text: 'Changing a reservation requires cancel and re-book.',
    evidence: 'no PATCH /reservations/{id} in a session that booked',
    observation: 'traffic',
  },
  {
    id: 'C4.13a',
    section: '4.13',
    title: 'Accept, when sent, allows application/json, application/xml or text/xml',
    text: 'Response type is chosen from Accept: application/json (default when Accept is absent), application/xml, text/xml.',
    evidence: 'no business call answered 406 NOT_ACCEPTABLE',
    observation: 'traffic',
  },
  {
    id: 'C4.13b',
    section: '4.13',
    title: 'A business call with a body sends Content-Type application/json, application/xml or text/xml',
    text: 'Request Content-Type for business calls with a body: application/json, application/xml or text/xml; otherwise 415 UNSUPPORTED_MEDIA_TYPE.',
    evidence: 'the Content-Type of every business POST',
    observation: 'traffic',
  },
  {
    id: 'C5.2',
    section: '5.2',
    title: 'The client authenticates at the token endpoint with HTTP Basic (preferred)',
    text: 'HTTP Basic (`Authorization: Basic base64(client_id:client_secret)`, client_secret_basic, preferred)',
    level: 'SHOULD',
    evidence: 'the Authorization scheme of every POST /oauth/token',
    observation: 'traffic',
  },
  {
    id: 'C5.3a',
    section: '5.3',
    title: 'Every business call carries Authorization: Bearer',
    text: 'The token is sent as `Authorization: Bearer <ACCESS_TOKEN>` on every other call.',
    evidence: 'the Authorization scheme of every call but POST /oauth/token',
    observation: 'traffic',
  },
  {
    id: 'C5.3b',
    section: '5.3',
    title: 'A token is reused until it expires: no token per call',
    text: 'clients reuse one until expiry rather than requesting one per call',
    evidence:
      'no token request while a token issued to the same client for the same scope is unexpired and not refused (401 INVALID_TOKEN)',
    observation: 'traffic',
  },
  {
    id: 'C5.7',
    section: '5.7',
    title: 'The client calls over HTTPS',
    text: 'Transport is HTTPS only, TLS 1.2 minimum.',
    evidence: 'the protocol of every exchange (judged only when the sandbox serves HTTPS)',
    observation: 'traffic',
  },
  {
    id: 'C6',
    section: '6',
    title: 'Repeated observations of a reservation are processed idempotently',
    text: 'clients process repeated observations idempotently',
    evidence:
      'every reservation observed more than once (its booking answer, reads and cancels by id): no cancel of it sent again once one succeeded',
    observation: 'traffic',
  },
  {
    id: 'C7.2a',
    section: '7.2',
    title: 'The client switches on the error code, never on the message',
    text: 'stable; clients switch on it, never on message',
    evidence: 'only under a scenario that rewords messages: the client acts the same when only the message changes',
    observation: 'scenario',
  },
  {
    id: 'C7.2b',
    section: '7.2',
    title: 'An error with retryable false is never retried identically',
    text: 'true only when retrying the identical request may succeed',
    evidence:
      'no request identical (method, path and query, body, token, Idempotency-Key) to one answered retryable false',
    observation: 'traffic',
  },
  {
    id: 'C7.3a',
    section: '7.3',
    title: 'After QUOTE_EXPIRED the client gets a new quote, never books the same one again',
    text: 'QUOTE_EXPIRED | 409 | no | quote expired; request a new one',
    evidence: 'no booking carries a quoteId after a booking with it was answered QUOTE_EXPIRED',
    observation: 'traffic',
  },
  {
    id: 'C7.3b',
    section: '7.3',
    title: 'After QUOTE_STALE the client gets a new quote, never books the same one again',
    text: 'QUOTE_STALE | 409 | no | price changed since the quote was issued',
    level: 'SHOULD',
    evidence: 'no booking carries a quoteId after a booking with it was answered QUOTE_STALE',
    observation: 'traffic',
  },
  {
    id: 'C7.3c',
    section: '7.3',
    title: 'A RESERVATION_REJECTED booking is not retried, under any key',
    text: 'RESERVATION_REJECTED | 422 | no | the operator declined; reason only via support with requestId',
    evidence: 'no booking with the same body after one answered 422 RESERVATION_REJECTED',
    observation: 'traffic',
  },
  {
    id: 'C8.3',
    section: '8.3',
    title: 'After a 429 the client sends nothing to that bucket before Retry-After has passed',
    text: 'A 429 also carries `Retry-After` in whole seconds.',
    evidence:
      'no request of the same client to the same limit (business calls, or the token endpoint) before the 429 was answered plus Retry-After seconds',
    observation: 'traffic',
  },
];

/** Every client obligation of the spec, in section order. */
export const CLIENT_CLAUSES: readonly ClientClause[] = entries.map(({ level = 'MUST', ...entry }) => ({
  ...entry,
  level,
}));

const byId = new Map(CLIENT_CLAUSES.map((clause) => [clause.id, clause]));

export function clientClauseById(id: string): ClientClause | undefined {
  return byId.get(id);
}
