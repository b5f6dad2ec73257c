import { LIMITS } from '../limits.ts';
import type { SchemaName } from './names.ts';

/** A JSON Schema 2020-12 object, kept as plain data so it can be serialised into the bundle and OpenAPI. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** Patterns the spec states in more than one place. */
export const PATTERNS = {
  /** Spec 2.1, 2.7, 2.8, 2.9, 2.11: ISO 4217 currency. */
  currency: '^[A-Z]{3}$',
  /** Spec 2.2 */
  vehicleCode: '^[A-Z0-9-]{2,32}$',
  locationCode: '^[A-Z0-9-]{2,32}$',
  commercialCode: '^[A-Z0-9_-]{1,32}$',
  sippCode: '^[A-Z]{4}$',
  /** Spec 2.4: 24-hour local time at the location. */
  localTime: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  /** Spec 2.9, 2.12: local date-time without an offset. */
  localDateTime: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?$',
  /** Spec 2.6 */
  countryCode: '^[A-Z]{2}$',
  iataCode: '^[A-Z]{3}$',
  /** Spec 2.10: E.164 with country code. */
  e164Phone: '^\\+[1-9][0-9]{3,14}$',
  /** Spec 2.10: ISO 3166-1 alpha-2, either case. */
  nationality: '^[A-Za-z]{2}$',
} as const;

/** Spec 2.7: rateType values, shared by rate plans and quotes (2.9). */
export const RATE_TYPES = ['retail', 'net', 'commissionable', 'corporate', 'promotional'] as const;

/** A reference to another schema of the bundle. */
export function ref(name: SchemaName): JsonSchema {
  return { $ref: `#/$defs/${name}` };
}

/** `T|null` for a referenced object (spec 2 conventions): the key stays required, the value may be null. */
export function refOrNull(name: SchemaName): JsonSchema {
  return { anyOf: [ref(name), { type: 'null' }] };
}

export const nullableString: JsonSchema = { type: ['string', 'null'] };
export const nullableInteger: JsonSchema = { type: ['integer', 'null'] };
export const currency: JsonSchema = { type: 'string', pattern: PATTERNS.currency };
export const localDateTime: JsonSchema = { type: 'string', pattern: PATTERNS.localDateTime };
/**
 * Spec 2.2 and 2.12: quoteId is opaque, 8 to 4096 characters in a reservation request. Offers and quotes hold
 * the same bounds because their quoteId must be usable in reservation creation (2.8).
 */
export const quoteId: JsonSchema = {
  type: 'string',
  minLength: LIMITS.quoteIdLength.min,
  maxLength: LIMITS.quoteIdLength.max,
};
export const stringArray: JsonSchema = { type: 'array', items: { type: 'string' } };

/** A closed object (spec 2 conventions: objects are closed unless stated). */
export function closedObject(
  properties: Record<string, JsonSchema>,
  required: readonly string[],
  extra: Record<string, unknown> = {},
): JsonSchema {
  return { type: 'object', ...extra, properties, required: [...required], additionalProperties: false };
}
