/**
 * What the target lists (GET /fleet, /locations, /rates): read in JSON as a step other checks need (a failure is
 * filed under the endpoint's 4.0.x row and blocks the check), or read in the check's representation as what a
 * spec 2 check judges (a failure fails the check), and the generators' TargetListings built from it.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { FleetList, FleetVehicle, Location, LocationList, RateList, RatePlan } from '../../contract/types.ts';
import type { TargetListings } from '../../generators/index.ts';
import type { CheckContext } from '../../harness/check/check.ts';
import { expectSchema, requireSuccess } from '../../harness/check/expect-api.ts';
import type { Role } from '../../harness/config/target-config.ts';

// ---------------------------------------------------------------------------------------------------------------
// Read as a step (JSON)

/** The role's fleet list in JSON; a check that cannot read it is blocked by 4.0.5 (filed there). */
export async function fleetOf(t: CheckContext, role: Role): Promise<FleetList> {
  const res = await t.client(role).get('/fleet', { representation: 'json' });
  const list = requireSuccess(res, 200, '4.0.5', 'GET /fleet') as FleetList;
  return { ...list, vehicles: Array.isArray(list?.vehicles) ? list.vehicles : [] };
}

/** The role's location list in JSON; a check that cannot read it is blocked by 4.0.7 (filed there). */
export async function locationsOf(t: CheckContext, role: Role): Promise<LocationList> {
  const res = await t.client(role).get('/locations', { representation: 'json' });
  const list = requireSuccess(res, 200, '4.0.7', 'GET /locations') as LocationList;
  return { ...list, locations: Array.isArray(list?.locations) ? list.locations : [] };
}

/** The role's rate plans in JSON; a check that cannot read them is blocked by 4.0.9 (filed there). */
export async function ratesOf(t: CheckContext, role: Role): Promise<RatePlan[]> {
  const res = await t.client(role).get('/rates', { representation: 'json' });
  const rates = (requireSuccess(res, 200, '4.0.9', 'GET /rates') as { rates?: RatePlan[] }).rates;
  return Array.isArray(rates) ? rates : [];
}

/**
 * The role's locations, fleet and rate plans, anchored on the run's date: what the generators draw requests
 * from. Each list is a step (blocked by its 4.0.x row when it cannot be read).
 */
export async function targetListings(t: CheckContext, role: Role = 'partnerA'): Promise<TargetListings> {
  return {
    locations: (await locationsOf(t, role)).locations,
    vehicles: (await fleetOf(t, role)).vehicles,
    rates: await ratesOf(t, role),
    today: t.settings.date,
  };
}

/** The same listings with only these plans, so generated windows use one of them (or the public rate). */
export function withPlans(cat: TargetListings, plans: RatePlan[]): TargetListings {
  return { ...cat, rates: plans };
}

/** One vehicle code and one location code the target lists (the check is not applicable without them). */
export async function someCodes(t: CheckContext, role: Role): Promise<{ vehicleCode: string; locationCode: string }> {
  const vehicleCode = (await fleetOf(t, role)).vehicles?.[0]?.vehicleCode;
  const locationCode = (await locationsOf(t, role)).locations?.[0]?.locationCode;
  if (!vehicleCode || !locationCode) return t.notApplicable('the target lists no vehicle or no location');
  return { vehicleCode, locationCode };
}

/** A code of the VehicleCode / LocationCode pattern that no target should hold. */
export function unknownCode(t: CheckContext): string {
  return `ZZ-CERT-UNKNOWN-${(t.seed >>> 0).toString(36).toUpperCase()}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Read as what a spec 2 check judges (the check's representation, partner A)

/** A value with where it was read, for failure messages. */
export interface Labelled<T> {
  label: string;
  value: T;
}

/** Every vehicle of GET /fleet in the check's representation (not applicable when the list is empty). */
async function vehicleList(t: CheckContext): Promise<Labelled<FleetVehicle>[]> {
  const list = await t.client('partnerA').get('/fleet');
  expect(list.status, `GET /fleet: ${list.text.slice(0, 300)}`).toBe(200);
  expectSchema(list, 'FleetList');
  const vehicles = (list.body as FleetList).vehicles;
  if (vehicles.length === 0) return t.notApplicable('the fleet list is empty');
  return vehicles.map((value, i) => ({ label: `GET /fleet vehicles[${i}] ${value.vehicleCode}`, value }));
}

/** Every vehicle of GET /fleet, and the first one again from GET /fleet/{vehicleCode}. */
export async function listedVehicles(t: CheckContext): Promise<Labelled<FleetVehicle>[]> {
  const out = await vehicleList(t);
  const first = (out[0] as Labelled<FleetVehicle>).value;
  const one = await t.client('partnerA').get(`/fleet/${encodeURIComponent(first.vehicleCode)}`);
  expect(one.status, `GET /fleet/${first.vehicleCode}: ${one.text.slice(0, 300)}`).toBe(200);
  out.push({ label: `GET /fleet/${first.vehicleCode}`, value: one.body as FleetVehicle });
  return out;
}

/** Every location of GET /locations in the check's representation (not applicable when the list is empty). */
async function locationList(t: CheckContext): Promise<Labelled<Location>[]> {
  const list = await t.client('partnerA').get('/locations');
  expect(list.status, `GET /locations: ${list.text.slice(0, 300)}`).toBe(200);
  expectSchema(list, 'LocationList');
  const locations = (list.body as LocationList).locations;
  if (locations.length === 0) return t.notApplicable('the location list is empty');
  return locations.map((value, i) => ({ label: `GET /locations locations[${i}] ${value.locationCode}`, value }));
}

/** Every location of GET /locations, and the first one again from GET /locations/{locationCode}. */
export async function listedLocations(t: CheckContext): Promise<Labelled<Location>[]> {
  const out = await locationList(t);
  const first = (out[0] as Labelled<Location>).value;
  const one = await t.client('partnerA').get(`/locations/${encodeURIComponent(first.locationCode)}`);
  expect(one.status, `GET /locations/${first.locationCode}: ${one.text.slice(0, 300)}`).toBe(200);
  out.push({ label: `GET /locations/${first.locationCode}`, value: one.body as Location });
  return out;
}

/** Runs for the by-code reads of a listed vehicle or location: each a drawn member of the list. */
function byCodeRuns(t: CheckContext, listed: number): number {
  return Math.max(1, Math.min(t.settings.runs, listed, 5));
}

/**
 * A property over the listed vehicles: every vehicle of GET /fleet judged by `rule`, then, per case, a drawn
 * vehicle read again by GET /fleet/{vehicleCode} and judged (any vehicle of the list, not only the first).
 */
export async function forListedVehicles(
  t: CheckContext,
  rule: (vehicle: FleetVehicle, label: string) => void,
): Promise<void> {
  const vehicles = await vehicleList(t);
  for (const { label, value } of vehicles) rule(value, label);
  await t.forAll(
    fc.constantFrom(...vehicles.map((v) => v.value.vehicleCode)),
    async (code) => {
      const one = await t.client('partnerA').get(`/fleet/${encodeURIComponent(code)}`);
      expect(one.status, `GET /fleet/${code}: ${one.text.slice(0, 300)}`).toBe(200);
      rule(one.body as FleetVehicle, `GET /fleet/${code}`);
    },
    { numRuns: byCodeRuns(t, vehicles.length) },
  );
}

/** As forListedVehicles, for GET /locations and GET /locations/{locationCode}. */
export async function forListedLocations(
  t: CheckContext,
  rule: (location: Location, label: string) => void,
): Promise<void> {
  const locations = await locationList(t);
  for (const { label, value } of locations) rule(value, label);
  await t.forAll(
    fc.constantFrom(...locations.map((l) => l.value.locationCode)),
    async (code) => {
      const one = await t.client('partnerA').get(`/locations/${encodeURIComponent(code)}`);
      expect(one.status, `GET /locations/${code}: ${one.text.slice(0, 300)}`).toBe(200);
      rule(one.body as Location, `GET /locations/${code}`);
    },
    { numRuns: byCodeRuns(t, locations.length) },
  );
}

/** The role's rate plans in the check's representation. */
export async function listedRates(t: CheckContext, role: Role = 'partnerA'): Promise<RatePlan[]> {
  const res = await t.client(role).get('/rates');
  expect(res.status, `GET /rates as ${role}: ${res.text.slice(0, 300)}`).toBe(200);
  expectSchema(res, 'RateList');
  return (res.body as RateList).rates;
}
