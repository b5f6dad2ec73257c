import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../limits.ts';
import { validate } from '../validation.ts';
import { validExample } from './examples.ts';
import { SCHEMA_BUNDLE, SCHEMA_NAMES, type SchemaName, schemaId } from './index.ts';
import { REMOVE, withChange } from './test-helpers.ts';

const defs = SCHEMA_BUNDLE.$defs as Record<string, unknown>;

function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormatsModule.default(ajv, { mode: 'full' });
  return ajv;
}

function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') out.push(inner);
      else collectRefs(inner, out);
    }
  }
  return out;
}

describe('schema bundle', () => {
  it('declares exactly the schema names, in the bundle and in SCHEMA_NAMES', () => {
    expect(Object.keys(defs)).toEqual([...SCHEMA_NAMES]);
    expect(SCHEMA_BUNDLE.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('compiles every schema under Ajv strict mode', () => {
    const ajv = strictAjv();
    ajv.addSchema(SCHEMA_BUNDLE);
    for (const name of SCHEMA_NAMES) expect(() => ajv.getSchema(schemaId(name)), name).not.toThrow();
  });

  it('strict mode is live: a misspelt keyword is refused', () => {
    const ajv = strictAjv();
    expect(() => ajv.compile({ type: 'object', requried: ['a'] })).toThrow(/strict mode/);
  });

  it('names a spec section in the description of every schema', () => {
    for (const name of SCHEMA_NAMES) {
      expect((defs[name] as { description?: string }).description, name).toMatch(/^Spec \d+(\.\d+)* /);
    }
  });

  it('references only schemas of the bundle', () => {
    for (const target of collectRefs(defs)) {
      expect(target).toMatch(/^#\/\$defs\/[A-Za-z]+$/);
      expect(SCHEMA_NAMES).toContain(target.slice('#/$defs/'.length));
    }
  });

  it('closes every object but the token request', () => {
    const open: string[] = [];
    const visit = (value: unknown, at: string): void => {
      if (Array.isArray(value)) {
        for (const [i, item] of value.entries()) visit(item, `${at}/${i}`);
      } else if (typeof value === 'object' && value !== null) {
        const schema = value as Record<string, unknown>;
        const type = schema.type;
        const isObject = type === 'object' || (Array.isArray(type) && type.includes('object'));
        if (isObject && schema.additionalProperties !== false && schema.unevaluatedProperties !== false) {
          open.push(at);
        }
        for (const [key, inner] of Object.entries(schema)) visit(inner, `${at}/${key}`);
      }
    };
    visit(defs, '#/$defs');
    expect(open).toEqual(['#/$defs/TokenRequest']);
  });

  it('takes the limits of spec 8 from LIMITS', () => {
    const reservationRequest = defs.ReservationRequest as { properties: Record<string, { maxLength?: number }> };
    expect(reservationRequest.properties.remarks?.maxLength).toBe(LIMITS.remarksMaxLength);
    const availability = defs.AvailabilityRequest as { properties: { vehicleCodes: { maxItems: number } } };
    expect(availability.properties.vehicleCodes.maxItems).toBe(LIMITS.vehicleCodesMaxItems);
  });
});

describe('valid examples', () => {
  it.each(SCHEMA_NAMES)('%s: the example is valid', (name) => {
    expect(validate(name, validExample(name))).toEqual({ valid: true });
  });

  const alsoValid: [SchemaName, string, string, unknown][] = [
    ['SippCode', 'null on an unpublished vehicle', '', null],
    ['Extras', 'empty', '', {}],
    ['Extras', 'cdwInsurance alone', '', { cdwInsurance: true, childSeats: 0 }],
    ['FleetVehicle', 'nullable keys set to null', 'maxPassengers', null],
    ['FleetVehicle', 'sippCode null', 'sippCode', null],
    ['FleetVehicle', 'excessFeePerKm null', 'mileagePolicy.excessFeePerKm', null],
    ['FleetVehicle', 'optional key omitted', 'driveType', REMOVE],
    ['FleetVehicle', 'baggage null', 'baggage', null],
    ['Location', 'airport without an IATA code', 'iataCode', null],
    ['Location', 'coordinates null', 'coordinates', null],
    ['RentalWindow', 'midnight and last minute', 'pickupTime', '00:00'],
    ['RentalWindow', 'late time', 'dropoffTime', '23:59'],
    ['AvailabilityRequest', 'vehicleCodes omitted', 'vehicleCodes', REMOVE],
    ['AvailabilityRequest', 'vehicleCodes at the limit', 'vehicleCodes', Array(LIMITS.vehicleCodesMaxItems).fill('AB')],
    ['AvailabilityResponse', 'no offers', 'offers', []],
    ['Quote', 'commissionable plan', 'charges.commission', { currency: 'VND', amount: 1, exponent: 0, display: '1' }],
    ['Reservation', 'partnerReference null', 'partnerReference', null],
    ['Reservation', 'driver fields null', 'driver', { firstName: null, lastName: null, email: null }],
    ['ReservationRequest', 'quoteId at 8 characters', 'quoteId', 'x'.repeat(LIMITS.quoteIdLength.min)],
    ['ReservationRequest', 'quoteId at 4096 characters', 'quoteId', 'x'.repeat(LIMITS.quoteIdLength.max)],
    ['ReservationRequest', 'optional keys omitted', 'remarks', REMOVE],
    ['Driver', 'upper-case nationality', 'nationality', 'VN'],
    ['Driver', 'phone at 16 characters', 'phone', '+841234567890123'],
    ['CancelRequest', 'reason at 500 characters', 'reason', 'r'.repeat(LIMITS.cancelReasonLength.max)],
    ['TokenRequest', 'an unrecognised parameter (RFC 6749 3.2)', 'audience', 'x'],
    ['TokenRequest', 'client_secret_post', 'client_secret', 'secret'],
    ['ErrorEnvelope', 'without fields', 'error.fields', REMOVE],
    ['ReservationList', 'limit 100', 'limit', LIMITS.reservationListLimit.max],
  ];
  it.each(alsoValid)('%s: %s', (name, _title, path, next) => {
    expect(validate(name, withChange(validExample(name), path, next))).toEqual({ valid: true });
  });
});

const money = { currency: 'VND', amount: 1, exponent: 0, display: '1' };
const long = (n: number) => 'x'.repeat(n);

/** [schema, what breaks, path to change, new value, expected field, expected message] */
// biome-ignore format: one case per line reads as a table
const invalid: [SchemaName, string, string, unknown, string, string | RegExp][] = [
  ['Money', 'decimal amount', 'amount', 1.5, 'amount', 'must be an integer'],
  ['Money', 'amount as a string', 'amount', '100', 'amount', 'must be an integer'],
  ['Money', 'exponent above 4', 'exponent', 5, 'exponent', 'must be at most 4'],
  ['Money', 'negative exponent', 'exponent', -1, 'exponent', 'must be at least 0'],
  ['Money', 'lower-case currency', 'currency', 'vnd', 'currency', 'must match the pattern ^[A-Z]{3}$'],
  ['Money', 'missing display', 'display', REMOVE, 'display', 'is required'],
  ['Money', 'unknown key', 'value', 1, 'value', 'is not an allowed property'],
  ['Money', 'not an object', '', 5, 'body', 'must be an object'],
  ['VehicleCode', 'lower case', '', 'vf8', 'body', /must match the pattern/],
  ['VehicleCode', 'one character', '', 'V', 'body', /must match the pattern/],
  ['VehicleCode', '33 characters', '', 'A'.repeat(33), 'body', /must match the pattern/],
  ['LocationCode', 'a space', '', 'SGN AIRPORT', 'body', /must match the pattern/],
  ['CommercialCode', 'empty', '', '', 'body', /must match the pattern/],
  ['CommercialCode', '33 characters', '', 'A'.repeat(33), 'body', /must match the pattern/],
  ['SippCode', 'three letters', '', 'SFA', 'body', 'must match the pattern ^[A-Z]{4}$'],
  ['SippCode', 'a number', '', 1234, 'body', 'must be a string or null'],
  ['Extras', 'cdwInsurance with fullProtection', 'cdwInsurance', true, 'body', /must not contain both cdwInsurance and fullProtection/],
  ['Extras', 'both keys present even when false', '', { cdwInsurance: false, fullProtection: false }, 'body', /must not contain both/],
  ['Extras', 'four child seats', 'childSeats', 4, 'childSeats', 'must be at most 3'],
  ['Extras', 'negative child seats', 'childSeats', -1, 'childSeats', 'must be at least 0'],
  ['Extras', 'fractional child seats', 'childSeats', 1.5, 'childSeats', 'must be an integer'],
  ['Extras', 'unknown extra', 'gps', true, 'gps', 'is not an allowed property'],
  ['Extras', 'boolean as a string', 'additionalDriver', 'true', 'additionalDriver', 'must be a boolean'],
  ['RentalWindow', 'hour 24', 'pickupTime', '24:00', 'pickupTime', /must match the pattern/],
  ['RentalWindow', 'single-digit hour', 'pickupTime', '9:00', 'pickupTime', /must match the pattern/],
  ['RentalWindow', 'seconds in the time', 'dropoffTime', '18:30:00', 'dropoffTime', /must match the pattern/],
  ['RentalWindow', 'impossible date', 'pickupDate', '2030-02-30', 'pickupDate', /must be a valid date/],
  ['RentalWindow', 'date-time for a date', 'dropoffDate', '2030-03-04T10:00', 'dropoffDate', /must be a valid date/],
  ['RentalWindow', 'missing dropoffTime', 'dropoffTime', REMOVE, 'dropoffTime', 'is required'],
  ['RentalWindow', 'lower-case accountCode', 'accountCode', 'acme', 'accountCode', /must match the pattern/],
  ['RentalWindow', 'extras are not part of the window', 'extras', {}, 'extras', 'is not an allowed property'],
  ['FleetVehicle', 'status other than available', 'status', 'unavailable', 'status', 'must be "available"'],
  ['FleetVehicle', 'missing T|null key sippCode', 'sippCode', REMOVE, 'sippCode', 'is required'],
  ['FleetVehicle', 'missing T|null key doors', 'doors', REMOVE, 'doors', 'is required'],
  ['FleetVehicle', '17 passengers', 'maxPassengers', 17, 'maxPassengers', 'must be at most 16'],
  ['FleetVehicle', 'one door', 'doors', 1, 'doors', 'must be at least 2'],
  ['FleetVehicle', 'unknown transmission', 'transmission', 'cvt', 'transmission', /must be one of: automatic, manual, null/],
  ['FleetVehicle', 'unknown fuel', 'fuelType', 'lpg', 'fuelType', /must be one of/],
  ['FleetVehicle', 'image not a URI', 'images', ['not a uri'], 'images[0]', 'must be a valid absolute URI'],
  ['FleetVehicle', 'baggage missing small', 'baggage', { large: 1 }, 'baggage.small', 'is required'],
  ['FleetVehicle', 'baggage unknown key', 'baggage', { large: 1, small: 1, xl: 0 }, 'baggage.xl', 'is not an allowed property'],
  ['FleetVehicle', 'missing excessFeePerKm', 'mileagePolicy.excessFeePerKm', REMOVE, 'mileagePolicy.excessFeePerKm', 'is required'],
  ['FleetVehicle', 'excessFeePerKm as a number', 'mileagePolicy.excessFeePerKm', 5, 'mileagePolicy.excessFeePerKm', 'must be an object or null'],
  ['FleetVehicle', 'excessFeePerKm incomplete', 'mileagePolicy.excessFeePerKm', { currency: 'VND' }, 'mileagePolicy.excessFeePerKm.amount', 'is required'],
  ['FleetVehicle', 'unknown data quality', 'dataQuality.status', 'great', 'dataQuality.status', /must be one of/],
  ['FleetVehicle', 'location code not a LocationCode', 'locationCodes', ['HCM-D1', 'x'], 'locationCodes[1]', /must match the pattern/],
  ['FleetVehicle', 'deposit not Money', 'securityDeposit', { ...money, amount: 0.5 }, 'securityDeposit.amount', 'must be an integer'],
  ['FleetVehicle', 'unknown key', 'colour', 'red', 'colour', 'is not an allowed property'],
  ['Location', 'IATA code on a city location', 'locationType', 'city', 'iataCode', 'must be null'],
  ['Location', 'lower-case IATA code', 'iataCode', 'sgn', 'iataCode', /must match the pattern/],
  ['Location', 'missing T|null key iataCode', 'iataCode', REMOVE, 'iataCode', 'is required'],
  ['Location', 'unknown location type', 'locationType', 'port', 'locationType', 'must be one of: city, airport'],
  ['Location', 'coordinates missing longitude', 'coordinates', { latitude: 1 }, 'coordinates.longitude', 'is required'],
  ['Location', 'three-letter country', 'countryCode', 'VNM', 'countryCode', /must match the pattern/],
  ['Location', 'capability not boolean', 'capabilities.oneWay', 1, 'capabilities.oneWay', 'must be a boolean'],
  ['RatePlan', 'inactive', 'status', 'inactive', 'status', 'must be "active"'],
  ['RatePlan', 'unknown rate type', 'rateType', 'wholesale', 'rateType', /must be one of: retail, net/],
  ['RatePlan', 'impossible validFrom', 'validFrom', '2025-13-01', 'validFrom', /must be a valid date/],
  ['AvailabilityOffer', 'zero rental days', 'rentalDays', 0, 'rentalDays', 'must be at least 1'],
  ['AvailabilityOffer', 'expiry without offset', 'quoteExpiresAt', '2030-02-01T10:30:00', 'quoteExpiresAt', /must be a valid date-time/],
  ['AvailabilityOffer', 'unusable quoteId', 'quoteId', 'short', 'quoteId', 'must be at least 8 characters'],
  ['AvailabilityOffer', 'nested vehicle broken', 'vehicle.status', 'sold', 'vehicle.status', 'must be "available"'],
  ['ExtraLine', 'fractional quantity', 'quantity', 1.5, 'quantity', 'must be an integer'],
  ['ExtraLine', 'missing total', 'total', REMOVE, 'total', 'is required'],
  ['Quote', 'payment model', 'payment.model', 'prepaid', 'payment.model', 'must be "settled_with_partner"'],
  ['Quote', 'local date-time with offset', 'rental.pickupDateTime', '2030-03-01T09:00+07:00', 'rental.pickupDateTime', /must match the pattern/],
  ['Quote', 'missing T|null commission', 'charges.commission', REMOVE, 'charges.commission', 'is required'],
  ['Quote', 'missing adjustmentApplied', 'rate.adjustmentApplied', REMOVE, 'rate.adjustmentApplied', 'is required'],
  ['Quote', 'missing T|null accountCode', 'rate.accountCode', REMOVE, 'rate.accountCode', 'is required'],
  ['Quote', 'extra line broken', 'charges.extras', [{ code: 'X' }], 'charges.extras[0].total', 'is required'],
  ['Quote', 'zero rental days', 'rental.rentalDays', 0, 'rental.rentalDays', 'must be at least 1'],
  ['Driver', 'unknown title', 'title', 'sir', 'title', 'must be one of: mr, mrs, ms, dr'],
  ['Driver', 'empty first name', 'firstName', '', 'firstName', 'must not be empty'],
  ['Driver', '101-character last name', 'lastName', long(101), 'lastName', 'must be at most 100 characters'],
  ['Driver', 'malformed email', 'email', 'not-an-email', 'email', 'must be a valid email address'],
  ['Driver', '201-character email', 'email', `${long(190)}@example.com`, 'email', 'must be at most 200 characters'],
  ['Driver', 'phone without country code', 'phone', '0901234567', 'phone', /must match the pattern/],
  ['Driver', 'phone with leading zero', 'phone', '+0123456', 'phone', /must match the pattern/],
  ['Driver', 'phone too short', 'phone', '+84', 'phone', 'must be at least 5 characters'],
  ['Driver', 'date of birth not ISO', 'dateOfBirth', '17/05/1990', 'dateOfBirth', /must be a valid date/],
  ['Driver', 'three-letter nationality', 'nationality', 'VNM', 'nationality', /must match the pattern/],
  ['Driver', '51-character id number', 'idNumber', long(51), 'idNumber', 'must be at most 50 characters'],
  ['Driver', 'missing phone', 'phone', REMOVE, 'phone', 'is required'],
  ['Driver', 'unknown key', 'address', 'x', 'address', 'is not an allowed property'],
  ['Reservation', 'unknown status', 'status', 'booked', 'status', /must be one of: pending, confirmed/],
  ['Reservation', 'missing T|null commission', 'commission', REMOVE, 'commission', 'is required'],
  ['Reservation', 'missing T|null partnerReference', 'partnerReference', REMOVE, 'partnerReference', 'is required'],
  ['Reservation', 'customer data beyond the three fields', 'driver.phone', '+84901234567', 'driver.phone', 'is not an allowed property'],
  ['Reservation', 'lower-case currency', 'currency', 'vnd', 'currency', /must match the pattern/],
  ['ReservationRequest', '7-character quoteId', 'quoteId', long(7), 'quoteId', 'must be at least 8 characters'],
  ['ReservationRequest', '4097-character quoteId', 'quoteId', long(4097), 'quoteId', 'must be at most 4096 characters'],
  ['ReservationRequest', '65-character partnerReference', 'partnerReference', long(65), 'partnerReference', 'must be at most 64 characters'],
  ['ReservationRequest', '1001-character remarks', 'remarks', long(1001), 'remarks', 'must be at most 1000 characters'],
  ['ReservationRequest', '21-character flightNumber', 'flightNumber', long(21), 'flightNumber', 'must be at most 20 characters'],
  ['ReservationRequest', 'driver without first name', 'driver.firstName', REMOVE, 'driver.firstName', 'is required'],
  ['ReservationRequest', 'driver email malformed', 'driver.email', 'x@', 'driver.email', 'must be a valid email address'],
  ['ReservationRequest', 'missing driver', 'driver', REMOVE, 'driver', 'is required'],
  ['ReservationRequest', 'unknown key', 'paymentCard', '4111', 'paymentCard', 'is not an allowed property'],
  ['CancelRequest', 'empty reason', 'reason', '', 'reason', 'must not be empty'],
  ['CancelRequest', '501-character reason', 'reason', long(501), 'reason', 'must be at most 500 characters'],
  ['CancelRequest', 'missing reason', 'reason', REMOVE, 'reason', 'is required'],
  ['AvailabilityRequest', '51 vehicle codes', 'vehicleCodes', Array(51).fill('AB'), 'vehicleCodes', 'must have at most 50 items'],
  ['AvailabilityRequest', 'bad vehicle code at index 3', 'vehicleCodes', ['AB', 'AB', 'AB', 'ab'], 'vehicleCodes[3]', /must match the pattern/],
  ['AvailabilityRequest', 'cdwInsurance with fullProtection', 'extras.cdwInsurance', true, 'extras', /must not contain both/],
  ['AvailabilityRequest', 'unknown extra', 'extras.foo', 1, 'extras.foo', 'is not an allowed property'],
  ['AvailabilityRequest', 'vehicleCode belongs to quotes', 'vehicleCode', 'AB', 'vehicleCode', 'is not an allowed property'],
  ['AvailabilityRequest', 'missing pickupLocation', 'pickupLocation', REMOVE, 'pickupLocation', 'is required'],
  ['QuoteRequest', 'missing vehicleCode', 'vehicleCode', REMOVE, 'vehicleCode', 'is required'],
  ['QuoteRequest', 'vehicleCodes belong to availability', 'vehicleCodes', ['AB'], 'vehicleCodes', 'is not an allowed property'],
  ['QuoteRequest', 'child seats above 3', 'extras', { childSeats: 4 }, 'extras.childSeats', 'must be at most 3'],
  ['AvailabilityResponse', 'unit-level model', 'availabilityModel', 'unit_level', 'availabilityModel', 'must be "model_level_on_request"'],
  ['AvailabilityResponse', 'zero rental days', 'rentalDays', 0, 'rentalDays', 'must be at least 1'],
  ['AvailabilityResponse', 'missing T|null accountCode', 'accountCode', REMOVE, 'accountCode', 'is required'],
  ['AvailabilityResponse', 'missing offers', 'offers', REMOVE, 'offers', 'is required'],
  ['AvailabilityResponse', 'date-time with zone', 'pickupDateTime', '2030-03-01T09:00Z', 'pickupDateTime', /must match the pattern/],
  ['FleetList', 'negative count', 'count', -1, 'count', 'must be at least 0'],
  ['FleetList', 'a vehicle broken', 'vehicles.0.status', 'x', 'vehicles[0].status', 'must be "available"'],
  ['LocationList', 'missing count', 'count', REMOVE, 'count', 'is required'],
  ['RateList', 'a plan broken', 'rates.0.status', 'pending', 'rates[0].status', 'must be "active"'],
  ['ReservationList', 'limit 0', 'limit', 0, 'limit', 'must be at least 1'],
  ['ReservationList', 'limit 101', 'limit', 101, 'limit', 'must be at most 100'],
  ['TokenRequest', 'missing grant_type', 'grant_type', REMOVE, 'grant_type', 'is required'],
  ['TokenRequest', 'grant_type not a string', 'grant_type', 5, 'grant_type', 'must be a string'],
  ['TokenResponse', 'lower-case token type', 'token_type', 'bearer', 'token_type', 'must be "Bearer"'],
  ['TokenResponse', 'other lifetime', 'expires_in', 3600, 'expires_in', 'must be 600'],
  ['TokenResponse', 'refresh token', 'refresh_token', 'r', 'refresh_token', 'is not an allowed property'],
  ['OAuthError', 'missing error_description', 'error_description', REMOVE, 'error_description', 'is required'],
  ['OAuthError', 'unknown key', 'error_uri', 'x', 'error_uri', 'is not an allowed property'],
  ['ErrorEnvelope', 'missing requestId', 'error.requestId', REMOVE, 'error.requestId', 'is required'],
  ['ErrorEnvelope', 'retryable not boolean', 'error.retryable', 'no', 'error.retryable', 'must be a boolean'],
  ['ErrorEnvelope', 'field item not closed', 'error.fields.0.value', 'x', 'error.fields[0].value', 'is not an allowed property'],
  ['ErrorEnvelope', 'unknown key beside error', 'status', 400, 'status', 'is not an allowed property'],
];

describe('invalid values', () => {
  it.each(invalid)('%s: %s', (name, _title, path, next, field, message) => {
    const result = validate(name, withChange(validExample(name), path, next));
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.fields).toContainEqual({ field, message: expect.stringMatching(asRegExp(message)) });
  });

  it('covers every schema with at least one invalid case', () => {
    const covered = new Set(invalid.map(([name]) => name));
    expect(SCHEMA_NAMES.filter((name) => !covered.has(name))).toEqual([]);
  });
});

function asRegExp(message: string | RegExp): RegExp {
  return typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message;
}
