/**
 * One valid value of every schema of the bundle, built from the spec's own field tables. Tests start from these
 * and break one thing at a time; generators may use them as seeds. Each call returns a fresh copy.
 */
import type {
  AvailabilityOffer,
  AvailabilityRequest,
  AvailabilityResponse,
  CancelRequest,
  Driver,
  ErrorEnvelope,
  ExtraLine,
  Extras,
  FleetList,
  FleetVehicle,
  Location,
  LocationList,
  Money,
  OAuthError,
  Quote,
  QuoteRequest,
  RateList,
  RatePlan,
  RentalWindow,
  Reservation,
  ReservationList,
  ReservationRequest,
  TokenResponse,
} from '../types.ts';
import type { SchemaName } from './names.ts';

const vnd = (amount: number): Money => ({
  currency: 'VND',
  amount,
  exponent: 0,
  display: `${amount.toLocaleString('en-US')} ₫`,
});

function fleetVehicle(): FleetVehicle {
  return {
    vehicleCode: 'VF8-ECO',
    sippCode: 'SFAE',
    sippDescription: 'Standard, SUV, automatic, electric',
    make: 'VinFast',
    model: 'VF 8',
    displayName: 'VinFast VF 8 Eco',
    rocketClass: null,
    rocketCategory: 'SUV',
    bodyType: 'suv',
    maxPassengers: 5,
    doors: 5,
    airConditioning: true,
    transmission: 'automatic',
    driveType: 'awd',
    fuelType: 'electric',
    baggage: { large: 2, small: 2 },
    minDriverAge: 21,
    securityDeposit: vnd(15_000_000),
    mileagePolicy: { includedKmPerDay: 300, excessFeePerKm: vnd(5_000) },
    images: ['https://images.partner-api.invalid/vf8.jpg'],
    locationCodes: ['SGN-AIRPORT', 'HCM-D1'],
    status: 'available',
    dataQuality: { status: 'verified', missingFields: [] },
  };
}

function location(): Location {
  return {
    locationCode: 'SGN-AIRPORT',
    name: 'Tan Son Nhat Airport',
    nameLocal: 'Sân bay Tân Sơn Nhất',
    locationType: 'airport',
    countryCode: 'VN',
    city: 'Ho Chi Minh City',
    address: null,
    coordinates: { latitude: 10.8188, longitude: 106.6519 },
    timezone: 'Asia/Ho_Chi_Minh',
    iataCode: 'SGN',
    capabilities: { pickup: true, dropoff: true, oneWay: true, delivery: false },
    openingHours: '06:00-23:00',
    afterHoursPolicy: null,
    branchCode: 'HCM',
  };
}

function ratePlan(): RatePlan {
  return {
    accountCode: 'ACME',
    rateCode: 'NET_2025',
    rateType: 'net',
    currency: 'VND',
    validFrom: '2025-01-01',
    validTo: null,
    status: 'active',
  };
}

function rentalWindow(): RentalWindow {
  return {
    pickupLocation: 'SGN-AIRPORT',
    dropoffLocation: 'HCM-D1',
    pickupDate: '2030-03-01',
    pickupTime: '09:00',
    dropoffDate: '2030-03-04',
    dropoffTime: '18:30',
  };
}

function extras(): Extras {
  return { fullProtection: true, additionalDriver: false, roadSideAssistance: true, childSeats: 2 };
}

const QUOTE_ID = 'q_9f2c1e7a.example-opaque-token';

function availabilityOffer(): AvailabilityOffer {
  return {
    quoteId: QUOTE_ID,
    quoteExpiresAt: '2030-02-01T10:30:00Z',
    vehicle: fleetVehicle(),
    rentalDays: 4,
    dailyRate: vnd(1_200_000),
    estimatedTotal: vnd(4_800_000),
    currency: 'VND',
  };
}

function extraLine(): ExtraLine {
  return { code: 'CHILD_SEAT', description: 'Child seat', quantity: 2, total: vnd(400_000) };
}

function quote(): Quote {
  return {
    quoteId: QUOTE_ID,
    expiresAt: '2030-02-01T10:30:00+07:00',
    currency: 'VND',
    vehicle: fleetVehicle(),
    rental: {
      pickupLocation: 'SGN-AIRPORT',
      dropoffLocation: 'HCM-D1',
      pickupDateTime: '2030-03-01T09:00',
      dropoffDateTime: '2030-03-04T18:30:00',
      rentalDays: 4,
      timezone: 'Asia/Ho_Chi_Minh',
    },
    rate: { accountCode: null, rateCode: null, rateType: 'retail', adjustmentApplied: false },
    charges: {
      dailyRate: vnd(1_200_000),
      baseTotal: vnd(4_800_000),
      extras: [extraLine()],
      extrasTotal: vnd(400_000),
      oneWayFee: vnd(0),
      discount: vnd(0),
      total: vnd(5_200_000),
      commission: null,
    },
    securityDeposit: vnd(15_000_000),
    payment: { model: 'settled_with_partner', prepaymentRequired: vnd(0), dueAtPickup: vnd(0) },
    inclusions: ['Basic third-party liability'],
    exclusions: ['Fuel'],
  };
}

function driver(): Driver {
  return {
    title: 'ms',
    firstName: 'Lan',
    lastName: 'Nguyen',
    email: 'lan.nguyen@example.com',
    phone: '+84901234567',
    dateOfBirth: '1990-05-17',
    nationality: 'vn',
    idNumber: 'B1234567',
  };
}

function reservation(): Reservation {
  return {
    reservationId: 'res_01HZX',
    partnerReference: 'ACME-000123',
    rocketBookingCode: 'RK-7Q2M9',
    status: 'confirmed',
    vehicleCode: 'VF8-ECO',
    pickupLocation: 'SGN-AIRPORT',
    dropoffLocation: 'HCM-D1',
    pickupDateTime: '2030-03-01T09:00',
    dropoffDateTime: '2030-03-04T18:30',
    rentalDays: 4,
    currency: 'VND',
    total: vnd(5_200_000),
    commission: null,
    securityDeposit: vnd(15_000_000),
    driver: { firstName: 'Lan', lastName: 'Nguyen', email: 'lan.nguyen@example.com' },
    accountCode: null,
    rateCode: null,
    createdAt: '2030-02-01T10:05:00Z',
  };
}

function reservationRequest(): ReservationRequest {
  return {
    quoteId: QUOTE_ID,
    driver: driver(),
    partnerReference: 'ACME-000123',
    remarks: 'Arriving on a late flight',
    flightNumber: 'VN123',
  };
}

function cancelRequest(): CancelRequest {
  return { reason: 'Traveller changed plans' };
}

function availabilityRequest(): AvailabilityRequest {
  return { ...rentalWindow(), accountCode: 'ACME', rateCode: 'NET_2025', extras: extras(), vehicleCodes: ['VF8-ECO'] };
}

function quoteRequest(): QuoteRequest {
  return { ...rentalWindow(), vehicleCode: 'VF8-ECO', extras: { cdwInsurance: true } };
}

function availabilityResponse(): AvailabilityResponse {
  return {
    availabilityModel: 'model_level_on_request',
    pickupLocation: 'SGN-AIRPORT',
    dropoffLocation: 'HCM-D1',
    pickupDateTime: '2030-03-01T09:00',
    dropoffDateTime: '2030-03-04T18:30',
    rentalDays: 4,
    accountCode: null,
    rateCode: null,
    offers: [availabilityOffer()],
  };
}

function fleetList(): FleetList {
  return { vehicles: [fleetVehicle()], count: 1 };
}

function locationList(): LocationList {
  return { locations: [location()], count: 1 };
}

function rateList(): RateList {
  return { rates: [ratePlan()], count: 1 };
}

function reservationList(): ReservationList {
  return { reservations: [reservation()], count: 1, limit: 25 };
}

function tokenResponse(): TokenResponse {
  return { access_token: 'eyJhbGciOiJFUzI1NiJ9.e30.sig', token_type: 'Bearer', expires_in: 600, scope: 'fleet:read' };
}

function oauthError(): OAuthError {
  return { error: 'invalid_client', error_description: 'Client authentication failed.' };
}

function errorEnvelope(): ErrorEnvelope {
  return {
    error: {
      code: 'VALIDATION_ERROR',
      message: 'The request body failed validation.',
      requestId: 'req_123',
      retryable: false,
      fields: [{ field: 'driver.email', message: 'must be a valid email address' }],
    },
  };
}

const BUILDERS: Record<SchemaName, () => unknown> = {
  Money: () => vnd(1_200_000),
  VehicleCode: () => 'VF8-ECO',
  LocationCode: () => 'SGN-AIRPORT',
  CommercialCode: () => 'NET_2025',
  SippCode: () => 'SFAE',
  Extras: extras,
  RentalWindow: rentalWindow,
  FleetVehicle: fleetVehicle,
  Location: location,
  RatePlan: ratePlan,
  AvailabilityOffer: availabilityOffer,
  ExtraLine: extraLine,
  Quote: quote,
  Driver: driver,
  Reservation: reservation,
  ReservationRequest: reservationRequest,
  CancelRequest: cancelRequest,
  AvailabilityRequest: availabilityRequest,
  QuoteRequest: quoteRequest,
  AvailabilityResponse: availabilityResponse,
  FleetList: fleetList,
  LocationList: locationList,
  RateList: rateList,
  ReservationList: reservationList,
  TokenRequest: () => ({ grant_type: 'client_credentials', scope: 'fleet:read locations:read' }),
  TokenResponse: tokenResponse,
  OAuthError: oauthError,
  ErrorEnvelope: errorEnvelope,
};

/** A fresh valid value of the named schema. */
export function validExample(name: SchemaName): unknown {
  return BUILDERS[name]();
}
