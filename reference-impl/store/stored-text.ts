/**
 * Text a client chose, as a store's text column holds it. PostgreSQL text holds no NUL character, and both drivers
 * send a string as UTF-8, which has no form for a lone surrogate (SQLite stored U+FFFD: two references differing there
 * collided): a partnerReference, a cancellation reason or a reservation id in a path may hold either (JSON and URLs
 * carry them). Such a string is stored as a marker and its UTF-16 code units in hex, and so is one that begins with
 * the marker, so no two strings share a stored form; every other string is stored as it is (rows written before
 * this keep their meaning). Without it such a request failed on PostgreSQL with a database error (a 500), and in a
 * batched statement would fail the other bookings of its batch.
 */
const MARKER = '\u0001';
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function storedText(value: string): string {
  if (!value.startsWith(MARKER) && !UNSTORABLE.test(value)) return value;
  let hex = MARKER;
  for (let i = 0; i < value.length; i++) hex += value.charCodeAt(i).toString(16).padStart(4, '0');
  return hex;
}

export function fromStoredText(stored: string): string {
  if (!stored.startsWith(MARKER)) return stored;
  let value = '';
  for (let i = MARKER.length; i + 4 <= stored.length; i += 4) {
    value += String.fromCharCode(Number.parseInt(stored.slice(i, i + 4), 16));
  }
  return value;
}

/** The partner_reference column: the reference's stored form, NULL for none (or none held unique). */
export function referenceColumn(reference: string | null): string | null {
  return reference === null ? null : storedText(reference);
}
