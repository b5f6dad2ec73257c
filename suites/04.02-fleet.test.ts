/** Spec 4.2 GET /fleet and /fleet/{vehicleCode}, with their rows of the endpoint table (4.0.5, 4.0.6). */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { FleetVehicle } from '../contract/types.ts';
import { check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { expectError, expectMediaType, expectSchema, listItems } from '../harness/check/expect-api.ts';
import { listedVehicle, unknownCodes } from './support/draws.ts';
import { unauthenticated } from './support/endpoint-refusals.ts';
import { fleetOf, listingReadInFull, locationsOf } from './support/listings.ts';
import { business } from './support/presets.ts';
import { scopeRefusals } from './support/scope-refusals.ts';
import { judgeSharedCases } from './support/shared-cases.ts';
import { sharedRead } from './support/shared-reads.ts';
import { availabilityRequest } from './support/shopping.ts';
import { unknownCodeReads } from './support/unknown-code-reads.ts';

describe('4.2 GET /fleet and /fleet/{vehicleCode}', () => {
  // Spec 4.0.5: "GET | /api/partner/v1/fleet | fleet:read | 200 FleetList"
  check('4.0.5')({ ...business, name: 'GET /fleet with a fleet:read token: 200 FleetList' }, async (t) => {
    const res = await t.client('partnerA').get('/fleet', { scopes: ['fleet:read'] });
    expect(res.status, res.excerpt).toBe(200);
    expectMediaType(res, t.representation);
    expectSchema(res, 'FleetList');
  });

  // Spec 4.0.6: "GET | /api/partner/v1/fleet/{vehicleCode} | fleet:read | 200 FleetVehicle"
  check('4.0.6')(
    { ...business, name: 'GET /fleet/{vehicleCode} with a fleet:read token: 200 FleetVehicle' },
    async (t) => {
      await t.forAll(
        await listedVehicle(t, 'partnerA'),
        async ({ vehicleCode: code }) => {
          const res = await t.client('partnerA').get(`/fleet/${encodeURIComponent(code)}`, { scopes: ['fleet:read'] });
          expect(res.status, res.excerpt).toBe(200);
          expectMediaType(res, t.representation);
          expectSchema(res, 'FleetVehicle');
          expect((res.body as FleetVehicle).vehicleCode).toBe(code);
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 4.2.1: "List returns the complete partner-offerable fleet."
  check('4.2.1')({ ...business, name: 'Every listed vehicle is readable by its code' }, async (t) => {
    const { list, byCode } = await listingReadInFull(t, 'fleet');
    expect(list.status, list.excerpt).toBe(200);
    expectSchema(list, 'FleetList');
    for (const { code, res: one } of byCode) {
      expect(one.status, `GET /fleet/${code}: ${one.excerpt}`).toBe(200);
      expectSchema(one, 'FleetVehicle');
      expect((one.body as FleetVehicle).vehicleCode).toBe(code);
    }
  });

  // Spec 4.2.1 (quoted above)
  check('4.2.1')(
    { ...business, name: 'Each vehicle is listed once and reads the same on its own', level: 'SHOULD' },
    async (t) => {
      const { list, byCode } = await listingReadInFull(t, 'fleet');
      expect(list.status, list.excerpt).toBe(200);
      const vehicles = listItems(list, 'FleetList', 'GET /fleet');
      const codes = vehicles.map((v) => v.vehicleCode);
      expect(codes.length, 'vehicle codes are unique in the list').toBe(new Set(codes).size);
      for (const vehicle of vehicles) {
        const one = byCode.find((read) => read.code === vehicle.vehicleCode)?.res;
        expect(one?.body, `GET /fleet/${vehicle.vehicleCode} against its list entry`).toEqual(vehicle);
      }
    },
  );

  // Spec 4.2.1 (quoted above)
  check('4.2.1')(
    { ...business, profile: 'shop', name: 'Every vehicle offered by availability is in the fleet list' },
    async (t) => {
      const listed = new Set((await fleetOf(t, 'partnerA')).vehicles.map((v) => v.vehicleCode));
      const offered = new Set<string>();
      for (const location of (await locationsOf(t, 'partnerA')).locations) {
        if (!location.capabilities?.pickup || !location.capabilities?.dropoff) continue;
        const body = await availabilityRequest(t, 'partnerA', { location: location.locationCode });
        const res = await t.client('partnerA').post('/availability', body);
        if (res.status !== 200) continue;
        for (const offer of listItems(res, 'AvailabilityResponse', 'POST /availability')) {
          offered.add(offer.vehicle.vehicleCode);
        }
      }
      if (offered.size === 0) return t.notApplicable('availability offered no vehicle to compare with the list');
      const missing = [...offered].filter((code) => !listed.has(code));
      expect(missing, 'offered vehicles missing from GET /fleet').toEqual([]);
    },
  );

  // Spec 4.2.2: "Errors: 401, 403, 429, 503 (list)"
  check('4.2.2')({ ...business, name: 'GET /fleet without a token: 401' }, async (t) => {
    // The refusal 7.1.2 and 4.0.2 judge too (endpointRefusals): sent once for the run.
    expectError(await unauthenticated(t, 'catalog', 'listFleet'), ['INVALID_TOKEN', 'UNAUTHORIZED']);
  });

  // Spec 4.0.5 (quoted above)
  check('4.0.5')(
    { ...business, name: 'GET /fleet with a token lacking fleet:read: 403 INSUFFICIENT_SCOPE' },
    async (t) => {
      // The reads 5.6b and 7.3.4 judge too (scope-refusals.ts): sent once for the run, a distinct scope each case.
      await judgeSharedCases(t, scopeRefusals('fleet'), casesFor(t, 'request'), ({ answer }) =>
        expectError(answer, 'INSUFFICIENT_SCOPE'),
      );
    },
  );

  // Spec 4.2.3: "401, 403, 404, 409, 429 (single"
  check('4.2.3')({ ...business, name: 'GET /fleet/{vehicleCode} without a token: 401' }, async (t) => {
    // A listed code or one nobody holds: the missing token is refused before the code is looked up.
    const listed = (await fleetOf(t, 'partnerA')).vehicles.map((v) => v.vehicleCode);
    const codes = listed.length > 0 ? fc.oneof(fc.constantFrom(...listed), unknownCodes) : unknownCodes;
    await t.forAll(
      codes,
      async (code) => {
        // A listed code's refusal is the walks' too (sharedRead): asked once.
        const res = await sharedRead(t, `/fleet/${encodeURIComponent(code)}`, { token: null });
        expectError(res, ['INVALID_TOKEN', 'UNAUTHORIZED']);
      },
      { numRuns: casesFor(t, 'request') },
    );
  });

  // Spec 4.0.6 (quoted above)
  check('4.0.6')(
    { ...business, name: 'GET /fleet/{vehicleCode} with a token lacking fleet:read: 403 INSUFFICIENT_SCOPE' },
    async (t) => {
      // The reads 5.6b and 7.3.4 judge too (scope-refusals.ts): sent once for the run, a distinct scope each case.
      await judgeSharedCases(t, scopeRefusals('vehicle'), casesFor(t, 'request'), ({ answer }) =>
        expectError(answer, 'INSUFFICIENT_SCOPE'),
      );
    },
  );

  // Spec 4.2.5: "404 INVALID_VEHICLE-type unknown or unpublished code is reported per section 7"
  check('4.2.5')({ ...business, name: 'Unknown vehicle code: 404 (NOT_FOUND or INVALID_VEHICLE)' }, async (t) => {
    // 4.2 says "404 INVALID_VEHICLE-type … reported per section 7", where 404 is NOT_FOUND: both are accepted. The
    // reads 4.0.17 judges too (unknown-code-reads.ts): sent once for the run.
    await judgeSharedCases(t, unknownCodeReads('fleet'), casesFor(t, 'request'), ({ answer }) =>
      expectError(answer, ['NOT_FOUND', 'INVALID_VEHICLE'], { status: 404 }),
    );
  });

  // Spec 4.2.5 (quoted above)
  check('4.2.5')(
    { ...business, name: 'Unpublished vehicle code (target probe): 404 (NOT_FOUND or INVALID_VEHICLE)' },
    async (t) => {
      const code = t.settings.target.probes?.unpublishedVehicleCode;
      if (!code) return t.notApplicable('no probes.unpublishedVehicleCode in the target config');
      const res = await t.client('partnerA').get(`/fleet/${encodeURIComponent(code)}`);
      expectError(res, ['NOT_FOUND', 'INVALID_VEHICLE'], { status: 404 });
    },
  );

  // Spec 4.2.4: "409 FLEET_PROFILE_INCOMPLETE"
  check('4.2.4')(
    {
      ...business,
      probes: ['incompleteVehicleCode'],
      name: 'Published vehicle without a complete specification (target probe): 409 FLEET_PROFILE_INCOMPLETE',
    },
    async (t) => {
      const code = t.settings.target.probes?.incompleteVehicleCode;
      if (!code) return t.notApplicable('no probes.incompleteVehicleCode in the target config');
      const res = await t.client('partnerA').get(`/fleet/${encodeURIComponent(code)}`);
      expectError(res, 'FLEET_PROFILE_INCOMPLETE');
    },
  );
});
