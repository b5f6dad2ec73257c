import { LIMITS } from '../limits.ts';
import {
  closedObject,
  closedObjectAllRequired,
  currency,
  type JsonSchema,
  localDateTime,
  nullableString,
  PATTERNS,
  quoteId,
  RATE_TYPES,
  ref,
  refOrNull,
  stringArray,
} from './building-blocks.ts';

export const Extras = {
  description:
    'Spec 2.3 Extras: all optional; fullProtection supersedes cdwInsurance, and sending both is a validation error (4.12).',
  type: 'object',
  properties: {
    cdwInsurance: { type: 'boolean' },
    fullProtection: { type: 'boolean' },
    additionalDriver: { type: 'boolean' },
    roadSideAssistance: { type: 'boolean' },
    childSeats: { type: 'integer', minimum: LIMITS.childSeats.min, maximum: LIMITS.childSeats.max },
  },
  additionalProperties: false,
  // The properties are restated inside `not` only to satisfy Ajv's strictRequired; they add no constraint.
  not: { properties: { cdwInsurance: true, fullProtection: true }, required: ['cdwInsurance', 'fullProtection'] },
} as const satisfies JsonSchema;

const RENTAL_WINDOW_REQUIRED = [
  'pickupLocation',
  'dropoffLocation',
  'pickupDate',
  'pickupTime',
  'dropoffDate',
  'dropoffTime',
] as const;

/** Spec 2.4, restated in each request so each stays a plain closed object (2.12) without composition. */
const rentalWindowProperties = {
  pickupLocation: ref('LocationCode'),
  dropoffLocation: ref('LocationCode'),
  pickupDate: { type: 'string', format: 'date', description: 'calendar date local to the pickup location' },
  pickupTime: { type: 'string', pattern: PATTERNS.localTime, description: '24-hour local time at pickup' },
  dropoffDate: { type: 'string', format: 'date' },
  dropoffTime: { type: 'string', pattern: PATTERNS.localTime },
  accountCode: { ...ref('CommercialCode'), description: 'omit for the public rate' },
  rateCode: { ...ref('CommercialCode'), description: 'omit for the public rate' },
} as const satisfies Record<string, JsonSchema>;

export const RentalWindow = closedObject(rentalWindowProperties, RENTAL_WINDOW_REQUIRED, {
  description:
    'Spec 2.4 RentalWindow: shared by availability and quote requests; local dates and times are in the IANA timezone of the location.',
});

export const AvailabilityRequest = closedObject(
  {
    ...rentalWindowProperties,
    extras: ref('Extras'),
    vehicleCodes: {
      type: 'array',
      items: ref('VehicleCode'),
      maxItems: LIMITS.vehicleCodesMaxItems,
      description: 'omit for the whole offerable fleet',
    },
  },
  RENTAL_WINDOW_REQUIRED,
  { description: 'Spec 2.12 AvailabilityRequest (POST /availability, spec 4.5): RentalWindow fields plus extras.' },
);

export const QuoteRequest = closedObject(
  { ...rentalWindowProperties, vehicleCode: ref('VehicleCode'), extras: ref('Extras') },
  [...RENTAL_WINDOW_REQUIRED, 'vehicleCode'],
  { description: 'Spec 2.12 QuoteRequest (POST /quotes, spec 4.6): RentalWindow fields plus vehicleCode and extras.' },
);

export const AvailabilityOffer = closedObjectAllRequired(
  {
    quoteId: { ...quoteId, description: 'usable in reservation creation; valid 30 minutes' },
    quoteExpiresAt: { type: 'string', format: 'date-time' },
    vehicle: ref('FleetVehicle'),
    rentalDays: { type: 'integer', minimum: 1 },
    dailyRate: ref('Money'),
    estimatedTotal: ref('Money'),
    currency,
  },
  { description: 'Spec 2.8 AvailabilityOffer: no hold is placed.' },
);

export const AvailabilityResponse = closedObjectAllRequired(
  {
    availabilityModel: { const: 'model_level_on_request', description: 'restated on every response (spec 1.1)' },
    pickupLocation: ref('LocationCode'),
    dropoffLocation: ref('LocationCode'),
    pickupDateTime: localDateTime,
    dropoffDateTime: localDateTime,
    rentalDays: { type: 'integer', minimum: 1 },
    accountCode: nullableString,
    rateCode: nullableString,
    offers: { type: 'array', items: ref('AvailabilityOffer'), description: 'an empty array is a valid answer' },
  },
  { description: 'Spec 2.12 AvailabilityResponse (POST /availability, spec 4.5).' },
);

export const ExtraLine = closedObjectAllRequired(
  { code: { type: 'string' }, description: { type: 'string' }, quantity: { type: 'integer' }, total: ref('Money') },
  { description: 'Spec 2.9 ExtraLine: one priced extra of a quote.' },
);

export const Quote = closedObjectAllRequired(
  {
    quoteId,
    expiresAt: { type: 'string', format: 'date-time', description: 'quotes are valid 30 minutes' },
    currency,
    vehicle: ref('FleetVehicle'),
    rental: closedObjectAllRequired({
      pickupLocation: ref('LocationCode'),
      dropoffLocation: ref('LocationCode'),
      pickupDateTime: localDateTime,
      dropoffDateTime: localDateTime,
      rentalDays: { type: 'integer', minimum: 1 },
      timezone: { type: 'string' },
    }),
    rate: closedObjectAllRequired({
      accountCode: nullableString,
      rateCode: nullableString,
      rateType: { type: 'string', enum: [...RATE_TYPES] },
      adjustmentApplied: {
        type: 'boolean',
        description: 'an approved partner-specific adjustment moved the price off the public price',
      },
    }),
    charges: closedObjectAllRequired({
      dailyRate: ref('Money'),
      baseTotal: { ...ref('Money'), description: 'rental days times the daily rate, before extras and fees' },
      extras: { type: 'array', items: ref('ExtraLine') },
      extrasTotal: ref('Money'),
      oneWayFee: { ...ref('Money'), description: 'charged across branches, zero otherwise' },
      discount: ref('Money'),
      total: { ...ref('Money'), description: 'payable for the rental; excludes the security deposit' },
      commission: { ...refOrNull('Money'), description: 'owed to the partner; null unless commissionable' },
    }),
    securityDeposit: ref('Money'),
    payment: closedObjectAllRequired({
      model: { const: 'settled_with_partner' },
      prepaymentRequired: ref('Money'),
      dueAtPickup: ref('Money'),
    }),
    inclusions: stringArray,
    exclusions: stringArray,
  },
  { description: 'Spec 2.9 Quote (POST /quotes, spec 4.6): server-authoritative, with the full charge breakdown.' },
);
