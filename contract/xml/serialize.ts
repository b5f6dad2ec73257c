import { XML_NAMESPACE, XML_VERSION } from '../constants.ts';
import type { JsonValue } from '../types.ts';
import { isXmlText } from './chars.ts';
import { XmlValueError } from './errors.ts';
import { formatNumber } from './number.ts';
import type { XmlRoot } from './parse.ts';
import { RESERVED_PROPERTY_NAMES } from './vocabulary.ts';

export interface SerializeOptions {
  /** Namespace prefix, e.g. 'p' gives `<p:response xmlns:p="...">`. Default: the default namespace. */
  prefix?: string;
  /** Write `<?xml version="1.0" encoding="UTF-8"?>` first. Default true. */
  declaration?: boolean;
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** ASCII NCName; `xml` and `xmlns` are bound by the Namespaces recommendation and cannot be used. */
const PREFIX = /^[A-Za-z_][A-Za-z0-9._-]*$/;

/**
 * Spec 4.14: the JSON-shaped value as a typed XML document, compact (no indentation whitespace).
 * Throws XmlValueError when the value has no XML form: a non-finite number, a string or key with a
 * character XML 1.0 cannot carry (incl. lone surrogates), a property name the spec rejects, or
 * something that is not JSON at all. Object properties whose value is undefined are left out, as
 * JSON.stringify does, so one object gives the same fields in both representations.
 */
export function serializeTypedXml(value: JsonValue, root: XmlRoot, options: SerializeOptions = {}): string {
  const prefix = options.prefix ?? '';
  if (prefix !== '' && (!PREFIX.test(prefix) || prefix === 'xml' || prefix === 'xmlns')) {
    throw new TypeError('serializeTypedXml: prefix must be an ASCII NCName other than xml and xmlns');
  }
  const q = prefix === '' ? '' : `${prefix}:`;
  const xmlns = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
  const out: string[] = [];
  if (options.declaration !== false) out.push(DECLARATION);
  out.push(`<${q}${root} ${xmlns}="${XML_NAMESPACE}" version="${XML_VERSION}">`);
  writeValue(value, q, [], out);
  out.push(`</${q}${root}>`);
  return out.join('');
}

/** Whether serializeTypedXml accepts the value: the same walk, writing nothing. */
export function isXmlRepresentable(value: JsonValue): boolean {
  try {
    writeValue(value, '', [], undefined);
    return true;
  } catch (err) {
    if (err instanceof XmlValueError) return false;
    throw err;
  }
}

function writeValue(value: unknown, q: string, path: (string | number)[], out: string[] | undefined): void {
  if (value === null) {
    out?.push(`<${q}null/>`);
    return;
  }
  switch (typeof value) {
    case 'boolean':
      out?.push(`<${q}boolean>${value ? 'true' : 'false'}</${q}boolean>`);
      return;
    case 'number': {
      const text = formatNumber(value);
      if (text === undefined) throw new XmlValueError('non-finite number has no XML form', path);
      out?.push(`<${q}number>${text}</${q}number>`);
      return;
    }
    case 'string':
      if (!isXmlText(value)) throw new XmlValueError('string holds a character XML 1.0 cannot carry', path);
      out?.push(`<${q}string>${escapeText(value)}</${q}string>`);
      return;
    case 'object':
      break;
    default:
      throw new XmlValueError(`${typeof value} is not a JSON value`, path);
  }
  if (Array.isArray(value)) {
    out?.push(`<${q}array>`);
    // An index loop, not forEach: a hole must reach writeValue (and be refused), not be skipped.
    for (let index = 0; index < value.length; index++) {
      out?.push(`<${q}item>`);
      writeValue(value[index], q, [...path, index], out);
      out?.push(`</${q}item>`);
    }
    out?.push(`</${q}array>`);
    return;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new XmlValueError('object is not a plain JSON object', path);
  out?.push(`<${q}object>`);
  for (const [key, element] of Object.entries(value)) {
    if (element === undefined) continue;
    if (RESERVED_PROPERTY_NAMES.has(key)) throw new XmlValueError('property name is rejected by spec 4.14', path);
    if (!isXmlText(key)) throw new XmlValueError('property name holds a character XML 1.0 cannot carry', path);
    out?.push(`<${q}property name="${escapeAttribute(key)}">`);
    writeValue(element, q, [...path, key], out);
    out?.push(`</${q}property>`);
  }
  out?.push(`</${q}object>`);
}

// A parser turns a literal CR in text into LF (XML 1.0 section 2.11), so CR goes as a reference.
const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
// Attribute-value normalisation (section 3.3.3) turns literal tab, LF and CR into spaces.
const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

function escapeText(s: string): string {
  return s.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

function escapeAttribute(s: string): string {
  return s.replace(/[&<>"\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c] ?? c);
}
