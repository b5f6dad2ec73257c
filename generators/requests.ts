/**
 * Valid request bodies of spec 2.12 (and the token form of 4.1), built from what the target exposes.
 * Every value passes `validate(<schema>, value)` and has an XML form (requests.test.ts proves both).
 */
import fc from 'fast-check';
import { LIMITS } from '../contract/limits.ts';
import type {
  AvailabilityRequest,
  CancelRequest,
  Extras,
  QuoteRequest,
  ReservationRequest,
} from '../contract/types.ts';
import { type DriverOptions, driver } from './driver.ts';
import { locationPairs, shoppableVehicles, type TargetListings } from './listings.ts';
import { NothingToDrawError } from './nothing-to-draw.ts';
import { type RentalWindowOptions, rentalWindow } from './rental-window.ts';
import { visibleAsciiChar, xmlText } from './text.ts';

/**
 * Spec 2.3: any mix of extras, childSeats 0 to 3, and never cdwInsurance together with fullProtection (the
 * schema forbids both keys whatever their values; docs/ambiguities.md #1).
 */
export function extras(): fc.Arbitrary<Extras> {
  const protection = fc.oneof(
    fc.constant({}),
    fc.boolean().map((cdwInsurance) => ({ cdwInsurance })),
    fc.boolean().map((fullProtection) => ({ fullProtection })),
  );
  const others = fc.record(
    {
      additionalDriver: fc.boolean(),
      roadSideAssistance: fc.boolean(),
      childSeats: fc.integer({ min: LIMITS.childSeats.min, max: LIMITS.childSeats.max }),
    },
    { requiredKeys: [], noNullPrototype: true },
  );
  return fc.tuple(protection, others).map(([p, o]): Extras => ({ ...p, ...o }));
}

export interface ShoppingOptions extends RentalWindowOptions {}

/**
 * Spec 2.12 AvailabilityRequest: a window, maybe extras, maybe a filter of vehicles offered at the pickup
 * location (at most 50, no repeats).
 */
export function availabilityRequest(
  cat: TargetListings,
  options: ShoppingOptions = {},
): fc.Arbitrary<AvailabilityRequest> {
  const vehicles = shoppableVehicles(cat);
  return rentalWindow(cat, options).chain((window) => {
    const offered = vehicles.filter((v) => v.locationCodes.includes(window.pickupLocation)).map((v) => v.vehicleCode);
    const filter =
      offered.length === 0
        ? fc.constant(undefined)
        : fc.option(
            fc.subarray(offered, { minLength: 1, maxLength: Math.min(offered.length, LIMITS.vehicleCodesMaxItems) }),
            { nil: undefined },
          );
    return fc.tuple(fc.option(extras(), { nil: undefined }), filter).map(([x, vehicleCodes]) => {
      const request: AvailabilityRequest = { ...window };
      if (x) request.extras = x;
      if (vehicleCodes) request.vehicleCodes = vehicleCodes;
      return request;
    });
  });
}

/** Spec 2.12 QuoteRequest: a vehicle the target offers at the pickup location (its locationCodes hold it). */
export function quoteRequest(cat: TargetListings, options: ShoppingOptions = {}): fc.Arbitrary<QuoteRequest> {
  const sameBranch = options.sameBranch ?? true;
  const eligible = shoppableVehicles(cat).filter((v) => {
    const pickups = options.pickupLocations
      ? v.locationCodes.filter((code) => options.pickupLocations?.includes(code))
      : v.locationCodes;
    return locationPairs(cat, { sameBranch, pickupLocations: pickups }).length > 0;
  });
  if (eligible.length === 0)
    throw new NothingToDrawError('quoteRequest: no listed vehicle is offered at a usable pickup');
  return fc.constantFrom(...eligible).chain((vehicle) => {
    const pickups = vehicle.locationCodes.filter(
      (code) => !options.pickupLocations || options.pickupLocations.includes(code),
    );
    return fc
      .tuple(rentalWindow(cat, { ...options, pickupLocations: pickups }), fc.option(extras(), { nil: undefined }))
      .map(([window, x]) => {
        const request: QuoteRequest = { ...window, vehicleCode: vehicle.vehicleCode };
        if (x) request.extras = x;
        return request;
      });
  });
}

export interface ReservationOptions {
  /**
   * When given, every request carries partnerReference = prefix + 6 to 16 random [A-Z0-9]: recognisable as
   * the suite's own (docs/design.md, profile `book`). Uniqueness per partner (4.7.7) is the caller's: generated
   * suffixes may repeat, so put a run id or counter in the prefix. Without it, partnerReference is omitted.
   */
  partnerReferencePrefix?: string;
  driver?: DriverOptions;
}

const FLIGHT_NUMBERS = fc.stringMatching(/^(VN|VJ|QH|BL|VU|SQ|CX|KE|TG|AK) ?[1-9][0-9]{0,3}$/);

/** Spec 2.12 ReservationRequest for a quoteId the target issued. */
export function reservationRequest(
  quoteId: string,
  today: string,
  options: ReservationOptions = {},
): fc.Arbitrary<ReservationRequest> {
  const prefix = options.partnerReferencePrefix;
  const suffixRoom = prefix === undefined ? 0 : Math.min(16, LIMITS.partnerReferenceMaxLength - prefix.length);
  if (prefix !== undefined && suffixRoom < 6) {
    throw new RangeError(`reservationRequest: partnerReferencePrefix leaves fewer than 6 of 64 characters`);
  }
  const reference =
    prefix === undefined
      ? fc.constant(undefined)
      : fc
          .string({
            unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
            minLength: 6,
            maxLength: suffixRoom,
          })
          .map((suffix) => prefix + suffix);
  return fc
    .tuple(
      driver(today, options.driver),
      reference,
      fc.option(xmlText({ maxLength: LIMITS.remarksMaxLength }), { nil: undefined }),
      fc.option(
        fc.oneof({ arbitrary: FLIGHT_NUMBERS, weight: 4 }, xmlText({ maxLength: LIMITS.flightNumberMaxLength })),
        {
          nil: undefined,
        },
      ),
    )
    .map(([d, partnerReference, remarks, flightNumber]) => {
      const request: ReservationRequest = { quoteId, driver: d };
      if (partnerReference !== undefined) request.partnerReference = partnerReference;
      if (remarks !== undefined) request.remarks = remarks;
      if (flightNumber !== undefined) request.flightNumber = flightNumber;
      return request;
    });
}

const CANCEL_REASONS = [
  'Traveller changed plans',
  'Flight cancelled',
  'Khách hàng đổi lịch trình',
  'Duplicate booking made by the agent',
  'Hủy do thời tiết xấu',
] as const;

/** Spec 2.12 CancelRequest: a reason of 1 to 500 characters with at least one that is not whitespace. */
export function cancelRequest(): fc.Arbitrary<CancelRequest> {
  const { min, max } = LIMITS.cancelReasonLength;
  return fc
    .oneof(
      { arbitrary: fc.constantFrom(...CANCEL_REASONS), weight: 1 },
      { arbitrary: xmlText({ minLength: min, maxLength: max, nonBlank: true }), weight: 2 },
    )
    .map((reason) => ({ reason }));
}

/** Spec 4.1 token request fields for client_secret_post. */
export interface TokenForm {
  grant_type: 'client_credentials';
  client_id: string;
  client_secret: string;
  scope?: string;
}

/**
 * The form of a client_secret_post token request: scope omitted (everything held) or a non-empty subset of
 * `scopes` in any order. An empty `scope=` is left out: its meaning is not asserted (docs/ambiguities.md #43).
 */
export function tokenForm(clientId: string, secret: string, scopes?: readonly string[]): fc.Arbitrary<TokenForm> {
  const base: TokenForm = { grant_type: 'client_credentials', client_id: clientId, client_secret: secret };
  if (!scopes || scopes.length === 0) return fc.constant(base);
  return fc
    .option(fc.shuffledSubarray([...scopes], { minLength: 1 }), { nil: undefined })
    .map((subset) => (subset ? { ...base, scope: subset.join(' ') } : { ...base }));
}

export interface IdempotencyKeyOptions {
  /** Put first (e.g. a run id): generated keys may repeat, and a key must be unique per attempt (4.7). */
  prefix?: string;
}

/**
 * Spec 4.7: an Idempotency-Key of 8 to 200 visible ASCII characters, the bounds drawn often; or a UUID, the
 * usual client choice. With a prefix, the random part is shortened so the whole stays within 200.
 */
export function idempotencyKey(options: IdempotencyKeyOptions = {}): fc.Arbitrary<string> {
  const prefix = options.prefix ?? '';
  const { min, max } = LIMITS.idempotencyKeyLength;
  if (prefix.length > max - 1 || /[^\x21-\x7e]/.test(prefix)) {
    throw new RangeError('idempotencyKey: the prefix must be visible ASCII and leave room for a random part');
  }
  const random = xmlText({
    minLength: Math.max(1, min - prefix.length),
    maxLength: max - prefix.length,
    unit: visibleAsciiChar(),
  });
  const uuid = prefix.length + 36 <= max ? [fc.uuid()] : [];
  return fc.oneof(random, ...uuid).map((s) => prefix + s);
}
