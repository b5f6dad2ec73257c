/** Spec 7.3: every error code of the envelope with its HTTP status and retryability. */
export const ERROR_CODES = {
  UNAUTHORIZED: { status: 401, retryable: false, condition: 'authentication required' },
  INVALID_CLIENT: { status: 401, retryable: false, condition: 'client authentication failed' },
  INVALID_TOKEN: { status: 401, retryable: false, condition: 'access token missing, malformed or expired' },
  INSUFFICIENT_SCOPE: { status: 403, retryable: false, condition: "token lacks the operation's scope" },
  PARTNER_DISABLED: { status: 403, retryable: false, condition: 'partner account not active' },
  VALIDATION_ERROR: { status: 400, retryable: false, condition: 'request body failed validation' },
  MALFORMED_JSON: { status: 400, retryable: false, condition: 'body not valid JSON' },
  MALFORMED_XML: { status: 400, retryable: false, condition: 'body not valid XML of the representation' },
  NOT_ACCEPTABLE: {
    status: 406,
    retryable: false,
    condition: 'Accept allows none of application/json, application/xml, text/xml',
  },
  REQUEST_TOO_LARGE: { status: 413, retryable: false, condition: 'body exceeds maximum size' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    retryable: false,
    condition: 'Content-Type not application/json, application/xml or text/xml',
  },
  INVALID_ACCOUNT_CODE: { status: 400, retryable: false, condition: 'account code unknown or not enabled' },
  INVALID_RATE_CODE: {
    status: 400,
    retryable: false,
    condition: 'rate code unknown, not enabled or outside validity window',
  },
  RATE_NOT_APPROVED: { status: 409, retryable: false, condition: 'rate plan awaiting commercial approval' },
  INVALID_LOCATION: { status: 400, retryable: false, condition: 'location code unknown or not active' },
  LOCATION_NOT_ONE_WAY: { status: 400, retryable: false, condition: 'one-way not available between the locations' },
  INVALID_RENTAL_WINDOW: {
    status: 400,
    retryable: false,
    condition: 'pickup and dropoff not valid Vietnam local times, or dropoff not after pickup',
  },
  INVALID_VEHICLE: { status: 400, retryable: false, condition: 'vehicle code unknown or not published to partners' },
  FLEET_PROFILE_INCOMPLETE: {
    status: 409,
    retryable: false,
    condition: 'vehicle lacks a complete partner specification',
  },
  NOT_FOUND: { status: 404, retryable: false, condition: 'resource does not exist for this partner' },
  NO_AVAILABILITY: { status: 409, retryable: false, condition: 'no vehicle class offerable for the criteria' },
  QUOTE_EXPIRED: { status: 409, retryable: false, condition: 'quote expired; request a new one' },
  QUOTE_INVALID: { status: 400, retryable: false, condition: 'quote reference invalid for this partner or tampered' },
  QUOTE_STALE: { status: 409, retryable: false, condition: 'price changed since the quote was issued' },
  IDEMPOTENCY_KEY_REQUIRED: { status: 400, retryable: false, condition: 'Idempotency-Key header missing' },
  IDEMPOTENCY_CONFLICT: { status: 409, retryable: false, condition: 'key already used with a different body' },
  IDEMPOTENT_REPLAY_IN_FLIGHT: { status: 409, retryable: true, condition: 'identical request still being processed' },
  DUPLICATE_PARTNER_REFERENCE: {
    status: 409,
    retryable: false,
    condition: 'reservation already exists for the partner reference',
  },
  RESERVATION_REJECTED: {
    status: 422,
    retryable: false,
    condition: 'the operator declined; reason only via support with requestId',
  },
  INVALID_STATE_TRANSITION: {
    status: 409,
    retryable: false,
    condition: 'reservation state does not allow the operation',
  },
  CANCELLATION_NEEDS_STAFF: {
    status: 409,
    retryable: false,
    condition: 'rental payment or security deposit exists; staff review; request recorded, staff alerted',
  },
  MODIFICATION_NOT_SUPPORTED: { status: 501, retryable: false, condition: 'modification unsupported in v1' },
  RATE_LIMITED: { status: 429, retryable: true, condition: 'rate limit exceeded; Retry-After given' },
  API_DISABLED: { status: 503, retryable: true, condition: 'partner API not enabled on this environment' },
  DEPENDENCY_UNAVAILABLE: {
    status: 503,
    retryable: true,
    condition: 'downstream dependency temporarily unavailable',
  },
  INTERNAL_ERROR: { status: 500, retryable: true, condition: 'unexpected error' },
} as const satisfies Record<string, { status: number; retryable: boolean; condition: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}

/** Spec 4.1, 5.4 and 7.1: the token endpoint's OAuth error values with their HTTP status. */
export const OAUTH_ERRORS = {
  invalid_request: { status: 400, condition: 'malformed token request' },
  unsupported_grant_type: { status: 400, condition: 'grant_type is not client_credentials' },
  invalid_scope: { status: 400, condition: 'requested scope beyond the grant' },
  invalid_client: { status: 401, condition: 'client authentication failed, or client or partner not active' },
  slow_down: { status: 429, condition: 'token endpoint rate limit exceeded' },
  temporarily_unavailable: { status: 503, condition: 'token endpoint temporarily unavailable' },
} as const satisfies Record<string, { status: number; condition: string }>;

export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;
