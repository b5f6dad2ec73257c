/**
 * JSON text with every character outside ASCII written as a `\u` escape (RFC 8259 section 7: the same JSON value), in
 * V8's one-byte string form. Node writes a one-byte answer to the socket in one copy together with its headers; one
 * non-ASCII character (the "₫" of every money display) makes a whole answer a two-byte string, which is re-encoded to
 * UTF-8 on every write: about 1 µs a kilobyte here, a tenth of an availability call (docs/measurements/bench-2026-11-24-to-29.md "Profile findings").
 */
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

export function asciiJson(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  // A replace of a two-byte string stays two-byte although every character is now ASCII; a latin1 round trip makes
  // the one-byte copy.
  return Buffer.from(text.replace(NON_ASCII_ALL, unicodeEscape), 'latin1').toString('latin1');
}

/** Printable ASCII but the quote and the backslash: the characters JSON.stringify writes as they are. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The text of strings that need escapes, by string; bounded like the displays they mostly are (domain/money.ts). */
const escaped = new Map<string, string>();
const ESCAPED_MAX = 8192;

/**
 * `asciiJson(JSON.stringify(text))` for a string, in one scan when it needs no escape (a quote id, a date), and made
 * once for one that does (a money display, with its "₫").
 */
export function stringJson(text: string): string {
  if (PLAIN.test(text)) return `"${text}"`;
  let out = escaped.get(text);
  if (out === undefined) {
    out = asciiJson(JSON.stringify(text));
    if (escaped.size >= ESCAPED_MAX) escaped.clear();
    escaped.set(text, out);
  }
  return out;
}

/** `asciiJson(JSON.stringify(value))`, without the scan for a number (what a fault-free answer has where this is used). */
export function scalarJson(value: unknown): string {
  // A finite number's JSON text is its String() text (both Number::toString); JSON.stringify gives null otherwise.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return asciiJson(JSON.stringify(value) ?? 'null');
}
