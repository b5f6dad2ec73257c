/**
 * TypeScript shapes of the resources of spec section 2 and the request and list shapes of 2.12.
 * The JSON Schemas in `schemas/` are the authority at run time; these types mirror them for code.
 */

/** Spec 2.1 */
export interface Money {
  currency: string;
  amount: number;
  exponent: number;
  display: string;
}

/** Spec 2.3 */
export interface Extras {
  cdwInsurance?: boolean;
  fullProtection?: boolean;
  additionalDriver?: boolean;
  roadSideAssistance?: boolean;
  childSeats?: number;
}

/** Spec 2.4 */
export interface RentalWindow {
  pickupLocation: string;
  dropoffLocation: string;
  pickupDate: string;
  pickupTime: string;
  dropoffDate: string;
  dropoffTime: string;
  accountCode?: string;
  rateCode?: string;
}

export type DataQualityStatus = 'incomplete' | 'complete_unverified' | 'verified';

/** Spec 2.5 */
export interface FleetVehicle {
  vehicleCode: string;
  sippCode: string | null;
  sippDescription?: string | null;
  make: string;
  model: string;
  displayName: string;
  rocketClass?: string | null;
  rocketCategory?: string | null;
  bodyType?: string | null;
  maxPassengers: number | null;
  doors: number | null;
  airConditioning: boolean | null;
  transmission: 'automatic' | 'manual' | null;
  driveType?: 'fwd' | 'rwd' | 'awd' | '4wd' | null;
  fuelType: 'gasoline' | 'diesel' | 'electric' | 'hybrid' | null;
  baggage?: { large: number | null; small: number | null } | null;
  minDriverAge?: number | null;
  securityDeposit: Money;
  mileagePolicy: { includedKmPerDay: number | null; excessFeePerKm: Money | null };
  images: string[];
  locationCodes: string[];
  status: 'available';
  dataQuality: { status: DataQualityStatus; missingFields: string[] };
}

/** Spec 2.6 */
export interface Location {
  locationCode: string;
  name: string;
  nameLocal?: string | null;
  locationType: 'city' | 'airport';
  countryCode: string;
  city: string;
  address?: string | null;
  coordinates?: { latitude: number; longitude: number } | null;
  timezone: string;
  iataCode: string | null;
  capabilities: { pickup: boolean; dropoff: boolean; oneWay: boolean; delivery: boolean };
  openingHours?: string | null;
  afterHoursPolicy?: string | null;
  branchCode: string;
}

export type RateType = 'retail' | 'net' | 'commissionable' | 'corporate' | 'promotional';

/** Spec 2.7 */
export interface RatePlan {
  accountCode: string;
  rateCode: string;
  rateType: RateType;
  currency: string;
  validFrom?: string | null;
  validTo?: string | null;
  status: 'active';
}

/** Spec 2.8 */
export interface AvailabilityOffer {
  quoteId: string;
  quoteExpiresAt: string;
  vehicle: FleetVehicle;
  rentalDays: number;
  dailyRate: Money;
  estimatedTotal: Money;
  currency: string;
}

/** Spec 2.9 */
export interface ExtraLine {
  code: string;
  description: string;
  quantity: number;
  total: Money;
}

/** Spec 2.9 */
export interface Quote {
  quoteId: string;
  expiresAt: string;
  currency: string;
  vehicle: FleetVehicle;
  rental: {
    pickupLocation: string;
    dropoffLocation: string;
    pickupDateTime: string;
    dropoffDateTime: string;
    rentalDays: number;
    timezone: string;
  };
  rate: { accountCode: string | null; rateCode: string | null; rateType: RateType; adjustmentApplied: boolean };
  charges: {
    dailyRate: Money;
    baseTotal: Money;
    extras: ExtraLine[];
    extrasTotal: Money;
    oneWayFee: Money;
    discount: Money;
    total: Money;
    commission: Money | null;
  };
  securityDeposit: Money;
  payment: { model: 'settled_with_partner'; prepaymentRequired: Money; dueAtPickup: Money };
  inclusions: string[];
  exclusions: string[];
}

/** Spec 2.10 */
export interface Driver {
  title?: 'mr' | 'mrs' | 'ms' | 'dr';
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  dateOfBirth: string;
  nationality?: string;
  idNumber?: string;
}

export const RESERVATION_STATUSES = [
  'pending',
  'confirmed',
  'in_progress',
  'completed',
  'cancelled',
  'expired',
  'rejected',
] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** Spec 2.11 */
export interface Reservation {
  reservationId: string;
  partnerReference: string | null;
  rocketBookingCode: string;
  status: ReservationStatus;
  vehicleCode: string | null;
  pickupLocation: string | null;
  dropoffLocation: string | null;
  pickupDateTime: string | null;
  dropoffDateTime: string | null;
  rentalDays: number | null;
  currency: string;
  total: Money;
  commission: Money | null;
  securityDeposit: Money;
  driver: { firstName: string | null; lastName: string | null; email: string | null };
  accountCode: string | null;
  rateCode: string | null;
  createdAt: string;
}

/** Spec 2.12 */
export interface ReservationRequest {
  quoteId: string;
  driver: Driver;
  partnerReference?: string;
  remarks?: string;
  flightNumber?: string;
}

/** Spec 2.12 */
export interface CancelRequest {
  reason: string;
}

/** Spec 2.12 */
export interface AvailabilityRequest extends RentalWindow {
  extras?: Extras;
  vehicleCodes?: string[];
}

/** Spec 2.12 */
export interface QuoteRequest extends RentalWindow {
  vehicleCode: string;
  extras?: Extras;
}

/** Spec 2.12 */
export interface AvailabilityResponse {
  availabilityModel: 'model_level_on_request';
  pickupLocation: string;
  dropoffLocation: string;
  pickupDateTime: string;
  dropoffDateTime: string;
  rentalDays: number;
  accountCode: string | null;
  rateCode: string | null;
  offers: AvailabilityOffer[];
}

export interface FleetList {
  vehicles: FleetVehicle[];
  count: number;
}
export interface LocationList {
  locations: Location[];
  count: number;
}
export interface RateList {
  rates: RatePlan[];
  count: number;
}
export interface ReservationList {
  reservations: Reservation[];
  count: number;
  limit: number;
}

/** Spec 4.1 */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** Spec 7.1 */
export interface OAuthError {
  error: string;
  error_description: string;
}

/** Spec 7.2 */
export interface FieldError {
  field: string;
  message: string;
}

/** Spec 7.2 */
export interface ErrorEnvelope {
  error: {
    code: string;
    message: string;
    requestId: string;
    retryable: boolean;
    fields?: FieldError[];
  };
}

/** The JSON-shaped value both representations convert to (spec 4.14). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
