/** The shapes of named hostile cases: whole bodies, or header variations of an otherwise valid request. */
import type { XmlParseResult } from '../contract/xml/index.ts';
import type { Expectation } from './expectations.ts';

/** What contract/xml's parseTypedXml answers for the body under spec 8's limits (XML cases only). */
export type CodecVerdict = { ok: true } | Extract<XmlParseResult, { ok: false }>;

export interface BodyCase {
  /** Stable and descriptive: 'xml: DTD with billion laughs'. */
  name: string;
  /** null: send the body without a Content-Type header. */
  contentType: string | null;
  bytes: Uint8Array;
  expect: Expectation;
  codec?: CodecVerdict;
}

export interface HeaderCase {
  name: string;
  /** Header values to put on an otherwise valid request (lower-case names); null removes the header. */
  headers: Readonly<Record<string, string | null>>;
  expect: Expectation;
}

const encoder = new TextEncoder();

export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}

export function concatBytes(...parts: readonly (Uint8Array | string)[]): Uint8Array {
  const arrays = parts.map((p) => (typeof p === 'string' ? utf8(p) : p));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let offset = 0;
  for (const a of arrays) {
    out.set(a, offset);
    offset += a.length;
  }
  return out;
}

/** Byte sequences that are not UTF-8 (RFC 3629), each with the name a report shows. */
export const INVALID_UTF8: readonly { name: string; bytes: Uint8Array }[] = [
  { name: 'overlong encoding of "/" (C0 AF)', bytes: new Uint8Array([0xc0, 0xaf]) },
  { name: 'lone continuation byte (80)', bytes: new Uint8Array([0x80]) },
  { name: 'encoded surrogate U+D800 (ED A0 80)', bytes: new Uint8Array([0xed, 0xa0, 0x80]) },
  { name: 'truncated sequence (E1 BA, then ASCII)', bytes: new Uint8Array([0xe1, 0xba]) },
];
