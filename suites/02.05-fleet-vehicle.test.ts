/**
 * Spec 2.5 FleetVehicle: each field rule of the table on every listed vehicle (GET /fleet and one
 * GET /fleet/{vehicleCode}), and what offers and quotes carry of a vehicle (deposit, dataQuality, specification).
 */

import { describe, expect } from 'vitest';
import { SCHEMA_BUNDLE } from '../contract/schemas/index.ts';
import type { FleetVehicle } from '../contract/types.ts';
import { check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { expectValue } from '../harness/check/expect-api.ts';
import { forOffers, forQuotes } from './support/generated.ts';
import { forListedVehicles, listedLocations, listedVehicles } from './support/listings.ts';
import { expectMoney, scaled } from './support/money.ts';
import { business, shop } from './support/presets.ts';

describe('2.5 FleetVehicle', () => {
  /** Judges every listed vehicle (GET /fleet, and drawn ones by GET /fleet/{vehicleCode}) with `rule`. */
  const forVehicles = forListedVehicles;
  const nullOrInteger = (value: unknown, min: number, max: number, what: string) => {
    if (value === null) return;
    expect(Number.isInteger(value), `${what} is an integer`).toBe(true);
    expect(value as number, what).toBeGreaterThanOrEqual(min);
    expect(value as number, what).toBeLessThanOrEqual(max);
  };
  const stringOrNull = (value: unknown, what: string) =>
    expect(value === null || typeof value === 'string', `${what}: string or null`).toBe(true);
  const oneOf = (value: unknown, allowed: readonly unknown[], what: string) =>
    expect(allowed, `${what} = ${JSON.stringify(value)}`).toContain(value);

  // Spec 2.5.1: "Required keys: vehicleCode, sippCode, make, model, displayName, maxPassengers, doors, airConditioning,
  // transmission, fuelType, securityDeposit, mileagePolicy, images, locationCodes, status, dataQuality."
  check('2.5.1')(
    { ...business, name: 'Every listed vehicle has the required keys and validates as FleetVehicle' },
    (t) =>
      forVehicles(t, (v, label) => {
        for (const key of SCHEMA_BUNDLE.$defs.FleetVehicle.required) {
          expect(Object.hasOwn(v, key), `${label}: key ${key}`).toBe(true);
        }
        expectValue(v, 'FleetVehicle', label);
      }),
  );

  // Spec 2.5.2: "vehicleCode | VehicleCode"
  check('2.5.2')({ ...business, name: 'vehicleCode is a VehicleCode' }, (t) =>
    forVehicles(t, (v, l) => expect(v.vehicleCode, l).toMatch(/^[A-Z0-9-]{2,32}$/)),
  );

  // Spec 2.5.3: "sippCode | SippCode"
  check('2.5.3')({ ...business, name: 'sippCode is a SippCode (four letters on a listed vehicle)' }, (t) =>
    forVehicles(t, (v, l) => expect(v.sippCode, l).toMatch(/^[A-Z]{4}$/)),
  );

  // Spec 2.5.4: "sippDescription | string or null | SIPP code spelled out"
  check('2.5.4')({ ...business, name: 'sippDescription is a string or null' }, (t) =>
    forVehicles(t, (v, l) => stringOrNull(v.sippDescription, `${l} sippDescription`)),
  );

  // Spec 2.5.5: "make, model, displayName | string"
  check('2.5.5')({ ...business, name: 'make, model and displayName are strings' }, (t) =>
    forVehicles(t, (v, l) => {
      for (const key of ['make', 'model', 'displayName'] as const) expect(typeof v[key], `${l} ${key}`).toBe('string');
    }),
  );

  // Spec 2.5.6: "rocketClass | string or null | internal class label (name as given in the interface); informational"
  check('2.5.6')({ ...business, name: 'rocketClass is a string or null' }, (t) =>
    forVehicles(t, (v, l) => stringOrNull(v.rocketClass, `${l} rocketClass`)),
  );

  // Spec 2.5.7: "rocketCategory | string or null | marketing category (name as given); informational"
  check('2.5.7')({ ...business, name: 'rocketCategory is a string or null' }, (t) =>
    forVehicles(t, (v, l) => stringOrNull(v.rocketCategory, `${l} rocketCategory`)),
  );

  // Spec 2.5.8: "bodyType | string or null"
  check('2.5.8')({ ...business, name: 'bodyType is a string or null' }, (t) =>
    forVehicles(t, (v, l) => stringOrNull(v.bodyType, `${l} bodyType`)),
  );

  // Spec 2.5.9: "maxPassengers | integer or null | 1 to 16"
  check('2.5.9')({ ...business, name: 'maxPassengers is an integer from 1 to 16 or null' }, (t) =>
    forVehicles(t, (v, l) => nullOrInteger(v.maxPassengers, 1, 16, `${l} maxPassengers`)),
  );

  // Spec 2.5.10: "doors | integer or null | 2 to 6"
  check('2.5.10')({ ...business, name: 'doors is an integer from 2 to 6 or null' }, (t) =>
    forVehicles(t, (v, l) => nullOrInteger(v.doors, 2, 6, `${l} doors`)),
  );

  // Spec 2.5.11: "airConditioning | boolean or null"
  check('2.5.11')({ ...business, name: 'airConditioning is a boolean or null' }, (t) =>
    forVehicles(t, (v, l) => oneOf(v.airConditioning, [true, false, null], `${l} airConditioning`)),
  );

  // Spec 2.5.12: "transmission | string or null | automatic, manual, null"
  check('2.5.12')({ ...business, name: 'transmission is automatic, manual or null' }, (t) =>
    forVehicles(t, (v, l) => oneOf(v.transmission, ['automatic', 'manual', null], `${l} transmission`)),
  );

  // Spec 2.5.13: "driveType | string or null | fwd, rwd, awd, 4wd, null"
  check('2.5.13')({ ...business, name: 'driveType is fwd, rwd, awd, 4wd or null' }, (t) =>
    forVehicles(t, (v, l) => oneOf(v.driveType ?? null, ['fwd', 'rwd', 'awd', '4wd', null], `${l} driveType`)),
  );

  // Spec 2.5.14: "fuelType | string or null | gasoline, diesel, electric, hybrid, null"
  check('2.5.14')({ ...business, name: 'fuelType is gasoline, diesel, electric, hybrid or null' }, (t) =>
    forVehicles(t, (v, l) => oneOf(v.fuelType, ['gasoline', 'diesel', 'electric', 'hybrid', null], `${l} fuelType`)),
  );

  // Spec 2.5.15: "baggage | object or null | closed; large: integer or null; small: integer or null"
  check('2.5.15')(
    { ...business, name: 'baggage is null or a closed object of large and small (integers or null)' },
    (t) =>
      forVehicles(t, (v, l) => {
        const baggage = v.baggage ?? null;
        if (baggage === null) return;
        expect(Object.keys(baggage).sort(), `${l} baggage keys`).toEqual(['large', 'small']);
        nullOrInteger(baggage.large, 0, Number.MAX_SAFE_INTEGER, `${l} baggage.large`);
        nullOrInteger(baggage.small, 0, Number.MAX_SAFE_INTEGER, `${l} baggage.small`);
      }),
  );

  // Spec 2.5.16: "minDriverAge | integer or null"
  check('2.5.16')({ ...business, name: 'minDriverAge is an integer or null' }, (t) =>
    forVehicles(t, (v, l) => nullOrInteger(v.minDriverAge ?? null, 0, 200, `${l} minDriverAge`)),
  );

  // Spec 2.5.17: "securityDeposit | Money | refundable, collected at pickup, not part of the rental charge"
  check('2.5.17')({ ...business, name: 'securityDeposit is Money' }, (t) =>
    forVehicles(t, (v, l) => expectMoney(v.securityDeposit, `${l} securityDeposit`)),
  );

  // Spec 2.5.18: "mileagePolicy | object | required includedKmPerDay (integer or null; null means no stored limit; per
  // rental day) and excessFeePerKm (Money or null; per km beyond allowance; quoted in VND)"
  check('2.5.18')(
    {
      ...business,
      name: 'mileagePolicy has includedKmPerDay (integer or null) and excessFeePerKm (Money in VND, or null)',
    },
    (t) =>
      forVehicles(t, (v, l) => {
        expect(Object.keys(v.mileagePolicy).sort(), `${l} mileagePolicy keys`).toEqual([
          'excessFeePerKm',
          'includedKmPerDay',
        ]);
        nullOrInteger(v.mileagePolicy.includedKmPerDay, 0, Number.MAX_SAFE_INTEGER, `${l} includedKmPerDay`);
        const fee = v.mileagePolicy.excessFeePerKm;
        if (fee === null) return;
        expectMoney(fee, `${l} excessFeePerKm`);
        // The currency's spelling is 2.1.2's; this clause asks which currency.
        expect(String(fee.currency).toUpperCase(), `${l} excessFeePerKm is quoted in VND`).toBe('VND');
      }),
  );

  // Spec 2.5.19: "images | array of string | each a URI"
  check('2.5.19')({ ...business, name: 'images is an array of absolute URIs' }, (t) =>
    forVehicles(t, (v, l) => {
      expect(Array.isArray(v.images), `${l} images`).toBe(true);
      for (const image of v.images) {
        expect(typeof image, `${l} image`).toBe('string');
        expect(URL.canParse(image) && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(image), `${l} image ${image} is a URI`).toBe(
          true,
        );
      }
    }),
  );

  // Spec 2.5.20: "locationCodes | array of LocationCode | where the vehicle is offered"
  check('2.5.20')(
    { ...business, name: 'locationCodes is an array of LocationCodes of listed locations' },
    async (t) => {
      const codes = new Set((await listedLocations(t)).map((l) => l.value.locationCode));
      await forVehicles(t, (v, l) => {
        expect(Array.isArray(v.locationCodes), `${l} locationCodes`).toBe(true);
        for (const code of v.locationCodes) {
          expect(code, `${l} locationCodes`).toMatch(/^[A-Z0-9-]{2,32}$/);
          expect(codes.has(code), `${l}: ${code} is a listed location`).toBe(true);
        }
      });
    },
  );

  // Spec 2.5.21: "status | string | constant `available`"
  check('2.5.21')({ ...business, name: 'status is the constant "available"' }, (t) =>
    forVehicles(t, (v, l) => expect(v.status, l).toBe('available')),
  );

  // Spec 2.5.22: "dataQuality | object | required status (incomplete, complete_unverified, verified) and missingFields
  // (array of string)."
  check('2.5.22')({ ...business, name: 'dataQuality has status and missingFields (array of strings) only' }, (t) =>
    forVehicles(t, (v, l) => {
      expect(Object.keys(v.dataQuality).sort(), `${l} dataQuality keys`).toEqual(['missingFields', 'status']);
      oneOf(v.dataQuality.status, ['incomplete', 'complete_unverified', 'verified'], `${l} dataQuality.status`);
      expect(Array.isArray(v.dataQuality.missingFields), `${l} missingFields`).toBe(true);
      for (const f of v.dataQuality.missingFields) expect(typeof f, `${l} missingFields item`).toBe('string');
    }),
  );

  // Spec 2.5.23: "Only complete_unverified and verified vehicles are returned."
  check('2.5.23')({ ...business, name: 'Only complete_unverified and verified vehicles are listed' }, (t) =>
    forVehicles(t, (v, l) =>
      oneOf(v.dataQuality.status, ['complete_unverified', 'verified'], `${l} dataQuality.status`),
    ),
  );

  // Spec 2.5.24: "A vehicle is returned only when it is published AND its partner specification is complete (SIPP,
  // doors, air conditioning, seats, transmission, fuel)."
  check('2.5.24')(
    {
      ...business,
      name: 'Listed vehicles have a complete partner specification (SIPP, doors, air conditioning, seats, transmission, fuel)',
    },
    (t) =>
      forVehicles(t, (v, l) => {
        for (const key of [
          'sippCode',
          'doors',
          'airConditioning',
          'maxPassengers',
          'transmission',
          'fuelType',
        ] as const) {
          expect(v[key], `${l} ${key} (partner specification)`).not.toBeNull();
        }
        // missingFields is "array of string" (2.5): what it names is not stated, so an entry such as "airbags" or
        // "fuelPolicy" beside a complete specification is no deviation. The six fields above are the completeness.
      }),
  );

  // Spec 2.5.17 (quoted above)
  check('2.5.17')({ ...shop, name: 'The security deposit is not part of the quoted rental charge' }, async (t) => {
    await forQuotes(t, (_request, quote) => {
      expectMoney(quote.vehicle.securityDeposit, 'vehicle.securityDeposit');
      const { baseTotal, extrasTotal, oneWayFee, discount, total } = quote.charges;
      const deposit = quote.securityDeposit;
      if (deposit.amount === 0) return;
      const e = Math.max(
        baseTotal.exponent,
        extrasTotal.exponent,
        oneWayFee.exponent,
        discount.exponent,
        deposit.exponent,
      );
      const withDeposit =
        scaled(baseTotal, e) + scaled(extrasTotal, e) + scaled(oneWayFee, e) - scaled(discount, e) + scaled(deposit, e);
      expect(scaled(total, e), 'charges.total does not fold the security deposit in').not.toBe(withDeposit);
    });
  });

  // Spec 2.5.22 (quoted above)
  check('2.5.22')({ ...shop, name: 'Vehicles of offers and quotes carry a valid dataQuality' }, async (t) => {
    const judge = (v: FleetVehicle, l: string) => {
      // The three values of 2.5.22; that an offer carries no incomplete vehicle is 2.5.23's, judged by its own check.
      oneOf(v.dataQuality.status, ['incomplete', 'complete_unverified', 'verified'], `${l} dataQuality.status`);
      expect(Array.isArray(v.dataQuality.missingFields), `${l} missingFields`).toBe(true);
    };
    await forOffers(t, (offer) => judge(offer.vehicle, `offer ${offer.vehicle.vehicleCode}`));
    await forQuotes(t, (_r, quote) => judge(quote.vehicle, `quote ${quote.vehicle.vehicleCode}`), {
      runs: casesFor(t, 'request'),
    });
  });

  // Spec 2.5.23 (quoted above)
  check('2.5.23')({ ...shop, name: 'Offers only carry complete_unverified or verified vehicles' }, async (t) => {
    await forOffers(t, (offer) =>
      oneOf(
        offer.vehicle.dataQuality.status,
        ['complete_unverified', 'verified'],
        `offer ${offer.vehicle.vehicleCode}`,
      ),
    );
  });

  // Spec 2.5.24 (quoted above)
  check('2.5.24')({ ...shop, name: 'Offers only carry vehicles with a complete partner specification' }, async (t) => {
    await forOffers(t, (offer) => {
      for (const key of [
        'sippCode',
        'doors',
        'airConditioning',
        'maxPassengers',
        'transmission',
        'fuelType',
      ] as const) {
        expect(offer.vehicle[key], `offer ${offer.vehicle.vehicleCode} ${key}`).not.toBeNull();
      }
    });
  });

  // Spec 2.5.24 (quoted above)
  check('2.5.24')(
    { ...business, level: 'SHOULD', name: 'Listed vehicles have an empty dataQuality.missingFields' },
    async (t) => {
      for (const { label, value } of await listedVehicles(t)) {
        expect(value.dataQuality.missingFields, `${label} (docs/ambiguities.md RS3)`).toEqual([]);
      }
    },
  );
});
