import type { FleetList, LocationList } from '../../contract/types.ts';
import type { CheckContext } from '../../harness/check/check.ts';
import { requireSuccess } from '../../harness/check/expect-api.ts';
import type { Role } from '../../harness/config/target-config.ts';

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
