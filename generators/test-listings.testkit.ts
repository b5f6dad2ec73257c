/**
 * For this folder's tests: small listings as a target might expose them (literal data, never fixtures/):
 * three branches, one of them without one-way service, a location closed to pickup, a vehicle offered at one
 * airport only, an incomplete vehicle, and rate plans with and without validity windows.
 */
import { validExample } from '../contract/schemas/examples.ts';
import type { FleetVehicle, Location, RatePlan } from '../contract/types.ts';
import type { TargetListings } from './listings.ts';

function location(code: string, branchCode: string, changes: Partial<Location> = {}): Location {
  return {
    ...(validExample('Location') as Location),
    locationCode: code,
    name: `Station ${code}`,
    locationType: 'city',
    iataCode: null,
    branchCode,
    ...changes,
  };
}

function vehicle(code: string, locationCodes: string[], changes: Partial<FleetVehicle> = {}): FleetVehicle {
  return { ...(validExample('FleetVehicle') as FleetVehicle), vehicleCode: code, locationCodes, ...changes };
}

function plan(accountCode: string, rateCode: string, validFrom: string | null, validTo: string | null): RatePlan {
  return { ...(validExample('RatePlan') as RatePlan), accountCode, rateCode, validFrom, validTo };
}

export const TODAY = '2030-01-15';

const oneWay = { pickup: true, dropoff: true, oneWay: true, delivery: false };

export function testListings(): TargetListings {
  return {
    today: TODAY,
    locations: [
      location('SGN-AIRPORT', 'HCM', { locationType: 'airport', iataCode: 'SGN', capabilities: oneWay }),
      location('HCM-D1', 'HCM', { capabilities: oneWay }),
      location('HCM-D7', 'HCM', { capabilities: { ...oneWay, pickup: false } }),
      location('HAN-AIRPORT', 'HAN', { locationType: 'airport', iataCode: 'HAN', capabilities: oneWay }),
      location('PQC-TOWN', 'PQC', { capabilities: { ...oneWay, oneWay: false } }),
      // Another zone: a one-way rental ending here must end two days or more after pickup.
      location('BKK-CITY', 'BKK', { countryCode: 'TH', timezone: 'Asia/Bangkok', capabilities: oneWay }),
    ],
    vehicles: [
      vehicle('VF8-ECO', ['SGN-AIRPORT', 'HCM-D1', 'HAN-AIRPORT']),
      vehicle('VIOS-AT', ['HCM-D1', 'PQC-TOWN']),
      vehicle('FADIL-MT', ['SGN-AIRPORT']),
      vehicle('DRAFT-01', ['HCM-D1'], {
        sippCode: null,
        dataQuality: { status: 'incomplete', missingFields: ['sippCode'] },
      }),
    ],
    rates: [
      plan('ACME', 'NET_2030', '2030-01-01', '2030-06-30'),
      plan('ACME', 'PROMO_SPRING', '2030-03-01', '2030-03-20'),
      plan('ACME', 'OPEN', null, null),
      plan('ACME', 'EXPIRED', '2029-01-01', '2029-12-31'),
    ],
  };
}
