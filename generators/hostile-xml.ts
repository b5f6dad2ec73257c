/**
 * XML attacks on a request body (spec 4.14, 8): each case is a valid request's typed-XML document with one
 * fault, named, with what the target must answer and what contract/xml's parser answers.
 *
 * Two limits cannot be reached by an otherwise valid body: a typed document only nests values at even levels
 * and always has an even element count, and no request schema admits deep or long structures. The depth and
 * node cases therefore hang their structure under an unknown property: the XML limit must decide before the
 * schema would (spec 4.14: the XML is converted, then validated). Next to the level-33 case, a 32-level one
 * shows the same body is refused by the schema only.
 */
import { MEDIA_TYPES, XML_NAMESPACE, XML_VERSION } from '../contract/constants.ts';
import { LIMITS } from '../contract/limits.ts';
import type { JsonValue } from '../contract/types.ts';
import { XML_REJECTION_REASONS as REASONS, serializeTypedXml } from '../contract/xml/index.ts';
import { type BodyCase, type CodecVerdict, INVALID_UTF8, utf8 } from './cases.ts';
import { accepted, type Expectation, rejectWith, rejectWithAnyCodeOf } from './expectations.ts';
import { UNKNOWN_PROPERTY } from './hostile-schema.ts';
import { spliceFirstString } from './splice.ts';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

export interface XmlAttackOptions {
  /** Declared media type (default application/xml). */
  contentType?: typeof MEDIA_TYPES.xml | typeof MEDIA_TYPES.textXml;
}

const ROOT_OPEN = `<request xmlns="${XML_NAMESPACE}" version="${XML_VERSION}">`;
const ROOT_CLOSE = '</request>';

/** The typed value element alone, as the serializer writes it inside the default-namespace root. */
export function valueElement(value: JsonValue): string {
  const doc = serializeTypedXml(value, 'request', { declaration: false });
  if (!doc.startsWith(ROOT_OPEN) || !doc.endsWith(ROOT_CLOSE))
    throw new Error('valueElement: unexpected serializer output');
  return doc.slice(ROOT_OPEN.length, doc.length - ROOT_CLOSE.length);
}

/** A document around a value element, with a chosen prolog and root start tag. */
function documentOf(inner: string, prolog = XML_DECLARATION, rootOpen = ROOT_OPEN, rootClose = ROOT_CLOSE): string {
  return `${prolog}${rootOpen}${inner}${rootClose}`;
}

/** A value nested `pairs` arrays deep, around null: under a root property its null sits at level 4 + 2 * pairs. */
function nestedArrays(pairs: number): JsonValue {
  let v: JsonValue = null;
  for (let i = 0; i < pairs; i++) v = [v];
  return v;
}

/** Elements of a compact typed document: every start tag, self-closing or not. */
export function elementCount(xml: string): number {
  return xml.match(/<[A-Za-z_]/g)?.length ?? 0;
}

const malformed = (reason: string): CodecVerdict => ({ ok: false, error: 'malformed', reason });
const tooLarge: CodecVerdict = { ok: false, error: 'too_large', reason: REASONS.tooLarge };
const MUST_MALFORMED = rejectWith('MUST', 'spec 4.14: rejected; 7.3 MALFORMED_XML', 'MALFORMED_XML');

/** The billion-laughs DTD: ten entities each ten times the previous, 10^9 "lol"s from one reference. */
function billionLaughs(): string {
  const entities = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return `<!DOCTYPE request [${entities.join('')}]>`;
}

/**
 * Every named XML attack on one valid request value (an object: a request body). A case the target must answer
 * like the plain document carries no XML declaration unless the declaration is its subject: a target refusing the
 * declaration then fails 4.14.16 alone, not every clause whose allowed form is sent.
 */
export function xmlAttacks(valid: object, options: XmlAttackOptions = {}): BodyCase[] {
  const value = valid as JsonValue;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('xmlAttacks: a request object');
  const contentType = options.contentType ?? MEDIA_TYPES.xml;
  const inner = valueElement(value);
  const cases: BodyCase[] = [];
  const add = (name: string, body: Uint8Array | string, expect: Expectation, codec: CodecVerdict) =>
    cases.push({
      name: `xml: ${name}`,
      contentType,
      bytes: typeof body === 'string' ? utf8(body) : body,
      expect,
      codec,
    });
  const render = (prolog: string) => (v: JsonValue) => documentOf(valueElement(v), prolog);
  const inString = (prolog: string, mode: 'replace' | 'append', fault: (original: string) => Uint8Array | string) =>
    spliceFirstString(value, render(prolog), { mode, fault });

  // Document type declarations, with and without entities (spec 4.14: DTDs and custom entities are rejected).
  const doctype = malformed(REASONS.doctype);
  add(
    'DTD with billion laughs',
    inString(XML_DECLARATION + billionLaughs(), 'replace', () => '&lol9;'),
    MUST_MALFORMED,
    doctype,
  );
  add(
    'DTD with quadratic blow-up',
    inString(`${XML_DECLARATION}<!DOCTYPE request [<!ENTITY a "${'a'.repeat(8_000)}">]>`, 'replace', () =>
      '&a;'.repeat(3_000),
    ),
    MUST_MALFORMED,
    doctype,
  );
  add(
    'DTD with external entity (file)',
    inString(
      `${XML_DECLARATION}<!DOCTYPE request [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>`,
      'replace',
      () => '&xxe;',
    ),
    MUST_MALFORMED,
    doctype,
  );
  add(
    'DTD with external entity (http)',
    inString(
      `${XML_DECLARATION}<!DOCTYPE request [<!ENTITY xxe SYSTEM "http://certification-probe.invalid/xxe">]>`,
      'replace',
      () => '&xxe;',
    ),
    MUST_MALFORMED,
    doctype,
  );
  add(
    'DTD with parameter entity',
    documentOf(
      inner,
      `${XML_DECLARATION}<!DOCTYPE request [<!ENTITY % ext SYSTEM "http://certification-probe.invalid/ext.dtd"> %ext;]>`,
    ),
    MUST_MALFORMED,
    doctype,
  );
  // If a parser expanded it, the value would be exactly the valid one: only the DTD is wrong.
  add('DTD declaring a custom entity for a value', customEntityDocument(value), MUST_MALFORMED, doctype);
  add(
    'bare document type declaration',
    documentOf(inner, `${XML_DECLARATION}<!DOCTYPE request>`),
    MUST_MALFORMED,
    doctype,
  );
  add(
    'undeclared custom entity reference',
    inString(XML_DECLARATION, 'append', () => '&probe;'),
    MUST_MALFORMED,
    malformed(REASONS.entity),
  );

  // Markup the representation excludes.
  add('comment inside the root', documentOf(`<!-- probe -->${inner}`), MUST_MALFORMED, malformed(REASONS.comment));
  add(
    'comment before the root',
    documentOf(inner, `${XML_DECLARATION}<!-- probe -->`),
    MUST_MALFORMED,
    malformed(REASONS.comment),
  );
  add(
    'CDATA section holding a string value',
    inString(XML_DECLARATION, 'replace', (s) => `<![CDATA[${s.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`),
    MUST_MALFORMED,
    malformed(REASONS.cdata),
  );
  add(
    'processing instruction inside the root',
    documentOf(`<?probe data?>${inner}`),
    MUST_MALFORMED,
    malformed(REASONS.processingInstruction),
  );
  add(
    'processing instruction before the root',
    documentOf(inner, `${XML_DECLARATION}<?xml-stylesheet type="text/xsl" href="probe.xsl"?>`),
    MUST_MALFORMED,
    malformed(REASONS.processingInstruction),
  );

  // Property names (spec 4.14; docs/ambiguities.md #27 lets these be VALIDATION_ERROR too).
  const nameBasis = 'spec 4.14; docs/ambiguities.md #27';
  const [firstKey] = Object.keys(value);
  if (firstKey !== undefined) {
    const duplicate = propertyElement(firstKey, (value as Record<string, JsonValue>)[firstKey] as JsonValue);
    add(
      `duplicate property name "${firstKey}" (same value twice)`,
      documentOf(insertProperty(inner, duplicate)),
      rejectWith('MUST', nameBasis, 'MALFORMED_XML', 'VALIDATION_ERROR'),
      malformed(REASONS.duplicatePropertyName),
    );
  }
  for (const reserved of ['__proto__', 'prototype', 'constructor']) {
    const element = `<property name="${reserved}"><object><property name="polluted"><boolean>true</boolean></property></object></property>`;
    add(
      `property named ${reserved}`,
      documentOf(insertProperty(inner, element)),
      rejectWith('MUST', nameBasis, 'MALFORMED_XML', 'VALIDATION_ERROR'),
      malformed(REASONS.reservedPropertyName),
    );
  }

  // Depth (spec 8: 32 levels). Where a server starts counting is open (docs/ambiguities.md #18): the root as level 1,
  // as level 0, the document node, or the converted value's nesting. Levels 31 to 34 may go either way at MUST: a
  // clearly shallow document (30 levels) must be read, a clearly deep one (an element at level 35) refused. The exact
  // boundary of #18 (32 read, an element at level 33 refused) is graded SHOULD.
  const { maxDepth, maxNodes, maxBytes } = LIMITS.xml;
  const shallowDepth = maxDepth - 2;
  const deepDepth = maxDepth + 3;
  const depthBasis =
    "spec 4.14, 8: 32 levels are allowed; spec 2: objects are closed; 7.3: an unknown field's code is open";
  const within = (depth: number, level: 'MUST' | 'SHOULD', note: string) =>
    add(
      `${depth} levels under an unknown property (${note}; the schema refuses the property)`,
      documentOf(valueElement({ ...value, [UNKNOWN_PROPERTY]: nestedArrays((depth - 4) / 2) }), ''),
      rejectWithAnyCodeOf(level, `${depthBasis}; docs/ambiguities.md #18`, 'VALIDATION_ERROR'),
      { ok: true },
    );
  // The deepest element of `nestedArrays(pairs)` under a root property is at level 4 + 2 * pairs (even): a document
  // with an element at level `depth` (odd) has elements down to level depth + 1.
  const past = (depth: number, level: 'MUST' | 'SHOULD') =>
    add(
      `an element at level ${depth}`,
      documentOf(valueElement({ ...value, [UNKNOWN_PROPERTY]: nestedArrays((depth - 3) / 2) })),
      rejectWith(level, 'spec 4.14, 8: at most 32 levels; docs/ambiguities.md #18', 'MALFORMED_XML'),
      malformed(REASONS.tooDeep),
    );
  within(maxDepth, 'SHOULD', 'depth allowed');
  past(maxDepth + 1, 'SHOULD');
  within(shallowDepth, 'MUST', 'clearly within the limit however levels are counted');
  past(deepDepth, 'MUST');

  // Node count: a typed document has an even number of elements, so 4,098 is the first count past 4,096 that a
  // well-typed document can have; it cannot fit in 32,000 bytes (docs/ambiguities.md #25).
  add(
    `${maxNodes + 2} elements`,
    nodeCountDocument(value, maxNodes + 2),
    rejectWith(
      'MUST',
      'spec 4.14, 8: at most 4,096 nodes; docs/ambiguities.md #25',
      'MALFORMED_XML',
      'REQUEST_TOO_LARGE',
    ),
    tooLarge,
  );

  // Size (spec 4.14, 8): whitespace between elements pads a valid body to the byte.
  add(
    `exactly ${maxBytes} bytes (allowed)`,
    paddedDocument(inner, maxBytes),
    accepted('MUST', 'spec 4.14, 8: at most 32,000 bytes'),
    { ok: true },
  );
  add(
    `${maxBytes + 1} bytes`,
    paddedDocument(inner, maxBytes + 1),
    rejectWith('MUST', 'spec 4.14, 8: over 32,000 bytes gets 413; 7.3 REQUEST_TOO_LARGE', 'REQUEST_TOO_LARGE'),
    tooLarge,
  );

  // Encoding (spec 4.14: invalid UTF-8 is rejected).
  for (const bad of INVALID_UTF8) {
    add(
      `invalid UTF-8: ${bad.name}`,
      inString(XML_DECLARATION, 'append', () => bad.bytes),
      MUST_MALFORMED,
      malformed(REASONS.invalidUtf8),
    );
  }

  // Namespace, root and version (spec 4.14, 9.4).
  const nsBasis = 'spec 4.14, 9.4: every element in urn:service:partner-api:v1';
  const wrongNs = (ns: string) => `<request xmlns="${ns}" version="1">`;
  add(
    'namespace of another version (…:v2)',
    documentOf(inner, XML_DECLARATION, wrongNs('urn:service:partner-api:v2')),
    rejectWith('MUST', nsBasis, 'MALFORMED_XML'),
    malformed(REASONS.wrongNamespace),
  );
  add(
    'no namespace',
    documentOf(inner, XML_DECLARATION, '<request version="1">'),
    rejectWith('MUST', nsBasis, 'MALFORMED_XML'),
    malformed(REASONS.wrongNamespace),
  );
  add(
    'prefixed root, children outside the namespace',
    documentOf(inner, XML_DECLARATION, `<p:request xmlns:p="${XML_NAMESPACE}" version="1">`, '</p:request>'),
    rejectWith('MUST', nsBasis, 'MALFORMED_XML'),
    malformed(REASONS.wrongNamespace),
  );
  const rootBasis = 'spec 4.14: a request body root is `request`';
  add(
    'root "response"',
    documentOf(inner, XML_DECLARATION, `<response xmlns="${XML_NAMESPACE}" version="1">`, '</response>'),
    rejectWith('MUST', rootBasis, 'MALFORMED_XML'),
    malformed(REASONS.wrongRoot),
  );
  add(
    'root "Request"',
    documentOf(inner, XML_DECLARATION, `<Request xmlns="${XML_NAMESPACE}" version="1">`, '</Request>'),
    rejectWith('MUST', rootBasis, 'MALFORMED_XML'),
    malformed(REASONS.wrongRoot),
  );
  const versionBasis = 'spec 4.14, 9.4: root attribute version is 1';
  add(
    'version "2"',
    documentOf(inner, XML_DECLARATION, `<request xmlns="${XML_NAMESPACE}" version="2">`),
    rejectWith('MUST', versionBasis, 'MALFORMED_XML'),
    malformed(REASONS.wrongVersion),
  );
  add(
    'version "1.0"',
    documentOf(inner, XML_DECLARATION, `<request xmlns="${XML_NAMESPACE}" version="1.0">`),
    rejectWith('MUST', versionBasis, 'MALFORMED_XML'),
    malformed(REASONS.wrongVersion),
  );
  add(
    'version missing',
    documentOf(inner, XML_DECLARATION, `<request xmlns="${XML_NAMESPACE}">`),
    rejectWith('MUST', versionBasis, 'MALFORMED_XML'),
    malformed(REASONS.missingVersion),
  );

  // The XML declaration (spec 4.14: a standard XML 1.0 declaration, optionally UTF-8): other ones are inferred faults.
  const declBasis = 'spec 4.14: only an XML 1.0 declaration, optionally declaring UTF-8 (inferred)';
  add(
    'declaration of encoding ISO-8859-1',
    documentOf(inner, '<?xml version="1.0" encoding="ISO-8859-1"?>'),
    rejectWith('SHOULD', declBasis, 'MALFORMED_XML'),
    malformed(REASONS.xmlEncoding),
  );
  add(
    'declaration of XML 1.1',
    documentOf(inner, '<?xml version="1.1" encoding="UTF-8"?>'),
    rejectWith('SHOULD', declBasis, 'MALFORMED_XML'),
    malformed(REASONS.xmlVersion),
  );

  // Forms the representation allows: the same value, so the same answer as the plain document.
  add(
    'namespace prefix (allowed)',
    serializeTypedXml(value, 'request', { prefix: 'p', declaration: false }),
    accepted('MUST', 'spec 4.14: the prefix is optional'),
    { ok: true },
  );
  add(
    'no XML declaration (allowed)',
    documentOf(inner, ''),
    accepted('MUST', 'spec 4.14: the declaration is optional'),
    { ok: true },
  );
  add(
    'numeric character references for a whole string (allowed)',
    inString('', 'replace', (s) =>
      [...s].map((c) => `&#x${(c.codePointAt(0) ?? 0).toString(16).toUpperCase()};`).join(''),
    ),
    accepted('MUST', 'spec 4.14: predefined and numeric character references are accepted'),
    { ok: true },
  );
  return cases;
}

/**
 * The root object's element with one more property first. Sliced, not String.replace: a replacement string
 * would read `$&` in generated text as a pattern.
 */
function insertProperty(inner: string, property: string): string {
  if (!inner.startsWith('<object>')) throw new Error('insertProperty: the value is not an object');
  return `<object>${property}${inner.slice('<object>'.length)}`;
}

/** `<property name="k">value</property>` as the serializer writes it. */
function propertyElement(key: string, v: JsonValue): string {
  const inner = valueElement({ [key]: v });
  return inner.slice('<object>'.length, inner.length - '</object>'.length);
}

/** The document with one string value replaced by a reference to an entity its internal DTD declares. */
function customEntityDocument(value: JsonValue): Uint8Array {
  let declared = '';
  const bytes = spliceFirstString(value, (v) => documentOf(valueElement(v)), {
    mode: 'replace',
    fault: (original) => {
      declared = original;
      return '&v;';
    },
  });
  const text = new TextDecoder().decode(bytes);
  // Character references in an entity literal are expanded when it is declared, so & and < go doubly escaped.
  const literal = declared
    .replaceAll('&', '&#38;#38;')
    .replaceAll('<', '&#38;#60;')
    .replaceAll('"', '&#34;')
    .replaceAll('%', '&#37;');
  const at = text.indexOf(XML_DECLARATION) + XML_DECLARATION.length;
  return utf8(`${text.slice(0, at)}<!DOCTYPE request [<!ENTITY v "${literal}">]>${text.slice(at)}`);
}

/** The valid document, without a declaration, with whitespace after the root start tag, to exactly `size` bytes. */
function paddedDocument(inner: string, size: number): Uint8Array {
  const base = utf8(documentOf(inner, '')).length;
  if (base > size) throw new Error(`paddedDocument: the value alone takes ${base} bytes`);
  return utf8(documentOf(`${' '.repeat(size - base)}${inner}`, ''));
}

/**
 * The value plus an unknown property holding an array of nulls, to exactly `count` elements (an even count:
 * a typed document has no other). Exported for tests that lift the byte limit.
 */
export function nodeCountDocument(value: JsonValue, count: number): Uint8Array {
  const base = elementCount(documentOf(valueElement(value)));
  // The property and its array add 2, every item with its null 2 more.
  const items = (count - base - 2) / 2;
  if (!Number.isInteger(items) || items < 0) throw new Error(`nodeCountDocument: cannot reach ${count} elements`);
  const doc = documentOf(valueElement({ ...(value as object), [UNKNOWN_PROPERTY]: new Array(items).fill(null) }));
  if (elementCount(doc) !== count) throw new Error('nodeCountDocument: element count mismatch');
  return utf8(doc);
}
