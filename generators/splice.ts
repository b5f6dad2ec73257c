/**
 * Puts a fault inside one string value of an otherwise valid rendering: the rendering is made with a marker in
 * that value, then the marker is swapped for the fault (raw bytes, an entity reference, a CDATA section), so the
 * rest of the document stays exactly as the serializer writes it.
 */
import type { JsonValue } from '../contract/types.ts';
import { concatBytes } from './cases.ts';
import { getAt, type Segment, setAt } from './json-path.ts';

const MARKER = 'ZQXJ7F3AMARKER';

/** The path of the first string value, depth first in key order. */
export function firstStringPath(value: JsonValue, path: Segment[] = []): Segment[] | undefined {
  if (typeof value === 'string') return path;
  if (typeof value !== 'object' || value === null) return undefined;
  const entries: [Segment, JsonValue][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, child] of entries) {
    const found = firstStringPath(child, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

export interface Splice {
  /** 'replace': the fault takes the string's place; 'append': it follows the string's own (escaped) text. */
  mode: 'replace' | 'append';
  fault: (original: string) => Uint8Array | string;
}

/** The rendering of `value` with the fault in its first string value. */
export function spliceFirstString(value: JsonValue, render: (v: JsonValue) => string, splice: Splice): Uint8Array {
  const path = firstStringPath(value);
  if (!path) throw new Error('spliceFirstString: the value holds no string');
  const original = getAt(value, path) as string;
  const marked = setAt(value, path, splice.mode === 'append' ? original + MARKER : MARKER);
  const text = render(marked);
  const at = text.indexOf(MARKER);
  if (at < 0 || text.indexOf(MARKER, at + 1) >= 0) throw new Error('spliceFirstString: marker not found exactly once');
  return concatBytes(text.slice(0, at), splice.fault(original), text.slice(at + MARKER.length));
}
