import {
  closedObject,
  closedObjectAllRequired,
  currency,
  nullableInteger,
  nullableString,
  PATTERNS,
  RATE_TYPES,
  ref,
  refOrNull,
  stringArray,
} from './building-blocks.ts';

export const FleetVehicle = closedObject(
  {
    vehicleCode: ref('VehicleCode'),
    sippCode: ref('SippCode'),
    sippDescription: nullableString,
    make: { type: 'string' },
    model: { type: 'string' },
    displayName: { type: 'string' },
    rocketClass: { ...nullableString, description: 'internal class label; informational' },
    rocketCategory: { ...nullableString, description: 'marketing category; informational' },
    bodyType: nullableString,
    maxPassengers: { ...nullableInteger, minimum: 1, maximum: 16 },
    doors: { ...nullableInteger, minimum: 2, maximum: 6 },
    airConditioning: { type: ['boolean', 'null'] },
    transmission: { type: ['string', 'null'], enum: ['automatic', 'manual', null] },
    driveType: { type: ['string', 'null'], enum: ['fwd', 'rwd', 'awd', '4wd', null] },
    fuelType: { type: ['string', 'null'], enum: ['gasoline', 'diesel', 'electric', 'hybrid', null] },
    baggage: {
      type: ['object', 'null'],
      properties: { large: nullableInteger, small: nullableInteger },
      required: ['large', 'small'],
      additionalProperties: false,
    },
    minDriverAge: nullableInteger,
    securityDeposit: {
      ...ref('Money'),
      description: 'refundable, collected at pickup, not part of the rental charge',
    },
    mileagePolicy: closedObjectAllRequired({
      includedKmPerDay: { ...nullableInteger, description: 'per rental day; null means no stored limit' },
      excessFeePerKm: { ...refOrNull('Money'), description: 'per km beyond the allowance; quoted in VND' },
    }),
    images: { type: 'array', items: { type: 'string', format: 'uri' } },
    locationCodes: { type: 'array', items: ref('LocationCode'), description: 'where the vehicle is offered' },
    status: { const: 'available' },
    dataQuality: closedObjectAllRequired({
      status: { type: 'string', enum: ['incomplete', 'complete_unverified', 'verified'] },
      missingFields: stringArray,
    }),
  },
  [
    'vehicleCode',
    'sippCode',
    'make',
    'model',
    'displayName',
    'maxPassengers',
    'doors',
    'airConditioning',
    'transmission',
    'fuelType',
    'securityDeposit',
    'mileagePolicy',
    'images',
    'locationCodes',
    'status',
    'dataQuality',
  ],
  { description: 'Spec 2.5 FleetVehicle: a published vehicle with a complete partner specification.' },
);

export const Location = closedObject(
  {
    locationCode: ref('LocationCode'),
    name: { type: 'string' },
    nameLocal: nullableString,
    locationType: { type: 'string', enum: ['city', 'airport'] },
    countryCode: { type: 'string', pattern: PATTERNS.countryCode },
    city: { type: 'string' },
    address: nullableString,
    coordinates: {
      type: ['object', 'null'],
      properties: { latitude: { type: 'number' }, longitude: { type: 'number' } },
      required: ['latitude', 'longitude'],
      additionalProperties: false,
    },
    timezone: { type: 'string', description: 'IANA zone' },
    iataCode: {
      type: ['string', 'null'],
      pattern: PATTERNS.iataCode,
      description: 'only on airport locations; a different namespace from locationCode',
    },
    capabilities: closedObjectAllRequired({
      pickup: { type: 'boolean' },
      dropoff: { type: 'boolean' },
      oneWay: { type: 'boolean' },
      delivery: { type: 'boolean' },
    }),
    openingHours: nullableString,
    afterHoursPolicy: nullableString,
    branchCode: { type: 'string', description: 'fleet coverage and one-way fees are branch-scoped' },
  },
  ['locationCode', 'name', 'locationType', 'countryCode', 'city', 'timezone', 'iataCode', 'capabilities', 'branchCode'],
  {
    description: 'Spec 2.6 Location: iataCode is null unless locationType is airport.',
    if: { properties: { locationType: { const: 'airport' } }, required: ['locationType'] },
    else: { properties: { iataCode: { type: 'null' } } },
  },
);

export const RatePlan = closedObject(
  {
    accountCode: ref('CommercialCode'),
    rateCode: ref('CommercialCode'),
    rateType: { type: 'string', enum: [...RATE_TYPES] },
    currency,
    validFrom: { type: ['string', 'null'], format: 'date' },
    validTo: { type: ['string', 'null'], format: 'date' },
    status: { const: 'active' },
  },
  ['accountCode', 'rateCode', 'rateType', 'currency', 'status'],
  { description: "Spec 2.7 rate plan: one of the caller's approved and activated codes." },
);

export const FleetList = closedObjectAllRequired(
  { vehicles: { type: 'array', items: ref('FleetVehicle') }, count: { type: 'integer', minimum: 0 } },
  { description: 'Spec 2.12 FleetList (GET /fleet, spec 4.2).' },
);

export const LocationList = closedObjectAllRequired(
  { locations: { type: 'array', items: ref('Location') }, count: { type: 'integer', minimum: 0 } },
  { description: 'Spec 2.12 LocationList (GET /locations, spec 4.3).' },
);

export const RateList = closedObjectAllRequired(
  { rates: { type: 'array', items: ref('RatePlan') }, count: { type: 'integer', minimum: 0 } },
  { description: 'Spec 2.12 RateList (GET /rates, spec 4.4); empty when no commercial terms are agreed.' },
);
