/**
 * One-fault variants of request bodies (generators/hostile-schema.ts) and what the target answered to them: a
 * fault is met when it is refused with one of its expected (status, code) answers; the error envelope of the refusal
 * is judged under 7.2's clauses (expectValue), not as part of the fault.
 */

import fc from 'fast-check';
import { expect } from 'vitest';
import { CLOSED_OBJECTS_CLAUSE } from '../../contract/schemas/clause-map.ts';
import type { SchemaName } from '../../contract/schemas/index.ts';
import type { AvailabilityRequest, JsonValue } from '../../contract/types.ts';
import { schemaViolations } from '../../contract/validation.ts';
import {
  availabilityRequest,
  extras,
  quoteRequest,
  type SchemaFault,
  schemaFaults,
  UNKNOWN_PROPERTY,
} from '../../generators/index.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { casesFor } from '../../harness/check/cost.ts';
import { errorCodeOf, expectValue, refusalMeets } from '../../harness/check/expect-api.ts';
import { requireStep } from '../../harness/check/scope.ts';
import { requireQuoteToBook, sendReservationBody } from './booking.ts';
import { targetListings } from './listings.ts';
import { driverFor, freshReference } from './reservation-requests.ts';

/** Every one-fault variant of `valid` under `schema` that `keep` selects. */
export function faultsOf(schema: SchemaName, valid: unknown, keep: (fault: SchemaFault) => boolean): SchemaFault[] {
  return schemaFaults(schema, valid as JsonValue).filter(keep);
}

/**
 * A one-field schema fault the target accepted (a 2xx) breaks the rule of that field, filed under the field's clause
 * (contract/schemas/clause-map.ts); the check that sent it, judging how refusals look (a status, a code, the XML
 * twin), is blocked by it instead of failing as well. A refusal of another shape stays the sending check's to judge.
 */
export function requireFaultRefused(schema: SchemaName, fault: SchemaFault, res: ApiResult): void {
  if (res.status >= 300) return;
  const clauseId = schemaViolations(schema, fault.value)[0]?.clauseId ?? CLOSED_OBJECTS_CLAUSE;
  requireStep(clauseId, false, `${schema} with ${fault.name} is refused (it got HTTP ${res.status})`, {
    expected: fault.expect.reject.map((a) => `${a.status} ${a.codes.join('|')}`).join(' or '),
    actual: `${res.status} ${res.excerpt}`,
  });
}

/**
 * A request with an unknown property the target served (a 2xx) that a check sent for a rule of its own (a callback
 * URL, a unit-level option): when the same request with a neutral unknown key is served too, the target ignores
 * unknown keys at large, the closed-body rule's deviation (the request shape's clause, e.g. 2.12.3), filed there, and
 * the check is blocked; when only the check's property is served, the check judges it.
 */
export async function requireUnknownKeysRefused(
  schema: SchemaName,
  request: object,
  res: ApiResult,
  send: (body: object) => Promise<ApiResult>,
): Promise<void> {
  if (res.status < 200 || res.status >= 300) return;
  const neutral = { ...request, [UNKNOWN_PROPERTY]: 'certification' };
  const control = await send(neutral);
  const clauseId = schemaViolations(schema, neutral)[0]?.clauseId ?? CLOSED_OBJECTS_CLAUSE;
  requireStep(clauseId, control.status >= 300, `${schema} with an unknown property ${UNKNOWN_PROPERTY} is refused`, {
    expected: '400',
    actual: `${control.status} ${control.excerpt}`,
  });
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
    if (!refusalMeets(fault.expect.reject, res)) {
      out.push({
        fault: fault.name,
        expected: fault.expect.reject.map((a) => `${a.status} ${a.codes.join('|')}`).join(' or '),
        got: `${res.status} ${code ?? res.excerpt}`,
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

/** A property: per generated valid request, every fault of `path` it yields is refused as spec 2 and 7.3 want. */
async function faultsRefused<T>(
  t: CheckContext,
  schema: SchemaName,
  path: string,
  kinds: SchemaFault['kind'][] | undefined,
  valid: fc.Arbitrary<T>,
  send: (body: JsonValue) => Promise<ApiResult>,
): Promise<void> {
  await t.forAll(
    valid,
    async (request) => {
      const faults = faultsOf(schema, request, (f) => atPath(path)(f) && (!kinds || kinds.includes(f.kind)));
      if (faults.length === 0) throw new Error(`no schema fault of ${schema} at ${path}`);
      const unmet = await unmetFaults(faults, send);
      expect(unmet, `${schema} faults at ${path} not refused as spec 2 and 7.3 want`).toEqual([]);
    },
    { numRuns: casesFor(t, 'severalRequests') },
  );
}

/** POST /availability for each fault of `path` in generated AvailabilityRequests (extras forced present). */
export async function availabilityFaults(t: CheckContext, path: string, kinds?: SchemaFault['kind'][]): Promise<void> {
  const cat = await targetListings(t);
  // Faults inside extras start from empty extras: a fault of cdwInsurance beside fullProtection would be two.
  const valid = fc
    .tuple(availabilityRequest(cat, { rate: 'public' }), extras())
    .map(([request, x]): AvailabilityRequest => ({ ...request, extras: path.startsWith('extras') ? {} : x }));
  await faultsRefused(t, 'AvailabilityRequest', path, kinds, valid, (body) =>
    t.client('partnerA').post('/availability', body),
  );
}

/** POST /quotes for each fault of `path` in generated QuoteRequests. */
export async function quoteFaults(t: CheckContext, path: string, kinds?: SchemaFault['kind'][]): Promise<void> {
  const cat = await targetListings(t);
  await faultsRefused(t, 'QuoteRequest', path, kinds, quoteRequest(cat, { rate: 'public' }), (body) =>
    t.client('partnerA').post('/quotes', body),
  );
}

/** POST /reservations for each fault of `path` in valid ReservationRequests (drivers drawn with every field). */
export async function reservationFaults(t: CheckContext, path: string, kinds?: SchemaFault['kind'][]): Promise<void> {
  const { quote } = await requireQuoteToBook(t);
  const valid = fc.nat({ max: 1_000_000 }).map((salt) => ({
    quoteId: quote.quoteId,
    driver: { title: 'ms' as const, nationality: 'VN', idNumber: '079190001234', ...driverFor(t, quote.vehicle, salt) },
    partnerReference: freshReference(t),
    remarks: 'Late arrival, please hold the desk.',
    flightNumber: 'VN 1234',
  }));
  await faultsRefused(t, 'ReservationRequest', path, kinds, valid, (body) => {
    // Each attempt gets its own partnerReference: a wrongly accepted fault must not make the next one a duplicate.
    const fresh = typeof body === 'object' && body !== null && !Array.isArray(body) && 'partnerReference' in body;
    const withReference =
      fresh && path !== 'partnerReference' ? { ...body, partnerReference: freshReference(t) } : body;
    return sendReservationBody(t, 'partnerA', withReference);
  });
}
