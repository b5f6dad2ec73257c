/**
 * What the target exposes, read by the suite from GET /locations, /fleet and /rates: the generators pick codes
 * from here and never assume a fixture. Helpers say which combinations a valid request may use.
 */

import { addDays, daysBetween } from '../contract/iso-date.ts';
import type { FleetVehicle, Location, RatePlan } from '../contract/types.ts';

export interface TargetListings {
  locations: Location[];
  vehicles: FleetVehicle[];
  rates: RatePlan[];
  /** YYYY-MM-DD: the run's anchor date (--date), the operator's local "today". */
  today: string;
}

/** Pickup dates are 1 to this many days after today (the brief's window; well inside any sane booking horizon). */
export const MAX_DAYS_AHEAD = 300;

/** A pickup and a dropoff location a rental window may join. */
export interface LocationPair {
  pickup: Location;
  dropoff: Location;
}

export interface PairOptions {
  /**
   * true: the dropoff is in the pickup's branch (the same location or another of its branchCode), so the
   * window is never one-way. false: another branch, both ends capable of one-way; whether the target offers
   * that route is target-specific (LOCATION_NOT_ONE_WAY), so the caller decides.
   */
  sameBranch: boolean;
  /** Only these pickup locations (e.g. where a vehicle is offered). */
  pickupLocations?: readonly string[];
}

/** Every pickup/dropoff pair the options allow, in listing order. */
export function locationPairs(cat: TargetListings, options: PairOptions): LocationPair[] {
  const allowed = options.pickupLocations ? new Set(options.pickupLocations) : undefined;
  const pairs: LocationPair[] = [];
  for (const pickup of cat.locations) {
    if (!pickup.capabilities.pickup || (allowed && !allowed.has(pickup.locationCode))) continue;
    for (const dropoff of cat.locations) {
      if (!dropoff.capabilities.dropoff) continue;
      const same = dropoff.branchCode === pickup.branchCode;
      if (options.sameBranch !== same) continue;
      if (!same && !(pickup.capabilities.oneWay && dropoff.capabilities.oneWay)) continue;
      pairs.push({ pickup, dropoff });
    }
  }
  return pairs;
}

/** Vehicles a partner can shop: listed, and with a complete specification (spec 2.5). */
export function shoppableVehicles(cat: TargetListings): FleetVehicle[] {
  return cat.vehicles.filter((v) => v.sippCode !== null && v.dataQuality.status !== 'incomplete');
}

/** Days after today a rental may start and end under a plan: [first, last], or undefined when none. */
export interface DayRange {
  first: number;
  last: number;
}

/**
 * The offsets from today (1 to MAX_DAYS_AHEAD) a plan's validity covers. Both pickup and dropoff stay inside
 * it: the spec does not say which date validity is judged on (docs/ambiguities.md #6), so a generated window
 * satisfies every reading.
 */
export function planDayRange(cat: TargetListings, plan: RatePlan): DayRange | undefined {
  let first = 1;
  let last = MAX_DAYS_AHEAD;
  if (plan.validFrom) first = Math.max(first, daysBetween(cat.today, plan.validFrom));
  if (plan.validTo) last = Math.min(last, daysBetween(cat.today, plan.validTo));
  return first <= last ? { first, last } : undefined;
}

/** The date `offset` days after the listings' `today`. */
export function dayAfterToday(cat: TargetListings, offset: number): string {
  return addDays(cat.today, offset);
}
