/** Spec 4.12 over HTTP: every validation of POST /availability and POST /quotes, in JSON and in XML. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../../contract/errors.ts';
import { expectApiError, type Kind, localDate, postAs, rentalWindow } from '../../testing/http-helpers.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

type Body = Record<string, unknown>;

interface Case {
  name: string;
  code: ErrorCode;
  /** Changes a valid request of the endpoint into the failing one. */
  change: (valid: Body) => Body;
  /** Field the error should name, when the reference names one. */
  field?: string;
  only?: 'availability' | 'quotes';
}

const set = (patch: Body) => (valid: Body) => ({ ...valid, ...patch });
const omit = (key: string) => (valid: Body) => {
  const { [key]: _dropped, ...rest } = valid;
  return rest;
};

const CASES: Case[] = [
  // INVALID_LOCATION: unknown or inactive.
  {
    name: 'unknown pickup location',
    code: 'INVALID_LOCATION',
    change: set({ pickupLocation: 'XYZ-NOWHERE' }),
    field: 'pickupLocation',
  },
  {
    name: 'unknown dropoff location',
    code: 'INVALID_LOCATION',
    change: set({ dropoffLocation: 'XYZ-NOWHERE' }),
    field: 'dropoffLocation',
  },
  {
    name: 'inactive pickup location DAD-HOI-AN',
    code: 'INVALID_LOCATION',
    change: set({ pickupLocation: 'DAD-HOI-AN', dropoffLocation: 'DAD-APT-01' }),
  },
  {
    name: 'inactive dropoff location DAD-HOI-AN',
    code: 'INVALID_LOCATION',
    change: set({ pickupLocation: 'DAD-APT-01', dropoffLocation: 'DAD-HOI-AN' }),
  },
  // LOCATION_NOT_ONE_WAY: branches without a fee between them (fixtures/one-way-fees.ts).
  {
    name: 'HCM to HAN (no fee)',
    code: 'LOCATION_NOT_ONE_WAY',
    change: set({ pickupLocation: 'SGN-APT-01', dropoffLocation: 'HAN-APT-01' }),
  },
  {
    name: 'HAN to HCM (no fee)',
    code: 'LOCATION_NOT_ONE_WAY',
    change: set({ pickupLocation: 'HAN-HK', dropoffLocation: 'HCM-D1' }),
  },
  {
    name: 'island PQC to DAD',
    code: 'LOCATION_NOT_ONE_WAY',
    change: set({ pickupLocation: 'PQC-APT-01', dropoffLocation: 'DAD-APT-01' }),
  },
  {
    name: 'HCM to island PQC',
    code: 'LOCATION_NOT_ONE_WAY',
    change: set({ pickupLocation: 'SGN-APT-01', dropoffLocation: 'PQC-DUONG-DONG' }),
  },
  // INVALID_RENTAL_WINDOW
  {
    name: 'dropoff before pickup',
    code: 'INVALID_RENTAL_WINDOW',
    change: (v) => ({ ...v, dropoffDate: localDate(29), dropoffTime: '10:00' }),
  },
  {
    name: 'dropoff equal to pickup',
    code: 'INVALID_RENTAL_WINDOW',
    change: (v) => ({ ...v, dropoffDate: v.pickupDate, dropoffTime: v.pickupTime }),
  },
  {
    name: 'dropoff one minute before pickup on the same day',
    code: 'INVALID_RENTAL_WINDOW',
    change: (v) => ({ ...v, dropoffDate: v.pickupDate, pickupTime: '10:01', dropoffTime: '10:00' }),
  },
  {
    name: 'pickup in the past',
    code: 'INVALID_RENTAL_WINDOW',
    change: set({ pickupDate: localDate(-2), dropoffDate: localDate(3) }),
  },
  // The schema's date format refuses a nonexistent calendar date before any 4.12 rule (docs/ambiguities.md #5).
  {
    name: 'nonexistent date 2027-02-30',
    code: 'VALIDATION_ERROR',
    change: set({ pickupDate: '2027-02-30' }),
    field: 'pickupDate',
  },
  { name: 'time 24:00', code: 'VALIDATION_ERROR', change: set({ pickupTime: '24:00' }), field: 'pickupTime' },
  {
    name: 'time without leading zero',
    code: 'VALIDATION_ERROR',
    change: set({ dropoffTime: '9:00' }),
    field: 'dropoffTime',
  },
  // INVALID_VEHICLE / FLEET_PROFILE_INCOMPLETE
  {
    name: 'unknown vehicleCode',
    code: 'INVALID_VEHICLE',
    change: set({ vehicleCode: 'NO-SUCH-CAR' }),
    field: 'vehicleCode',
    only: 'quotes',
  },
  {
    name: 'unpublished vehicleCode MERCEDES-C200-AT',
    code: 'INVALID_VEHICLE',
    change: set({ vehicleCode: 'MERCEDES-C200-AT' }),
    only: 'quotes',
  },
  {
    name: 'incomplete vehicleCode KIA-CARNIVAL-AT',
    code: 'FLEET_PROFILE_INCOMPLETE',
    change: set({ vehicleCode: 'KIA-CARNIVAL-AT' }),
    only: 'quotes',
  },
  {
    name: 'unknown vehicle in vehicleCodes',
    code: 'INVALID_VEHICLE',
    change: set({ vehicleCodes: ['TOYOTA-VIOS-AT', 'NO-SUCH-CAR'] }),
    field: 'vehicleCodes[1]',
    only: 'availability',
  },
  {
    name: 'unpublished vehicle in vehicleCodes',
    code: 'INVALID_VEHICLE',
    change: set({ vehicleCodes: ['MERCEDES-C200-AT'] }),
    only: 'availability',
  },
  {
    name: 'incomplete vehicle in vehicleCodes',
    code: 'FLEET_PROFILE_INCOMPLETE',
    change: set({ vehicleCodes: ['KIA-CARNIVAL-AT'] }),
    only: 'availability',
  },
  // INVALID_ACCOUNT_CODE
  {
    name: 'unknown accountCode',
    code: 'INVALID_ACCOUNT_CODE',
    change: set({ accountCode: 'PA-ACC-99' }),
    field: 'accountCode',
  },
  { name: "another partner's accountCode", code: 'INVALID_ACCOUNT_CODE', change: set({ accountCode: 'PB-ACC-01' }) },
  { name: 'accountCode not enabled', code: 'INVALID_ACCOUNT_CODE', change: set({ accountCode: 'PA-ACC-LEGACY' }) },
  // INVALID_RATE_CODE / RATE_NOT_APPROVED
  {
    name: 'unknown rateCode',
    code: 'INVALID_RATE_CODE',
    change: set({ accountCode: 'PA-ACC-01', rateCode: 'PA-NOPE' }),
    field: 'rateCode',
  },
  { name: 'unknown rateCode without accountCode', code: 'INVALID_RATE_CODE', change: set({ rateCode: 'PA-NOPE' }) },
  {
    name: 'disabled rateCode PA-NET-20-OFF',
    code: 'INVALID_RATE_CODE',
    change: set({ accountCode: 'PA-ACC-01', rateCode: 'PA-NET-20-OFF' }),
  },
  {
    name: 'rateCode outside validity PA-COMM-2024',
    code: 'INVALID_RATE_CODE',
    change: set({ accountCode: 'PA-ACC-01', rateCode: 'PA-COMM-2024' }),
  },
  { name: "another partner's rateCode PB-CORP-01", code: 'INVALID_RATE_CODE', change: set({ rateCode: 'PB-CORP-01' }) },
  {
    name: 'rateCode PA-CORP-PENDING awaiting approval',
    code: 'RATE_NOT_APPROVED',
    change: set({ accountCode: 'PA-ACC-01', rateCode: 'PA-CORP-PENDING' }),
  },
  // VALIDATION_ERROR
  {
    name: 'cdwInsurance with fullProtection',
    code: 'VALIDATION_ERROR',
    change: set({ extras: { cdwInsurance: true, fullProtection: true } }),
    field: 'extras',
  },
  { name: 'an unknown property', code: 'VALIDATION_ERROR', change: set({ promoCode: 'X' }), field: 'promoCode' },
  {
    name: 'an unknown extras property',
    code: 'VALIDATION_ERROR',
    change: set({ extras: { gps: true } }),
    field: 'extras.gps',
  },
  {
    name: 'childSeats 4',
    code: 'VALIDATION_ERROR',
    change: set({ extras: { childSeats: 4 } }),
    field: 'extras.childSeats',
  },
  {
    name: 'childSeats -1',
    code: 'VALIDATION_ERROR',
    change: set({ extras: { childSeats: -1 } }),
    field: 'extras.childSeats',
  },
  {
    name: 'childSeats 1.5',
    code: 'VALIDATION_ERROR',
    change: set({ extras: { childSeats: 1.5 } }),
    field: 'extras.childSeats',
  },
  {
    name: 'vehicleCodes with 51 items',
    code: 'VALIDATION_ERROR',
    change: set({ vehicleCodes: Array.from({ length: 51 }, () => 'TOYOTA-VIOS-AT') }),
    field: 'vehicleCodes',
    only: 'availability',
  },
  {
    name: 'pickupLocation a number',
    code: 'VALIDATION_ERROR',
    change: set({ pickupLocation: 5 }),
    field: 'pickupLocation',
  },
  {
    name: 'extras.cdwInsurance a string',
    code: 'VALIDATION_ERROR',
    change: set({ extras: { cdwInsurance: 'yes' } }),
    field: 'extras.cdwInsurance',
  },
  { name: 'extras an array', code: 'VALIDATION_ERROR', change: set({ extras: [] }), field: 'extras' },
  {
    name: 'vehicleCodes a string',
    code: 'VALIDATION_ERROR',
    change: set({ vehicleCodes: 'TOYOTA-VIOS-AT' }),
    only: 'availability',
  },
  {
    name: 'lower-case location code',
    code: 'VALIDATION_ERROR',
    change: set({ pickupLocation: 'sgn-apt-01' }),
    field: 'pickupLocation',
  },
  { name: 'missing pickupDate', code: 'VALIDATION_ERROR', change: omit('pickupDate'), field: 'pickupDate' },
  {
    name: 'missing vehicleCode',
    code: 'VALIDATION_ERROR',
    change: omit('vehicleCode'),
    field: 'vehicleCode',
    only: 'quotes',
  },
  {
    name: 'vehicleCode on availability',
    code: 'VALIDATION_ERROR',
    change: set({ vehicleCode: 'TOYOTA-VIOS-AT' }),
    only: 'availability',
  },
  { name: 'accountCode null', code: 'VALIDATION_ERROR', change: set({ accountCode: null }), field: 'accountCode' },
  { name: 'the body an array', code: 'VALIDATION_ERROR', change: () => [] as unknown as Body, field: 'body' },
];

const ENDPOINTS = {
  availability: { path: '/availability', valid: (): Body => ({ ...rentalWindow() }) },
  quotes: { path: '/quotes', valid: (): Body => ({ ...rentalWindow(), vehicleCode: 'TOYOTA-VIOS-AT' }) },
} as const;

describe('spec 4.12 validations over HTTP', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    token = await server.token('partnerA');
  });
  afterAll(async () => {
    await server?.close();
  });

  for (const [endpoint, { path, valid }] of Object.entries(ENDPOINTS)) {
    describe(`POST ${path}`, () => {
      it.each(['json', 'xml'] as Kind[])('the valid base request succeeds (%s)', async (kind) => {
        const res = await postAs(server, kind, path, token, valid());
        expect(res.status, res.text.slice(0, 400)).toBe(endpoint === 'quotes' ? 201 : 200);
      });

      const cases = CASES.filter((c) => c.only === undefined || c.only === endpoint);
      for (const kind of ['json', 'xml'] as Kind[]) {
        it.each(cases.map((c) => [c.name, c] as const))(`%s (${kind})`, async (_name, c) => {
          const res = await postAs(server, kind, path, token, c.change(valid()));
          const envelope = expectApiError(res, c.code, kind);
          if (c.field)
            expect(
              envelope.error.fields?.map((f) => f.field),
              res.text,
            ).toContain(c.field);
        });
      }
    });
  }

  it('a vehicle code outside the VehicleCode pattern is VALIDATION_ERROR, not INVALID_VEHICLE', async () => {
    const res = await postAs(server, 'json', '/availability', token, { ...rentalWindow(), vehicleCodes: ['a'] });
    expectApiError(res, 'VALIDATION_ERROR');
  });

  it('validation errors carry no request content in their message (7.2)', async () => {
    const marker = 'ZZ-MARKER-12345';
    const res = await postAs(server, 'json', '/quotes', token, { ...rentalWindow(), vehicleCode: marker });
    const envelope = expectApiError(res, 'INVALID_VEHICLE');
    expect(envelope.error.message).not.toContain(marker);
  });
});
