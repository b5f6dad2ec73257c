/**
 * Whether an answer is its endpoint's success, for a check of another clause. The exact status is the endpoint row's
 * (spec 4.0: POST /quotes "201 Quote", POST /availability "200 AvailabilityResponse"): another 2xx is filed under that
 * row, observed and not blocking, and the check at hand reads the answer as the success it is. Without this a server
 * answering a quote with 200 failed 57 clauses besides 4.0.11 (docs/mutation-matrix.md, `quote-answers-200`).
 */

import { ENDPOINT_CLAUSE } from '../../contract/clause-refs.ts';
import type { ApiResult } from '../../harness/check/check.ts';
import { type JsonKind, readableBody, requireKeys } from '../../harness/check/expect-api.ts';
import { claim } from '../../harness/check/scope.ts';

/**
 * A success whose body cannot be read (broken typed XML, not JSON) is no answer to go on with: filed under the clause
 * it breaks (readableBody), and the check is blocked, so no caller reads an undefined body.
 */
export function succeeded(res: ApiResult, status: number, rowClause: string, what: string): boolean {
  if (res.status < 200 || res.status > 299) return false;
  claim(rowClause, res.status === status, `${what} answers ${status}`, { expected: status, actual: res.status });
  readableBody(res, `the ${what} answer`);
  return true;
}

/**
 * The parts of a quote the suite reads on (its id to book, the vehicle, the rental, the charges, the payment terms):
 * a quote without one is the clause of that part's (2.9.2, 2.9.5, 2.9.6, 2.9.8a, 2.9.10), filed there, and the
 * check is blocked.
 */
const QUOTE_PARTS: Readonly<Record<string, JsonKind>> = {
  quoteId: 'string',
  vehicle: 'object',
  rental: 'object',
  charges: 'object',
  payment: 'object',
};

export function requireQuoteParts(quote: unknown, what = 'the quote'): void {
  requireKeys(quote, 'Quote', QUOTE_PARTS, what);
}

/** POST /quotes answered with a quote (spec 4.0.11 owns the 201), with the parts the suite reads on. */
export function quoteAnswered(res: ApiResult): boolean {
  if (!succeeded(res, 201, ENDPOINT_CLAUSE.createQuote, 'POST /quotes')) return false;
  requireQuoteParts(res.body, 'the POST /quotes answer');
  return true;
}

/** POST /availability answered with offers (spec 4.0.10 owns the 200): an array of them, or the check is blocked. */
export function availabilityAnswered(res: ApiResult): boolean {
  if (!succeeded(res, 200, ENDPOINT_CLAUSE.searchAvailability, 'POST /availability')) return false;
  requireKeys(res.body, 'AvailabilityResponse', { offers: 'array' }, 'the POST /availability answer');
  return true;
}
