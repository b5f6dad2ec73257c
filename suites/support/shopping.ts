/**
 * Plain shopping requests: a round trip at a listed location, from a pickup date safely ahead of the run's anchor,
 * for availability (POST /availability) and quotes (POST /quotes). Generated requests come from generators/.
 */
import type { AvailabilityRequest, Location, QuoteRequest } from '../../contract/types.ts';
import { addDays } from '../../generators/index.ts';
import type { CheckContext } from '../../harness/check/check.ts';
import type { Role } from '../../harness/config/target-config.ts';
import { targetListings } from './listings.ts';

/**
 * A location that offers both pickup and dropoff, so a round trip there is a plain rental window (one the target
 * lets the role shop at: targetListings).
 */
export async function roundTripLocation(t: CheckContext, role: Role): Promise<Location> {
  const location = (await targetListings(t, role)).locations.find(
    (l) => l.capabilities?.pickup && l.capabilities?.dropoff,
  );
  if (!location) return t.notApplicable('no listed location offers both pickup and dropoff');
  return location;
}

/**
 * The first pickup date shopping checks use: two weeks after the run's anchor date, so that an anchor of today
 * is safely in the future in every timezone (a pickup in the past is refused, docs/ambiguities.md #4), while
 * the same anchor still gives the same requests.
 */
export function shoppingDate(t: CheckContext): string {
  return addDays(t.settings.date, 14);
}

/**
 * A valid AvailabilityRequest: a round trip at a listed location, from shoppingDate() (or `pickupDate`) for
 * `days` days, 10:00 to 10:00 local time.
 */
export async function availabilityRequest(
  t: CheckContext,
  role: Role,
  options: { pickupDate?: string; days?: number; location?: string } = {},
): Promise<AvailabilityRequest> {
  const location = options.location ?? (await roundTripLocation(t, role)).locationCode;
  const pickupDate = options.pickupDate ?? shoppingDate(t);
  return {
    pickupLocation: location,
    dropoffLocation: location,
    pickupDate,
    pickupTime: '10:00',
    dropoffDate: addDays(pickupDate, options.days ?? 3),
    dropoffTime: '10:00',
  };
}

const plainWindows = new Map<string, { vehicleCode: string; locationCode: string }>();

/**
 * A QuoteRequest at the public rate: a vehicle offered at a round-trip location, from shoppingDate() for 3 days,
 * 10:00 to 10:00. The vehicle and location are read from the target once per role.
 */
export async function plainQuoteRequest(
  t: CheckContext,
  role: Role,
  options: { days?: number; pickupDate?: string } = {},
): Promise<QuoteRequest> {
  const cacheKey = `${t.settings.target.baseUrl}|${role}`;
  let pick = plainWindows.get(cacheKey);
  if (!pick) {
    const listings = await targetListings(t, role);
    const locations = listings.locations.filter((l) => l.capabilities?.pickup && l.capabilities?.dropoff);
    const vehicles = listings.vehicles.filter((v) => v.sippCode !== null);
    for (const vehicle of vehicles) {
      const location = locations.find((l) => vehicle.locationCodes.includes(l.locationCode));
      if (location) {
        pick = { vehicleCode: vehicle.vehicleCode, locationCode: location.locationCode };
        break;
      }
    }
    if (!pick) return t.notApplicable('no listed vehicle is offered at a location allowing pickup and dropoff');
    plainWindows.set(cacheKey, pick);
  }
  const pickupDate = options.pickupDate ?? shoppingDate(t);
  return {
    pickupLocation: pick.locationCode,
    dropoffLocation: pick.locationCode,
    pickupDate,
    pickupTime: '10:00',
    dropoffDate: addDays(pickupDate, options.days ?? 3),
    dropoffTime: '10:00',
    vehicleCode: pick.vehicleCode,
  };
}
