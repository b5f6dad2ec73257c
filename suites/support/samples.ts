/**
 * Samples of every response of every endpoint (spec 2, 4), one set per profile level: the catalogue reads, the
 * shopping answers (availability, quotes at the public rate and under a plan), and a booking's life (create, read,
 * list, cancel). The spec 1, 2 and 9 conventions are judged on each.
 */
import { expect } from 'vitest';
import type { SchemaName } from '../../contract/schemas/index.ts';
import type { FleetList, LocationList } from '../../contract/types.ts';
import { availabilityRequest } from '../../generators/index.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { expectSchema } from '../../harness/check/expect-api.ts';
import type { Role } from '../../harness/config/target-config.ts';
import { bookReservation, issueQuote } from './booking.ts';
import { targetCatalogue } from './catalogue.ts';
import { sampleOf } from './generated.ts';

/** One response and what it must be: its status and the contract's schema of its body. */
export interface Sample {
  label: string;
  res: ApiResult;
  status: number;
  schema: SchemaName;
}

/** The status and the schema of every sample (spec 2, 4): each failure names the call. */
export function expectSamples(samples: readonly Sample[]): void {
  for (const s of samples) {
    expect(s.res.status, `${s.label}: ${s.res.text.slice(0, 300)}`).toBe(s.status);
    expectSchema(s.res, s.schema);
  }
}

function firstOf<T>(list: readonly T[]): T[] {
  return list.slice(0, 1);
}

/** GET /fleet, a vehicle by code, GET /locations, a location by code, GET /rates. */
export async function catalogueSamples(t: CheckContext, role: Role = 'partnerA'): Promise<Sample[]> {
  const client = t.client(role);
  const fleet = await client.get('/fleet');
  const out: Sample[] = [{ label: 'GET /fleet', res: fleet, status: 200, schema: 'FleetList' }];
  const vehicles = (fleet.body as FleetList | undefined)?.vehicles ?? [];
  for (const v of firstOf(vehicles)) {
    const path = `/fleet/${encodeURIComponent(v.vehicleCode)}`;
    out.push({ label: `GET ${path}`, res: await client.get(path), status: 200, schema: 'FleetVehicle' });
  }
  const locations = await client.get('/locations');
  out.push({ label: 'GET /locations', res: locations, status: 200, schema: 'LocationList' });
  for (const l of firstOf((locations.body as LocationList | undefined)?.locations ?? [])) {
    const path = `/locations/${encodeURIComponent(l.locationCode)}`;
    out.push({ label: `GET ${path}`, res: await client.get(path), status: 200, schema: 'Location' });
  }
  out.push({ label: 'GET /rates', res: await client.get('/rates'), status: 200, schema: 'RateList' });
  return out;
}

/** POST /availability and POST /quotes (public rate and, when the partner has plans, a plan), generated. */
export async function shoppingSamples(t: CheckContext, role: Role = 'partnerA'): Promise<Sample[]> {
  const cat = await targetCatalogue(t, role);
  const client = t.client(role);
  const availability = sampleOf(t, availabilityRequest(cat, { rate: 'public' }));
  const out: Sample[] = [
    {
      label: 'POST /availability',
      res: await client.post('/availability', availability),
      status: 200,
      schema: 'AvailabilityResponse',
    },
  ];
  const rates: Array<'public' | 'plan'> = cat.rates.length > 0 ? ['public', 'plan'] : ['public'];
  for (const rate of rates) {
    const { res } = await issueQuote(t, role, cat, { rate });
    out.push({ label: `POST /quotes (${rate} rate)`, res, status: 201, schema: 'Quote' });
  }
  return out;
}

/** A booking and what follows it: POST /reservations, GET by id, GET the list, POST cancel. */
export async function bookingSamples(t: CheckContext, role: Role = 'partnerA'): Promise<Sample[]> {
  const { res, reservation } = await bookReservation(t, role);
  const client = t.client(role);
  const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
  return [
    { label: 'POST /reservations', res, status: 201, schema: 'Reservation' },
    { label: `GET ${path}`, res: await client.get(path), status: 200, schema: 'Reservation' },
    {
      label: 'GET /reservations?limit=5',
      res: await client.get('/reservations?limit=5'),
      status: 200,
      schema: 'ReservationList',
    },
    {
      label: `POST ${path}/cancel`,
      res: await client.post(`${path}/cancel`, { reason: 'Certification run: spec 2 response shapes' }),
      status: 200,
      schema: 'Reservation',
    },
  ];
}

export type SampleLevel = 'catalog' | 'shop' | 'book';

export const SAMPLE_LEVELS: readonly SampleLevel[] = ['catalog', 'shop', 'book'];

/** The samples of one profile level (catalogue reads; shopping; a booking's life). */
export function samplesOf(t: CheckContext, level: SampleLevel, role: Role = 'partnerA'): Promise<Sample[]> {
  if (level === 'catalog') return catalogueSamples(t, role);
  if (level === 'shop') return shoppingSamples(t, role);
  return bookingSamples(t, role);
}

/** Check options of a sample level: its profile, and bookings for the booking samples. */
export function levelOptions(level: SampleLevel): { profile: SampleLevel; bookings?: boolean } {
  return level === 'book' ? { profile: 'book', bookings: true } : { profile: level };
}
