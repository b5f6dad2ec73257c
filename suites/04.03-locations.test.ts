/** Spec 4.3 GET /locations and /locations/{locationCode}, with their rows of the endpoint table (4.0.7, 4.0.8). */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { Location, LocationList } from '../contract/types.ts';
import { check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { bodyOf, expectError, expectMediaType, expectSchema, listItems } from '../harness/check/expect-api.ts';
import { claim } from '../harness/check/scope.ts';
import { unknownCodes } from './support/draws.ts';
import { unauthenticated } from './support/endpoint-refusals.ts';
import { listedCodes, listingReadInFull, locationsOf } from './support/listings.ts';
import { business } from './support/presets.ts';
import { scopeRefusals } from './support/scope-refusals.ts';
import { judgeSharedCases } from './support/shared-cases.ts';
import { sharedRead } from './support/shared-reads.ts';
import { unknownCodeReads } from './support/unknown-code-reads.ts';

describe('4.3 GET /locations and /locations/{locationCode}', () => {
  // Spec 4.0.7: "GET | /api/partner/v1/locations | locations:read | 200 LocationList"
  check('4.0.7')({ ...business, name: 'GET /locations with a locations:read token: 200 LocationList' }, async (t) => {
    // The list 4.0.8 reads its codes from (sharedRead): asked once.
    const res = await sharedRead(t, '/locations', { scopes: ['locations:read'] });
    expect(res.status, res.excerpt).toBe(200);
    expectMediaType(res, t.representation);
    expectSchema(res, 'LocationList');
  });

  // Spec 4.0.8: "GET | /api/partner/v1/locations/{locationCode} | locations:read | 200 Location"
  check('4.0.8')(
    { ...business, name: 'Every listed location is readable by its code with a locations:read token' },
    async (t) => {
      const list = await sharedRead(t, '/locations', { scopes: ['locations:read'] });
      expect(list.status, list.excerpt).toBe(200);
      expectSchema(list, 'LocationList');
      listItems(list, 'LocationList', 'GET /locations');
      const codes = listedCodes(list.body as LocationList);
      const unknown: string[] = [];
      for (const code of codes) {
        const one = await t
          .client('partnerA')
          .get(`/locations/${encodeURIComponent(code)}`, { scopes: ['locations:read'] });
        // A listed code the target answers 404 for, while it reads other listed codes, is a location the list should
        // not hold (2.6.16: the active locations), filed there; when it reads none, this endpoint is what fails.
        if (one.status === 404 && codes.length > 1) {
          unknown.push(code);
          continue;
        }
        expect(one.status, `GET /locations/${code}: ${one.excerpt}`).toBe(200);
        expectMediaType(one, t.representation);
        expectSchema(one, 'Location');
        expect((one.body as Location).locationCode).toBe(code);
      }
      expect(unknown.length, `listed codes none of which reads by code: ${unknown.join(', ')}`).toBeLessThan(
        codes.length,
      );
      claim('2.6.16', unknown.length === 0, `listed locations GET /locations/{locationCode} does not know`, {
        actual: unknown,
      });
    },
  );

  // Spec 4.0.8 (quoted above)
  check('4.0.8')(
    { ...business, name: 'Each location is listed once and reads the same on its own', level: 'SHOULD' },
    async (t) => {
      const { list, byCode } = await listingReadInFull(t, 'locations');
      expect(list.status, list.excerpt).toBe(200);
      const locations = listItems(list, 'LocationList', 'GET /locations');
      const codes = listedCodes(bodyOf<LocationList>(list, 'GET /locations'));
      expect(codes.length, 'location codes are unique in the list').toBe(new Set(codes).size);
      for (const location of locations) {
        const one = byCode.find((read) => read.code === location.locationCode)?.res;
        expect(one?.body, `GET /locations/${location.locationCode} against its list entry`).toEqual(location);
      }
    },
  );

  // Spec 4.3.1: "Errors: 401, 403, 404 (single), 429."
  check('4.3.1')({ ...business, name: 'GET /locations without a token: 401' }, async (t) => {
    // The refusal 7.1.2 and 4.0.2 judge too (endpointRefusals): sent once for the run.
    expectError(await unauthenticated(t, 'catalog', 'listLocations'), ['INVALID_TOKEN', 'UNAUTHORIZED']);
  });

  // Spec 4.0.7 (quoted above)
  check('4.0.7')(
    { ...business, name: 'GET /locations with a token lacking locations:read: 403 INSUFFICIENT_SCOPE' },
    async (t) => {
      // The reads 5.6b and 7.3.4 judge too (scope-refusals.ts): sent once for the run, a distinct scope each case.
      await judgeSharedCases(t, scopeRefusals('locations'), casesFor(t, 'request'), ({ answer }) =>
        expectError(answer, 'INSUFFICIENT_SCOPE'),
      );
    },
  );

  // Spec 4.3.1 (quoted above)
  check('4.3.1')({ ...business, name: 'GET /locations/{locationCode} without a token: 401' }, async (t) => {
    // A listed code or one nobody holds: the missing token is refused before the code is looked up.
    const listed = (await locationsOf(t, 'partnerA')).locations.map((l) => l.locationCode);
    const codes = listed.length > 0 ? fc.oneof(fc.constantFrom(...listed), unknownCodes) : unknownCodes;
    await t.forAll(
      codes,
      async (code) => {
        // A listed code's refusal is the walks' too (sharedRead): asked once.
        const res = await sharedRead(t, `/locations/${encodeURIComponent(code)}`, { token: null });
        expectError(res, ['INVALID_TOKEN', 'UNAUTHORIZED']);
      },
      { numRuns: casesFor(t, 'request') },
    );
  });

  // Spec 4.0.8 (quoted above)
  check('4.0.8')(
    { ...business, name: 'GET /locations/{locationCode} with a token lacking locations:read: 403' },
    async (t) => {
      // The reads 5.6b and 7.3.4 judge too (scope-refusals.ts): sent once for the run, a distinct scope each case.
      await judgeSharedCases(t, scopeRefusals('location'), casesFor(t, 'request'), ({ answer }) =>
        expectError(answer, 'INSUFFICIENT_SCOPE'),
      );
    },
  );

  // Spec 4.3.1 (quoted above)
  check('4.3.1')({ ...business, name: 'Unknown location code: 404 NOT_FOUND' }, async (t) => {
    // The reads 4.0.17 and 7.3.20 judge too (unknown-code-reads.ts): sent once for the run.
    await judgeSharedCases(t, unknownCodeReads('locations'), casesFor(t, 'request'), ({ answer }) =>
      expectError(answer, 'NOT_FOUND'),
    );
  });
});
