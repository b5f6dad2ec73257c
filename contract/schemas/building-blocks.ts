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
  /**
   * Spec 2.9, 2.12: local date-time without an offset; seconds and a fraction of them are optional (ISO 8601 writes
   * 10:00, 10:00:00 and 10:00:00.000 alike: a JavaScript or .NET server writes the fraction).
   */
  localDateTime: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?$',
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

/** Spec 2.11: reservation status values, shared by the Reservation schema, the list filter and the test hooks. */
export const RESERVATION_STATUSES = [
  'pending',
  'confirmed',
  'in_progress',
  'completed',
  'cancelled',
  'expired',
  'rejected',
] as const;

/*
 * The helpers below keep the literal type of what they build (const type parameters, `as const`): contract/types.ts
 * derives the TypeScript types from these schema values, so a keyword widened to `string` here would turn a derived
 * type to `unknown` or lose a literal union.
 */

/** A reference to another schema of the bundle. */
export function ref<const N extends SchemaName>(name: N): { readonly $ref: `#/$defs/${N}` } {
  return { $ref: `#/$defs/${name}` };
}

/** `T|null` for a referenced object (spec 2 conventions): the key stays required, the value may be null. */
export function refOrNull<const N extends SchemaName>(
  name: N,
): { readonly anyOf: readonly [{ readonly $ref: `#/$defs/${N}` }, { readonly type: 'null' }] } {
  return { anyOf: [ref(name), { type: 'null' }] };
}

export const nullableString = { type: ['string', 'null'] } as const satisfies JsonSchema;
export const nullableInteger = { type: ['integer', 'null'] } as const satisfies JsonSchema;
export const currency = { type: 'string', pattern: PATTERNS.currency } as const satisfies JsonSchema;
export const localDateTime = { type: 'string', pattern: PATTERNS.localDateTime } as const satisfies JsonSchema;
/**
 * Spec 2.2 and 2.12: quoteId is opaque, 8 to 4096 characters in a reservation request. Offers and quotes hold
 * the same bounds because their quoteId must be usable in reservation creation (2.8).
 */
export const quoteId = {
  type: 'string',
  minLength: LIMITS.quoteIdLength.min,
  maxLength: LIMITS.quoteIdLength.max,
} as const satisfies JsonSchema;
export const stringArray = { type: 'array', items: { type: 'string' } } as const satisfies JsonSchema;

/** The shape `closedObject` builds, flattened so that hovers and derived types show one object. */
export type ClosedObject<P, R, E> = {
  readonly [K in keyof E | 'type' | 'properties' | 'required' | 'additionalProperties']: K extends 'type'
    ? 'object'
    : K extends 'properties'
      ? P
      : K extends 'required'
        ? R
        : K extends 'additionalProperties'
          ? false
          : K extends keyof E
            ? E[K]
            : never;
};

/**
 * A closed object (spec 2 conventions: objects are closed unless stated). `required` may name only declared
 * properties, so a renamed property cannot leave a stale required key behind.
 */
export function closedObject<
  const P extends { readonly [key: string]: JsonSchema },
  const R extends readonly (keyof P & string)[],
  const E extends JsonSchema = Record<never, never>,
>(properties: P, required: R, extra?: E): ClosedObject<P, R, NoInfer<E>> {
  return {
    type: 'object',
    ...(extra ?? {}),
    properties,
    required: [...required],
    additionalProperties: false,
  } as unknown as ClosedObject<P, R, NoInfer<E>>;
}

/**
 * A closed object whose every property is required (most objects of spec 2): the required list is the property
 * list, in the same order, so the keys are written once.
 */
export function closedObjectAllRequired<
  const P extends { readonly [key: string]: JsonSchema },
  const E extends JsonSchema = Record<never, never>,
>(properties: P, extra?: E): ClosedObject<P, readonly (keyof P & string)[], NoInfer<E>> {
  return closedObject(properties, Object.keys(properties) as (keyof P & string)[], extra);
}
