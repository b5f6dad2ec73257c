/** Helpers shared by this folder's tests: minimal typed documents around a fragment. */
import { XML_NAMESPACE } from '../constants.ts';

export const NS = XML_NAMESPACE;
/** Planted in rejected documents; a reason must never contain it. */
export const SECRET = 'S3CR3T-tok_9f8e7d';

export interface DocOptions {
  root?: string;
  prefix?: string;
  declaration?: string;
  rootAttributes?: string;
}

/** `<request xmlns="…" version="1">inner</request>`; inner must use the same prefix if one is given. */
export function doc(inner: string, options: DocOptions = {}): string {
  const root = options.root ?? 'request';
  const q = options.prefix ? `${options.prefix}:` : '';
  const xmlns = options.prefix ? `xmlns:${options.prefix}` : 'xmlns';
  const attrs = options.rootAttributes ?? `${xmlns}="${NS}" version="1"`;
  return `${options.declaration ?? ''}<${q}${root} ${attrs}>${inner}</${q}${root}>`;
}

export function bytes(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

export function concatBytes(...parts: (Uint8Array | string)[]): Uint8Array {
  const arrays = parts.map((p) => (typeof p === 'string' ? bytes(p) : p));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let offset = 0;
  for (const a of arrays) {
    out.set(a, offset);
    offset += a.length;
  }
  return out;
}

/**
 * Typed values always sit at even levels (root 1, value 2, item 3, value 4, ...), so this nests
 * array/item pairs under the root and puts a `<null/>` at `valueLevel`, which must be even.
 */
export function nestedArrays(valueLevel: number): string {
  if (valueLevel < 2 || valueLevel % 2 !== 0) throw new Error('valueLevel must be even and at least 2');
  const pairs = (valueLevel - 2) / 2;
  return `${'<array><item>'.repeat(pairs)}<null/>${'</item></array>'.repeat(pairs)}`;
}

/** An array of `count` nulls: the whole document has 2 + 2 * count elements. */
export function arrayOfNulls(count: number): string {
  return `<array>${'<item><null/></item>'.repeat(count)}</array>`;
}
