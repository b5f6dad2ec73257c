/** Every schema of the bundle: the objects of spec 2, the request and list shapes of 2.12, and 4.1, 7.1, 7.2. */
export const SCHEMA_NAMES = [
  'Money',
  'VehicleCode',
  'LocationCode',
  'CommercialCode',
  'SippCode',
  'Extras',
  'RentalWindow',
  'FleetVehicle',
  'Location',
  'RatePlan',
  'AvailabilityOffer',
  'ExtraLine',
  'Quote',
  'Driver',
  'Reservation',
  'ReservationRequest',
  'CancelRequest',
  'AvailabilityRequest',
  'QuoteRequest',
  'AvailabilityResponse',
  'FleetList',
  'LocationList',
  'RateList',
  'ReservationList',
  'TokenRequest',
  'TokenResponse',
  'OAuthError',
  'ErrorEnvelope',
] as const;

export type SchemaName = (typeof SCHEMA_NAMES)[number];

export function isSchemaName(value: string): value is SchemaName {
  return (SCHEMA_NAMES as readonly string[]).includes(value);
}
