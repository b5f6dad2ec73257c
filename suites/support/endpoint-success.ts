/**
 * Whether an answer is its endpoint's success, for a check of another clause. The exact status is the endpoint row's
 * (spec 4.0: POST /quotes "201 Quote", POST /availability "200 AvailabilityResponse"): another 2xx is filed under that
 * row, observed and not blocking, and the check at hand reads the answer as the success it is. Without this a server
 * answering a quote with 200 failed 57 clauses besides 4.0.11 (docs/mutation-matrix.md, `quote-answers-200`).
 */

import { ENDPOINT_CLAUSE } from '../../contract/clause-refs.ts';
import type { ApiResult } from '../../harness/check/check.ts';
import { claim } from '../../harness/check/scope.ts';

export function succeeded(res: ApiResult, status: number, rowClause: string, what: string): boolean {
  if (res.status < 200 || res.status > 299) return false;
  claim(rowClause, res.status === status, `${what} answers ${status}`, { expected: status, actual: res.status });
  return true;
}

/** POST /quotes answered with a quote (spec 4.0.11 owns the 201). */
export function quoteAnswered(res: ApiResult): boolean {
  return succeeded(res, 201, ENDPOINT_CLAUSE.createQuote, 'POST /quotes');
}

/** POST /availability answered with offers (spec 4.0.10 owns the 200). */
export function availabilityAnswered(res: ApiResult): boolean {
  return succeeded(res, 200, ENDPOINT_CLAUSE.searchAvailability, 'POST /availability');
}
