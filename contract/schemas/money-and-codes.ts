import { closedObjectAllRequired, type JsonSchema, PATTERNS } from './building-blocks.ts';

export const Money = closedObjectAllRequired(
  {
    currency: { type: 'string', pattern: PATTERNS.currency, description: 'ISO 4217' },
    amount: { type: 'integer', description: 'integer minor units, never decimal or float' },
    exponent: { type: 'integer', minimum: 0, maximum: 4, description: 'decimal places of the minor unit' },
    display: { type: 'string', description: 'rendering for humans only; never parsed as authoritative' },
  },
  { description: 'Spec 2.1 Money: arithmetic uses amount and exponent.' },
);

export const VehicleCode = {
  description: 'Spec 2.2 VehicleCode: permanent per car model.',
  type: 'string',
  pattern: PATTERNS.vehicleCode,
} as const satisfies JsonSchema;

export const LocationCode = {
  description: 'Spec 2.2 LocationCode: own namespace; not an IATA code and not the partner code.',
  type: 'string',
  pattern: PATTERNS.locationCode,
} as const satisfies JsonSchema;

export const CommercialCode = {
  description: 'Spec 2.2 CommercialCode (accountCode, rateCode).',
  type: 'string',
  pattern: PATTERNS.commercialCode,
} as const satisfies JsonSchema;

export const SippCode = {
  description: 'Spec 2.2 SippCode: SIPP (ACRISS) code; null only on an unpublished vehicle.',
  type: ['string', 'null'],
  pattern: PATTERNS.sippCode,
} as const satisfies JsonSchema;
