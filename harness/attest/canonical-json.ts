import canonicalize from 'canonicalize';

/**
 * RFC 8785 (JSON Canonicalization Scheme), by the RFC author's own implementation (`canonicalize`): object keys
 * sorted by UTF-16 code units at every depth, no whitespace, numbers as ECMAScript writes them. Used where a digest
 * must not depend on key order or spacing: the clause catalogue's digest and the signed statement itself, so a
 * record reads back to the same bytes. What JSON cannot hold is refused rather than written out (the library
 * refuses NaN and Infinity, and would write a function as `undefined`): a signed value must be the one meant.
 */
export function canonicalJson(value: unknown): string {
  const text = containsFunction(value) ? undefined : canonicalize(value);
  if (text === undefined) throw new TypeError('canonical JSON: a function or undefined is not a JSON value');
  return text;
}

function containsFunction(value: unknown): boolean {
  if (typeof value === 'function') return true;
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(containsFunction);
}
