/** Spec 1.1, 2.8, 2.9, 2.12, 4.5, 4.6 over HTTP: successful availability and quotes, in JSON and XML. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AvailabilityResponse, FleetList, Money, Quote } from '../../../contract/types.ts';
import {
  expectRepresentation,
  expectValid,
  type Kind,
  postAs,
  rentalWindow,
  serviceNowMs,
  toXml,
  withoutIssuedIds,
} from '../../testing/http-helpers.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

const QUOTE_VALIDITY_MS = 30 * 60_000;

function expectMoney(m: Money, currency = 'VND') {
  expect(m.currency).toBe(currency);
  expect(Number.isInteger(m.amount)).toBe(true);
  expect(Number.isInteger(m.exponent)).toBe(true);
  expect(typeof m.display).toBe('string');
}

/** Spec 2.9: total = baseTotal + extrasTotal + oneWayFee - discount, all in the quote's currency and exponent. */
function expectBreakdown(q: Quote) {
  const c = q.charges;
  for (const m of [c.dailyRate, c.baseTotal, c.extrasTotal, c.oneWayFee, c.discount, c.total, q.securityDeposit]) {
    expectMoney(m, q.currency);
    expect(m.exponent).toBe(c.total.exponent);
  }
  expect(c.total.amount).toBe(c.baseTotal.amount + c.extrasTotal.amount + c.oneWayFee.amount - c.discount.amount);
  expect(c.baseTotal.amount).toBe(c.dailyRate.amount * q.rental.rentalDays);
  expect(c.extrasTotal.amount).toBe(c.extras.reduce((sum, line) => sum + line.total.amount, 0));
  expect(c.discount.amount).toBeGreaterThanOrEqual(0);
  expect(c.oneWayFee.amount).toBeGreaterThanOrEqual(0);
  // The deposit is apart: the vehicle's deposit, not part of the total.
  expect(q.securityDeposit).toEqual(q.vehicle.securityDeposit);
  expect(q.payment.model).toBe('settled_with_partner');
}

describe('shopping over HTTP (spec 4.5, 4.6)', () => {
  let server: TestServer;
  let token: string;
  let fleet: FleetList;

  beforeAll(async () => {
    server = await startTestServer();
    token = await server.token('partnerA');
    fleet = expectValid<FleetList>(await server.call('GET', '/fleet', { token }), 'FleetList');
  });
  afterAll(async () => {
    await server?.close();
  });

  async function quote(kind: Kind, body: Record<string, unknown>) {
    return expectValid<Quote>(await postAs(server, kind, '/quotes', token, body), 'Quote', 201);
  }

  describe('POST /availability', () => {
    it('offers every listed vehicle of the pickup location, each with its own quote valid 30 minutes', async () => {
      const before = await serviceNowMs(server);
      const window = rentalWindow({ pickupLocation: 'HCM-D1', dropoffLocation: 'HCM-D1' });
      const res = await postAs(server, 'json', '/availability', token, window);
      const body = expectValid<AvailabilityResponse>(res, 'AvailabilityResponse');
      const after = await serviceNowMs(server);
      expect(body.availabilityModel).toBe('model_level_on_request');
      expect(body.pickupLocation).toBe('HCM-D1');
      expect(body.pickupDateTime).toBe(`${window.pickupDate}T10:00:00`);
      expect(body.accountCode).toBeNull();
      expect(body.rateCode).toBeNull();
      const expected = fleet.vehicles.filter((v) => v.locationCodes.includes('HCM-D1')).map((v) => v.vehicleCode);
      expect(body.offers.map((o) => o.vehicle.vehicleCode).sort()).toEqual(expected.sort());
      expect(new Set(body.offers.map((o) => o.quoteId)).size).toBe(body.offers.length);
      for (const offer of body.offers) {
        expect(offer.rentalDays).toBe(body.rentalDays);
        expect(offer.currency).toBe(offer.estimatedTotal.currency);
        expectMoney(offer.dailyRate);
        const expiresAt = Date.parse(offer.quoteExpiresAt);
        expect(expiresAt).toBeGreaterThanOrEqual(before + QUOTE_VALIDITY_MS - 1000);
        expect(expiresAt).toBeLessThanOrEqual(after + QUOTE_VALIDITY_MS);
      }
    });

    it('a vehicle filter limits the offers', async () => {
      const res = await postAs(server, 'json', '/availability', token, {
        ...rentalWindow(),
        vehicleCodes: ['TOYOTA-VIOS-AT', 'KIA-MORNING-MT'],
      });
      const body = expectValid<AvailabilityResponse>(res, 'AvailabilityResponse');
      expect(body.offers.map((o) => o.vehicle.vehicleCode).sort()).toEqual(['KIA-MORNING-MT', 'TOYOTA-VIOS-AT']);
    });

    it('an empty offer list is a valid answer (a mainland-only vehicle on the island)', async () => {
      for (const kind of ['json', 'xml'] as Kind[]) {
        const res = await postAs(server, kind, '/availability', token, {
          ...rentalWindow({ pickupLocation: 'PQC-APT-01', dropoffLocation: 'PQC-DUONG-DONG' }),
          vehicleCodes: ['HONDA-CITY-AT'],
        });
        const body = expectValid<AvailabilityResponse>(res, 'AvailabilityResponse');
        expect(body.offers).toEqual([]);
        expect(body.availabilityModel).toBe('model_level_on_request');
      }
    });

    it('with a rate code the response names the account and rate', async () => {
      const res = await postAs(server, 'json', '/availability', token, {
        ...rentalWindow(),
        accountCode: 'PA-ACC-01',
        rateCode: 'PA-NET-15',
      });
      const body = expectValid<AvailabilityResponse>(res, 'AvailabilityResponse');
      expect([body.accountCode, body.rateCode]).toEqual(['PA-ACC-01', 'PA-NET-15']);
      expect(body.offers.length).toBeGreaterThan(0);
    });

    it('XML gives the same answer as JSON, modulo server-issued ids', async () => {
      const request = { ...rentalWindow(), extras: { childSeats: 1, additionalDriver: true } };
      const json = expectValid<AvailabilityResponse>(
        await postAs(server, 'json', '/availability', token, request),
        'AvailabilityResponse',
      );
      const xmlRes = await postAs(server, 'xml', '/availability', token, request);
      expectRepresentation(xmlRes, 'application/xml');
      const xml = expectValid<AvailabilityResponse>(xmlRes, 'AvailabilityResponse');
      expect(withoutIssuedIds(xml)).toEqual(withoutIssuedIds(json));
    });

    it('each offer quote prices like POST /quotes for the same vehicle', async () => {
      const window = rentalWindow({ pickupLocation: 'DAD-APT-01', dropoffLocation: 'SGN-APT-01' });
      const body = expectValid<AvailabilityResponse>(
        await postAs(server, 'json', '/availability', token, { ...window, vehicleCodes: ['TOYOTA-VIOS-AT'] }),
        'AvailabilityResponse',
      );
      const offer = body.offers[0];
      if (!offer) throw new Error('no offer');
      const q = await quote('json', { ...window, vehicleCode: 'TOYOTA-VIOS-AT' });
      expect(offer.estimatedTotal).toEqual(q.charges.total);
      expect(offer.dailyRate).toEqual(q.charges.dailyRate);
    });
  });

  describe('POST /quotes', () => {
    it('201 with the full breakdown of 2.9 at the public rate, valid 30 minutes', async () => {
      const before = await serviceNowMs(server);
      const q = await quote('json', { ...rentalWindow(), vehicleCode: 'TOYOTA-VIOS-AT' });
      const after = await serviceNowMs(server);
      expectBreakdown(q);
      expect(q.vehicle.vehicleCode).toBe('TOYOTA-VIOS-AT');
      expect(q.rental.rentalDays).toBe(3);
      expect(q.rental.timezone).toBe('Asia/Ho_Chi_Minh');
      expect(q.rate).toEqual({ accountCode: null, rateCode: null, rateType: 'retail', adjustmentApplied: false });
      expect(q.charges.commission).toBeNull();
      expect(q.charges.discount.amount).toBe(0);
      expect(q.charges.extras).toEqual([]);
      const expiresAt = Date.parse(q.expiresAt);
      expect(expiresAt).toBeGreaterThanOrEqual(before + QUOTE_VALIDITY_MS - 1000);
      expect(expiresAt).toBeLessThanOrEqual(after + QUOTE_VALIDITY_MS);
    });

    it('one-way fee: zero within a branch, positive across branches, direction-specific', async () => {
      const within = await quote('json', {
        ...rentalWindow({ pickupLocation: 'SGN-APT-01', dropoffLocation: 'HCM-D1' }),
        vehicleCode: 'TOYOTA-VIOS-AT',
      });
      expectBreakdown(within);
      expect(within.charges.oneWayFee.amount).toBe(0);
      const across = await quote('json', {
        ...rentalWindow({ pickupLocation: 'SGN-APT-01', dropoffLocation: 'DAD-APT-01' }),
        vehicleCode: 'TOYOTA-VIOS-AT',
      });
      expectBreakdown(across);
      expect(across.charges.oneWayFee.amount).toBeGreaterThan(0);
      expect(across.charges.total.amount).toBe(within.charges.total.amount + across.charges.oneWayFee.amount);
      const back = await quote('json', {
        ...rentalWindow({ pickupLocation: 'DAD-APT-01', dropoffLocation: 'SGN-APT-01' }),
        vehicleCode: 'TOYOTA-VIOS-AT',
      });
      expect(back.charges.oneWayFee.amount).toBeGreaterThan(0);
    });

    it('extras are priced lines; fullProtection alone is accepted', async () => {
      const q = await quote('json', {
        ...rentalWindow(),
        vehicleCode: 'TOYOTA-VIOS-AT',
        extras: { fullProtection: true, childSeats: 2, roadSideAssistance: true },
      });
      expectBreakdown(q);
      expect(q.charges.extras.length).toBe(3);
      const seats = q.charges.extras.find((l) => l.quantity === 2);
      expect(seats).toBeDefined();
      expect(q.charges.extrasTotal.amount).toBeGreaterThan(0);
    });

    it('commission only on a commissionable plan, and out of the total', async () => {
      const comm = await quote('json', {
        ...rentalWindow(),
        vehicleCode: 'TOYOTA-VIOS-AT',
        accountCode: 'PA-ACC-01',
        rateCode: 'PA-COMM-10',
      });
      expectBreakdown(comm);
      expect(comm.rate.rateType).toBe('commissionable');
      expect(comm.charges.commission).not.toBeNull();
      expectMoney(comm.charges.commission as Money);
      expect(comm.charges.commission?.amount).toBeGreaterThan(0);
      expect(comm.charges.commission?.amount).toBeLessThan(comm.charges.total.amount);

      const net = await quote('json', {
        ...rentalWindow(),
        vehicleCode: 'TOYOTA-VIOS-AT',
        accountCode: 'PA-ACC-01',
        rateCode: 'PA-NET-15',
      });
      expectBreakdown(net);
      expect(net.rate).toMatchObject({
        accountCode: 'PA-ACC-01',
        rateCode: 'PA-NET-15',
        rateType: 'net',
        adjustmentApplied: true,
      });
      expect(net.charges.commission).toBeNull();
      expect(net.charges.dailyRate.amount).toBeLessThan(comm.charges.dailyRate.amount);

      const promo = await quote('json', {
        ...rentalWindow(),
        vehicleCode: 'TOYOTA-VIOS-AT',
        accountCode: 'PA-ACC-01',
        rateCode: 'PA-PROMO-10',
      });
      expectBreakdown(promo);
      expect(promo.charges.discount.amount).toBeGreaterThan(0);
      expect(promo.charges.commission).toBeNull();
    });

    it('a rate code alone resolves its account', async () => {
      const q = await quote('json', { ...rentalWindow(), vehicleCode: 'TOYOTA-VIOS-AT', rateCode: 'PA-NET-15' });
      expect(q.rate.accountCode).toBe('PA-ACC-01');
    });

    it('XML gives the same quote as JSON, modulo server-issued ids; text/xml answers as text/xml', async () => {
      const request = {
        ...rentalWindow({ pickupLocation: 'HAN-HK', dropoffLocation: 'DAD-APT-01' }),
        vehicleCode: 'MAZDA-CX5-AT',
        accountCode: 'PA-ACC-01',
        rateCode: 'PA-COMM-10',
        extras: { cdwInsurance: true, childSeats: 1 },
      };
      const json = await quote('json', request);
      const xml = await quote('xml', request);
      expect(withoutIssuedIds(xml)).toEqual(withoutIssuedIds(json));

      const textXml = await server.call('POST', '/quotes', {
        token,
        headers: { 'content-type': 'text/xml', accept: 'text/xml' },
        body: toXml(request),
      });
      expectRepresentation(textXml, 'text/xml');
      expect(withoutIssuedIds(expectValid<Quote>(textXml, 'Quote', 201))).toEqual(withoutIssuedIds(json));
    });

    it('an XML body may get a JSON answer and the reverse', async () => {
      const request = { ...rentalWindow(), vehicleCode: 'KIA-MORNING-MT' };
      const xmlIn = await server.call('POST', '/quotes', {
        token,
        headers: { 'content-type': 'application/xml' },
        body: toXml(request),
      });
      expectRepresentation(xmlIn, 'application/json');
      expectValid<Quote>(xmlIn, 'Quote', 201);
      const jsonIn = await server.call('POST', '/quotes', {
        token,
        headers: { 'content-type': 'application/json', accept: 'application/xml' },
        body: JSON.stringify(request),
      });
      expectRepresentation(jsonIn, 'application/xml');
      expectValid<Quote>(jsonIn, 'Quote', 201);
    });

    it('a vehicle not offered at the pickup location: 409 NO_AVAILABILITY', async () => {
      const res = await postAs(server, 'json', '/quotes', token, {
        ...rentalWindow({ pickupLocation: 'PQC-APT-01', dropoffLocation: 'PQC-APT-01' }),
        vehicleCode: 'HONDA-CITY-AT',
      });
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe('NO_AVAILABILITY');
    });
  });
});
