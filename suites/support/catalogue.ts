import { expect } from 'vitest';
import type { FleetList, LocationList } from '../../contract/types.ts';
import type { CheckContext } from '../../harness/check/check.ts';
import type { Role } from '../../harness/config/target-config.ts';

/** The role's fleet list in JSON (fails the check when it cannot be read). */
export async function fleetOf(t: CheckContext, role: Role): Promise<FleetList> {
  const res = await t.client(role).get('/fleet', { representation: 'json' });
  expect(res.status, `GET /fleet: ${res.text.slice(0, 300)}`).toBe(200);
  return res.body as FleetList;
}

/** The role's location list in JSON (fails the check when it cannot be read). */
export async function locationsOf(t: CheckContext, role: Role): Promise<LocationList> {
  const res = await t.client(role).get('/locations', { representation: 'json' });
  expect(res.status, `GET /locations: ${res.text.slice(0, 300)}`).toBe(200);
  return res.body as LocationList;
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
