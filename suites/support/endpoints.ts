import { ENDPOINTS, type Endpoint } from '../../contract/endpoints.ts';
import type { Profile } from '../../contract/vocabulary.ts';

/** The profiles a business endpoint can need (no endpoint needs `full`). */
export type EndpointProfile = Exclude<Profile, 'full'>;

/** The profile each business endpoint's calls need (docs/design.md "profiles"; harness/http/profile-guard.ts enforces it). */
const PROFILE_OF: Record<string, EndpointProfile> = {
  listFleet: 'catalog',
  getFleetVehicle: 'catalog',
  listLocations: 'catalog',
  getLocation: 'catalog',
  listRates: 'catalog',
  searchAvailability: 'shop',
  createQuote: 'shop',
  createReservation: 'book',
  listReservations: 'book',
  getReservation: 'book',
  modifyReservation: 'book',
  cancelReservation: 'book',
};

/** Every endpoint of the table but the token endpoint: the business endpoints of spec 4. */
export const BUSINESS_ENDPOINTS = ENDPOINTS.filter((e) => e.scope !== null);

/** The business endpoints a run of exactly this profile adds (catalog: the GETs of the listings, and so on). */
export function endpointsOf(profile: EndpointProfile): Endpoint[] {
  const unknown = BUSINESS_ENDPOINTS.filter((e) => PROFILE_OF[e.operationId] === undefined);
  // The contract grew an endpoint the suites do not know the profile of: a suite fault, not the target's.
  if (unknown.length > 0) throw new Error(`no profile for ${unknown.map((e) => e.operationId).join(', ')}`);
  return BUSINESS_ENDPOINTS.filter((e) => PROFILE_OF[e.operationId] === profile);
}

/** One entry per endpoint profile, with the check options that profile needs. */
export const ENDPOINT_PROFILES: {
  level: EndpointProfile;
  options: { profile: EndpointProfile; bookings?: boolean };
}[] = [
  { level: 'catalog', options: { profile: 'catalog' } },
  { level: 'shop', options: { profile: 'shop' } },
  { level: 'book', options: { profile: 'book', bookings: true } },
];
