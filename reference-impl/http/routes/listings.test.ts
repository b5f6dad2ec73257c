/** Spec 2.5 to 2.7 and 4.2 to 4.4 over HTTP: fleet, locations and rates. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetList, FleetVehicle, Location, LocationList, RateList } from '../../../contract/types.ts';
import { locations, ratePlans, vehicles } from '../../../fixtures/index.ts';
import { expectApiError, expectRepresentation, expectValid, localDate } from '../../testing/http-helpers.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

/** Spec 2.5: published, and SIPP, doors, air conditioning, seats, transmission and fuel all known. */
const LISTED = vehicles
  .filter(
    (v) =>
      v.published &&
      v.dataQualityStatus !== 'incomplete' &&
      [v.sippCode, v.doors, v.airConditioning, v.maxPassengers, v.transmission, v.fuelType].every((f) => f !== null),
  )
  .map((v) => v.vehicleCode)
  .sort();

describe('listing reads over HTTP (spec 4.2 to 4.4)', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    token = await server.token('partnerA');
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = (path: string, accept?: string, as = token) =>
    server.call('GET', path, { token: as, headers: accept ? { accept } : {} });

  describe('GET /fleet', () => {
    it('lists only published vehicles with a complete partner specification', async () => {
      const list = expectValid<FleetList>(await get('/fleet'), 'FleetList');
      expect(list.count).toBe(list.vehicles.length);
      expect(list.vehicles.map((v) => v.vehicleCode).sort()).toEqual(LISTED);
      expect(LISTED).not.toContain('MERCEDES-C200-AT');
      expect(LISTED).not.toContain('KIA-CARNIVAL-AT');
      for (const v of list.vehicles) {
        expect(['complete_unverified', 'verified']).toContain(v.dataQuality.status);
        expect(v.status).toBe('available');
        expect(v.sippCode).toMatch(/^[A-Z]{4}$/);
      }
    });

    it('is the same in XML', async () => {
      const json = expectValid<FleetList>(await get('/fleet'), 'FleetList');
      const res = await get('/fleet', 'application/xml');
      expectRepresentation(res, 'application/xml');
      expect(expectValid<FleetList>(res, 'FleetList')).toEqual(json);
    });
  });

  describe('GET /fleet/{vehicleCode}', () => {
    it('returns a listed vehicle as it appears in the list', async () => {
      const list = expectValid<FleetList>(await get('/fleet'), 'FleetList');
      const one = expectValid<FleetVehicle>(await get('/fleet/TOYOTA-VIOS-AT'), 'FleetVehicle');
      expect(one).toEqual(list.vehicles.find((v) => v.vehicleCode === 'TOYOTA-VIOS-AT'));
      const xml = await get('/fleet/TOYOTA-VIOS-AT', 'text/xml');
      expectRepresentation(xml, 'text/xml');
      expect(expectValid<FleetVehicle>(xml, 'FleetVehicle')).toEqual(one);
    });

    it.each(['NO-SUCH-CAR', 'MERCEDES-C200-AT', 'toyota-vios-at', 'X'])('404 NOT_FOUND for %s', async (code) => {
      expectApiError(await get(`/fleet/${code}`), 'NOT_FOUND');
      expectApiError(await get(`/fleet/${code}`, 'application/xml'), 'NOT_FOUND', 'xml');
    });

    it('409 FLEET_PROFILE_INCOMPLETE for the published but incomplete KIA-CARNIVAL-AT', async () => {
      expectApiError(await get('/fleet/KIA-CARNIVAL-AT'), 'FLEET_PROFILE_INCOMPLETE');
      expectApiError(await get('/fleet/KIA-CARNIVAL-AT', 'application/xml'), 'FLEET_PROFILE_INCOMPLETE', 'xml');
    });
  });

  describe('GET /locations', () => {
    it('lists the eight active locations, never the inactive one', async () => {
      const list = expectValid<LocationList>(await get('/locations'), 'LocationList');
      expect(list.count).toBe(8);
      expect(list.locations).toHaveLength(8);
      const codes = list.locations.map((l) => l.locationCode).sort();
      expect(codes).toEqual(
        locations
          .filter((l) => l.active)
          .map((l) => l.locationCode)
          .sort(),
      );
      expect(codes).not.toContain('DAD-HOI-AN');
      for (const l of list.locations) {
        if (l.locationType === 'airport') expect(l.iataCode).toMatch(/^[A-Z]{3}$/);
        else expect(l.iataCode).toBeNull();
        expect(l.locationCode).not.toBe(l.iataCode);
      }
    });

    it('is the same in XML', async () => {
      const json = expectValid<LocationList>(await get('/locations'), 'LocationList');
      expect(expectValid<LocationList>(await get('/locations', 'application/xml'), 'LocationList')).toEqual(json);
    });

    it('GET /locations/{code} returns the listed location', async () => {
      const list = expectValid<LocationList>(await get('/locations'), 'LocationList');
      const one = expectValid<Location>(await get('/locations/DAD-APT-01'), 'Location');
      expect(one).toEqual(list.locations.find((l) => l.locationCode === 'DAD-APT-01'));
    });

    it.each(['DAD-HOI-AN', 'XYZ-NOWHERE', 'SGN'])('404 NOT_FOUND for %s', async (code) => {
      expectApiError(await get(`/locations/${code}`), 'NOT_FOUND');
    });
  });

  describe('GET /rates', () => {
    const today = localDate(0);
    const expectedFor = (partnerId: string) =>
      ratePlans
        .filter(
          (p) =>
            p.partnerId === partnerId &&
            p.approval === 'approved' &&
            p.enabled &&
            (p.validFrom === null || p.validFrom <= today) &&
            (p.validTo === null || today <= p.validTo),
        )
        .map((p) => p.rateCode)
        .sort();

    it("lists only the caller's approved, enabled, in-window plans", async () => {
      const list = expectValid<RateList>(await get('/rates'), 'RateList');
      expect(list.count).toBe(list.rates.length);
      const codes = list.rates.map((r) => r.rateCode).sort();
      expect(codes).toEqual(expectedFor('PARTNER-A'));
      expect(codes).toEqual(['PA-COMM-10', 'PA-NET-15', 'PA-PROMO-10']);
      for (const r of list.rates) {
        expect(r.status).toBe('active');
        expect(r.accountCode).toBe('PA-ACC-01');
      }
    });

    it("another partner sees its own plans and none of partner A's", async () => {
      const tokenB = await server.token('partnerB');
      const list = expectValid<RateList>(await get('/rates', undefined, tokenB), 'RateList');
      const codes = list.rates.map((r) => r.rateCode).sort();
      expect(codes).toEqual(expectedFor('PARTNER-B'));
      expect(codes.some((c) => c.startsWith('PA-'))).toBe(false);
    });

    it('a partner with no plan gets an empty list, in JSON and XML', async () => {
      const tokenRl = await server.token('rateLimit');
      const json = expectValid<RateList>(await get('/rates', undefined, tokenRl), 'RateList');
      expect(json).toEqual({ rates: [], count: 0 });
      const xml = expectValid<RateList>(await get('/rates', 'application/xml', tokenRl), 'RateList');
      expect(xml).toEqual({ rates: [], count: 0 });
    });
  });
});
