import { asciiJson, stringJson } from './ascii-json.ts';

/**
 * An answer's JSON as bytes: the text `asciiJson(JSON.stringify(value))` gives, written by a walk that reuses the text
 * of every deeply frozen part (a quote's vehicle, each dong amount: made once, never changed) and of every string
 * that needs escapes (`stringJson`: the money displays, each with a "₫"). JSON.stringify wrote the whole answer
 * again every time, and its one non-ASCII character made the text a two-byte string that Node re-encoded to UTF-8:
 * together a fifth of a POST /quotes in the server (docs/measurements/bench-2026-11-24-to-29.md "Quotes as bytes").
 *
 * Written by hand because JSON.stringify has no way to splice text already made. Anything it treats specially (a
 * toJSON method, a class instance, a boxed primitive, a bigint, a cycle or a depth past MAX_DEPTH) sends the whole
 * value back to JSON.stringify, so the text is always exactly its text (property-tested against it). Slower than
 * JSON.stringify on a value with nothing frozen in it (100 quotes parsed back from JSON, a page of bookings' size:
 * about 1.3 × its time), so only for answers made mostly of kept parts.
 */
export function jsonBytes(value: unknown): Buffer {
  return Buffer.from(jsonText(value), 'latin1');
}

/** `asciiJson(JSON.stringify(value) ?? '')`: ASCII text, one byte a character. */
export function jsonText(value: unknown): string {
  try {
    return write(value, 0);
  } catch (error) {
    if (error !== UNUSUAL) throw error;
    return asciiJson(JSON.stringify(value) ?? '');
  }
}

/** Thrown by the walk for a value only JSON.stringify may write. */
const UNUSUAL = Symbol('unusual');
const MAX_DEPTH = 64;

/** The text of each deeply frozen object or array met, by identity. */
const frozenTexts = new WeakMap<object, string>();
/** Frozen values whose parts may still change (a mutable child, an accessor): walked every time. */
const notCacheable = new WeakSet<object>();

/** What JSON.stringify leaves out of an object and writes as null in an array. */
function skipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function write(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return stringJson(value);
    case 'number':
      // A finite number's JSON text is its String() text (both Number::toString; -0 is "0").
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      return writeObject(value, depth);
    default:
      throw UNUSUAL;
  }
}

function writeObject(value: object, depth: number): string {
  if (depth >= MAX_DEPTH) throw UNUSUAL;
  const array = Array.isArray(value);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== (array ? Array.prototype : Object.prototype)) throw UNUSUAL;
  if ((value as { toJSON?: unknown }).toJSON !== undefined) throw UNUSUAL;
  const frozen = Object.isFrozen(value);
  if (frozen) {
    const known = frozenTexts.get(value);
    if (known !== undefined) return known;
  }
  const text = array ? writeArray(value as unknown[], depth) : writePlain(value as Record<string, unknown>, depth);
  if (frozen && !notCacheable.has(value)) {
    // Kept flat: a text made by concatenation is a tree of pieces, walked again by every answer that splices it.
    if (deeplyImmutable(value)) frozenTexts.set(value, flat(text));
    else notCacheable.add(value);
  }
  return text;
}

function writeArray(value: unknown[], depth: number): string {
  let out = '[';
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (i > 0) out += ',';
    out += skipped(item) ? 'null' : write(item, depth + 1);
  }
  return `${out}]`;
}

function writePlain(value: Record<string, unknown>, depth: number): string {
  let out = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (skipped(item)) continue;
    out += `${first ? '' : ','}${stringJson(key)}:${write(item, depth + 1)}`;
    first = false;
  }
  return `${out}}`;
}

function flat(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}

/** Frozen all the way down, with no accessor anywhere: its text can never change. */
function deeplyImmutable(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(value))) {
    if (!('value' in descriptor)) return false;
    const inner: unknown = descriptor.value;
    if (inner !== null && typeof inner === 'object' && !frozenTexts.has(inner) && !deeplyImmutable(inner)) return false;
  }
  return true;
}
