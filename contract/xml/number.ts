/**
 * Spec 4.14: a number is finite, in integer, decimal or exponent notation. We read that as the JSON
 * number grammar (RFC 8259 section 6), exactly, with no surrounding whitespace: no '+' sign, no
 * leading zeros, no bare '.5' or '5.', no hex, NaN or Infinity.
 */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The number the text denotes, or undefined when it is not a finite JSON-style number. */
export function parseNumberText(text: string): number | undefined {
  if (!JSON_NUMBER.test(text)) return undefined;
  const n = Number(text);
  // 1e400 matches the grammar but overflows to Infinity: not a finite number.
  return Number.isFinite(n) ? n : undefined;
}

/** As JSON writes a number: `String(n)` (which already writes -0 as "0"); finite numbers only. */
export function formatNumber(n: number): string | undefined {
  return Number.isFinite(n) ? String(n) : undefined;
}
