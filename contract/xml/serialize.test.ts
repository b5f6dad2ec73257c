import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../types.ts';
import { XmlValueError } from './errors.ts';
import { parseTypedXml } from './parse.ts';
import { isXmlRepresentable, serializeTypedXml } from './serialize.ts';
import { bytes, NS } from './test-support.ts';

const DECL = '<?xml version="1.0" encoding="UTF-8"?>';

function roundTrip(value: JsonValue): JsonValue {
  const result = parseTypedXml(bytes(serializeTypedXml(value, 'request')), 'request');
  if (!result.ok) throw new Error(result.reason);
  return result.value;
}

describe('4.14 typed XML: serializing', () => {
  it('writes the declaration, the root with namespace and version, and compact typed elements', () => {
    const xml = serializeTypedXml({ a: [1, 'x', true, null], b: {} }, 'response');
    expect(xml).toBe(
      `${DECL}<response xmlns="${NS}" version="1"><object><property name="a"><array><item><number>1</number></item><item><string>x</string></item><item><boolean>true</boolean></item><item><null/></item></array></property><property name="b"><object></object></property></object></response>`,
    );
  });

  it('writes a prefix on every element when asked, and leaves out the declaration when asked', () => {
    const xml = serializeTypedXml({ k: [false] }, 'request', { prefix: 'p', declaration: false });
    expect(xml).toBe(
      `<p:request xmlns:p="${NS}" version="1"><p:object><p:property name="k"><p:array><p:item><p:boolean>false</p:boolean></p:item></p:array></p:property></p:object></p:request>`,
    );
  });

  it('writes empty strings, arrays and objects', () => {
    expect(serializeTypedXml(['', [], {}], 'request', { declaration: false })).toBe(
      `<request xmlns="${NS}" version="1"><array><item><string></string></item><item><array></array></item><item><object></object></item></array></request>`,
    );
  });

  it('escapes &, <, > and CR in text', () => {
    const xml = serializeTypedXml('a&b<c>d]]>e\rf\ng\th"i\'j', 'request', { declaration: false });
    expect(xml).toContain('<string>a&amp;b&lt;c&gt;d]]&gt;e&#13;f\ng\th"i\'j</string>');
  });

  it('escapes &, <, >, " and tab, LF, CR in property names', () => {
    const xml = serializeTypedXml({ 'a&b<c>d"e\tf\ng\rh\'i': 1 }, 'request', { declaration: false });
    expect(xml).toContain('<property name="a&amp;b&lt;c&gt;d&quot;e&#9;f&#10;g&#13;h\'i">');
  });

  it('writes numbers as JSON does; -0 becomes 0', () => {
    const cases: [number, string][] = [
      [0, '0'],
      [-0, '0'],
      [-12.5, '-12.5'],
      [1e21, '1e+21'],
      [5e-7, '5e-7'],
      [Number.MAX_VALUE, '1.7976931348623157e+308'],
      [Number.MIN_VALUE, '5e-324'],
    ];
    for (const [n, text] of cases) {
      expect(serializeTypedXml(n, 'request', { declaration: false })).toContain(`<number>${text}</number>`);
      expect(roundTrip(n)).toBe(n === 0 ? 0 : n);
    }
  });

  it('keeps a missing property and a property set to null distinct', () => {
    const missing = serializeTypedXml({ a: 1 }, 'request');
    const isNull = serializeTypedXml({ a: 1, b: null }, 'request');
    expect(isNull).toContain('<property name="b"><null/></property>');
    expect(missing).not.toContain('name="b"');
    expect(roundTrip({ a: 1 })).toStrictEqual({ a: 1 });
    expect(roundTrip({ a: 1, b: null })).toStrictEqual({ a: 1, b: null });
  });

  it('leaves out object properties whose value is undefined, as JSON.stringify does', () => {
    const value = { a: 1, b: undefined } as unknown as JsonValue;
    expect(roundTrip(value)).toStrictEqual({ a: 1 });
    expect(JSON.stringify(value)).toBe('{"a":1}');
  });

  it('writes objects without a prototype like plain objects', () => {
    const value = Object.assign(Object.create(null) as Record<string, JsonValue>, { x: 'y' });
    expect(roundTrip(value)).toStrictEqual({ x: 'y' });
  });

  it('accepts every boundary of the XML 1.0 character ranges', () => {
    const ok = [
      '\t',
      '\n',
      '\r',
      ' ',
      '\u007f',
      '\u0085',
      '\u2028',
      '\uD7FF',
      '\uE000',
      '\uFFFD',
      '\u{10000}',
      '\u{10FFFF}',
    ];
    for (const c of ok) {
      expect(isXmlRepresentable(c), JSON.stringify(c)).toBe(true);
      expect(roundTrip(c)).toBe(c);
      expect(roundTrip({ [c]: c })).toStrictEqual({ [c]: c });
    }
  });

  describe('throws XmlValueError for values with no XML form', () => {
    const controls = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).filter(
      (c) => !'\t\n\r'.includes(c),
    );
    const badStrings = [
      ...controls,
      '\uFFFE',
      '\uFFFF',
      '\uD800',
      '\uDBFF',
      '\uDC00',
      '\uDFFF',
      'a\uD83D',
      '\uDE00b',
      '\uDE00\uD83D',
    ];
    const cases: [string, unknown][] = [
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
      ['-Infinity', Number.NEGATIVE_INFINITY],
      ['NaN nested in an array', [1, [Number.NaN]]],
      ['U+0000 in a string', 'a\u0000b'],
      ['a lone surrogate in a string', 'x\uD800'],
      ...badStrings.map((s): [string, unknown] => [`string ${JSON.stringify(s)}`, { ok: 'fine', v: s }]),
      ...badStrings.map((s): [string, unknown] => [`property name ${JSON.stringify(s)}`, { [s]: 1 }]),
      ['property name __proto__', JSON.parse('{"__proto__": 1}')],
      ['property name prototype', { prototype: 1 }],
      ['property name constructor', { constructor: 1 }],
      ['undefined', undefined],
      ['undefined in an array', [1, undefined]],
      // biome-ignore lint/suspicious/noSparseArray: the hole is the point
      ['a hole in an array', [1, , 2]],
      ['a function', { f: () => 1 }],
      ['a bigint', 1n],
      ['a symbol', Symbol('s')],
      ['a Date', new Date(0)],
      ['a Map', new Map()],
    ];
    it.each(cases)('%s', (_title, value) => {
      expect(() => serializeTypedXml(value as JsonValue, 'request')).toThrow(XmlValueError);
      expect(isXmlRepresentable(value as JsonValue)).toBe(false);
    });

    it('names where the value is, without the value itself', () => {
      try {
        serializeTypedXml({ driver: { names: ['ok', 'se\u0000cret'] } }, 'request');
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(XmlValueError);
        expect((err as XmlValueError).path).toEqual(['driver', 'names', 1]);
        expect((err as XmlValueError).message).toContain('/driver/names/1');
        expect((err as XmlValueError).message).not.toContain('cret');
      }
    });
  });

  it('refuses prefixes that are not usable NCNames', () => {
    for (const prefix of ['xml', 'xmlns', '1a', 'a:b', 'a b', '-a', 'é']) {
      expect(() => serializeTypedXml(null, 'request', { prefix }), prefix).toThrow(TypeError);
    }
    expect(serializeTypedXml(null, 'request', { prefix: '', declaration: false })).toBe(
      `<request xmlns="${NS}" version="1"><null/></request>`,
    );
  });
});
