/**
 * Spec 2.6 Location: each field rule of the table on every listed location (GET /locations and one
 * GET /locations/{locationCode}), branch-scoped one-way fees, and the eight active locations.
 */
import { describe, expect } from 'vitest';
import { SCHEMA_BUNDLE } from '../contract/schemas/index.ts';
import type { LocationList } from '../contract/types.ts';
import { availabilityRequest, locationPairs } from '../generators/index.ts';
import { check } from '../harness/check/check.ts';
import { bodyOf, errorCodeOf, expectValue, listItems } from '../harness/check/expect-api.ts';
import { isIanaZone } from './support/datetime.ts';
import { forQuotes, sampleOf } from './support/generated.ts';
import {
  forListedLocations,
  listedCodes,
  listedLocations,
  listingsAsListed,
  targetListings,
} from './support/listings.ts';
import { business, shop } from './support/presets.ts';
import { answerForItem, notJudgedReason } from './support/refused-for.ts';

describe('2.6 Location', () => {
  /** Judges every listed location (GET /locations, and drawn ones by GET /locations/{locationCode}) with `rule`. */
  const forLocations = forListedLocations;
  const stringOrNull = (value: unknown, what: string) =>
    expect(value === null || typeof value === 'string', `${what}: string or null`).toBe(true);

  // Spec 2.6.1: "Required keys: locationCode, name, locationType, countryCode, city, timezone, iataCode, capabilities,
  // branchCode."
  check('2.6.1')({ ...business, name: 'Every location has the required keys and validates as Location' }, (t) =>
    forLocations(t, (l, label) => {
      for (const key of SCHEMA_BUNDLE.$defs.Location.required) {
        expect(Object.hasOwn(l, key), `${label}: key ${key}`).toBe(true);
      }
      expectValue(l, 'Location', label);
    }),
  );

  // Spec 2.6.2: "locationCode | LocationCode"
  check('2.6.2')({ ...business, name: 'locationCode is a LocationCode' }, (t) =>
    forLocations(t, (l, label) => expect(l.locationCode, label).toMatch(/^[A-Z0-9-]{2,32}$/)),
  );

  // Spec 2.6.3: "name | string"
  check('2.6.3')({ ...business, name: 'name is a string' }, (t) =>
    forLocations(t, (l, label) => expect(typeof l.name, `${label} name`).toBe('string')),
  );

  // Spec 2.6.4: "nameLocal | string or null"
  check('2.6.4')({ ...business, name: 'nameLocal is a string or null' }, (t) =>
    forLocations(t, (l, label) => stringOrNull(l.nameLocal ?? null, `${label} nameLocal`)),
  );

  // Spec 2.6.5: "locationType | string | city or airport"
  check('2.6.5')({ ...business, name: 'locationType is city or airport' }, (t) =>
    forLocations(t, (l, label) => expect(['city', 'airport'], `${label} locationType`).toContain(l.locationType)),
  );

  // Spec 2.6.6: "countryCode | string | `^[A-Z]{2}$`"
  check('2.6.6')({ ...business, name: 'countryCode matches ^[A-Z]{2}$' }, (t) =>
    forLocations(t, (l, label) => expect(l.countryCode, label).toMatch(/^[A-Z]{2}$/)),
  );

  // Spec 2.6.7: "city | string"
  check('2.6.7')({ ...business, name: 'city is a string' }, (t) =>
    forLocations(t, (l, label) => expect(typeof l.city, `${label} city`).toBe('string')),
  );

  // Spec 2.6.8: "address | string or null"
  check('2.6.8')({ ...business, name: 'address is a string or null' }, (t) =>
    forLocations(t, (l, label) => stringOrNull(l.address ?? null, `${label} address`)),
  );

  // Spec 2.6.9: "coordinates | object or null | required latitude, longitude (numbers)"
  check('2.6.9')({ ...business, name: 'coordinates is null or { latitude, longitude } numbers in range' }, (t) =>
    forLocations(t, (l, label) => {
      const c = l.coordinates ?? null;
      if (c === null) return;
      expect(Object.keys(c).sort(), `${label} coordinates keys`).toEqual(['latitude', 'longitude']);
      expect(Number.isFinite(c.latitude) && Math.abs(c.latitude) <= 90, `${label} latitude ${c.latitude}`).toBe(true);
      expect(Number.isFinite(c.longitude) && Math.abs(c.longitude) <= 180, `${label} longitude ${c.longitude}`).toBe(
        true,
      );
    }),
  );

  // Spec 2.6.10: "timezone | string | IANA zone"
  check('2.6.10')({ ...business, name: 'timezone is an IANA zone' }, (t) =>
    forLocations(t, (l, label) => expect(isIanaZone(l.timezone), `${label} timezone ${l.timezone}`).toBe(true)),
  );

  // Spec 2.6.11: "iataCode | string or null | `^[A-Z]{3}$`; present only when locationType is airport; different
  // namespace from locationCode"
  check('2.6.11')(
    { ...business, name: 'iataCode: ^[A-Z]{3}$ on airports, null elsewhere, never the locationCode' },
    (t) =>
      forLocations(t, (l, label) => {
        if (l.locationType === 'airport') {
          if (l.iataCode !== null) expect(l.iataCode, `${label} iataCode`).toMatch(/^[A-Z]{3}$/);
        } else expect(l.iataCode, `${label}: iataCode on a ${l.locationType} location`).toBeNull();
        expect(l.iataCode, `${label}: iataCode and locationCode are different namespaces`).not.toBe(l.locationCode);
      }),
  );

  // Spec 2.6.12: "capabilities | object | required booleans pickup, dropoff, oneWay, delivery"
  check('2.6.12')(
    { ...business, name: 'capabilities has exactly the booleans pickup, dropoff, oneWay and delivery' },
    (t) =>
      forLocations(t, (l, label) => {
        expect(Object.keys(l.capabilities).sort(), `${label} capabilities`).toEqual([
          'delivery',
          'dropoff',
          'oneWay',
          'pickup',
        ]);
        for (const value of Object.values(l.capabilities)) expect(typeof value, `${label} capability`).toBe('boolean');
      }),
  );

  // Spec 2.6.13: "openingHours | string or null"
  check('2.6.13')({ ...business, name: 'openingHours is a string or null' }, (t) =>
    forLocations(t, (l, label) => stringOrNull(l.openingHours ?? null, `${label} openingHours`)),
  );

  // Spec 2.6.14: "afterHoursPolicy | string or null"
  check('2.6.14')({ ...business, name: 'afterHoursPolicy is a string or null' }, (t) =>
    forLocations(t, (l, label) => stringOrNull(l.afterHoursPolicy ?? null, `${label} afterHoursPolicy`)),
  );

  // Spec 2.6.15: "branchCode | string | branch the station belongs to; fleet coverage and one-way fees are
  // branch-scoped"
  check('2.6.15')({ ...business, name: 'branchCode is a non-empty string' }, (t) =>
    forLocations(t, (l, label) => {
      expect(typeof l.branchCode, `${label} branchCode`).toBe('string');
      expect(l.branchCode.length, `${label} branchCode`).toBeGreaterThan(0);
    }),
  );

  // Spec 2.6.11 (quoted above)
  check('2.6.11')({ ...business, level: 'SHOULD', name: 'Every airport carries its IATA code' }, async (t) => {
    const airports = (await listedLocations(t)).filter((l) => l.value.locationType === 'airport');
    if (airports.length === 0) t.notApplicable('no airport location is listed');
    for (const { label, value } of airports)
      expect(value.iataCode, `${label} (docs/ambiguities.md #35)`).not.toBeNull();
  });

  // Spec 2.6.15 (quoted above)
  check('2.6.15')(
    { ...shop, name: 'One-way fees are branch-scoped: none between two locations of one branch' },
    async (t) => {
      const cat = await targetListings(t);
      const pairs = locationPairs(cat, { sameBranch: true }).filter(
        (p) => p.pickup.locationCode !== p.dropoff.locationCode,
      );
      if (pairs.length === 0) t.notApplicable('no branch has two locations for pickup and dropoff');
      const pickups = [...new Set(pairs.map((p) => p.pickup.locationCode))];
      await forQuotes(
        t,
        (request, quote) => {
          if (request.pickupLocation === request.dropoffLocation) return;
          // `+ 0` compares numerically: an amount written -0 is the integer zero.
          expect(quote.charges.oneWayFee.amount + 0, `${request.pickupLocation} → ${request.dropoffLocation}`).toBe(0);
        },
        { listings: cat, pickupLocations: pickups, rate: 'public' },
      );
    },
  );

  // Spec 2.6.16: "The location list holds the eight active locations."
  check('2.6.16')({ ...business, name: 'The location list holds eight locations' }, async (t) => {
    const res = await t.client('partnerA').get('/locations');
    expect(res.status, res.excerpt).toBe(200);
    const locations = listItems(res, 'LocationList', 'GET /locations');
    const list = bodyOf<LocationList>(res, 'GET /locations');
    expect(locations.length, 'locations listed').toBe(8);
    expect(list.count, 'count').toBe(8);
    // Which locations are listed is told by their codes: a location without one is 2.6.1's (a required key).
    expect(new Set(listedCodes(list)).size, 'distinct location codes').toBe(8);
  });

  // Spec 2.6.16 (quoted above)
  check('2.6.16')(
    { ...shop, name: 'Every listed location is active: shopping there is never INVALID_LOCATION' },
    async (t) => {
      // The list as listed: a listed location the target refuses is what this check judges.
      const cat = await listingsAsListed(t);
      const others: string[] = [];
      let judged = 0;
      for (const value of cat.locations) {
        if (!value.capabilities.pickup || !value.capabilities.dropoff) continue;
        const request = sampleOf(
          t,
          availabilityRequest(cat, { rate: 'public', pickupLocations: [value.locationCode] }),
        );
        const body = { ...request, dropoffLocation: value.locationCode };
        delete body.vehicleCodes;
        const res = await t.client('partnerA').post('/availability', body);
        const answer = answerForItem(res, ['INVALID_LOCATION'], ['pickupLocation', 'dropoffLocation']);
        if (answer === 'refused for something else') {
          others.push(`${value.locationCode}: HTTP ${res.status} ${errorCodeOf(res) ?? ''}`.trim());
          continue;
        }
        judged += 1;
        expect(answer, `${value.locationCode}: HTTP ${res.status} ${res.excerpt}`).toBe('accepted');
      }
      if (judged === 0 && others.length > 0) t.notApplicable(notJudgedReason('listed location', others));
    },
  );
});
