import { expect } from 'vitest';
import { MEDIA_TYPES } from '../../contract/constants.ts';
import { ERROR_CODES, type ErrorCode, OAUTH_ERRORS, type OAuthErrorCode } from '../../contract/errors.ts';
import type { SchemaName } from '../../contract/schemas/index.ts';
import { validate } from '../../contract/validation.ts';
import type { ApiResult } from '../http/partner-client.ts';
import type { Representation } from '../http/representation.ts';

/** Spec 4.13: the media type a response of the representation must carry (the selected one). */
export const MEDIA_TYPE_OF: Record<Representation, string> = { json: MEDIA_TYPES.json, xml: MEDIA_TYPES.xml };

/** The body was parsed (JSON, or typed XML of spec 4.14) and validates against the contract's schema. */
export function expectSchema(result: ApiResult, schema: SchemaName): void {
  expect(
    result.body,
    `HTTP ${result.status} ${result.mediaType ?? 'without Content-Type'}: body not readable as ${schema}` +
      (result.parseError ? ` (${result.parseError})` : ''),
  ).toBeDefined();
  const validation = validate(schema, result.body);
  expect(validation.valid ? [] : validation.fields, `body does not match the ${schema} schema`).toEqual([]);
}

/** The response's Content-Type is the representation's media type (or exactly `mediaType` when a string). */
export function expectMediaType(result: ApiResult, expected: Representation | string): void {
  const mediaType = expected === 'json' || expected === 'xml' ? MEDIA_TYPE_OF[expected] : expected;
  expect(result.mediaType, `Content-Type of the HTTP ${result.status} response`).toBe(mediaType);
}

/** `error.code` of an envelope body, if there is one. */
export function errorCodeOf(result: ApiResult): string | undefined {
  const code = (result.body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Spec 7.2 and 7.3: status and code as in the code table (any of `codes` when the spec allows several), a
 * closed valid envelope, retryable as in the table, requestId equal to X-Request-Id, and the media type of
 * `representation` when given. `status` replaces the table's status where a section states another (4.2's
 * "404 INVALID_VEHICLE-type").
 */
export function expectError(
  result: ApiResult,
  codes: ErrorCode | readonly ErrorCode[],
  options: { representation?: Representation; status?: number } = {},
): void {
  const allowed = (typeof codes === 'string' ? [codes] : [...codes]).map((code) => ({
    status: options.status ?? ERROR_CODES[code].status,
    code,
  }));
  const actual = { status: result.status, code: errorCodeOf(result) ?? null };
  expect(allowed, `HTTP status and error code (body: ${result.text.slice(0, 300)})`).toContainEqual(actual);
  if (options.representation) expectMediaType(result, options.representation);
  expectSchema(result, 'ErrorEnvelope');
  const error = (result.body as { error: { code: ErrorCode; retryable: unknown; requestId: unknown } }).error;
  expect(error.retryable, `error.retryable of ${error.code} (spec 7.3)`).toBe(ERROR_CODES[error.code].retryable);
  expect(result.requestId, 'X-Request-Id header').toEqual(expect.any(String));
  expect(error.requestId, 'error.requestId equals X-Request-Id (spec 7.2)').toBe(result.requestId);
}

/** Spec 4.1, 5.4 and 7.1: an OAuth error of the token endpoint, JSON, closed, with the status of its code. */
export function expectOAuthError(result: ApiResult, errors: OAuthErrorCode | readonly OAuthErrorCode[]): void {
  const allowed = (typeof errors === 'string' ? [errors] : [...errors]).map((error) => ({
    status: OAUTH_ERRORS[error].status,
    error,
  }));
  const body = result.body as { error?: unknown } | undefined;
  const actual = { status: result.status, error: typeof body?.error === 'string' ? body.error : null };
  expect(allowed, `HTTP status and OAuth error (body: ${result.text.slice(0, 300)})`).toContainEqual(actual);
  expectMediaType(result, 'json');
  expectSchema(result, 'OAuthError');
}
