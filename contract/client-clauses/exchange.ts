/**
 * One line of a sandbox recording (JSON Lines): one request and its answer, as the reference in sandbox mode writes it
 * (reference-impl/sandbox/) and the client judge reads it (harness/client-certify/). Declared here, in the contract,
 * because both sides speak it and neither may import the other.
 *
 * No secret is ever written: a bearer token is reduced to its scheme and a hash, Basic credentials to the client id,
 * a client_secret form field to the fact that it was there.
 */
export const RECORDING_VERSION = 1;

/**
 * What a sandbox scenario (reference-impl/sandbox/scenarios/) did to one exchange, so the judge knows what the client
 * was reacting to: '429' (the scenario's rate limit: a business call's 429 RATE_LIMITED or the token endpoint's 429
 * slow_down, or a call refused while its window stood), 'lost-answer' (the booking was made, its answer replaced by
 * 503 DEPENDENCY_UNAVAILABLE), 'in-flight' (409 IDEMPOTENT_REPLAY_IN_FLIGHT), 'token-expired' (401 INVALID_TOKEN for
 * a token expired early), 'quote-expired' and 'quote-stale' (409 on booking), 'declined' (422 RESERVATION_REJECTED).
 */
export const PROVOCATIONS = [
  '429',
  'lost-answer',
  'in-flight',
  'token-expired',
  'quote-expired',
  'quote-stale',
  'declined',
] as const;
export type Provocation = (typeof PROVOCATIONS)[number];

export interface RecordedAuthorization {
  /** The scheme as sent ('Bearer', 'Basic', …), or the whole header's first word when it is not one of ours. */
  scheme: string;
  /** Bearer: the first 16 hex digits of the token's SHA-256, the same for every use of one token. */
  tokenHash?: string;
}

export interface RecordedExchange {
  v: typeof RECORDING_VERSION;
  /** Order of the answers, from 1. */
  seq: number;
  /** The service's X-Request-Id of the exchange. */
  requestId: string;
  /** Who called: from the token (even an expired or refused one), from Basic, or from the form's client_id. */
  clientId: string | null;
  method: string;
  /** The path without its query. */
  path: string;
  /** The raw query string without '?', or null. */
  query: string | null;
  protocol: 'http' | 'https';
  headers: {
    accept: string | null;
    contentType: string | null;
    authorization: RecordedAuthorization | null;
    idempotencyKey: string | null;
  };
  /** SHA-256 (hex) of the request body as received; for the token endpoint, of the form with client_secret masked. */
  bodySha256: string | null;
  bodyBytes: number;
  /** POST /oauth/token: the form's fields, never the secret itself. */
  tokenRequest?: {
    grantType: string | null;
    scope: string | null;
    clientIdInForm: boolean;
    clientSecretInForm: boolean;
  };
  /**
   * POST /reservations: the booking body as parsed (JSON), or null when it was not JSON; and the reservationId of the
   * answer the client got (null for an error).
   */
  booking?: { body: unknown; reservationId?: string | null };
  status: number;
  /** The envelope's code (7.2), or the OAuth error (7.1), or null on success. */
  errorCode: string | null;
  /** The envelope's retryable, or null. */
  retryable: boolean | null;
  /** Retry-After in seconds, or null. */
  retryAfterS: number | null;
  idempotentReplay: boolean;
  /** A 200 token answer: the hash of the token issued (as `tokenHash` above), its expires_in and scope. */
  issuedToken?: { tokenHash: string; expiresInS: number; scope: string };
  /** Under a scenario: what it provoked on this exchange, and the id of the scenario's step that did. */
  provoked?: Provocation;
  scenarioStep?: string;
  /** Under a scenario that rewords messages: the error's message (or error_description) was not the reference's own. */
  messageReworded?: boolean;
  /** 'lost-answer': the answer that was made and never sent (the booking exists under this id). */
  withheld?: { status: number; reservationId: string | null };
  /** Wall-clock milliseconds (epoch) the request arrived and the answer was sent. */
  receivedAtMs: number;
  respondedAtMs: number;
}
