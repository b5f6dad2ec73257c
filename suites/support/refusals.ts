/**
 * Refusals whose status belongs to the code's row (spec 7.3): a clause that asks for a refusal ("Rejected: comments",
 * spec 4.14) is met by the listed code; the status that code goes with is its 7.3 row's (7.3.8: MALFORMED_XML 400),
 * judged there once, not under every rule a body is refused for.
 */
import { ERROR_CODE_CLAUSE } from '../../contract/clause-refs.ts';
import { ERROR_CODES, type ErrorCode } from '../../contract/errors.ts';
import type { ApiResult } from '../../harness/check/check.ts';
import { errorCodeOf, expectError } from '../../harness/check/expect-api.ts';
import { claim } from '../../harness/check/scope.ts';
import type { Representation } from '../../harness/http/representation.ts';

/**
 * When the answer carries one of `codes` at another 4xx status than its row's, files the status under the row's
 * clause (a failure of the check itself when that is its clause) and returns the code; else undefined.
 */
export function rowStatusDeviation(res: ApiResult, codes: readonly ErrorCode[]): ErrorCode | undefined {
  const code = errorCodeOf(res);
  if (code === undefined || !(codes as readonly string[]).includes(code)) return undefined;
  const row = ERROR_CODES[code as ErrorCode];
  if (res.status === row.status || res.status < 400 || res.status >= 500) return undefined;
  claim(ERROR_CODE_CLAUSE[code as ErrorCode], false, `${code} answers HTTP ${row.status}`, {
    expected: row.status,
    actual: { status: res.status, body: res.text.slice(0, 300) },
  });
  return code as ErrorCode;
}

/**
 * expectError for a clause that asks for the refusal, not for its status: one of `codes` at a 4xx status other
 * than the row's is filed under the row (rowStatusDeviation) and the rest of the answer (envelope, retryable, request
 * id, media type) judged as usual.
 */
export function expectRefusal(
  res: ApiResult,
  codes: ErrorCode | readonly ErrorCode[],
  options: { representation?: Representation } = {},
): void {
  const list = typeof codes === 'string' ? [codes] : codes;
  const deviating = rowStatusDeviation(res, list);
  if (deviating) expectError(res, deviating, { ...options, status: res.status });
  else expectError(res, list, options);
}
