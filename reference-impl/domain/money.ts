import type { Money } from '../../contract/types.ts';

const displayFormats = new Map<string, Intl.NumberFormat>();
/**
 * Renderings already made, bounded: Intl formatting was a twentieth of an availability call (docs/measurements/bench-2026-11-24-to-29.md "Profile
 * findings").
 */
const displays = new Map<string, string>();
const DISPLAYS_MAX = 8192;

function displayOf(currency: string, amount: number, exponent: number): string {
  // -0 renders with its sign yet keys as "0": formatted afresh, never remembered.
  if (Object.is(amount, -0)) return formatDisplay(currency, amount, exponent);
  const memoKey = `${currency}:${exponent}:${amount}`;
  const known = displays.get(memoKey);
  if (known !== undefined) return known;
  const display = formatDisplay(currency, amount, exponent);
  if (displays.size >= DISPLAYS_MAX) displays.clear();
  displays.set(memoKey, display);
  return display;
}

function formatDisplay(currency: string, amount: number, exponent: number): string {
  const key = `${currency}:${exponent}`;
  let format = displayFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('vi-VN', {
      style: 'currency',
      currency,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
    displayFormats.set(key, format);
  }
  // Division is for the human rendering only; amounts stay integer minor units (spec 2.1).
  return format.format(amount / 10 ** exponent);
}

export function money(currency: string, amount: number, exponent: number): Money {
  if (!Number.isSafeInteger(amount)) throw new RangeError('money amounts are integer minor units');
  return { currency, amount, exponent, display: displayOf(currency, amount, exponent) };
}

/**
 * Dong amounts by amount, each made once and frozen: a number-keyed lookup, where `displayOf` builds a string key (7 per
 * offer priced), and one object per amount, so an answer's JSON reuses its text (http/json-bytes.ts).
 */
const vndAmounts = new Map<number, Money>();

/** The operator prices in Vietnamese dong, whose minor unit is the dong itself (exponent 0). */
export function vnd(amount: number): Money {
  if (!Number.isSafeInteger(amount)) throw new RangeError('money amounts are integer minor units');
  if (Object.is(amount, -0)) return money('VND', amount, 0);
  let made = vndAmounts.get(amount);
  if (made === undefined) {
    made = Object.freeze({ currency: 'VND', amount, exponent: 0, display: formatDisplay('VND', amount, 0) });
    if (vndAmounts.size >= DISPLAYS_MAX) vndAmounts.clear();
    vndAmounts.set(amount, made);
  }
  return made;
}

/** Rounds a percentage of an integer amount to whole minor units, half away from zero. */
export function percentOf(amount: number, percent: number): number {
  const value = (amount * percent) / 100;
  return Math.sign(value) * Math.round(Math.abs(value));
}
