/**
 * One-fault variants of request bodies (generators/hostile-schema.ts) and what the target answered to them: a
 * fault is met when it is refused with one of its expected (status, code) answers; the error envelope of the refusal
 * is judged under 7.2's clauses (expectValue), not as part of the fault.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { SchemaName } from '../../contract/schemas/index.ts';
import type { AvailabilityRequest, JsonValue } from '../../contract/types.ts';
import {
  availabilityRequest,
  extras,
  meetsRejection,
  quoteRequest,
  type SchemaFault,
  schemaFaults,
  UNKNOWN_PROPERTY,
} from '../../generators/index.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { errorCodeOf, expectValue } from '../../harness/check/expect-api.ts';
import { postReservation, quoteToBook } from './booking.ts';
import { targetCatalogue } from './catalogue.ts';
import { sampleOf } from './generated.ts';
import { driverFor, freshReference } from './reservation-requests.ts';

/** Every one-fault variant of `valid` under `schema` that `keep` selects. */
export function faultsOf(schema: SchemaName, valid: unknown, keep: (fault: SchemaFault) => boolean): SchemaFault[] {
  return schemaFaults(schema, valid as JsonValue).filter(keep);
}

/** A fault the target did not refuse as the spec wants (status, code, closed envelope). */
export interface UnmetFault {
  fault: string;
  expected: string;
  got: string;
}

/**
 * Sends every fault and returns those not refused with one of their expected (status, code) answers in a valid
 * error envelope: an empty list is the pass. `send` posts one body (and records any reservation it creates).
 */
export async function unmetFaults(
  faults: readonly SchemaFault[],
  send: (body: JsonValue) => Promise<ApiResult>,
): Promise<UnmetFault[]> {
  const out: UnmetFault[] = [];
  for (const fault of faults) {
    const res = await send(fault.value);
    const code = errorCodeOf(res);
    // The envelope's shape is 7.2's: judged under its clauses, so one envelope deviation fails 7.2, not every field.
    if (res.status >= 400) expectValue(res.body, 'ErrorEnvelope', `the HTTP ${res.status} answer to ${fault.name}`);
    if (!meetsRejection(fault.expect, res.status, code)) {
      out.push({
        fault: fault.name,
        expected: fault.expect.reject.map((a) => `${a.status} ${a.codes.join('|')}`).join(' or '),
        got: `${res.status} ${code ?? res.text.slice(0, 120)}`,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The faults of one field of a request, sent as partner A (spec 2 request shapes)

/**
 * Faults of one field of a request: `extras.childSeats` selects that field (and its items); '' selects the body
 * itself (validate() calls it `body`). An unknown property added to an object sits under that object's path.
 */
const atPath = (path: string) => (fault: SchemaFault) => {
  if (fault.kind === 'unknown-property')
    return fault.path === (path === '' ? UNKNOWN_PROPERTY : `${path}.${UNKNOWN_PROPERTY}`);
  if (path === '') return fault.path === 'body';
  return fault.path === path || fault.path.startsWith(`${path}[`);
};

/** POST /availability for each fault of `path` in a generated AvailabilityRequest (extras forced present). */
export async function availabilityFaults(t: CheckContext, path: string, kinds?: SchemaFault['kind'][]): Promise<void> {
  const cat = await targetCatalogue(t);
  // Faults inside extras start from empty extras: a fault of cdwInsurance beside fullProtection would be two.
  const valid = sampleOf(
    t,
    fc
      .tuple(availabilityRequest(cat, { rate: 'public' }), extras())
      .map(([request, x]): AvailabilityRequest => ({ ...request, extras: path.startsWith('extras') ? {} : x })),
  );
  const faults = faultsOf('AvailabilityRequest', valid, (f) => atPath(path)(f) && (!kinds || kinds.includes(f.kind)));
  if (faults.length === 0) throw new Error(`no schema fault of AvailabilityRequest at ${path}`);
  const unmet = await unmetFaults(faults, (body) => t.client('partnerA').post('/availability', body));
  expect(unmet, `AvailabilityRequest faults at ${path} not refused as spec 2 and 7.3 want`).toEqual([]);
}

/** POST /quotes for each fault of `path` in a generated QuoteRequest. */
export async function quoteFaults(t: CheckContext, path: string, kinds?: SchemaFault['kind'][]): Promise<void> {
  const cat = await targetCatalogue(t);
  const valid = sampleOf(t, quoteRequest(cat, { rate: 'public' }));
  const faults = faultsOf('QuoteRequest', valid, (f) => atPath(path)(f) && (!kinds || kinds.includes(f.kind)));
  if (faults.length === 0) throw new Error(`no schema fault of QuoteRequest at ${path}`);
  const unmet = await unmetFaults(faults, (body) => t.client('partnerA').post('/quotes', body));
  expect(unmet, `QuoteRequest faults at ${path} not refused as spec 2 and 7.3 want`).toEqual([]);
}

/** POST /reservations for each fault of `path` in a valid ReservationRequest (driver with every field). */
export async function reservationFaults(t: CheckContext, path: string, kinds?: SchemaFault['kind'][]): Promise<void> {
  const { quote } = await quoteToBook(t);
  const driver = { title: 'ms' as const, nationality: 'VN', idNumber: '079190001234', ...driverFor(t, quote.vehicle) };
  const valid = {
    quoteId: quote.quoteId,
    driver,
    partnerReference: freshReference(t),
    remarks: 'Late arrival, please hold the desk.',
    flightNumber: 'VN 1234',
  };
  const faults = faultsOf('ReservationRequest', valid, (f) => atPath(path)(f) && (!kinds || kinds.includes(f.kind)));
  if (faults.length === 0) throw new Error(`no schema fault of ReservationRequest at ${path}`);
  const unmet = await unmetFaults(faults, (body) => {
    // Each attempt gets its own partnerReference: a wrongly accepted fault must not make the next one a duplicate.
    const fresh = typeof body === 'object' && body !== null && !Array.isArray(body) && 'partnerReference' in body;
    const withReference =
      fresh && path !== 'partnerReference' ? { ...body, partnerReference: freshReference(t) } : body;
    return postReservation(t, 'partnerA', withReference);
  });
  expect(unmet, `ReservationRequest faults at ${path} not refused as spec 2 and 7.3 want`).toEqual([]);
}
