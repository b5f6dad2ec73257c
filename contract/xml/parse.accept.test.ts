import { describe, expect, it } from 'vitest';
import { LIMITS } from '../limits.ts';
import type { JsonValue } from '../types.ts';
import { parseTypedXml, type XmlParseResult } from './parse.ts';
import { arrayOfNulls, bytes, concatBytes, doc, NS, nestedArrays } from './test-support.ts';

function accepted(result: XmlParseResult): JsonValue {
  if (!result.ok) throw new Error(`expected the document to be accepted, got ${result.error}: ${result.reason}`);
  return result.value;
}

function parse(xml: string | Uint8Array, root: 'request' | 'response' = 'request'): JsonValue {
  return accepted(parseTypedXml(typeof xml === 'string' ? bytes(xml) : xml, root));
}

describe('4.14 typed XML: documents that are accepted', () => {
  it('reads a default-namespace request', () => {
    expect(parse(doc('<string>hi</string>'))).toBe('hi');
  });

  it('reads booleans written 1 or 0 only when asked (lenientBoolean, for a client judging content)', () => {
    const digit = bytes(doc('<boolean> 1 </boolean>'));
    expect(parseTypedXml(digit, 'request')).toMatchObject({
      ok: false,
      reason: 'boolean is not exactly true or false',
    });
    expect(parseTypedXml(digit, 'request', LIMITS.xml, { lenientBoolean: true })).toEqual({ ok: true, value: true });
    const zero = bytes(doc('<boolean>0</boolean>'));
    expect(parseTypedXml(zero, 'request', LIMITS.xml, { lenientBoolean: true })).toEqual({ ok: true, value: false });
    const yes = bytes(doc('<boolean>yes</boolean>'));
    expect(parseTypedXml(yes, 'request', LIMITS.xml, { lenientBoolean: true })).toMatchObject({ ok: false });
  });

  it('reads comments, PIs, a DTD, CDATA and a spaced number only when asked (responseMarkup, for a client)', () => {
    const marked = bytes(
      `<?xml version="1.0"?><!DOCTYPE response><!-- generated --><?xml-stylesheet href="a.xsl"?>` +
        `<response xmlns="${NS}" version="1"><!-- c --><object><?pi x?><property name="a"><number> 15E5 </number>` +
        `</property><property name="b"><string><![CDATA[x<y]]></string></property></object></response>`,
    );
    expect(parseTypedXml(marked, 'response')).toMatchObject({ ok: false });
    expect(parseTypedXml(marked, 'response', LIMITS.xml, { responseMarkup: true })).toEqual({
      ok: true,
      value: { a: 1_500_000, b: 'x<y' },
    });
    const entity = bytes(
      `<!DOCTYPE response [<!ENTITY e "v">]><response xmlns="${NS}" version="1"><string>&e;</string></response>`,
    );
    expect(parseTypedXml(entity, 'response', LIMITS.xml, { responseMarkup: true })).toMatchObject({ ok: false });
  });

  it('reads a property repeated with the same value only when asked (lenientDuplicates); two values never', () => {
    const twice = (a: string, b: string) =>
      bytes(
        doc(
          `<object><property name="a">${a}</property><property name="b"><null/></property><property name="a">${b}</property></object>`,
        ),
      );
    const same = twice(
      '<object><property name="x"><number>1</number></property></object>',
      '<object><property name="x"><number>1.0</number></property></object>',
    );
    expect(parseTypedXml(same, 'request')).toMatchObject({
      ok: false,
      reason: 'duplicate property name within one object',
    });
    expect(parseTypedXml(same, 'request', LIMITS.xml, { lenientDuplicates: true })).toEqual({
      ok: true,
      value: { a: { x: 1 }, b: null },
    });
    const other = twice('<string>1</string>', '<number>1</number>');
    expect(parseTypedXml(other, 'request', LIMITS.xml, { lenientDuplicates: true })).toMatchObject({
      ok: false,
      reason: 'duplicate property name within one object',
    });
  });

  it('reads a prefixed request and response', () => {
    expect(parse(doc('<p:number>42</p:number>', { prefix: 'p' }))).toBe(42);
    expect(parse(doc('<ns0:boolean>true</ns0:boolean>', { prefix: 'ns0', root: 'response' }), 'response')).toBe(true);
  });

  it('accepts a mix of prefixed and default namespace, and unrelated namespace declarations', () => {
    const xml = `<p:request xmlns:p="${NS}" xmlns:other="urn:example:other" version="1"><object xmlns="${NS}"><property name="a"><p:null/></property></object></p:request>`;
    expect(parse(xml)).toEqual({ a: null });
  });

  it('takes the XML declaration as optional, with or without encoding and standalone', () => {
    const inner = '<null/>';
    expect(parse(doc(inner))).toBeNull();
    expect(parse(doc(inner, { declaration: '<?xml version="1.0"?>' }))).toBeNull();
    expect(parse(doc(inner, { declaration: '<?xml version="1.0" encoding="UTF-8"?>' }))).toBeNull();
    expect(parse(doc(inner, { declaration: "<?xml version='1.0' encoding='utf-8'?>" }))).toBeNull();
    expect(parse(doc(inner, { declaration: '<?xml version="1.0" encoding="Utf-8" standalone="yes"?>\n' }))).toBeNull();
  });

  it('accepts a UTF-8 byte order mark, with and without a declaration', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    expect(parse(concatBytes(bom, doc('<string>x</string>')))).toBe('x');
    expect(
      parse(concatBytes(bom, doc('<string>x</string>', { declaration: '<?xml version="1.0" encoding="UTF-8"?>' }))),
    ).toBe('x');
  });

  it('ignores indentation whitespace between elements and around the root', () => {
    const xml = `<?xml version="1.0"?>\r\n<request xmlns="${NS}" version="1">\r\n  <object>\n\t<property name="a">\n    <array>\n      <item> <number>1</number> </item>\n    </array>\n  </property>\n  </object>\n</request>\n\n`;
    expect(parse(xml)).toEqual({ a: [1] });
  });

  it('decodes the predefined entities and numeric character references in strings', () => {
    expect(parse(doc('<string>&lt;&gt;&amp;&quot;&apos;&#65;&#x1F600;&#x10FFFF;</string>'))).toBe(
      '<>&"\'A\u{1F600}\u{10FFFF}',
    );
  });

  it('keeps string whitespace exactly; an empty element is the empty string', () => {
    expect(parse(doc('<string>  a \t\n b  </string>'))).toBe('  a \t\n b  ');
    expect(parse(doc('<string> </string>'))).toBe(' ');
    expect(parse(doc('<string/>'))).toBe('');
    expect(parse(doc('<string></string>'))).toBe('');
  });

  it('keeps a CR written as &#13;; a literal CR or CRLF is read as LF (XML 1.0 line-end handling)', () => {
    expect(parse(doc('<string>a&#13;b&#13;&#10;c</string>'))).toBe('a\rb\r\nc');
    expect(parse(doc('<string>a\r\nb\rc</string>'))).toBe('a\nb\nc');
  });

  it('carries characters outside the BMP and non-ASCII text', () => {
    expect(parse(doc('<string>Zürich 東京 \u{1F697}</string>'))).toBe('Zürich 東京 \u{1F697}');
  });

  it('reads numbers in integer, decimal and exponent notation', () => {
    const cases: [string, number][] = [
      ['0', 0],
      ['-0', -0],
      ['7', 7],
      ['-12', -12],
      ['3.25', 3.25],
      ['-0.5', -0.5],
      ['1e3', 1000],
      ['1E-3', 0.001],
      ['2.5e+10', 2.5e10],
      ['9007199254740993', 9007199254740992],
      ['1e-400', 0],
      ['1.7976931348623157e308', Number.MAX_VALUE],
    ];
    for (const [text, value] of cases) expect(parse(doc(`<number>${text}</number>`)), text).toBe(value);
  });

  it('reads booleans', () => {
    expect(parse(doc('<boolean>true</boolean>'))).toBe(true);
    expect(parse(doc('<boolean>false</boolean>'))).toBe(false);
  });

  it('reads null as an empty element or whitespace-only content', () => {
    expect(parse(doc('<null/>'))).toBeNull();
    expect(parse(doc('<null></null>'))).toBeNull();
    expect(parse(doc('<null> \n\t\r\n </null>'))).toBeNull();
  });

  it('keeps a missing property distinct from a property set to null', () => {
    const missing = parse(doc('<object><property name="a"><number>1</number></property></object>'));
    const isNull = parse(
      doc('<object><property name="a"><number>1</number></property><property name="b"><null/></property></object>'),
    );
    expect(missing).toStrictEqual({ a: 1 });
    expect(isNull).toStrictEqual({ a: 1, b: null });
    expect(Object.hasOwn(missing as object, 'b')).toBe(false);
    expect(Object.hasOwn(isNull as object, 'b')).toBe(true);
  });

  it('keeps property order and reads arrays in item order, nested', () => {
    const value = parse(
      doc(
        '<object><property name="z"><array><item><array><item><string>a</string></item></array></item><item><object></object></item><item><array/></item></array></property><property name="a"><number>2</number></property></object>',
      ),
    );
    expect(value).toStrictEqual({ z: [['a'], {}, []], a: 2 });
    expect(Object.keys(value as object)).toEqual(['z', 'a']);
  });

  it('decodes property names, keeps their whitespace references, and allows an empty name', () => {
    const value = parse(
      doc(
        '<object><property name="a&#9;b&#10;c&#13;d &lt;&amp;&quot;&apos;"><null/></property><property name=""><null/></property></object>',
      ),
    );
    expect(value).toStrictEqual({ 'a\tb\nc\rd <&"\'': null, '': null });
  });

  it('builds plain objects whose keys are own data properties, even names found on Object.prototype', () => {
    const value = parse(
      doc(
        '<object><property name="toString"><string>x</string></property><property name="hasOwnProperty"><number>1</number></property><property name="__defineGetter__"><null/></property></object>',
      ),
    ) as Record<string, JsonValue>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['toString', 'hasOwnProperty', '__defineGetter__']);
    expect(value.toString).toBe('x');
    expect(JSON.stringify(value)).toBe('{"toString":"x","hasOwnProperty":1,"__defineGetter__":null}');
  });

  it('accepts 32 levels of nesting (the root is level 1)', () => {
    const result = parseTypedXml(bytes(doc(nestedArrays(32))), 'request');
    let value = accepted(result);
    let depth = 2;
    while (Array.isArray(value)) {
      value = value[0] as JsonValue;
      depth += 2;
    }
    expect(value).toBeNull();
    expect(depth).toBe(32);
  });

  it('accepts 4,096 elements (counting the root) when the byte limit is not in the way', () => {
    // 2 + 2 * 2047 = 4096 elements; that many cannot fit in 32,000 bytes, so bytes are unlimited here.
    const xml = doc(arrayOfNulls(2047));
    const result = parseTypedXml(bytes(xml), 'request', { ...LIMITS.xml, maxBytes: Number.POSITIVE_INFINITY });
    expect(accepted(result)).toHaveLength(2047);
  });

  it('accepts a body of exactly 32,000 bytes', () => {
    const base = doc('<string></string>');
    // A two-byte character proves the limit is on bytes, not characters.
    const padding = 'é'.repeat(1000) + 'a'.repeat(LIMITS.xml.maxBytes - bytes(base).length - 2000);
    const body = bytes(doc(`<string>${padding}</string>`));
    expect(body.length).toBe(32_000);
    expect(parse(body)).toBe(padding);
  });
});
