import { ErrorEnvelope, OAuthError, TokenRequest, TokenResponse } from './auth-and-errors.ts';
import type { JsonSchema } from './building-blocks.ts';
import { FleetList, FleetVehicle, Location, LocationList, RateList, RatePlan } from './listings.ts';
import { CommercialCode, LocationCode, Money, SippCode, VehicleCode } from './money-and-codes.ts';
import type { SchemaName } from './names.ts';
import { CancelRequest, Driver, Reservation, ReservationList, ReservationRequest } from './reservations.ts';
import {
  AvailabilityOffer,
  AvailabilityRequest,
  AvailabilityResponse,
  ExtraLine,
  Extras,
  Quote,
  QuoteRequest,
  RentalWindow,
} from './shopping.ts';

export type { JsonSchema } from './building-blocks.ts';
export { PATTERNS } from './building-blocks.ts';
export { SCHEMA_NAMES, type SchemaName } from './names.ts';

export const SCHEMA_BUNDLE_ID = 'https://partner-api.invalid/schemas/v1';

/** Every schema of the contract in one JSON Schema 2020-12 document; cross references are `#/$defs/<name>`. */
export const SCHEMA_BUNDLE = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: SCHEMA_BUNDLE_ID,
  $defs: {
    Money,
    VehicleCode,
    LocationCode,
    CommercialCode,
    SippCode,
    Extras,
    RentalWindow,
    FleetVehicle,
    Location,
    RatePlan,
    AvailabilityOffer,
    ExtraLine,
    Quote,
    Driver,
    Reservation,
    ReservationRequest,
    CancelRequest,
    AvailabilityRequest,
    QuoteRequest,
    AvailabilityResponse,
    FleetList,
    LocationList,
    RateList,
    ReservationList,
    TokenRequest,
    TokenResponse,
    OAuthError,
    ErrorEnvelope,
  } satisfies Record<SchemaName, JsonSchema>,
} as const;

/** The absolute URI of one schema of the bundle, as Ajv and other resolvers address it. */
export function schemaId(name: SchemaName): string {
  return `${SCHEMA_BUNDLE_ID}#/$defs/${name}`;
}
