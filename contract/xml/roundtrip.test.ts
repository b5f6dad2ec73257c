import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../limits.ts';
import type { JsonValue } from '../types.ts';
// Through the public entry point, as the reference implementation and the suite use it.
import {
  isXmlRepresentable,
  parseTypedXml,
  XML_REJECTION_REASONS as REASONS,
  serializeTypedXml,
  type XmlParseResult,
  type XmlRoot,
  XmlValueError,
} from './index.ts';
import { bytes } from './test-support.ts';

// Written from the XML 1.0 Char production, independently of the code under test.
const xmlChar = fc
  .oneof(
    fc.constantFrom(0x9, 0xa, 0xd),
    fc.integer({ min: 0x20, max: 0x7e }),
    fc.integer({ min: 0x20, max: 0xd7ff }),
    fc.integer({ min: 0xe000, max: 0xfffd }),
    fc.integer({ min: 0x10000, max: 0x10ffff }),
  )
  .map((cp) => String.fromCodePoint(cp));

/** Pieces that stress escaping and normalisation. */
const tricky = fc.constantFrom(
  '\r',
  '\r\n',
  '\t',
  '\n',
  ' ',
  '<',
  '>',
  '&',
  '"',
  "'",
  ']]>',
  '&amp;',
  '&#13;',
  '<!--',
  '<![CDATA[',
  '<?xml',
  '\u{1F697}',
  '\u0085',
  '\u2028',
  '\uFEFF',
  '\u00a0',
);

const xmlString = fc.string({ unit: fc.oneof(xmlChar, tricky), maxLength: 12 });

const RESERVED = new Set(['__proto__', 'prototype', 'constructor']);
const key = fc
  .oneof(
    xmlString,
    fc.constantFrom(
      '',
      ' ',
      'toString',
      'hasOwnProperty',
      'valueOf',
      '__defineGetter__',
      'Constructor',
      '__proto',
      '0',
      '10',
    ),
  )
  .filter((k) => !RESERVED.has(k));

const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(-0, 1e21, 5e-324, Number.MAX_VALUE, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0.1),
);

// Each container adds two levels (array+item or object+property); maxDepth 6 keeps the deepest
// scalar at level 2 + 2 * 6 = 14, well inside 32.
const { value: jsonValue } = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 6 },
    fc.constant(null),
    fc.boolean(),
    number,
    xmlString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
}));

const prefix = fc.constantFrom(undefined, 'p', 'ns0', '_x', 'partner-api', 'a.b');
const root = fc.constantFrom<XmlRoot>('request', 'response');
const unlimitedBytes = { ...LIMITS.xml, maxBytes: Number.POSITIVE_INFINITY };

function same(a: JsonValue, b: JsonValue): void {
  expect(JSON.stringify(a)).toBe(JSON.stringify(b));
}

function acceptedValue(result: XmlParseResult): JsonValue {
  if (!result.ok) throw new Error(`${result.error}: ${result.reason}`);
  return result.value;
}

describe('4.14 typed XML: value → XML → value', () => {
  it('keeps every XML-representable JSON value exactly, with the default namespace and with a prefix', () => {
    fc.assert(
      fc.property(jsonValue, root, prefix, fc.boolean(), (value, rootName, p, declaration) => {
        expect(isXmlRepresentable(value)).toBe(true);
        const xml = serializeTypedXml(value, rootName, { prefix: p, declaration });
        const body = bytes(xml);
        if (body.length <= LIMITS.xml.maxBytes) {
          same(acceptedValue(parseTypedXml(body, rootName)), value);
        } else {
          // Rare large cases: the default limit refuses them, the codec still keeps them.
          expect(parseTypedXml(body, rootName)).toMatchObject({ ok: false, error: 'too_large' });
          same(acceptedValue(parseTypedXml(body, rootName, unlimitedBytes)), value);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses, on both sides, any string holding a character XML 1.0 cannot carry', () => {
    const bad = fc
      .integer({ min: 0, max: 0xffff })
      .filter(
        (cp) => (cp < 0x20 && cp !== 0x9 && cp !== 0xa && cp !== 0xd) || cp >= 0xfffe || (cp >= 0xd800 && cp <= 0xdfff),
      )
      .map((cp) => String.fromCharCode(cp));
    fc.assert(
      fc.property(xmlString, bad, xmlString, fc.boolean(), (before, c, after, asKey) => {
        // xmlString holds whole code points only, so a surrogate `c` cannot pair up with a neighbour.
        const s = before + c + after;
        const value: JsonValue = asKey ? { [s]: null } : [s];
        expect(isXmlRepresentable(value)).toBe(false);
        expect(() => serializeTypedXml(value, 'request')).toThrow(XmlValueError);
      }),
    );
  });
});

describe('4.14 typed XML: parsing never throws', () => {
  it('answers arbitrary bytes with a value or a fixed reason', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), root, (body, rootName) => {
        const result = parseTypedXml(body, rootName);
        if (!result.ok) expect(Object.values(REASONS)).toContain(result.reason);
      }),
    );
  });

  it('answers mutated valid documents with a value that survives another round, or a fixed reason', () => {
    const edit = fc.record({ at: fc.nat(), remove: fc.nat({ max: 3 }), insert: fc.oneof(xmlString, tricky) });
    fc.assert(
      fc.property(jsonValue, fc.array(edit, { minLength: 1, maxLength: 3 }), prefix, (value, edits, p) => {
        let xml = serializeTypedXml(value, 'request', { prefix: p });
        for (const { at, remove, insert } of edits) {
          const i = at % (xml.length + 1);
          xml = xml.slice(0, i) + insert + xml.slice(i + remove);
        }
        const result = parseTypedXml(bytes(xml), 'request', unlimitedBytes);
        if (!result.ok) {
          expect(Object.values(REASONS)).toContain(result.reason);
          return;
        }
        // Whatever the parser accepts has an XML form that reads back the same.
        const again = parseTypedXml(bytes(serializeTypedXml(result.value, 'request')), 'request', unlimitedBytes);
        same(acceptedValue(again), result.value);
      }),
      { numRuns: 300 },
    );
  });
});
