/**
 * Samples of every response of every endpoint (spec 2, 4), one set per profile level: the listing reads, the
 * shopping answers (availability, quotes at the public rate and under a plan), and a booking's life (create, read,
 * list, cancel). The spec 1, 2 and 9 conventions are judged on each.
 */

import fc from 'fast-check';
import { expect } from 'vitest';
import type { SchemaName } from '../../contract/schemas/index.ts';
import type { FleetList, LocationList } from '../../contract/types.ts';
import { availabilityRequest } from '../../generators/index.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { casesFor } from '../../harness/check/cost.ts';
import { expectSchema, requireRepresentation, requireSuccess } from '../../harness/check/expect-api.ts';
import { requireStep } from '../../harness/check/scope.ts';
import type { Role } from '../../harness/config/target-config.ts';
import { requireGeneratedBooking, requireGeneratedQuote } from './booking.ts';
import { succeeded } from './endpoint-success.ts';
import { sampleOf } from './generated.ts';
import { type ListingPath, sharedListingRead, targetListings } from './listings.ts';
import { sharedDraw, sharedStep } from './shared-steps.ts';

/** One response and what it must be: its status and the contract's schema of its body. */
export interface Sample {
  label: string;
  res: ApiResult;
  status: number;
  schema: SchemaName;
  /**
   * The endpoint's row of spec 4.0, which owns the exact status: another 2xx is filed there (endpoint-success.ts) and
   * the sample read as the success it is. Without it the exact status is the check's own to judge.
   */
  rowClause?: string;
}

/** The status and the schema of every sample (spec 2, 4): each failure names the call. */
export function expectSamples(samples: readonly Sample[]): void {
  for (const s of samples) {
    const what = `${s.label}: HTTP ${s.res.status} ${s.res.excerpt}`;
    // A sample the endpoint refused is its row's failure (filed there, blocking): the check of a spec 2 or 9 rule
    // has nothing to judge, and is not failed for it (audit 2026-11-29, finding 9).
    if (s.rowClause) {
      requireStep(s.rowClause, succeeded(s.res, s.status, s.rowClause, s.label), `${s.label} succeeds`, {
        expected: s.status,
        actual: what,
      });
    } else expect(s.res.status, what).toBe(s.status);
    expectSchema(s.res, s.schema);
  }
}

/** One member of the list, chosen by the draw (`salt`): each case reads another vehicle or location by code. */
function oneOf<T>(list: readonly T[], salt: number): T[] {
  return list.length === 0 ? [] : [list[salt % list.length] as T];
}

/** The codes of a list's members that carry one (a member without its code is its list's required-keys clause's). */
function codesOf(list: unknown, key: 'vehicleCode' | 'locationCode'): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((member) => {
    const code = (member as Record<string, unknown> | null)?.[key];
    return typeof code === 'string' ? [code] : [];
  });
}

/**
 * A listed member read again by code, a step of the samples: a listed code the target does not know (404) is a
 * member its list should not hold (`unknownClause`); another failure is the endpoint row's (4.0.6, 4.0.8). Either
 * is filed there and blocks the check.
 */
async function byCodeSample(
  t: CheckContext,
  role: Role,
  path: ListingPath,
  schema: SchemaName,
  clauses: { row: string; unknown: string },
): Promise<Sample> {
  // The read every check of a listed member shares (sharedListingRead): the same request, answered once.
  const res = await sharedListingRead(t, path, role);
  requireSuccess(res, 200, res.status === 404 ? clauses.unknown : clauses.row, `GET ${path} of a listed code`);
  return { label: `GET ${path}`, res, status: 200, schema, rowClause: clauses.row };
}

/** GET /fleet, a vehicle by code, GET /locations, a location by code, GET /rates. */
export async function listingSamples(t: CheckContext, role: Role = 'partnerA', salt = 0): Promise<Sample[]> {
  // The lists are the same whatever the draw: read once for every draw and check (sharedListingRead).
  const fleet = await sharedListingRead(t, '/fleet', role);
  const out: Sample[] = [{ label: 'GET /fleet', res: fleet, status: 200, schema: 'FleetList', rowClause: '4.0.5' }];
  for (const code of oneOf(codesOf((fleet.body as FleetList | undefined)?.vehicles, 'vehicleCode'), salt)) {
    const path: ListingPath = `/fleet/${encodeURIComponent(code)}`;
    out.push(await byCodeSample(t, role, path, 'FleetVehicle', { row: '4.0.6', unknown: '4.0.6' }));
  }
  const locations = await sharedListingRead(t, '/locations', role);
  out.push({ label: 'GET /locations', res: locations, status: 200, schema: 'LocationList', rowClause: '4.0.7' });
  for (const code of oneOf(codesOf((locations.body as LocationList | undefined)?.locations, 'locationCode'), salt)) {
    const path: ListingPath = `/locations/${encodeURIComponent(code)}`;
    out.push(await byCodeSample(t, role, path, 'Location', { row: '4.0.8', unknown: '2.6.16' }));
  }
  out.push({
    label: 'GET /rates',
    res: await sharedListingRead(t, '/rates', role),
    status: 200,
    schema: 'RateList',
    rowClause: '4.0.9',
  });
  return out;
}

/** POST /availability and POST /quotes (public rate and, when the partner has plans, a plan), generated. */
export async function shoppingSamples(t: CheckContext, role: Role = 'partnerA', salt = 0): Promise<Sample[]> {
  const cat = await targetListings(t, role);
  const client = t.client(role);
  const availability = sampleOf(t, availabilityRequest(cat, { rate: 'public' }), salt);
  const out: Sample[] = [
    {
      label: 'POST /availability',
      res: await client.post('/availability', availability),
      status: 200,
      schema: 'AvailabilityResponse',
      rowClause: '4.0.10',
    },
  ];
  const rates: Array<'public' | 'plan'> = cat.rates.length > 0 ? ['public', 'plan'] : ['public'];
  for (const rate of rates) {
    const { res } = await requireGeneratedQuote(t, role, cat, { rate }, salt);
    out.push({ label: `POST /quotes (${rate} rate)`, res, status: 201, schema: 'Quote', rowClause: '4.0.11' });
  }
  return out;
}

/** A booking and what follows it: POST /reservations, GET by id, GET the list, POST cancel. */
export async function bookingSamples(t: CheckContext, role: Role = 'partnerA', salt = 0): Promise<Sample[]> {
  const { res, reservation } = await requireGeneratedBooking(t, role, { salt });
  const client = t.client(role);
  const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
  return [
    { label: 'POST /reservations', res, status: 201, schema: 'Reservation', rowClause: '4.0.12' },
    { label: `GET ${path}`, res: await client.get(path), status: 200, schema: 'Reservation', rowClause: '4.0.14' },
    {
      label: 'GET /reservations?limit=5',
      res: await client.get('/reservations?limit=5'),
      status: 200,
      schema: 'ReservationList',
      rowClause: '4.0.13',
    },
    {
      label: `POST ${path}/cancel`,
      res: await client.post(`${path}/cancel`, { reason: 'Certification run: spec 2 response shapes' }),
      status: 200,
      schema: 'Reservation',
      rowClause: '4.0.16',
    },
  ];
}

export type SampleLevel = 'catalog' | 'shop' | 'book';

export const SAMPLE_LEVELS: readonly SampleLevel[] = ['catalog', 'shop', 'book'];

/** The samples of one profile level (listing reads; shopping; a booking's life); `salt` picks another draw. */
export function samplesOf(t: CheckContext, level: SampleLevel, role: Role = 'partnerA', salt = 0): Promise<Sample[]> {
  if (level === 'catalog') return listingSamples(t, role, salt);
  if (level === 'shop') return shoppingSamples(t, role, salt);
  return bookingSamples(t, role, salt);
}

/**
 * A property over the samples of a level: per case another draw (which vehicle and location are read by code,
 * which window is shopped, quoted and booked), every sample's status and schema judged, then `judge`. A case whose
 * samples hold nothing to judge returns SKIP (or calls t.notApplicable); too few judged cases make the check
 * not applicable. The draws are the run's (sharedDraw), so every check of the level judges the same few sample
 * sets, fetched once for all of them (sharedStep): each judges its own clause on them.
 */
export async function forSamples(
  t: CheckContext,
  level: SampleLevel,
  judge: (samples: Sample[]) => unknown,
  role: Role = 'partnerA',
): Promise<void> {
  // Each case reads, shops or books again: the costlier levels draw fewer.
  const runs = casesFor(t, level === 'catalog' ? 'request' : 'severalRequests');
  await t.forAll(
    fc.integer({ min: 0, max: runs - 1 }),
    async (index) => {
      const key = `samples ${level} ${role} ${t.representation} ${index}`;
      const samples = await sharedStep(t, key, () => samplesOf(t, level, role, sharedDraw(t, index)));
      // A JSON answer to an XML Accept is 4.13.1a's (filed there): the check has no XML sample to judge.
      if (t.representation === 'xml') for (const s of samples) requireRepresentation(s.res, 'xml', s.label);
      expectSamples(samples);
      return await judge(samples);
    },
    { numRuns: runs },
  );
}

/** Check options of a sample level: its profile, and bookings for the booking samples. */
export function levelOptions(level: SampleLevel): { profile: SampleLevel; bookings?: boolean } {
  return level === 'book' ? { profile: 'book', bookings: true } : { profile: level };
}
