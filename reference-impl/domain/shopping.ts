import type {
  AvailabilityOffer,
  AvailabilityRequest,
  AvailabilityResponse,
  Extras,
  Quote,
  QuoteRequest,
  RentalWindow,
} from '../../contract/types.ts';
import type { LocationFixture, RatePlanFixture, VehicleFixture } from '../../fixtures/types.ts';
import type { FaultSwitch } from '../faults/switch.ts';
import type { ControlState } from '../store/types.ts';
import { apiError } from './failure.ts';
import { localDateOf, localDateTime, localToEpochMs, rentalDaysBetween } from './local-time.ts';
import { vnd } from './money.ts';
import { type OperatorData, withinValidity } from './operator-data.ts';
import { priceRental } from './pricing.ts';
import type { QuoteClaims, QuoteTokens } from './quote-tokens.ts';

/** Who asks and when: the partner of the token and the service clock of this request. */
export interface CallContext {
  partnerId: string;
  nowMs: number;
  control: ControlState;
}

export interface ResolvedWindow {
  pickup: LocationFixture;
  dropoff: LocationFixture;
  pickupMs: number;
  dropoffMs: number;
  rentalDays: number;
  oneWayFeeVnd: number;
}

export interface ResolvedRate {
  accountCode: string | null;
  rateCode: string | null;
  plan: RatePlanFixture | null;
}

const INCLUSIONS = [
  'Third-party liability insurance as required by Vietnamese law',
  'VAT (10%)',
  'Unlimited kilometres unless the vehicle mileage policy states an allowance',
];
const EXCLUSIONS = [
  'Fuel or charging',
  'Road tolls, parking and traffic fines',
  'Refundable security deposit, collected from the driver at pickup',
];

/** Spec 4.12 checks of a rental window, in the order a partner fixes them: locations, one-way, times. */
export function resolveWindow(
  operatorData: OperatorData,
  w: RentalWindow,
  nowMs: number,
  faults: FaultSwitch,
): ResolvedWindow {
  const activeOnly = faults.enforce('location.active');
  const locate = (code: string) => (activeOnly ? operatorData.activeLocation(code) : operatorData.anyLocation(code));
  const pickup = locate(w.pickupLocation);
  if (!pickup?.capabilities.pickup) {
    throw apiError('INVALID_LOCATION', 'The pickup location is unknown or not active.', {
      fields: [{ field: 'pickupLocation', message: 'unknown or not active location' }],
    });
  }
  const dropoff = locate(w.dropoffLocation);
  if (!dropoff?.capabilities.dropoff) {
    throw apiError('INVALID_LOCATION', 'The dropoff location is unknown or not active.', {
      fields: [{ field: 'dropoffLocation', message: 'unknown or not active location' }],
    });
  }
  const crossesBranches = pickup.branchCode !== dropoff.branchCode;
  const fee = operatorData.oneWayFee(pickup.branchCode, dropoff.branchCode);
  const oneWayOk = fee !== null && (!crossesBranches || (pickup.capabilities.oneWay && dropoff.capabilities.oneWay));
  if (!oneWayOk && faults.enforce('location.oneWay')) {
    throw apiError('LOCATION_NOT_ONE_WAY', 'One-way rental is not available between these locations.');
  }
  const pickupMs = localToEpochMs(w.pickupDate, w.pickupTime, pickup.timezone);
  const dropoffMs = localToEpochMs(w.dropoffDate, w.dropoffTime, dropoff.timezone);
  if (pickupMs === null || dropoffMs === null) {
    throw apiError('INVALID_RENTAL_WINDOW', 'Pickup and dropoff must be valid local dates and times.');
  }
  if (dropoffMs <= pickupMs && faults.enforce('window.order')) {
    throw apiError('INVALID_RENTAL_WINDOW', 'Dropoff must be after pickup.');
  }
  if (pickupMs < nowMs) throw apiError('INVALID_RENTAL_WINDOW', 'Pickup must not be in the past.');
  return {
    pickup,
    dropoff,
    pickupMs,
    dropoffMs,
    rentalDays: rentalDaysBetween(pickupMs, dropoffMs),
    oneWayFeeVnd: fee ?? 0,
  };
}

/** Spec 4.12: account and rate codes of the calling partner only; another partner's codes are unknown. */
export function resolveRate(
  operatorData: OperatorData,
  partnerId: string,
  w: RentalWindow,
  faults: FaultSwitch,
): ResolvedRate {
  const plans = operatorData.plansOf(partnerId);
  const accountCode = w.accountCode ?? null;
  if (
    accountCode !== null &&
    !plans.some((p) => p.accountCode === accountCode && p.enabled) &&
    faults.enforce('account.enabled')
  ) {
    throw apiError('INVALID_ACCOUNT_CODE', 'The account code is unknown or not enabled.', {
      fields: [{ field: 'accountCode', message: 'unknown or not enabled' }],
    });
  }
  if (w.rateCode === undefined) return { accountCode, rateCode: null, plan: null };
  const plan = plans.find((p) => p.rateCode === w.rateCode && (accountCode === null || p.accountCode === accountCode));
  const invalidRate = () =>
    apiError('INVALID_RATE_CODE', 'The rate code is unknown, not enabled or outside its validity window.', {
      fields: [{ field: 'rateCode', message: 'unknown, not enabled or outside validity' }],
    });
  if (!plan?.enabled) throw invalidRate();
  if (plan.approval !== 'approved' && faults.enforce('rate.approved'))
    throw apiError('RATE_NOT_APPROVED', 'The rate plan is awaiting commercial approval.');
  if (!withinValidity(plan, w.pickupDate) && faults.enforce('rate.valid')) throw invalidRate();
  return { accountCode: plan.accountCode, rateCode: plan.rateCode, plan };
}

/** Spec 4.12: unknown or unpublished is INVALID_VEHICLE; published without a full specification is 409. */
export function resolveVehicle(
  operatorData: OperatorData,
  code: string,
  field: string,
  faults: FaultSwitch,
): VehicleFixture {
  const standing = operatorData.standing(code);
  if (standing === 'unknown' || (standing === 'unpublished' && faults.enforce('vehicle.published'))) {
    throw apiError('INVALID_VEHICLE', 'The vehicle code is unknown or not published to partners.', {
      fields: [{ field, message: 'unknown or not published' }],
    });
  }
  if (standing === 'incomplete' && faults.enforce('vehicle.complete')) {
    throw apiError('FLEET_PROFILE_INCOMPLETE', 'The vehicle lacks a complete partner specification.');
  }
  const vehicle = operatorData.vehicle(code);
  if (!vehicle) throw new Error('standing and lookup disagree');
  return vehicle;
}

export class Shopping {
  constructor(
    private readonly operatorData: OperatorData,
    private readonly quotes: QuoteTokens,
    private readonly faults: FaultSwitch,
  ) {}

  private price(ctx: CallContext, vehicle: VehicleFixture, window: ResolvedWindow, rate: ResolvedRate, extras: Extras) {
    return priceRental(
      {
        vehicle,
        rentalDays: window.rentalDays,
        extras,
        plan: rate.plan,
        oneWayFeeVnd: window.oneWayFeeVnd,
        priceMovePercent: ctx.control.priceMovesPercent[vehicle.vehicleCode] ?? 0,
      },
      this.operatorData.extras,
    );
  }

  /** What every quote of one request claims, whichever vehicle it prices (spec 2.8). */
  private requestClaims(ctx: CallContext, req: RentalWindow, rate: ResolvedRate, extras: Extras) {
    return {
      partnerId: ctx.partnerId,
      pickupLocation: req.pickupLocation,
      dropoffLocation: req.dropoffLocation,
      pickupDate: req.pickupDate,
      pickupTime: req.pickupTime,
      dropoffDate: req.dropoffDate,
      dropoffTime: req.dropoffTime,
      accountCode: rate.accountCode,
      rateCode: rate.rateCode,
      extras,
    };
  }

  /** Spec 4.5: model-level offers; every offer carries its own quote id. */
  async availability(ctx: CallContext, req: AvailabilityRequest): Promise<AvailabilityResponse> {
    const window = resolveWindow(this.operatorData, req, ctx.nowMs, this.faults);
    const filter = req.vehicleCodes ? new Set(req.vehicleCodes) : null;
    for (const [i, code] of (req.vehicleCodes ?? []).entries()) {
      resolveVehicle(this.operatorData, code, `vehicleCodes[${i}]`, this.faults);
    }
    const rate = resolveRate(this.operatorData, ctx.partnerId, req, this.faults);
    const extras = req.extras ?? {};
    const listed = this.operatorData.listedAt(window.pickup.locationCode);
    const offered = filter === null ? listed : listed.filter((v) => filter.has(v.vehicleCode));
    const offers: AvailabilityOffer[] = [];
    // Every offer's quote is issued at the same second by one issuer: they share the request's claims and one expiry.
    const issuer = this.quotes.issuer(this.requestClaims(ctx, req, rate, extras), ctx.nowMs);
    const expiresAt = new Date(issuer.expiresAtMs).toISOString();
    for (const vehicle of offered) {
      const price = this.price(ctx, vehicle, window, rate, extras);
      const quote = issuer.issue(vehicle.vehicleCode, price.total.amount, price.total.currency);
      offers.push({
        quoteId: quote.quoteId,
        quoteExpiresAt: expiresAt,
        vehicle: this.operatorData.fleetVehicle(vehicle.vehicleCode),
        rentalDays: window.rentalDays,
        dailyRate: price.dailyRate,
        estimatedTotal: price.total,
        currency: price.total.currency,
      });
    }
    offers.sort((a, b) => a.estimatedTotal.amount - b.estimatedTotal.amount);
    return {
      availabilityModel: 'model_level_on_request',
      pickupLocation: req.pickupLocation,
      dropoffLocation: req.dropoffLocation,
      pickupDateTime: localDateTime(req.pickupDate, req.pickupTime),
      dropoffDateTime: localDateTime(req.dropoffDate, req.dropoffTime),
      rentalDays: window.rentalDays,
      accountCode: rate.accountCode,
      rateCode: rate.rateCode,
      offers: this.faults.adjust('offers', offers, { partnerId: ctx.partnerId }),
    };
  }

  /** Prices a quote request: shared by POST /quotes and by booking, which re-prices (spec 4.6). */
  priceRequest(ctx: CallContext, req: QuoteRequest) {
    const window = resolveWindow(this.operatorData, req, ctx.nowMs, this.faults);
    const vehicle = resolveVehicle(this.operatorData, req.vehicleCode, 'vehicleCode', this.faults);
    const rate = resolveRate(this.operatorData, ctx.partnerId, req, this.faults);
    if (!vehicle.locationCodes.includes(window.pickup.locationCode)) {
      throw apiError('NO_AVAILABILITY', 'The vehicle is not offered at the pickup location.');
    }
    const extras = req.extras ?? {};
    return { window, vehicle, rate, extras, price: this.price(ctx, vehicle, window, rate, extras) };
  }

  /** Spec 4.6: a server-authoritative quote with the full breakdown of 2.9. */
  async quote(ctx: CallContext, req: QuoteRequest): Promise<Quote> {
    const { window, vehicle, rate, extras, price } = this.priceRequest(ctx, req);
    // The issuer availability uses, for one vehicle: no claims object spread and taken apart again per quote.
    const issuer = this.quotes.issuer(this.requestClaims(ctx, req, rate, extras), ctx.nowMs);
    const { quoteId } = issuer.issue(vehicle.vehicleCode, price.total.amount, price.total.currency);
    return {
      quoteId,
      expiresAt: new Date(issuer.expiresAtMs).toISOString(),
      currency: price.total.currency,
      vehicle: this.operatorData.fleetVehicle(vehicle.vehicleCode),
      rental: {
        pickupLocation: req.pickupLocation,
        dropoffLocation: req.dropoffLocation,
        pickupDateTime: localDateTime(req.pickupDate, req.pickupTime),
        dropoffDateTime: localDateTime(req.dropoffDate, req.dropoffTime),
        rentalDays: window.rentalDays,
        timezone: window.pickup.timezone,
      },
      rate: {
        accountCode: rate.accountCode,
        rateCode: rate.rateCode,
        rateType: price.rateType,
        adjustmentApplied: price.adjustmentApplied,
      },
      charges: {
        dailyRate: price.dailyRate,
        baseTotal: price.baseTotal,
        extras: price.extras,
        extrasTotal: price.extrasTotal,
        oneWayFee: price.oneWayFee,
        discount: price.discount,
        total: price.total,
        commission: price.commission,
      },
      securityDeposit: price.securityDeposit,
      payment: { model: 'settled_with_partner', prepaymentRequired: vnd(0), dueAtPickup: vnd(0) },
      inclusions: INCLUSIONS,
      exclusions: EXCLUSIONS,
    };
  }

  /** The quote request a quote id stands for, to be priced again at booking. */
  static requestOf(claims: QuoteClaims): QuoteRequest {
    const req: QuoteRequest = {
      pickupLocation: claims.pickupLocation,
      dropoffLocation: claims.dropoffLocation,
      pickupDate: claims.pickupDate,
      pickupTime: claims.pickupTime,
      dropoffDate: claims.dropoffDate,
      dropoffTime: claims.dropoffTime,
      vehicleCode: claims.vehicleCode,
      extras: claims.extras,
    };
    if (claims.accountCode !== null) req.accountCode = claims.accountCode;
    if (claims.rateCode !== null) req.rateCode = claims.rateCode;
    return req;
  }

  /** Today's local date in the operator's zone, for rate validity of listings. */
  static today(nowMs: number): string {
    return localDateOf(nowMs, 'Asia/Ho_Chi_Minh');
  }
}
