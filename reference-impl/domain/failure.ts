import { ERROR_CODES, type ErrorCode } from '../../contract/errors.ts';
import type { ErrorEnvelope, FieldError } from '../../contract/types.ts';

/**
 * A failure answered in the 7.2 envelope. Status and retryable come from the 7.3 table, never from the
 * throw site, so a code keeps one meaning everywhere (spec 9.3).
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly fields: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fields?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.fields = options.fields;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  envelope(requestId: string): ErrorEnvelope {
    const error: ErrorEnvelope['error'] = {
      code: this.code,
      message: this.message,
      requestId,
      retryable: ERROR_CODES[this.code].retryable,
    };
    if (this.fields && this.fields.length > 0) error.fields = this.fields;
    return { error };
  }
}

/** Short, human-safe default messages: they never carry request content (spec 7.2). */
export const DEFAULT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  UNAUTHORIZED: 'Authentication is required: send Authorization: Bearer <token>.',
  INVALID_TOKEN: 'The access token is missing, malformed or expired.',
  INSUFFICIENT_SCOPE: "The access token lacks this operation's scope.",
  PARTNER_DISABLED: 'The partner account is not active.',
  NOT_ACCEPTABLE: 'Accept allows none of application/json, application/xml, text/xml.',
  UNSUPPORTED_MEDIA_TYPE: 'Content-Type must be application/json, application/xml or text/xml (UTF-8).',
  REQUEST_TOO_LARGE: 'The request body exceeds the maximum size.',
  MALFORMED_JSON: 'The request body is not valid JSON.',
  NOT_FOUND: 'The resource does not exist.',
  RATE_LIMITED: 'Rate limit exceeded; retry after the number of seconds in Retry-After.',
  API_DISABLED: 'The partner API is not enabled on this environment.',
  DEPENDENCY_UNAVAILABLE: 'A downstream dependency is temporarily unavailable; retry later.',
  INTERNAL_ERROR: 'An unexpected error occurred; retry later or contact support with the requestId.',
};

export function apiError(code: ErrorCode, message?: string, options?: ConstructorParameters<typeof ApiError>[2]) {
  return new ApiError(code, message ?? DEFAULT_MESSAGES[code] ?? ERROR_CODES[code].condition, options);
}
