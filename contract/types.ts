/**
 * TypeScript shapes of the resources of spec section 2, the request and list shapes of 2.12, and 4.1, 7.1, 7.2.
 *
 * Derived, never written by hand: each type is `FromSchema` (json-schema-to-ts) of its schema in the bundle, so the
 * JSON Schemas that judge responses at run time and the types the code is checked against cannot drift. A generated
 * file (json-schema-to-typescript) was the other way; it was not taken because it needs a generator step and a
 * staleness test, while FromSchema costs only type-checking time. That holds because the helpers of
 * schemas/building-blocks.ts keep their literal types. contract/vocabulary.test.ts keeps every name here declared
 * once, and only as a derived type.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { SCHEMA_BUNDLE, SchemaName } from './schemas/index.ts';

export { RESERVATION_STATUSES } from './schemas/building-blocks.ts';

/** The bundle is the root, so each `#/$defs/<name>` reference inside the schema resolves as Ajv resolves it. */
type FromBundle<N extends SchemaName> = FromSchema<{
  readonly $defs: (typeof SCHEMA_BUNDLE)['$defs'];
  readonly $ref: `#/$defs/${N}`;
}>;

/** Spec 2.1 */
export type Money = FromBundle<'Money'>;
/** Spec 2.3 */
export type Extras = FromBundle<'Extras'>;
/** Spec 2.4 */
export type RentalWindow = FromBundle<'RentalWindow'>;
/** Spec 2.5 */
export type FleetVehicle = FromBundle<'FleetVehicle'>;
/** Spec 2.6 */
export type Location = FromBundle<'Location'>;
/** Spec 2.7 */
export type RatePlan = FromBundle<'RatePlan'>;
export type RateType = RatePlan['rateType'];
/** Spec 2.8 */
export type AvailabilityOffer = FromBundle<'AvailabilityOffer'>;
/** Spec 2.9 */
export type ExtraLine = FromBundle<'ExtraLine'>;
/** Spec 2.9 */
export type Quote = FromBundle<'Quote'>;
/** Spec 2.10 */
export type Driver = FromBundle<'Driver'>;
/** Spec 2.11 */
export type Reservation = FromBundle<'Reservation'>;
export type ReservationStatus = Reservation['status'];
/** Spec 2.12 */
export type ReservationRequest = FromBundle<'ReservationRequest'>;
/** Spec 2.12 */
export type CancelRequest = FromBundle<'CancelRequest'>;
/** Spec 2.12 */
export type AvailabilityRequest = FromBundle<'AvailabilityRequest'>;
/** Spec 2.12 */
export type QuoteRequest = FromBundle<'QuoteRequest'>;
/** Spec 2.12 */
export type AvailabilityResponse = FromBundle<'AvailabilityResponse'>;
/** Spec 2.12 */
export type FleetList = FromBundle<'FleetList'>;
/** Spec 2.12 */
export type LocationList = FromBundle<'LocationList'>;
/** Spec 2.12 */
export type RateList = FromBundle<'RateList'>;
/** Spec 2.12 */
export type ReservationList = FromBundle<'ReservationList'>;
/** Spec 4.1 */
export type TokenResponse = FromBundle<'TokenResponse'>;
/** Spec 7.1 */
export type OAuthError = FromBundle<'OAuthError'>;
/** Spec 7.2 */
export type ErrorEnvelope = FromBundle<'ErrorEnvelope'>;
/** Spec 7.2 */
export type FieldError = NonNullable<ErrorEnvelope['error']['fields']>[number];

/** The JSON-shaped value both representations convert to (spec 4.14). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
