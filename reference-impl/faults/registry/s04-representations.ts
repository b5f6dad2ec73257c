import { isUtf8 } from 'node:buffer';
import { XML_NAMESPACE } from '../../../contract/constants.ts';
import { answerError, asksXml, envelopeError } from '../shapes.ts';
import type { Fault } from '../types.ts';

/** Faults of spec 4.13 (content negotiation) and 4.14 (the typed XML representation). */

const isXmlBody = (request: { headers: Record<string, unknown> }) =>
  /xml/i.test(String(request.headers['content-type'] ?? ''));

/**
 * A lenient parser's pre-pass: what it strips is what the server accepts. A body that is not UTF-8 goes as received:
 * decoding and re-encoding it would repair it, a second deviation (4.14.14h) the fault does not name.
 */
function lenient(strip: (text: string) => string): Fault['body'] {
  return (raw, request) => (isXmlBody(request) && isUtf8(raw) ? Buffer.from(strip(raw.toString('utf8')), 'utf8') : raw);
}

/** The first property of a written XML answer whose value is a string, number, boolean or null: its name and type. */
const FIRST_SCALAR_PROPERTY =
  /<property name="([^"]*)">\s*<(string|number|boolean|null)(?:\s*\/>|>[^<]*<\/\2>)\s*<\/property>/;

export const REPRESENTATION_FAULTS: Fault[] = [
  // --- 4.13 content negotiation ---
  {
    name: 'accept-ignored',
    kind: 'fault',
    clause: '4.13.1a',
    description: 'Accept is ignored: every answer is JSON.',
    request(r) {
      if (r.request.url.startsWith('/api/')) delete r.request.headers.accept;
    },
  },
  {
    name: 'accept-quality-ignored',
    kind: 'fault',
    clause: '4.13.1b',
    description: 'Accept q-values are ignored: the first media type listed wins.',
    request(r) {
      const accept = r.request.headers.accept;
      if (typeof accept === 'string' && accept.includes(',')) {
        r.request.headers.accept = (accept.split(',')[0] ?? '').split(';')[0]?.trim() ?? accept;
      }
    },
  },
  {
    name: 'accept-unsupported-served',
    kind: 'fault',
    clause: '4.13.1c',
    description: 'An Accept the API cannot serve (text/html) gets a JSON 200 instead of 406.',
    request(r) {
      const accept = String(r.request.headers.accept ?? '');
      if (accept !== '' && !/json|xml|\*\/\*|application\/\*|text\/\*/i.test(accept)) {
        r.request.headers.accept = 'application/json';
      }
    },
  },
  {
    name: 'accept-q-zero-served',
    kind: 'fault',
    clause: '4.13.1b',
    description:
      'Accept ranges weighted q=0 are read as q=1 (a `|| 1` default): `application/json;q=0, application/xml` is answered in JSON.',
    request(r) {
      const accept = r.request.headers.accept;
      if (typeof accept === 'string') {
        r.request.headers.accept = accept.replace(/;\s*q\s*=\s*0(\.0{0,3})?\s*(?=,|;|$)/gi, '');
      }
    },
  },
  {
    name: 'booking-accept-unsupported-served',
    kind: 'fault',
    clause: '4.13.1c',
    description:
      'POST /reservations serves an Accept it cannot (text/html): it books and answers JSON instead of 406 (only the read endpoints negotiate).',
    request(r) {
      const accept = String(r.request.headers.accept ?? '');
      if (
        r.operation === 'createReservation' &&
        accept !== '' &&
        !/json|xml|\*\/\*|application\/\*|text\/\*/i.test(accept)
      ) {
        r.request.headers.accept = 'application/json';
      }
    },
  },
  {
    name: 'content-type-ignored',
    kind: 'fault',
    clause: '4.13.2',
    description: 'A body sent as text/plain is read as JSON instead of 415.',
    request(r) {
      const type = String(r.request.headers['content-type'] ?? '');
      if (/^text\/plain/i.test(type)) r.request.headers['content-type'] = 'application/json';
    },
  },
  {
    name: 'broken-json-validation-error',
    kind: 'fault',
    clause: '4.13.3',
    description: 'A body that is not valid JSON gets 400 VALIDATION_ERROR instead of MALFORMED_JSON.',
    response(r) {
      if (envelopeError(r.value)?.code === 'MALFORMED_JSON') answerError(r, 'VALIDATION_ERROR');
    },
  },
  {
    name: 'booking-broken-json-500',
    kind: 'fault',
    clause: '4.13.3',
    description:
      'POST /reservations answers a body that is not JSON with 500 INTERNAL_ERROR (the booking handler hashes the raw body, then its parser throws unhandled).',
    response(r) {
      if (r.operation === 'createReservation' && envelopeError(r.value)?.code === 'MALFORMED_JSON') {
        answerError(r, 'INTERNAL_ERROR');
      }
    },
  },
  {
    name: 'cancel-content-type-ignored',
    kind: 'fault',
    clause: '4.13.2',
    description:
      'POST /reservations/{id}/cancel reads its body as JSON whatever the Content-Type (or none), instead of 415 UNSUPPORTED_MEDIA_TYPE.',
    request(r) {
      if (r.operation !== 'cancelReservation') return;
      const type = String(r.request.headers['content-type'] ?? '');
      if (!/^\s*(application\/json|application\/xml|text\/xml)\s*(;|$)/i.test(type)) {
        r.request.headers['content-type'] = 'application/json';
      }
    },
  },
  {
    name: 'text-xml-answered-application-xml',
    kind: 'fault',
    clause: '4.13.4',
    description: 'Accept: text/xml is answered with Content-Type application/xml (not the type selected).',
    response(r) {
      const type = r.header('content-type') ?? '';
      if (type.startsWith('text/xml')) r.setHeader('content-type', 'application/xml; charset=utf-8');
    },
  },
  {
    name: 'xml-skips-scope',
    kind: 'fault',
    clause: '4.13.5a',
    description: 'XML requests skip the scope check.',
    enforce: { scope: (request) => !asksXml(request) },
  },
  {
    name: 'token-accepts-json',
    kind: 'fault',
    clause: '4.13.5b',
    description: 'The token endpoint also takes a JSON body.',
    body(raw, request) {
      if (!request.url.endsWith('/oauth/token') || !/json/i.test(String(request.headers['content-type'] ?? ''))) {
        return raw;
      }
      try {
        const fields = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        request.headers['content-type'] = 'application/x-www-form-urlencoded';
        return Buffer.from(new URLSearchParams(fields as Record<string, string>).toString(), 'utf8');
      } catch {
        return raw;
      }
    },
  },
  // --- 4.14 typed XML ---
  {
    name: 'xml-without-namespace',
    kind: 'fault',
    clause: '4.14.1',
    description: 'XML answers declare no namespace.',
    text: (text, r) => (r.representation === 'xml' ? text.replace(` xmlns="${XML_NAMESPACE}"`, '') : text),
  },
  {
    name: 'xml-prefixed-request-refused',
    kind: 'fault',
    clause: '4.14.2',
    description: 'An XML request that uses a namespace prefix instead of the default namespace is refused.',
    body: lenient((text) => (/<[A-Za-z][\w.-]*:request[\s>]/.test(text) ? `${text}<` : text)),
  },
  {
    name: 'xml-root-result',
    kind: 'fault',
    clause: '4.14.3',
    description: 'XML answers have root <result> instead of <response>.',
    text: (text, r) =>
      r.representation === 'xml'
        ? text.replace(/<response(\s|>)/, '<result$1').replace(/<\/response>\s*$/, '</result>')
        : text,
  },
  {
    name: 'xml-root-version-2',
    kind: 'fault',
    clause: '4.14.4',
    description: 'The XML root carries version="2".',
    text: (text, r) =>
      r.representation === 'xml' ? text.replace(/(<response[^>]*?) version="1"/, '$1 version="2"') : text,
  },
  {
    name: 'xml-boolean-digits',
    kind: 'fault',
    clause: '4.14.11',
    description: 'XML booleans are written 1 and 0.',
    text: (text, r) =>
      r.representation === 'xml'
        ? text
            .replace(/<boolean>true<\/boolean>/g, '<boolean>1</boolean>')
            .replace(/<boolean>false<\/boolean>/g, '<boolean>0</boolean>')
        : text,
  },
  {
    name: 'xml-ampersand-unescaped',
    kind: 'fault',
    clause: '4.14.9',
    description: 'XML strings leave & unescaped.',
    text: (text, r) => (r.representation === 'xml' ? text.replace(/&amp;/g, '&') : text),
  },
  {
    name: 'xml-null-as-empty-string',
    kind: 'fault',
    clause: '4.14.12',
    description: 'XML nulls are written as empty strings (<string/>).',
    text: (text, r) => (r.representation === 'xml' ? text.replace(/<null\/>/g, '<string></string>') : text),
  },
  {
    name: 'xml-null-request-as-missing',
    kind: 'fault',
    clause: '4.14.13',
    description: 'In XML requests a property set to null is treated as missing.',
    // Every form of null (spec 4.14.12: <null/>, empty or whitespace-only), so the fault is 4.14.13's alone.
    body: lenient((text) => text.replace(/<property name="[^"]*">\s*<null\s*(?:\/>|>\s*<\/null>)\s*<\/property>/g, '')),
  },
  {
    name: 'xml-response-duplicate-property',
    kind: 'fault',
    clause: '4.14.6',
    description:
      'XML answers write their first scalar property twice in its object (the same <property name="…"> and value repeated).',
    text: (text, r) => (r.representation === 'xml' ? text.replace(FIRST_SCALAR_PROPERTY, (p) => `${p}${p}`) : text),
  },
  {
    name: 'xml-response-conflicting-duplicate',
    kind: 'fault',
    clause: '4.14.6',
    description:
      'XML answers write their first scalar property twice in its object, the second time with another value (null, or the string "null" for a null): no reading of the object is the right one.',
    text: (text, r) =>
      r.representation === 'xml'
        ? text.replace(FIRST_SCALAR_PROPERTY, (p, name: string, type: string) => {
            const other = type === 'null' ? '<string>null</string>' : '<null/>';
            return `${p}<property name="${name}">${other}</property>`;
          })
        : text,
  },
  {
    name: 'xml-duplicate-accepted',
    kind: 'fault',
    clause: '4.14.14a',
    description: 'Duplicate XML property names are accepted (the last wins).',
    body: lenient((text) => {
      // Keeps the last of two sibling properties with one name: enough for the flat duplicates clients send.
      const seen = new Map<string, number>();
      const props = [...text.matchAll(/<property name="([^"]*)">((?:(?!<property)[\s\S])*?)<\/property>/g)];
      for (const m of props) seen.set(m[1] as string, (seen.get(m[1] as string) ?? 0) + 1);
      let out = text;
      for (const m of props) {
        const name = m[1] as string;
        if ((seen.get(name) ?? 0) > 1) {
          out = out.replace(m[0], '');
          seen.set(name, (seen.get(name) ?? 0) - 1);
        }
      }
      return out;
    }),
  },
  {
    name: 'xml-doctype-accepted',
    kind: 'fault',
    clause: '4.14.14c',
    description: 'A document type declaration in an XML request is ignored instead of refused.',
    body: lenient((text) => text.replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/, '')),
  },
  {
    name: 'xml-comments-accepted',
    kind: 'fault',
    clause: '4.14.14d',
    description: 'Comments in an XML request are ignored instead of refused.',
    body: lenient((text) => text.replace(/<!--[\s\S]*?-->/g, '')),
  },
  {
    name: 'xml-cdata-accepted',
    kind: 'fault',
    clause: '4.14.14e',
    description: 'CDATA sections in an XML request are read as text instead of refused.',
    body: lenient((text) =>
      text.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, inner: string) =>
        inner.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
      ),
    ),
  },
  {
    name: 'xml-processing-instructions-accepted',
    kind: 'fault',
    clause: '4.14.14f',
    description: 'Processing instructions in an XML request are ignored instead of refused.',
    body: lenient((text) => text.replace(/<\?(?!xml[\s?])[\s\S]*?\?>/g, '')),
  },
  {
    name: 'xml-depth-unlimited',
    kind: 'fault',
    clause: '4.14.14j',
    description: 'XML requests nested deeper than 32 levels are accepted.',
    adjust: { 'xml.limits': (limits) => ({ ...limits, maxDepth: 1_000 }) },
  },
  {
    name: 'xml-character-references-refused',
    kind: 'fault',
    clause: '4.14.15',
    description: 'Numeric character references in XML requests are refused.',
    body: lenient((text) => (/&#x?[0-9A-Fa-f]+;/.test(text) ? `${text}<` : text)),
  },
  {
    name: 'xml-declaration-refused',
    kind: 'fault',
    clause: '4.14.16',
    description: 'An XML request starting with <?xml version="1.0"?> is refused.',
    body: lenient((text) => (text.startsWith('<?xml') ? `<${text}` : text)),
  },
  {
    name: 'xml-too-large-400',
    kind: 'fault',
    clause: '4.14.17c',
    description: 'An XML body over 32,000 bytes gets 400 MALFORMED_XML instead of 413.',
    response(r) {
      if (envelopeError(r.value)?.code === 'REQUEST_TOO_LARGE' && asksXmlBody(r.request))
        answerError(r, 'MALFORMED_XML');
    },
  },
  {
    name: 'xml-errors-in-json',
    kind: 'fault',
    clause: '4.14.18b',
    description: 'Errors are always answered in JSON, also to an XML request.',
    response(r) {
      if (r.representation === 'xml' && envelopeError(r.value)) {
        r.representation = 'json';
        r.setHeader('content-type', 'application/json; charset=utf-8');
      }
    },
  },
  {
    name: 'xml-snake-case-fields',
    kind: 'fault',
    clause: '4.14.18a',
    description: 'XML answers spell field names in snake_case (vehicle_code), JSON in camelCase.',
    text: (text, r) =>
      r.representation === 'xml'
        ? text.replace(
            /<property name="([a-z]+[A-Z][A-Za-z]*)">/g,
            (_, name: string) => `<property name="${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}">`,
          )
        : text,
  },
];

function asksXmlBody(request: { headers: Record<string, unknown> }): boolean {
  return isXmlBody(request);
}
