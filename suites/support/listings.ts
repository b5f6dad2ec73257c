/**
 * What the target lists (GET /fleet, /locations, /rates): read in JSON as a step other checks need (a failure is
 * filed under the endpoint's 4.0.x row and blocks the check), or read in the check's representation as what a
 * spec 2 check judges (a failure fails the check), and the generators' TargetListings built from it. A step read
 * that succeeded is reused by the next checks of the run while it is fresh (see stepRead): a target limits each API
 * client's requests a minute (spec 8), and nearly every check needs the listings as a step.
 */
import type { FleetList, FleetVehicle, Location, LocationList, RateList, RatePlan } from '../../contract/types.ts';
import { addDays, isIsoDate, planDayRange, type TargetListings } from '../../generators/index.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { errorCodeOf, expectSchema, requireKeys, requireSuccess } from '../../harness/check/expect-api.ts';
import { claim, requireStep } from '../../harness/check/scope.ts';
import type { Role } from '../../harness/config/target-config.ts';
import type { Representation } from '../../harness/http/representation.ts';
import { profileRank } from '../../harness/run-settings.ts';
import { sharedStep } from './shared-steps.ts';

// ---------------------------------------------------------------------------------------------------------------
// The run's step reads, reused while fresh

/**
 * How long a listing read is reused. The spec lets what is listed change at any time, so a read is sent again at least
 * this often; a test hook that changes state drops it at once (sharedStep).
 */
export const LISTING_MAX_AGE_MS = 60_000;

/** Listing reads sent again from now on, whatever their age (a test, or a check that knows the listings changed). */
let forgotten = 0;

export function forgetListings(): void {
  forgotten += 1;
}

const jsonRead = { representation: 'json' } as const;

/** A read another check may go on from: a 200 whose body was read without a deviation. */
function cleanRead(value: unknown): boolean {
  const res = value as ApiResult;
  return res.status === 200 && res.body !== undefined && res.readDespite === undefined;
}

/** The key of a listing read shared by the run's checks (sharedStep): forgetListings starts new ones. */
function listingReadKey(role: Role, path: string, representation: Representation): string {
  return `listing read ${role} ${path} ${representation} ${forgotten}`;
}

/**
 * GET `path` as `role`, in JSON, as a step (a failure filed under `stepClause`, blocking the check, see
 * requireSuccess): the listing read every check shares (sharedListingRead), reused while fresh (younger than
 * LISTING_MAX_AGE_MS, no hook that may change the listings called since) and only when it was a clean success (200, a
 * body read without a deviation). A failed read is not handed on: the next check sends its own, with the exchange in
 * its evidence. A check that judges the listings themselves judges the shared reads (listingReadInFull), so one that
 * needs a list only for its codes takes the same read as any other.
 */
async function stepRead(t: CheckContext, role: Role, path: string, stepClause: string, what: string): Promise<unknown> {
  const res = await sharedStep(t, listingReadKey(role, path, 'json'), () => t.client(role).get(path, jsonRead), {
    maxAgeMs: LISTING_MAX_AGE_MS,
    reusable: cleanRead,
  });
  return requireSuccess(res, 200, stepClause, what);
}

// ---------------------------------------------------------------------------------------------------------------
// Read as a step (JSON)

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A listed location the suite can plan with: it has its locationCode and its capabilities. One without them is
 * judged by 2.6.1 (required keys, or 9.3b / 2.0.2 for a key spelled otherwise), never by the checks that shop.
 */
function plannableLocation(value: unknown): value is Location {
  return isObject(value) && typeof value.locationCode === 'string' && isObject(value.capabilities);
}

/** A listed vehicle the suite can plan with: its vehicleCode and the locations it is offered at. */
function plannableVehicle(value: unknown): value is FleetVehicle {
  return isObject(value) && typeof value.vehicleCode === 'string' && Array.isArray(value.locationCodes);
}

const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})(?:$|T)/;

/**
 * A plan's validFrom or validTo read leniently for the suite's own planning: null, a date, or the date a date-time
 * starts with; undefined when no date can be read. Whether the target spells it as a date is 2.7.5's to judge.
 */
function planningDate(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return undefined;
  const date = DATE_PREFIX.exec(value)?.[1];
  return date !== undefined && isIsoDate(date) ? date : undefined;
}

/**
 * A listed plan as the suite plans with it (its codes, its validity as dates), or undefined when it cannot be
 * planned with. Its field rules are judged by the 2.7 checks on the plan as listed.
 */
function plannablePlan(value: unknown): RatePlan | undefined {
  if (!isObject(value) || typeof value.accountCode !== 'string' || typeof value.rateCode !== 'string') return undefined;
  const validFrom = planningDate(value.validFrom);
  const validTo = planningDate(value.validTo);
  if (validFrom === undefined || validTo === undefined) return undefined;
  return { ...(value as unknown as RatePlan), validFrom, validTo };
}

/**
 * The role's fleet list in JSON (a step read, reused while fresh: stepRead); a check that cannot read it is blocked
 * by 4.0.5 (filed there). Only vehicles the suite can plan with (a vehicleCode, the locationCodes): one without them
 * is 2.5.1's to judge.
 */
export async function fleetOf(t: CheckContext, role: Role): Promise<FleetList> {
  const list = (await stepRead(t, role, '/fleet', '4.0.5', 'GET /fleet')) as FleetList;
  requireKeys(list, 'FleetList', { vehicles: 'array' }, 'GET /fleet');
  const listed: unknown[] = Array.isArray(list?.vehicles) ? list.vehicles : [];
  const vehicles = listed.filter(plannableVehicle);
  requireStep('2.5.1', listed.length === 0 || vehicles.length > 0, 'GET /fleet lists vehicles with a vehicleCode', {
    actual: listed.slice(0, 2),
  });
  return { ...list, vehicles };
}

/**
 * The role's location list in JSON (a step read, reused while fresh: stepRead); a check that cannot read it is
 * blocked by 4.0.7 (filed there). Only locations the suite can plan with (a locationCode, the capabilities): when
 * none has them, the check is blocked by 2.6.1 (the required keys; a key spelled otherwise is also 9.3b's and
 * 2.0.2's, judged on the samples).
 */
export async function locationsOf(t: CheckContext, role: Role): Promise<LocationList> {
  const list = (await stepRead(t, role, '/locations', '4.0.7', 'GET /locations')) as LocationList;
  requireKeys(list, 'LocationList', { locations: 'array' }, 'GET /locations');
  const listed: unknown[] = Array.isArray(list?.locations) ? list.locations : [];
  const locations = listed.filter(plannableLocation);
  requireStep(
    '2.6.1',
    listed.length === 0 || locations.length > 0,
    'GET /locations lists locations with a locationCode and capabilities',
    { actual: listed.slice(0, 2) },
  );
  return { ...list, locations };
}

/**
 * The role's rate plans in JSON (a step read, reused while fresh: stepRead), as the suite plans with them (validity
 * read leniently as dates, plans without their codes or a readable validity left out: their spelling is the 2.7
 * checks' to judge); a check that cannot read the list is blocked by 4.0.9 (filed there).
 */
export async function ratesOf(t: CheckContext, role: Role): Promise<RatePlan[]> {
  const rates = ((await stepRead(t, role, '/rates', '4.0.9', 'GET /rates')) as { rates?: unknown } | undefined)?.rates;
  return Array.isArray(rates) ? rates.flatMap((p) => plannablePlan(p) ?? []) : [];
}

/**
 * The role's locations, fleet and rate plans as listed (only their shape gated, see locationsOf and ratesOf),
 * anchored on the run's date: what a check judging the lists themselves (2.6.16, 2.7.7) shops with.
 */
export async function listingsAsListed(t: CheckContext, role: Role = 'partnerA'): Promise<TargetListings> {
  return {
    locations: (await locationsOf(t, role)).locations,
    vehicles: (await fleetOf(t, role)).vehicles,
    rates: await ratesOf(t, role),
    today: t.settings.date,
  };
}

/** Codes of listed locations and plans the target refused to shop with, per target and role (see usableListings). */
interface Refused {
  locations: Set<string>;
  plans: Set<string>;
}

const refusedByTarget = new Map<string, Refused>();

const planKey = (plan: Pick<RatePlan, 'accountCode' | 'rateCode'>) => `${plan.accountCode}/${plan.rateCode}`;

/** The refusals that say a listed code is not the caller's to shop with (spec 4.12). */
const LOCATION_REFUSAL = 'INVALID_LOCATION';
const PLAN_REFUSALS = new Set(['INVALID_ACCOUNT_CODE', 'INVALID_RATE_CODE', 'RATE_NOT_APPROVED']);

/**
 * One availability request per listed round-trip location and per listed plan (inside its validity), in JSON:
 * which of them the target refuses for the code itself (INVALID_LOCATION; a code error of 4.12 for a plan). The
 * spec lists only active locations (2.6.16) and only the caller's active, approved plans (2.7.7, 4.4.1): a listed
 * code refused is those clauses' deviation, judged by their own checks on the lists as listed. Any other answer
 * (rate limited, unavailable, another error) refuses nothing: the code is shopped with as listed.
 */
async function refusedCodes(t: CheckContext, role: Role, listed: TargetListings): Promise<Refused> {
  const refused: Refused = { locations: new Set(), plans: new Set() };
  const pickupDate = addDays(t.settings.date, 14);
  const window = (code: string, from = pickupDate) => ({
    pickupLocation: code,
    dropoffLocation: code,
    pickupDate: from,
    pickupTime: '10:00',
    dropoffDate: addDays(from, 1),
    dropoffTime: '10:00',
  });
  const shop = async (body: object) => {
    const res = await t.client(role).post('/availability', body, { representation: 'json' });
    return res.status >= 400 && res.status < 500 ? errorCodeOf(res) : undefined;
  };
  const roundTrips = listed.locations.filter((l) => l.capabilities.pickup && l.capabilities.dropoff);
  for (const location of roundTrips) {
    if ((await shop(window(location.locationCode))) === LOCATION_REFUSAL) refused.locations.add(location.locationCode);
  }
  const home = roundTrips.find((l) => !refused.locations.has(l.locationCode));
  if (home) {
    for (const plan of listed.rates) {
      const range = planDayRange(listed, plan);
      if (!range || range.last - range.first < 1) continue;
      // Two weeks ahead when the plan allows (a pickup safely in the future in every timezone, #4).
      const from = addDays(listed.today, Math.min(Math.max(range.first, 14), range.last - 1));
      const code = await shop({
        ...window(home.locationCode, from),
        accountCode: plan.accountCode,
        rateCode: plan.rateCode,
      });
      if (code !== undefined && PLAN_REFUSALS.has(code)) refused.plans.add(planKey(plan));
    }
  }
  return refused;
}

/**
 * The role's listings the suite can shop with: as listed, less the locations and plans the target itself refuses
 * to shop with (found once per run and role by refusedCodes, when the run's profile allows shopping). A check that shops
 * plans with these, so a listing that offers what it should not (an inactive location, another partner's plan,
 * one awaiting approval) fails the clauses of the lists (2.6.16, 2.7.7, 4.4.1), not every check that shops.
 */
export async function usableListings(t: CheckContext, role: Role = 'partnerA'): Promise<TargetListings> {
  const listed = await listingsAsListed(t, role);
  if (profileRank(t.settings.profile) < profileRank('shop')) return listed;
  const key = `${t.settings.target.baseUrl}|${role}|${t.settings.date}`;
  let refused = refusedByTarget.get(key);
  if (!refused) {
    refused = await refusedCodes(t, role, listed);
    refusedByTarget.set(key, refused);
  }
  const { locations, plans } = refused;
  return {
    ...listed,
    locations: listed.locations.filter((l) => !locations.has(l.locationCode)),
    rates: listed.rates.filter((p) => !plans.has(planKey(p))),
  };
}

/**
 * The role's locations, fleet and rate plans, anchored on the run's date: what the generators draw requests
 * from (usableListings). Each list is a step (blocked by its 4.0.x row when it cannot be read).
 */
export async function targetListings(t: CheckContext, role: Role = 'partnerA'): Promise<TargetListings> {
  return usableListings(t, role);
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
  return unknownCodeOf(t.seed);
}

/** The same for every check of the run (its seed): for answers the run's checks share (shared-steps.ts). */
export function runUnknownCode(t: CheckContext): string {
  return unknownCodeOf(t.settings.seed);
}

function unknownCodeOf(seed: number): string {
  return `ZZ-CERT-UNKNOWN-${(seed >>> 0).toString(36).toUpperCase()}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Read as what a spec 2 check judges (the check's representation, partner A)

/** A value with where it was read, for failure messages. */
export interface Labelled<T> {
  label: string;
  value: T;
}

/** Every vehicle of GET /fleet (not applicable when the list is empty). */
function vehicleList(t: CheckContext, list: ApiResult): Labelled<FleetVehicle>[] {
  requireSuccess(list, 200, '4.0.5', 'GET /fleet');
  expectSchema(list, 'FleetList');
  const vehicles = (list.body as FleetList).vehicles;
  if (vehicles.length === 0) return t.notApplicable('the fleet list is empty');
  return vehicles.map((value, i) => ({ label: `GET /fleet vehicles[${i}] ${value.vehicleCode}`, value }));
}

/** Every vehicle of GET /fleet, and the first one again from GET /fleet/{vehicleCode}. */
export async function listedVehicles(t: CheckContext): Promise<Labelled<FleetVehicle>[]> {
  const { listed, byCode } = await everyVehicleRead(t);
  return [...listed, ...byCode.slice(0, 1)];
}

/** What the checks of a listed resource judge: each item as listed, and each again as read by its code. */
interface ListedReads<T> {
  listed: Labelled<T>[];
  byCode: Labelled<T>[];
}

/** One read of a listed item by its code, as the target answered it. */
export interface ReadByCode {
  code: string;
  res: ApiResult;
}

/** A list read and a read by code of each item it lists, as the target answered them: each check judges them. */
export interface ListingReadInFull {
  list: ApiResult;
  byCode: ReadByCode[];
}

/**
 * GET /fleet or /locations as partner A in the check's representation, then each listed item by its code (those
 * the list names by a string code): read once per run for every check that judges them (sharedStep), the spec 2.2,
 * 2.5 and 2.6 field checks and the 4.2.1 and 4.0.8 reads, each of which judges its own rule on every answer. The
 * answers are not judged here: a check whose rule a failed read breaks fails, the others are blocked by it.
 */
export function listingReadInFull(t: CheckContext, resource: 'fleet' | 'locations'): Promise<ListingReadInFull> {
  return sharedStep(t, `${resource} read in full ${t.representation}`, async () => {
    const list = await sharedListingRead(t, `/${resource}`);
    const key = resource === 'fleet' ? 'vehicles' : 'locations';
    const codeKey = resource === 'fleet' ? 'vehicleCode' : 'locationCode';
    const items = list.status === 200 ? (list.body as Record<string, unknown> | undefined)?.[key] : undefined;
    const codes = Array.isArray(items)
      ? items.map((item) => (item as Record<string, unknown> | null)?.[codeKey]).filter((c) => typeof c === 'string')
      : [];
    const byCode: ReadByCode[] = [];
    for (const code of codes as string[]) {
      byCode.push({ code, res: await sharedCodeRead(t, resource, code) });
    }
    return { list, byCode };
  });
}

/**
 * GET /fleet and every listed vehicle by GET /fleet/{vehicleCode}, in the check's representation (listingReadInFull):
 * a failed list is 4.0.5's, a failed read by code 4.0.6's, each blocking the check of a field.
 */
async function everyVehicleRead(t: CheckContext): Promise<ListedReads<FleetVehicle>> {
  const reads = await listingReadInFull(t, 'fleet');
  const listed = vehicleList(t, reads.list);
  const byCode = reads.byCode.map(({ code, res }) => {
    requireSuccess(res, 200, '4.0.6', `GET /fleet/${code} of a listed vehicle`);
    return { label: `GET /fleet/${code}`, value: res.body as FleetVehicle };
  });
  return { listed, byCode };
}

/**
 * Every location of GET /locations (not applicable when the list is empty). A
 * location without its locationCode cannot be named or read by code: it is 2.6.1's (a required key; spelled
 * otherwise, also 9.3b's), filed there and left out, and the check is blocked when no location is left.
 */
function locationList(t: CheckContext, list: ApiResult): Labelled<Location>[] {
  requireSuccess(list, 200, '4.0.7', 'GET /locations');
  expectSchema(list, 'LocationList');
  const locations = (list.body as LocationList).locations;
  if (locations.length === 0) return t.notApplicable('the location list is empty');
  const named = locations.flatMap((value, i) => {
    const ok = claim(
      '2.6.1',
      typeof value?.locationCode === 'string',
      `GET /locations locations[${i}] has its locationCode`,
      {
        actual: value,
      },
    );
    return ok ? [{ label: `GET /locations locations[${i}] ${value.locationCode}`, value }] : [];
  });
  requireStep('2.6.1', named.length > 0, 'GET /locations lists locations with their locationCode');
  return named;
}

/**
 * GET /locations/{locationCode} of a listed code, a step of the check. A listed code the target does not know
 * (404) is a location the list should not hold (2.6.16: the active locations); any other failure is 4.0.8's.
 */
function locationByCode(read: ReadByCode): Location {
  const clause = read.res.status === 404 ? '2.6.16' : '4.0.8';
  return requireSuccess(read.res, 200, clause, `GET /locations/${read.code} of a listed location`) as Location;
}

/** Every location of GET /locations, and the first one again from GET /locations/{locationCode}. */
export async function listedLocations(t: CheckContext): Promise<Labelled<Location>[]> {
  const { listed, byCode } = await everyLocationRead(t);
  return [...listed, ...byCode.slice(0, 1)];
}

/** As everyVehicleRead, for GET /locations and GET /locations/{locationCode} (spec 2.6, 2.2). */
async function everyLocationRead(t: CheckContext): Promise<ListedReads<Location>> {
  const reads = await listingReadInFull(t, 'locations');
  const listed = locationList(t, reads.list);
  const byCode = reads.byCode.map((read) => ({ label: `GET /locations/${read.code}`, value: locationByCode(read) }));
  return { listed, byCode };
}

/**
 * Every listed vehicle judged by `rule`, as GET /fleet lists it and as GET /fleet/{vehicleCode} reads it. The reads
 * are the run's (everyVehicleRead): every check of a field judges every vehicle both ways, and the target answers
 * them once.
 */
export async function forListedVehicles(
  t: CheckContext,
  rule: (vehicle: FleetVehicle, label: string) => void,
): Promise<void> {
  const { listed, byCode } = await everyVehicleRead(t);
  for (const { label, value } of [...listed, ...byCode]) rule(value, label);
}

/** As forListedVehicles, for GET /locations and GET /locations/{locationCode}. */
export async function forListedLocations(
  t: CheckContext,
  rule: (location: Location, label: string) => void,
): Promise<void> {
  const { listed, byCode } = await everyLocationRead(t);
  for (const { label, value } of [...listed, ...byCode]) rule(value, label);
}

/** A listing read's path: a list, or one member by its code (URI-encoded). */
export type ListingPath = '/fleet' | '/locations' | '/rates' | `/fleet/${string}` | `/locations/${string}`;

/**
 * GET /fleet, /locations or /rates, or one listed member by its code, as `role` with its own token in
 * `representation` (the check's by default), as the target answered it: read once for every check that judges the
 * plain answer (sharedStep), and again once LISTING_MAX_AGE_MS old or after a test hook that changes state. Not
 * judged here: each check judges its own rule on it, and fails on it as on a read of its own.
 */
export function sharedListingRead(
  t: CheckContext,
  path: ListingPath,
  role: Role = 'partnerA',
  representation: Representation = t.representation,
): Promise<ApiResult> {
  return sharedStep(t, listingReadKey(role, path, representation), () => t.client(role).get(path, { representation }), {
    maxAgeMs: LISTING_MAX_AGE_MS,
  });
}

/** GET /fleet/{vehicleCode} or /locations/{locationCode} of `code` (sharedListingRead). */
export function sharedCodeRead(
  t: CheckContext,
  resource: 'fleet' | 'locations',
  code: string,
  role: Role = 'partnerA',
  representation: Representation = t.representation,
): Promise<ApiResult> {
  return sharedListingRead(t, `/${resource}/${encodeURIComponent(code)}`, role, representation);
}

/** The role's rate plans in the check's representation (sharedListingRead). */
export async function listedRates(t: CheckContext, role: Role = 'partnerA'): Promise<RatePlan[]> {
  const res = await sharedListingRead(t, '/rates', role);
  requireSuccess(res, 200, '4.0.9', `GET /rates as ${role}`);
  expectSchema(res, 'RateList');
  return (res.body as RateList).rates;
}

/**
 * The codes of the listed locations, each read by code: a location without its locationCode cannot be, and is
 * 2.6.1's (a required key), filed there; the check is blocked.
 */
export function listedCodes(list: LocationList): string[] {
  const codes = list.locations.map((l) => l?.locationCode);
  requireStep(
    '2.6.1',
    codes.every((c) => typeof c === 'string'),
    'every listed location has its locationCode',
    {
      actual: codes,
    },
  );
  return codes;
}
