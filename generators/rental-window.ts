/** Spec 2.4 RentalWindow, valid by construction against the target's listings. */
import fc from 'fast-check';
import { timeOfDay } from '../contract/iso-date.ts';
import type { RatePlan, RentalWindow } from '../contract/types.ts';
import {
  type DayRange,
  dayAfterToday,
  type LocationPair,
  locationPairs,
  MAX_DAYS_AHEAD,
  planDayRange,
  type TargetListings,
} from './listings.ts';
import { NothingToDrawError } from './nothing-to-draw.ts';

export interface RentalWindowOptions {
  /** See PairOptions.sameBranch. Default true: never one-way, so valid on any target. */
  sameBranch?: boolean;
  /** Only these pickup locations (e.g. where a vehicle is offered). */
  pickupLocations?: readonly string[];
  /** 'public' omits accountCode and rateCode; 'plan' sends both of one listed plan; 'either' (default) mixes. */
  rate?: 'public' | 'plan' | 'either';
  /** Longest rental in days (default 30). */
  maxRentalDays?: number;
}

interface Combo {
  pair: LocationPair;
  plan: RatePlan | undefined;
  range: DayRange;
  /** 0 in one timezone; 2 across timezones, so dropoff is after pickup whatever the two offsets are. */
  minDays: number;
}

const LAST_MINUTE = 24 * 60 - 1;

/**
 * A window: pickup 1 to 300 days after today at a location that allows pickup, dropoff after it at a location
 * that allows dropoff, times on the 24-hour pattern (mostly on the quarter hour). With a plan, both dates lie
 * in the plan's validity. accountCode is never sent without rateCode (docs/ambiguities.md #7).
 *
 * Throws when the listings offer no window for the options (e.g. sameBranch false on a one-branch target).
 * Local times are not checked against DST gaps: the operator's zone has none.
 */
export function rentalWindow(cat: TargetListings, options: RentalWindowOptions = {}): fc.Arbitrary<RentalWindow> {
  const maxRentalDays = options.maxRentalDays ?? 30;
  const pairs = locationPairs(cat, {
    sameBranch: options.sameBranch ?? true,
    pickupLocations: options.pickupLocations,
  });
  const rate = options.rate ?? 'either';
  const publicCombos: Combo[] = [];
  const planCombos: Combo[] = [];
  for (const pair of pairs) {
    const minDays = pair.pickup.timezone === pair.dropoff.timezone ? 0 : 2;
    if (rate !== 'plan')
      publicCombos.push({ pair, plan: undefined, range: { first: 1, last: MAX_DAYS_AHEAD }, minDays });
    if (rate === 'public') continue;
    // Every listed plan is bookable (2.7: GET /rates lists the active ones); its status spelling is 2.7.6's to judge.
    for (const plan of cat.rates) {
      const range = planDayRange(cat, plan);
      if (range && range.last - range.first >= minDays) planCombos.push({ pair, plan, range, minDays });
    }
  }
  const choices: fc.Arbitrary<Combo>[] = [];
  if (publicCombos.length > 0) choices.push(fc.constantFrom(...publicCombos));
  if (planCombos.length > 0) choices.push(fc.constantFrom(...planCombos));
  const [first, ...rest] = choices;
  if (!first) {
    throw new NothingToDrawError(
      `rentalWindow: the listings offer no window (sameBranch ${options.sameBranch ?? true}, rate ${rate}, ` +
        `${pairs.length} location pairs)`,
    );
  }
  const combo = rest.length === 0 ? first : fc.oneof(first, ...rest);
  return combo.chain((c) => windowOf(cat, c, maxRentalDays));
}

function windowOf(cat: TargetListings, c: Combo, maxRentalDays: number): fc.Arbitrary<RentalWindow> {
  const pickupDay = fc.integer({ min: c.range.first, max: c.range.last - c.minDays });
  return pickupDay.chain((pickupOffset) => {
    const longest = Math.max(c.minDays, Math.min(maxRentalDays, c.range.last - pickupOffset));
    return fc.integer({ min: c.minDays, max: longest }).chain((days) =>
      times(days).map(([pickupMinute, dropoffMinute]) => {
        const window: RentalWindow = {
          pickupLocation: c.pair.pickup.locationCode,
          dropoffLocation: c.pair.dropoff.locationCode,
          pickupDate: dayAfterToday(cat, pickupOffset),
          pickupTime: timeOfDay(pickupMinute),
          dropoffDate: dayAfterToday(cat, pickupOffset + days),
          dropoffTime: timeOfDay(dropoffMinute),
        };
        if (c.plan) {
          window.accountCode = c.plan.accountCode;
          window.rateCode = c.plan.rateCode;
        }
        return window;
      }),
    );
  });
}

/** Pickup and dropoff minutes of the day; on a same-day rental the dropoff is strictly later. */
function times(days: number): fc.Arbitrary<[number, number]> {
  if (days > 0) return fc.tuple(minuteBetween(0, LAST_MINUTE), minuteBetween(0, LAST_MINUTE));
  return minuteBetween(0, LAST_MINUTE - 1).chain((pickup) =>
    minuteBetween(pickup + 1, LAST_MINUTE).map((dropoff): [number, number] => [pickup, dropoff]),
  );
}

/** A minute in [min, max], three times in four on the quarter hour when one lies in the range. */
function minuteBetween(min: number, max: number): fc.Arbitrary<number> {
  const any = fc.integer({ min, max });
  const firstQuarter = Math.ceil(min / 15);
  const lastQuarter = Math.floor(max / 15);
  if (firstQuarter > lastQuarter) return any;
  const quarter = fc.integer({ min: firstQuarter, max: lastQuarter }).map((q) => q * 15);
  return fc.oneof({ arbitrary: quarter, weight: 3 }, { arbitrary: any, weight: 1 });
}
