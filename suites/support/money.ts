/**
 * Money (spec 2.1) as checks read it: its schema, ISO 4217 currencies, two ways of comparing amounts, and what the
 * wire says before parsing (an amount written `1.0`, a bare number where Money belongs, spec 1.2).
 */
import type { Money } from '../../contract/types.ts';
import type { ApiResult } from '../../harness/check/check.ts';
import { expectValue } from '../../harness/check/expect-api.ts';
import { isObject, joinPath } from './schema-walk.ts';

/** The currency codes ISO 4217 defines (as the runtime knows them). */
export const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** `value` is Money (spec 2.1); a failure names `what`. */
export function expectMoney(value: unknown, what: string): void {
  // Money's own rules (2.1.x) are judged under their clauses wherever a Money is seen.
  expectValue(value, 'Money', what);
}

/** A currency as a currency, for comparing two: its spelling is judged under 2.1.2 only. */
export function asCurrency(currency: unknown): string {
  return String(currency).toUpperCase();
}

/** Money as a number of its smallest unit at `exponent` decimals (exponents are 0 to 4, spec 2.1). */
export function scaled(m: Money, exponent: number): number {
  return m.amount * 10 ** (exponent - m.exponent);
}

/** The same currency and value, whatever the exponents (100 at exponent 2 is 1 at exponent 0). */
export function sameAmount(a: Money, b: Money): boolean {
  const e = Math.max(a.exponent, b.exponent);
  return a.currency === b.currency && scaled(a, e) === scaled(b, e);
}

/**
 * Money as a value without its display (spec 2.1: display is for humans only; arithmetic uses amount and exponent):
 * the currency and the amount at exponent 4, so the same value written at two exponents compares equal. Anything
 * that is not Money is returned as it is.
 */
export function moneyValue(m: unknown): unknown {
  if (!isObject(m) || typeof m.amount !== 'number' || typeof m.exponent !== 'number') return m;
  return { currency: m.currency, value: scaled(m as Money, 4) };
}

/**
 * The same Money: currency and value, whatever the exponents and the display (spec 2.1: arithmetic uses amount and
 * exponent, display is for humans only; 100 at exponent 2 is 1 at exponent 0, audit 2.1-R5).
 */
export function sameMoney(actual: Money | null | undefined, expected: Money | null | undefined): boolean {
  if (actual === null || actual === undefined || expected === null || expected === undefined) {
    return actual === expected || (actual == null && expected == null);
  }
  return sameAmount(actual, expected);
}

/**
 * An amount held in an object, as spec 1.2 wants, rather than a bare number: whether that object has exactly
 * Money's four fields, each by its rule, is 2.1's to judge (a Money lacking display is not a bare amount).
 */
export function isMoneyObject(value: unknown): boolean {
  return isObject(value) && typeof value.amount === 'number';
}

/** Names that hold an amount of money in this API; a bare number under such a key is a bare amount (spec 1.2). */
const AMOUNT_NAME = /amount|total|rate$|fee|deposit|price|commission|discount|prepayment|due|cost|charge/i;
/** The only non-integer numbers the contract has (spec 2.6 coordinates). */
const FRACTIONAL_KEYS = new Set(['latitude', 'longitude']);

/**
 * Spec 1.2, judged without the schema: every number that is not the amount or exponent of a Money object,
 * under a money-like key or not an integer (coordinates apart), is a bare amount. Returns their paths.
 */
export function bareAmounts(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => bareAmounts(item, joinPath(path, i)));
  if (!isObject(value)) return [];
  if (isMoneyObject(value)) return [];
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const childPath = joinPath(path, key);
    if (typeof child === 'number') {
      if (AMOUNT_NAME.test(key)) out.push(`${childPath} = ${child}`);
      else if (!Number.isInteger(child) && !FRACTIONAL_KEYS.has(key)) out.push(`${childPath} = ${child}`);
    } else if (typeof child === 'string' && AMOUNT_NAME.test(key) && /^-?\d+(\.\d+)?$/.test(child)) {
      out.push(`${childPath} = "${child}" (a number in a string)`);
    } else out.push(...bareAmounts(child, childPath));
  }
  return out;
}

/**
 * The literal text of every Money `amount` on the wire, so `1.0` or `1e3` (which parse to integers) are seen:
 * JSON `"amount": <number>` and typed XML `<property name="amount"><number>…</number>`.
 */
export function amountLexemes(res: ApiResult): string[] {
  const pattern =
    res.mediaType === 'application/json'
      ? /"amount"\s*:\s*([^,}\s]+)/g
      : /name\s*=\s*["']amount["']\s*>\s*<(?:[\w.-]+:)?number\s*>([^<]*)</g;
  return [...res.text.matchAll(pattern)].map((m) => m[1] ?? '');
}
