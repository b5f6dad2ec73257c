import { LIMITS } from '../limits.ts';
import {
  closedObject,
  closedObjectAllRequired,
  currency,
  type JsonSchema,
  nullableInteger,
  nullableString,
  PATTERNS,
  quoteId,
  RESERVATION_STATUSES,
  ref,
  refOrNull,
} from './building-blocks.ts';

export const Driver = closedObject(
  {
    title: { type: 'string', enum: ['mr', 'mrs', 'ms', 'dr'] },
    firstName: { type: 'string', minLength: 1, maxLength: 100 },
    lastName: { type: 'string', minLength: 1, maxLength: 100 },
    email: { type: 'string', format: 'email', maxLength: 200 },
    phone: {
      type: 'string',
      pattern: PATTERNS.e164Phone,
      minLength: 5,
      maxLength: 20,
      description: 'E.164 with country code',
    },
    dateOfBirth: {
      type: 'string',
      format: 'date',
      description: 'the driver must be 18 or over, enforced server-side',
    },
    nationality: {
      type: 'string',
      pattern: PATTERNS.nationality,
      description: 'ISO 3166-1 alpha-2; never inferred',
    },
    idNumber: { type: 'string', maxLength: 50 },
  },
  ['firstName', 'lastName', 'email', 'phone', 'dateOfBirth'],
  { description: 'Spec 2.10 Driver (request object).' },
);

const partnerReference = {
  type: 'string',
  maxLength: LIMITS.partnerReferenceMaxLength,
  description: 'unique per partner; one reference is one rental, permanently (4.7)',
} as const satisfies JsonSchema;

export const Reservation = closedObjectAllRequired(
  {
    reservationId: { type: 'string' },
    // Echoes the request's partnerReference, so it holds the request's length bound.
    partnerReference: { ...partnerReference, type: ['string', 'null'] },
    rocketBookingCode: {
      type: 'string',
      description: 'the confirmation number the traveller quotes at the rental desk',
    },
    status: { type: 'string', enum: [...RESERVATION_STATUSES] },
    vehicleCode: nullableString,
    pickupLocation: nullableString,
    dropoffLocation: nullableString,
    pickupDateTime: nullableString,
    dropoffDateTime: nullableString,
    rentalDays: nullableInteger,
    currency,
    total: {
      ...ref('Money'),
      description: 'billed to the partner; frozen at booking time; equals the quote booked from',
    },
    commission: { ...refOrNull('Money'), description: 'null unless commissionable' },
    securityDeposit: ref('Money'),
    driver: {
      ...closedObjectAllRequired({ firstName: nullableString, lastName: nullableString, email: nullableString }),
      description: 'no other customer data is returned',
    },
    accountCode: nullableString,
    rateCode: nullableString,
    createdAt: { type: 'string' },
  },
  { description: 'Spec 2.11 Reservation: created confirmed, with no online payment.' },
);

export const ReservationRequest = closedObject(
  {
    quoteId: { ...quoteId, description: 'from an availability offer or a quote; treated as opaque' },
    driver: ref('Driver'),
    partnerReference,
    remarks: { type: 'string', maxLength: LIMITS.remarksMaxLength },
    flightNumber: { type: 'string', maxLength: LIMITS.flightNumberMaxLength },
  },
  ['quoteId', 'driver'],
  { description: 'Spec 2.12 ReservationRequest (POST /reservations, spec 4.7).' },
);

export const CancelRequest = closedObjectAllRequired(
  {
    reason: { type: 'string', minLength: LIMITS.cancelReasonLength.min, maxLength: LIMITS.cancelReasonLength.max },
  },
  { description: 'Spec 2.12 CancelRequest (POST /reservations/{reservationId}/cancel, spec 4.11).' },
);

export const ReservationList = closedObjectAllRequired(
  {
    reservations: { type: 'array', items: ref('Reservation'), description: 'newest first' },
    count: { type: 'integer', minimum: 0 },
    limit: {
      type: 'integer',
      minimum: LIMITS.reservationListLimit.min,
      maximum: LIMITS.reservationListLimit.max,
    },
  },
  { description: 'Spec 2.12 ReservationList (GET /reservations, spec 4.8).' },
);
