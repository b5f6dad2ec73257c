/**
 * Whether an answer is its endpoint's success, for a check of another clause. The exact status is the endpoint row's
 * (spec 4.0: POST /quotes "201 Quote", POST /availability "200 AvailabilityResponse"): another 2xx is filed under that
 * row, observed and not blocking, and the check at hand reads the answer as the success it is. Without this a server
 * answering a quote with 200 failed 57 clauses besides 4.0.11 (docs/mutation-matrix.md, `quote-answers-200`).
 */
import type { ApiResult } from '../../harness/check/check.ts';
import { claim } from '../../harness/check/scope.ts';

export function succeeded(res: ApiResult, status: number, rowClause: string, what: string): boolean {
  if (res.status < 200 || res.status > 299) return false;
  claim(rowClause, res.status === status, `${what} answers ${status}`, { expected: status, actual: res.status });
  return true;
}

/** POST /quotes answered with a quote (spec 4.0.11 owns the 201). */
export function quoteAnswered(res: ApiResult): boolean {
  return succeeded(res, 201, '4.0.11', 'POST /quotes');
}

/** POST /availability answered with offers (spec 4.0.10 owns the 200). */
export function availabilityAnswered(res: ApiResult): boolean {
  return succeeded(res, 200, '4.0.10', 'POST /availability');
}

/** Each endpoint's row of the table of spec 4.0 (4.0.4 to 4.0.16), by operationId. */
export const ROW_CLAUSE: Readonly<Record<string, string>> = {
  issueToken: '4.0.4',
  listFleet: '4.0.5',
  getFleetVehicle: '4.0.6',
  listLocations: '4.0.7',
  getLocation: '4.0.8',
  listRates: '4.0.9',
  searchAvailability: '4.0.10',
  createQuote: '4.0.11',
  createReservation: '4.0.12',
  listReservations: '4.0.13',
  getReservation: '4.0.14',
  modifyReservation: '4.0.15',
  cancelReservation: '4.0.16',
};
