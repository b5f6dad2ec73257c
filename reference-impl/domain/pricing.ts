import type { ExtraLine, Extras, Money, RateType } from '../../contract/types.ts';
import type { RatePlanFixture, VehicleFixture } from '../../fixtures/types.ts';
import { percentOf, vnd } from './money.ts';

export interface PriceInput {
  vehicle: VehicleFixture;
  rentalDays: number;
  extras: Extras;
  plan: RatePlanFixture | null;
  oneWayFeeVnd: number;
  /** Operator's price move on this vehicle's public daily rate, in percent (control API). */
  priceMovePercent: number;
}

export interface PriceBreakdown {
  rateType: RateType;
  adjustmentApplied: boolean;
  dailyRate: Money;
  baseTotal: Money;
  extras: ExtraLine[];
  extrasTotal: Money;
  oneWayFee: Money;
  discount: Money;
  total: Money;
  commission: Money | null;
  securityDeposit: Money;
}

interface ExtraRequest {
  code: string;
  quantity: number;
}

/** Extras asked for, as price-list lines. fullProtection supersedes cdwInsurance (spec 2.3). */
function requestedExtras(extras: Extras): ExtraRequest[] {
  const lines: ExtraRequest[] = [];
  if (extras.fullProtection) lines.push({ code: 'FULL_PROTECTION', quantity: 1 });
  else if (extras.cdwInsurance) lines.push({ code: 'CDW', quantity: 1 });
  if (extras.additionalDriver) lines.push({ code: 'ADDITIONAL_DRIVER', quantity: 1 });
  if (extras.roadSideAssistance) lines.push({ code: 'ROADSIDE_ASSISTANCE', quantity: 1 });
  if (extras.childSeats && extras.childSeats > 0) lines.push({ code: 'CHILD_SEAT', quantity: extras.childSeats });
  return lines;
}

/**
 * The operator's price for one vehicle and window (the computation is the operator's own; spec 4.6 leaves
 * it open). Everything is integer VND; percentages round to whole dong.
 */
export function priceRental(
  input: PriceInput,
  extrasPriceList: ReadonlyMap<string, { description: string; pricePerDayVnd: number; maxPerRentalVnd: number | null }>,
): PriceBreakdown {
  const { vehicle, rentalDays, plan } = input;
  const publicDaily = vehicle.dailyRateVnd + percentOf(vehicle.dailyRateVnd, input.priceMovePercent);
  const adjustment = plan ? plan.dailyRateAdjustmentPercent : 0;
  const daily = publicDaily + percentOf(publicDaily, adjustment);
  const baseTotal = daily * rentalDays;

  const extraLines: ExtraLine[] = requestedExtras(input.extras).map(({ code, quantity }) => {
    const item = extrasPriceList.get(code);
    if (!item) throw new Error(`extra ${code} missing from the price list`);
    const perUnit = item.pricePerDayVnd * rentalDays;
    const capped = item.maxPerRentalVnd === null ? perUnit : Math.min(perUnit, item.maxPerRentalVnd);
    return { code, description: item.description, quantity, total: vnd(capped * quantity) };
  });
  const extrasTotal = extraLines.reduce((sum, l) => sum + l.total.amount, 0);
  const discount = plan ? percentOf(baseTotal, plan.discountPercent) : 0;
  const total = baseTotal + extrasTotal + input.oneWayFeeVnd - discount;
  const commission =
    plan?.rateType === 'commissionable' && plan.commissionPercent !== null
      ? vnd(percentOf(total, plan.commissionPercent))
      : null;

  return {
    rateType: plan ? plan.rateType : 'retail',
    adjustmentApplied: adjustment !== 0 || discount !== 0,
    dailyRate: vnd(daily),
    baseTotal: vnd(baseTotal),
    extras: extraLines,
    extrasTotal: vnd(extrasTotal),
    oneWayFee: vnd(input.oneWayFeeVnd),
    discount: vnd(discount),
    total: vnd(total),
    commission,
    securityDeposit: vnd(vehicle.securityDepositVnd),
  };
}
