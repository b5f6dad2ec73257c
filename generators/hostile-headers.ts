/**
 * Header faults on an otherwise valid request: Idempotency-Key (spec 4.7, 8), Content-Type (4.13) and Accept
 * (4.13). Bearer tokens are in hostile-bearer.ts (they need signing).
 */
import fc from 'fast-check';
import { MEDIA_TYPES } from '../contract/constants.ts';
import { LIMITS } from '../contract/limits.ts';
import type { BodyCase, HeaderCase } from './cases.ts';
import { accepted, type Expectation, rejectWith, rejectWithAnyCodeOf } from './expectations.ts';
import { renderBody } from './render.ts';
import { visibleAsciiChar } from './text.ts';

const KEY = 'idempotency-key';

/** A visible-ASCII key of exactly `length` characters, deterministic, recognisable in logs. */
export function keyOfLength(length: number): string {
  const stem = 'certification-probe-';
  let out = '';
  while (out.length < length) out += stem;
  return out.slice(0, length);
}

/** Spec 4.7: missing, empty, and one past each length bound (8 to 200). */
export function idempotencyKeyCases(): HeaderCase[] {
  const { min, max } = LIMITS.idempotencyKeyLength;
  const lengthBasis = 'spec 4.7, 8: 8 to 200 characters; docs/ambiguities.md #32';
  return [
    {
      name: 'Idempotency-Key missing',
      headers: { [KEY]: null },
      expect: rejectWith('MUST', 'spec 4.7.1', 'IDEMPOTENCY_KEY_REQUIRED'),
    },
    {
      name: 'Idempotency-Key empty',
      headers: { [KEY]: '' },
      expect: rejectWithAnyCodeOf('MUST', lengthBasis, 'IDEMPOTENCY_KEY_REQUIRED', 'VALIDATION_ERROR'),
    },
    {
      name: `Idempotency-Key of ${min - 1} characters`,
      headers: { [KEY]: keyOfLength(min - 1) },
      expect: rejectWithAnyCodeOf('MUST', lengthBasis, 'VALIDATION_ERROR', 'IDEMPOTENCY_KEY_REQUIRED'),
    },
    {
      name: `Idempotency-Key of ${max + 1} characters`,
      headers: { [KEY]: keyOfLength(max + 1) },
      expect: rejectWithAnyCodeOf('MUST', lengthBasis, 'VALIDATION_ERROR', 'IDEMPOTENCY_KEY_REQUIRED'),
    },
  ];
}

/** A key of visible ASCII that is too short (1 to 7) or too long (201 to 400). */
export function badIdempotencyKey(): fc.Arbitrary<string> {
  const { min, max } = LIMITS.idempotencyKeyLength;
  const unit = visibleAsciiChar();
  return fc.oneof(
    fc.string({ unit, minLength: 1, maxLength: min - 1 }),
    fc.string({ unit, minLength: max + 1, maxLength: 2 * max }),
  );
}

const UNSUPPORTED_TYPES = [
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=probe',
  'application/octet-stream',
  'text/json',
  'application/javascript',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/xhtml+xml',
] as const;

/**
 * Content-Type faults and accepted variants for a valid request value (spec 4.13). The body is JSON unless the
 * declared type is XML. Mismatches (JSON declared as XML and back) must fail on the declared representation.
 */
export function contentTypeCases(valid: object): BodyCase[] {
  const json = renderBody(valid, 'json').bytes;
  const xml = renderBody(valid, 'xml').bytes;
  const unsupported = rejectWith('MUST', 'spec 4.13: otherwise 415 UNSUPPORTED_MEDIA_TYPE', 'UNSUPPORTED_MEDIA_TYPE');
  const cases: BodyCase[] = UNSUPPORTED_TYPES.map((contentType) => ({
    name: `Content-Type: ${contentType}`,
    contentType,
    bytes: json,
    expect: unsupported,
  }));
  const more: [string, string | null, Uint8Array, Expectation][] = [
    // Spec 4.13 asks for 415 "otherwise"; spec 4 says business endpoints "receive JSON by default": a body without
    // Content-Type read as JSON is allowed too (docs/ambiguities.md "JSON by default"), so 415 is only graded SHOULD.
    [
      'no Content-Type',
      null,
      json,
      rejectWith(
        'SHOULD',
        'spec 4.13: otherwise 415; spec 4: JSON by default (read as JSON allowed)',
        'UNSUPPORTED_MEDIA_TYPE',
      ),
    ],
    ['Content-Type: application/vnd.partner+json', 'application/vnd.partner+json', json, 'unspecified'],
    ['Content-Type: application/json; charset=iso-8859-1', 'application/json; charset=iso-8859-1', json, 'unspecified'],
    [
      'JSON body declared application/xml',
      MEDIA_TYPES.xml,
      json,
      rejectWith('MUST', 'spec 4.13, 4.14: read as XML', 'MALFORMED_XML'),
    ],
    [
      'XML body declared application/json',
      MEDIA_TYPES.json,
      xml,
      rejectWith('MUST', 'spec 4.13: invalid JSON body', 'MALFORMED_JSON'),
    ],
    [
      'Content-Type: application/json; charset=utf-8',
      'application/json; charset=utf-8',
      json,
      accepted('MUST', 'spec 4.13'),
    ],
    [
      'Content-Type: application/xml; charset=utf-8',
      'application/xml; charset=utf-8',
      xml,
      accepted('MUST', 'spec 4.13, 4.14'),
    ],
    ['Content-Type: text/xml', MEDIA_TYPES.textXml, xml, accepted('MUST', 'spec 4.13')],
    [
      'Content-Type: Application/JSON',
      'Application/JSON',
      json,
      accepted('SHOULD', 'RFC 9110 8.3.1: media types are case-insensitive'),
    ],
    [
      'Content-Type: application/json;charset="UTF-8"',
      'application/json;charset="UTF-8"',
      json,
      accepted('SHOULD', 'RFC 9110 8.3.1: quoted parameter value'),
    ],
  ];
  for (const [name, contentType, bytes, expect] of more) cases.push({ name, contentType, bytes, expect });
  return cases;
}

/** What spec 4.13 makes of an Accept header: a response type, either XML type, or 406. */
export type Negotiated = 'json' | 'xml' | 'text-xml' | 'either-xml' | 'not-acceptable';

const OFFERS = [
  ['json', 'application', 'json'],
  ['xml', 'application', 'xml'],
  ['text-xml', 'text', 'xml'],
] as const;

/**
 * Spec 4.13 with RFC 9110 12.5.1 for what it leaves to HTTP: each offered type takes the q of the most specific
 * range matching it (type/subtype over type/* over *\/*), q=0 means not acceptable, the highest q wins and a
 * tie with JSON chooses JSON. A tie of the two XML types is either (docs/ambiguities.md #17).
 */
export function negotiate(accept: string | null): Negotiated {
  if (accept === null) return 'json';
  const ranges = accept
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const [range = '', ...params] = part.split(';').map((p) => p.trim());
      const [type = '', subtype = ''] = range.toLowerCase().split('/');
      const qParam = params.find((p) => /^q\s*=/i.test(p));
      const q = qParam === undefined ? 1 : Number(qParam.split('=')[1]);
      return { type, subtype, q: Number.isFinite(q) ? q : 1 };
    });
  const qOf = (type: string, subtype: string): number => {
    const exact = ranges.find((r) => r.type === type && r.subtype === subtype);
    if (exact) return exact.q;
    const partial = ranges.find((r) => r.type === type && r.subtype === '*');
    if (partial) return partial.q;
    return ranges.find((r) => r.type === '*' && r.subtype === '*')?.q ?? 0;
  };
  const scored = OFFERS.map(([name, type, subtype]) => ({ name, q: qOf(type, subtype) }));
  const best = Math.max(...scored.map((s) => s.q));
  if (best <= 0) return 'not-acceptable';
  const top = scored.filter((s) => s.q === best).map((s) => s.name);
  if (top.includes('json')) return 'json';
  return top.length === 2 ? 'either-xml' : (top[0] as Negotiated);
}

const MEDIA_OF: Record<Exclude<Negotiated, 'not-acceptable'>, readonly string[]> = {
  json: [MEDIA_TYPES.json],
  xml: [MEDIA_TYPES.xml],
  'text-xml': [MEDIA_TYPES.textXml],
  'either-xml': [MEDIA_TYPES.xml, MEDIA_TYPES.textXml],
};

/**
 * Spec 4.13 read by its words alone: a range names a type only in the letter case written, and q=0 is the lowest
 * weight rather than "not acceptable". Where this reading and RFC 9110's (negotiate) agree, the spec decides the
 * outcome; where they differ (q=0 alone, another letter case) the outcome rests on RFC 9110 (docs/ambiguities.md G3).
 */
export function negotiateLiterally(accept: string): Negotiated {
  const ranges = accept
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const [range = '', ...params] = part.split(';').map((p) => p.trim());
      const [type = '', subtype = ''] = range.split('/');
      const qParam = params.find((p) => /^q\s*=/i.test(p));
      const q = qParam === undefined ? 1 : Number(qParam.split('=')[1]);
      return { type, subtype, q: Number.isFinite(q) ? q : 1 };
    });
  const qOf = (type: string, subtype: string): number | undefined =>
    (
      ranges.find((r) => r.type === type && r.subtype === subtype) ??
      ranges.find((r) => r.type === type && r.subtype === '*') ??
      ranges.find((r) => r.type === '*' && r.subtype === '*')
    )?.q;
  const scored = OFFERS.flatMap(([name, type, subtype]) => {
    const q = qOf(type, subtype);
    return q === undefined ? [] : [{ name, q }];
  });
  if (scored.length === 0) return 'not-acceptable';
  const best = Math.max(...scored.map((s) => s.q));
  const top = scored.filter((s) => s.q === best).map((s) => s.name);
  if (top.includes('json')) return 'json';
  return top.length === 2 ? 'either-xml' : (top[0] as Negotiated);
}

/**
 * The expectation for an Accept header; SHOULD where it rests on RFC 9110 rather than the spec's words (q=0 as
 * "not acceptable", letter case), MUST where the words alone decide it (`application/json;q=0, application/xml`:
 * the higher q wins).
 */
export function acceptExpectation(accept: string | null, level?: 'MUST' | 'SHOULD'): Expectation {
  const outcome = negotiate(accept);
  const inferred = accept !== null && negotiateLiterally(accept) !== outcome;
  const lvl = level ?? (inferred ? 'SHOULD' : 'MUST');
  const basis = `spec 4.13${inferred ? '; RFC 9110 12.5.1 (q=0, case)' : ''}${outcome === 'either-xml' ? '; docs/ambiguities.md #17' : ''}`;
  if (outcome === 'not-acceptable') return rejectWith(lvl, `${basis}: 406 with a JSON error body`, 'NOT_ACCEPTABLE');
  return accepted(lvl, basis, MEDIA_OF[outcome]);
}

const NAMED_ACCEPTS: readonly (string | null)[] = [
  null,
  'application/json',
  'application/xml',
  'text/xml',
  '*/*',
  'application/*',
  'text/*',
  'application/json;q=0.5, application/xml',
  'application/xml;q=0.4, application/json;q=0.9',
  'text/xml;q=0.8, application/json;q=0.2',
  '*/*;q=0.1, application/xml',
  'application/xml, application/json',
  'application/xml;q=0.7, application/json;q=0.7',
  'text/xml, application/xml',
  'application/xml ; q=0.9 , application/json ; q=0.8',
  'application/xml;q=1.0',
  'application/json;q=0.001, text/html',
  'text/html;q=0.9, application/*;q=0.1',
  'text/html',
  'image/png, text/plain;q=0.5',
  'application/json;q=0, */*',
  'application/json;q=0, application/xml',
  'application/json;q=0, text/xml;q=0.5',
  'application/json;q=0',
  '*/*;q=0',
  'APPLICATION/XML',
];

/** Accept headers of spec 4.13 with their outcome; `accept` null means the header is absent. */
export function acceptCases(): HeaderCase[] {
  return NAMED_ACCEPTS.map((accept) => ({
    name: accept === null ? 'Accept absent' : `Accept: ${accept}`,
    headers: { accept },
    expect: acceptExpectation(accept),
  }));
}

const RANGE_POOL = [
  'application/json',
  'application/xml',
  'text/xml',
  'text/*',
  'application/*',
  '*/*',
  'text/html',
  'image/png',
  'application/xhtml+xml',
] as const;
const Q_VALUES = [undefined, '1', '0.9', '0.5', '0.1', '0.001', '0'] as const;

/** Accept lists of one to four distinct ranges with q values, each with its spec 4.13 outcome. */
export function acceptHeader(): fc.Arbitrary<HeaderCase> {
  const range = fc.tuple(fc.constantFrom(...RANGE_POOL), fc.constantFrom(...Q_VALUES));
  return fc
    .tuple(fc.uniqueArray(range, { minLength: 1, maxLength: 4, selector: ([r]) => r }), fc.constantFrom(', ', ','))
    .map(([ranges, separator]) => {
      const accept = ranges.map(([r, q]) => (q === undefined ? r : `${r};q=${q}`)).join(separator);
      return { name: `Accept: ${accept}`, headers: { accept }, expect: acceptExpectation(accept) };
    });
}
