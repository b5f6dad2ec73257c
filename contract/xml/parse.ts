import { SaxesParser, type SaxesTagNS, type XMLDecl } from 'saxes';
import { XML_NAMESPACE, XML_VERSION } from '../constants.ts';
import { LIMITS } from '../limits.ts';
import type { JsonValue } from '../types.ts';
import { isXmlWhitespace } from './chars.ts';
import { XmlRejection } from './errors.ts';
import { parseNumberText } from './number.ts';
import { REASONS } from './reasons.ts';
import { isValueElement, RESERVED_PROPERTY_NAMES, type ScalarElement } from './vocabulary.ts';

export type XmlRoot = 'request' | 'response';

export type XmlParseResult =
  | { ok: true; value: JsonValue }
  | { ok: false; error: 'too_large' | 'malformed'; reason: string };

/**
 * How strictly the document's frame is read. `lenientFrame` reads the typed content whatever the namespace, the
 * root's name and its version say: a client (the conformance suite) can then judge what a response holds while
 * the frame's deviation is judged under its own clause. Servers parse requests strictly.
 */
export interface XmlReadOptions {
  readonly lenientFrame?: boolean;
  /**
   * Reads a boolean written in XML Schema's other lexical forms, `1` and `0` (whitespace around allowed), as the
   * boolean, where 4.14 asks for exactly `true` or `false`: a client can then judge the content while the lexical
   * deviation is judged under its own clause. Servers parse requests strictly.
   */
  readonly lenientBoolean?: boolean;
  /**
   * Reads a property written twice in one object with the same value as that one property, where 4.14.6 asks for
   * unique names: a client can then judge the content while the duplicate is judged under its own clause. Two values
   * under one name still refuse the document (no reading of it is the right one). Servers parse requests strictly.
   */
  readonly lenientDuplicates?: boolean;
  /**
   * Reads a response as an XML 1.0 processor reads any document, where 4.14 lists what a server rejects in a request:
   * comments, processing instructions and a document type declaration are passed over (the DTD's entities are
   * never applied: a reference to one stays an undefined entity), a CDATA section is read as the text it holds, and
   * a number's text may have XML whitespace around it. For a client reading responses only (the conformance suite):
   * the spec states these rejections for what a server accepts, not for what it writes. Servers parse requests
   * strictly.
   */
  readonly responseMarkup?: boolean;
}

/** The reasons lenientFrame reads past (the document's frame, not its content). */
export const FRAME_REASONS: readonly string[] = [
  REASONS.wrongNamespace,
  REASONS.wrongRoot,
  REASONS.missingVersion,
  REASONS.wrongVersion,
];

/** Spec 8: the XML body limits. Elements are the counted nodes; the root is level 1. */
export interface XmlLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxNodes: number;
}

type Frame =
  | { kind: 'root' | 'property' | 'item'; value: JsonValue | undefined; name: string; repeated?: boolean }
  | { kind: 'object'; value: { [key: string]: JsonValue }; names: Set<string> }
  | { kind: 'array'; value: JsonValue[] }
  | { kind: ScalarElement; text: string };

const CHILD_COUNT_REASON = {
  root: REASONS.rootChildCount,
  property: REASONS.propertyChildCount,
  item: REASONS.itemChildCount,
} as const;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Spec 4.14: the typed XML body to the JSON-shaped value. `body` is the raw bytes as received.
 * Never throws. Stops at the first broken rule, so a hostile document costs at most one linear pass.
 *
 * `limits` defaults to spec 8's request limits. Spec 8 applies them to XML requests only; a caller
 * reading responses (the conformance suite) may pass wider ones.
 */
export function parseTypedXml(
  body: Uint8Array,
  expectedRoot: XmlRoot,
  limits: XmlLimits = LIMITS.xml,
  options: XmlReadOptions = {},
): XmlParseResult {
  if (body.byteLength > limits.maxBytes) return { ok: false, error: 'too_large', reason: REASONS.tooLarge };
  let text: string;
  try {
    // Fatal decoding refuses overlong forms, lone continuation bytes and encoded surrogates; a
    // leading byte order mark is consumed here, before the XML parser sees the text.
    text = utf8.decode(body);
  } catch {
    return malformed(REASONS.invalidUtf8);
  }
  try {
    return { ok: true, value: parseText(text, expectedRoot, limits, options) };
  } catch (err) {
    if (err instanceof XmlRejection) return malformed(err.reason);
    return malformed(err instanceof Error ? reasonForSaxesError(err.message) : REASONS.notWellFormed);
  }
}

function malformed(reason: string): XmlParseResult {
  return { ok: false, error: 'malformed', reason };
}

function reject(reason: string): never {
  throw new XmlRejection(reason);
}

function parseText(text: string, expectedRoot: XmlRoot, limits: XmlLimits, options: XmlReadOptions): JsonValue {
  const lenientFrame = options.lenientFrame === true;
  // No error handler is registered, so saxes throws at its first well-formedness error instead of
  // reporting it and parsing on. Our own handlers throw XmlRejection for the same reason.
  const parser = new SaxesParser({ xmlns: true, position: false, defaultXMLVersion: '1.0', forceXMLVersion: true });
  const stack: Frame[] = [];
  let nodes = 0;
  let result: { value: JsonValue } | undefined;

  parser.on('xmldecl', (decl: XMLDecl) => {
    if (decl.version !== '1.0') reject(REASONS.xmlVersion);
    if (decl.encoding !== undefined && decl.encoding.toLowerCase() !== 'utf-8') reject(REASONS.xmlEncoding);
  });
  // saxes reads a DTD but never applies its entity declarations; we refuse the DTD outright.
  const responseMarkup = options.responseMarkup === true;
  if (!responseMarkup) {
    parser.on('doctype', () => reject(REASONS.doctype));
    parser.on('comment', () => reject(REASONS.comment));
    parser.on('cdata', () => reject(REASONS.cdata));
    parser.on('processinginstruction', () => reject(REASONS.processingInstruction));
  } else {
    // A CDATA section is text (XML 1.0 2.7): within a scalar it is the scalar's, elsewhere it must be whitespace.
    parser.on('cdata', (chunk: string) => {
      const top = stack.at(-1);
      if (top !== undefined && 'text' in top) top.text += chunk;
      else if (!isXmlWhitespace(chunk)) reject(REASONS.textOutsideScalar);
    });
  }

  // Counted when the name is read, before attributes, so an over-limit document stops early.
  parser.on('opentagstart', () => {
    nodes += 1;
    if (nodes > limits.maxNodes) reject(REASONS.tooManyNodes);
    if (stack.length + 1 > limits.maxDepth) reject(REASONS.tooDeep);
  });

  parser.on('opentag', (tag: SaxesTagNS) => {
    if (tag.uri !== XML_NAMESPACE && !lenientFrame) reject(REASONS.wrongNamespace);
    const parent = stack.at(-1);
    const local = tag.local;
    if (parent === undefined) {
      if (local !== expectedRoot && !lenientFrame) reject(REASONS.wrongRoot);
      checkAttributes(tag, 'version');
      const version = tag.attributes.version;
      if (!lenientFrame) {
        if (version === undefined) reject(REASONS.missingVersion);
        if (version.value !== XML_VERSION) reject(REASONS.wrongVersion);
      }
      stack.push({ kind: 'root', value: undefined, name: '' });
      return;
    }
    switch (parent.kind) {
      case 'string':
      case 'number':
      case 'boolean':
      case 'null':
        reject(REASONS.childInScalar);
        break;
      case 'object': {
        if (local !== 'property') reject(isKnownElement(local) ? REASONS.misplacedElement : REASONS.unknownElement);
        checkAttributes(tag, 'name');
        const name = tag.attributes.name?.value;
        if (name === undefined) reject(REASONS.missingPropertyName);
        if (RESERVED_PROPERTY_NAMES.has(name)) reject(REASONS.reservedPropertyName);
        const repeated = parent.names.has(name);
        if (repeated && options.lenientDuplicates !== true) reject(REASONS.duplicatePropertyName);
        parent.names.add(name);
        stack.push({ kind: 'property', value: undefined, name, repeated });
        return;
      }
      case 'array':
        if (local !== 'item') reject(isKnownElement(local) ? REASONS.misplacedElement : REASONS.unknownElement);
        checkAttributes(tag);
        stack.push({ kind: 'item', value: undefined, name: '' });
        return;
      default: {
        // root, property or item: exactly one typed value.
        if (!isValueElement(local)) reject(isKnownElement(local) ? REASONS.misplacedElement : REASONS.unknownElement);
        if (parent.value !== undefined) reject(CHILD_COUNT_REASON[parent.kind]);
        checkAttributes(tag);
        if (local === 'object') stack.push({ kind: 'object', value: {}, names: new Set() });
        else if (local === 'array') stack.push({ kind: 'array', value: [] });
        else stack.push({ kind: local, text: '' });
      }
    }
  });

  parser.on('text', (chunk: string) => {
    const top = stack.at(-1);
    if (top !== undefined && 'text' in top) top.text += chunk;
    else if (!isXmlWhitespace(chunk)) reject(REASONS.textOutsideScalar);
  });

  parser.on('closetag', () => {
    const frame = stack.pop();
    if (frame === undefined) return reject(REASONS.notWellFormed);
    let value: JsonValue;
    switch (frame.kind) {
      case 'root':
      case 'property':
      case 'item':
        if (frame.value === undefined) return reject(CHILD_COUNT_REASON[frame.kind]);
        value = frame.value;
        break;
      case 'object':
      case 'array':
        value = frame.value;
        break;
      case 'string':
        value = frame.text;
        break;
      case 'number': {
        const n = parseNumberText(responseMarkup ? trimXmlWhitespace(frame.text) : frame.text);
        if (n === undefined) return reject(REASONS.invalidNumber);
        value = n;
        break;
      }
      case 'boolean': {
        const text = options.lenientBoolean ? LENIENT_BOOLEAN[frame.text.trim()] : frame.text;
        if (text !== 'true' && text !== 'false') return reject(REASONS.invalidBoolean);
        value = text === 'true';
        break;
      }
      case 'null':
        if (!isXmlWhitespace(frame.text)) return reject(REASONS.invalidNull);
        value = null;
        break;
    }
    const parent = stack.at(-1);
    if (parent === undefined) {
      result = { value };
    } else if (parent.kind === 'array') {
      parent.value.push(value);
    } else if (parent.kind === 'object' && frame.kind === 'property') {
      if (frame.repeated) {
        // lenientDuplicates: the same value again is read as the one property; another value has no one reading.
        if (!sameJson(parent.value[frame.name], value)) reject(REASONS.duplicatePropertyName);
        return;
      }
      // A data property, never an assignment: no setter on the prototype chain can run.
      Object.defineProperty(parent.value, frame.name, { value, enumerable: true, writable: true, configurable: true });
    } else if (parent.kind === 'root' || parent.kind === 'property' || parent.kind === 'item') {
      parent.value = value;
    }
  });

  parser.write(text).close();
  if (result === undefined) return reject(REASONS.notWellFormed);
  return result.value;
}

/** The text without XML whitespace (space, tab, CR, LF) at either end. */
function trimXmlWhitespace(text: string): string {
  return text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
}

/** Whether two JSON-shaped values are equal (key order aside). */
function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

/** XML Schema's boolean lexical forms (the spec allows only the first two). */
const LENIENT_BOOLEAN: Readonly<Record<string, string>> = { true: 'true', false: 'false', '1': 'true', '0': 'false' };

function isKnownElement(local: string): boolean {
  return (
    isValueElement(local) || local === 'property' || local === 'item' || local === 'request' || local === 'response'
  );
}

/** Namespace declarations are always allowed; otherwise only the one unprefixed attribute named. */
function checkAttributes(tag: SaxesTagNS, allowed?: string): void {
  for (const attr of Object.values(tag.attributes)) {
    if (attr.prefix === 'xmlns' || attr.name === 'xmlns') continue;
    if (attr.name !== allowed) reject(REASONS.unexpectedAttribute);
  }
}

/**
 * saxes messages can quote document content (tag names, prefixes, attribute names), so they are
 * mapped to our fixed reasons by the rule they name, and the message itself is dropped.
 */
const SAXES_MESSAGE_REASONS: readonly (readonly [RegExp, string])[] = [
  [/undefined entity|entity name/, REASONS.entity],
  [/character entity/, REASONS.charRef],
  [/"\]\]>"/, REASONS.cdataEnd],
  [/doctype/i, REASONS.doctype],
  [
    /XML declaration|version number|encoding value|standalone|name\/value pairs|expected (the name|one of)/,
    REASONS.xmlDeclaration,
  ],
  [/processing instruction/, REASONS.processingInstruction],
  [/comment/, REASONS.comment],
  [/namespace|prefix/, REASONS.namespaceSyntax],
  [/disallowed character\.$/, REASONS.invalidCharacter],
];

function reasonForSaxesError(message: string): string {
  return SAXES_MESSAGE_REASONS.find(([pattern]) => pattern.test(message))?.[1] ?? REASONS.notWellFormed;
}
