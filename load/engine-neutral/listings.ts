/**
 * What the target lists (GET /locations, /fleet, /rates, read as the scenario's own client) and the shopping plan a
 * scenario draws from it, so that no scenario assumes the reference's operator data: a target with other locations,
 * vehicles and plans is shopped with its own codes.
 *
 * The conformance suite does the same with `suites/support/listings.ts` and the generators' `TargetListings`, which
 * the load room may not import (docs/architecture.md, harness/runner/rooms.test.ts), and which would not suit it
 * anyway: they draw random requests with fast-check for properties, and the k6 bundles would carry fast-check. A load
 * scenario needs one fixed, valid plan it repeats thousands of times: this is that, engine-neutral (no Node or k6
 * API). Like the suite, it shops only with what the target itself accepts: a listed location where availability
 * answers no offer, or a listed plan it refuses, is left out (judging the listings is the suite's business, 2.6.16,
 * 2.7.7, not the load's).
 */
import type { Role } from '../../contract/vocabulary.ts';
import type { RunContext } from './model.ts';
import {
  apiRequest,
  errorCodeOf,
  jsonOf,
  type RateLimitHeaders,
  rateLimitHeadersOf,
  rentalWindow,
  vietnamDate,
} from './partner-api.ts';

export interface ListedLocation {
  locationCode: string;
  /** capabilities.pickup and capabilities.dropoff: a round trip may start and end here. */
  roundTrip: boolean;
}

export interface ListedVehicle {
  vehicleCode: string;
  locationCodes: string[];
}

export interface ListedPlan {
  accountCode: string;
  rateCode: string;
  /** YYYY-MM-DD or null (open). */
  validFrom: string | null;
  validTo: string | null;
}

export interface LoadListings {
  locations: ListedLocation[];
  vehicles: ListedVehicle[];
  rates: ListedPlan[];
  /** The X-RateLimit-* of the last listing read, when it carried them: the client's stated business ceiling. */
  rateLimit?: RateLimitHeaders;
}

/** accountCode and rateCode of a plan, or neither (the public rate, spec 2.7). */
export type Pricing = { accountCode: string; rateCode: string } | Record<string, never>;

export interface ShoppingPlan {
  /** A listed round-trip location where the target offered vehicles for the plan's first window. */
  location: string;
  /** Vehicle codes offered there (listed ones first). */
  vehicleCodes: string[];
  /** The public rate first, then each listed plan the target shops with at `location` over the plan's windows. */
  pricings: Pricing[];
}

/** The windows a plan must cover: pickups `startDays` to `lastStartDays` days ahead, each `days` long. */
export interface WindowSpan {
  startDays: number;
  lastStartDays: number;
  days: number;
}

/** Availability requests a plan may spend on locations, and on plans (the target's listings may be long). */
const MAX_LOCATION_TRIES = 10;
const MAX_PLAN_TRIES = 10;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listOf(body: Record<string, unknown> | undefined, key: string): Record<string, unknown>[] {
  const list = body?.[key];
  return Array.isArray(list) ? list.filter(isObject) : [];
}

const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})(?:$|T)/;

/** A plan's validFrom / validTo as a date: null (open), the date a date(-time) starts with, else undefined. */
function planningDate(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? DATE_PREFIX.exec(value)?.[1] : undefined;
}

/**
 * GET /locations, /fleet and /rates as `role` (JSON, not measured), read leniently: only entries a request can be
 * built from (their codes; a location's capabilities, a vehicle's locationCodes, a plan's validity as dates).
 */
export async function readListings(ctx: RunContext, token: string, role: Role): Promise<LoadListings> {
  const read = async (path: string) => {
    const res = await ctx.http.request(apiRequest(ctx, { method: 'GET', path, token }));
    if (res.status !== 200) throw new Error(`GET ${path} as ${role}: HTTP ${res.status} ${errorCodeOf(res)}`);
    return res;
  };
  const locationsRes = await read('/locations');
  const fleetRes = await read('/fleet');
  const ratesRes = await read('/rates');
  const locations = listOf(jsonOf(locationsRes), 'locations').flatMap((l): ListedLocation[] => {
    if (typeof l.locationCode !== 'string' || !isObject(l.capabilities)) return [];
    return [
      { locationCode: l.locationCode, roundTrip: l.capabilities.pickup === true && l.capabilities.dropoff === true },
    ];
  });
  const vehicles = listOf(jsonOf(fleetRes), 'vehicles').flatMap((v): ListedVehicle[] => {
    if (typeof v.vehicleCode !== 'string' || !Array.isArray(v.locationCodes)) return [];
    return [{ vehicleCode: v.vehicleCode, locationCodes: v.locationCodes.filter((c) => typeof c === 'string') }];
  });
  const rates = listOf(jsonOf(ratesRes), 'rates').flatMap((p): ListedPlan[] => {
    const validFrom = planningDate(p.validFrom);
    const validTo = planningDate(p.validTo);
    if (typeof p.accountCode !== 'string' || typeof p.rateCode !== 'string') return [];
    if (validFrom === undefined || validTo === undefined) return [];
    return [{ accountCode: p.accountCode, rateCode: p.rateCode, validFrom, validTo }];
  });
  const listings: LoadListings = { locations, vehicles, rates };
  const headers = rateLimitHeadersOf(ratesRes);
  if (!('problem' in headers)) listings.rateLimit = headers;
  return listings;
}

/** The plan's validity covers every window of the span (both pickup and dropoff: docs/ambiguities.md #6). */
function covers(plan: ListedPlan, span: WindowSpan, nowMs: number): boolean {
  const first = vietnamDate(nowMs + span.startDays * 86_400_000);
  const last = vietnamDate(nowMs + (span.lastStartDays + span.days) * 86_400_000);
  return (plan.validFrom === null || plan.validFrom <= first) && (plan.validTo === null || plan.validTo >= last);
}

/**
 * The location, vehicles and pricings a scenario shops with, found by asking the target: POST /availability (public
 * rate, the span's first window) at each listed round-trip location, those with the most listed vehicles first, until
 * one answers offers; then once per listed plan valid over the whole span, at that location. Not measured. Throws
 * when the target offers nothing at any listed location (the scenario cannot run; the message says what it answered).
 */
export async function shoppingPlan(
  ctx: RunContext,
  token: string,
  role: Role,
  listings: LoadListings,
  span: WindowSpan,
  nowMs = Date.now(),
): Promise<ShoppingPlan> {
  const offeredAt = (code: string) => listings.vehicles.filter((v) => v.locationCodes.includes(code)).length;
  const candidates = listings.locations
    .filter((l) => l.roundTrip)
    .map((l, index) => ({ code: l.locationCode, index, vehicles: offeredAt(l.locationCode) }))
    .sort((a, b) => b.vehicles - a.vehicles || a.index - b.index)
    .slice(0, MAX_LOCATION_TRIES);
  if (candidates.length === 0) {
    throw new Error(`GET /locations as ${role} lists no location with pickup and dropoff: nothing to shop with`);
  }
  const shop = (body: Record<string, unknown>) =>
    ctx.http.request(apiRequest(ctx, { method: 'POST', path: '/availability', token, json: body }));
  const listed = new Set(listings.vehicles.map((v) => v.vehicleCode));
  const answers: string[] = [];
  for (const candidate of candidates) {
    const res = await shop(rentalWindow(nowMs, candidate.code, span.startDays, span.days));
    const offers = jsonOf(res)?.offers;
    const codes = Array.isArray(offers)
      ? offers.flatMap((offer) => {
          const code = isObject(offer) && isObject(offer.vehicle) ? offer.vehicle.vehicleCode : undefined;
          return typeof code === 'string' ? [code] : [];
        })
      : [];
    if (res.status !== 200 || codes.length === 0) {
      answers.push(`${candidate.code}: ${res.status === 200 ? 'no offers' : `HTTP ${res.status} ${errorCodeOf(res)}`}`);
      continue;
    }
    const unique = [...new Set(codes)];
    const vehicleCodes = [...unique.filter((c) => listed.has(c)), ...unique.filter((c) => !listed.has(c))];
    const pricings: Pricing[] = [{}];
    for (const plan of listings.rates.filter((p) => covers(p, span, nowMs)).slice(0, MAX_PLAN_TRIES)) {
      const codes = { accountCode: plan.accountCode, rateCode: plan.rateCode };
      const priced = await shop({ ...rentalWindow(nowMs, candidate.code, span.startDays, span.days), ...codes });
      if (priced.status === 200) pricings.push(codes);
      else ctx.log(`plan ${plan.accountCode}/${plan.rateCode} left out: HTTP ${priced.status} ${errorCodeOf(priced)}`);
    }
    return { location: candidate.code, vehicleCodes, pricings };
  }
  throw new Error(
    `POST /availability as ${role} offered nothing at any listed location ${span.startDays} days ahead (${answers.join('; ')})`,
  );
}
