/** Spec 4.14 and 8 over HTTP: every rejection of the typed XML representation, on POST /availability. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XML_NAMESPACE } from '../../contract/constants.ts';
import type { AvailabilityResponse } from '../../contract/types.ts';
import { serializeTypedXml } from '../../contract/xml/index.ts';
import { expectApiError, expectValid, type Kind, rentalWindow } from '../testing/http-helpers.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

const ROOT_OPEN = `<request xmlns="${XML_NAMESPACE}" version="1">`;
const ROOT_CLOSE = '</request>';
const DECL = '<?xml version="1.0" encoding="UTF-8"?>';
/** Planted in hostile documents: no error message may repeat it. */
const MARKER = 'MARKER-7f3a9c';

/** The typed value element of a valid availability request, without the root. */
function windowValueXml(): string {
  const full = serializeTypedXml({ ...rentalWindow() }, 'request', { declaration: false });
  return full.slice(ROOT_OPEN.length, -ROOT_CLOSE.length);
}

/** `<property name="pickupLocation"><string>SGN-APT-01</string></property>` of the valid window, for splicing. */
const PICKUP_PROPERTY = '<property name="pickupLocation"><string>SGN-APT-01</string></property>';

function withPickup(replacement: string): string {
  const value = windowValueXml();
  if (!value.includes(PICKUP_PROPERTY)) throw new Error('serializer output changed shape');
  return `${ROOT_OPEN}${value.replace(PICKUP_PROPERTY, replacement)}${ROOT_CLOSE}`;
}

function validDoc(): string {
  return `${ROOT_OPEN}${windowValueXml()}${ROOT_CLOSE}`;
}

/** Nested array/item pairs with a null at the given (even) level; the root is level 1. */
function depthDoc(valueLevel: number): string {
  const pairs = (valueLevel - 2) / 2;
  return `${ROOT_OPEN}${'<array><item>'.repeat(pairs)}<null/>${'</item></array>'.repeat(pairs)}${ROOT_CLOSE}`;
}

/** An array of `count` nulls: 2 + 2 * count elements in all. */
function nodesDoc(count: number): string {
  return `${ROOT_OPEN}<array>${'<item><null/></item>'.repeat(count)}</array>${ROOT_CLOSE}`;
}

/** The document's UTF-8 bytes with the one `@@` replaced by raw bytes. */
function spliceBytes(doc: string, raw: number[]): Uint8Array {
  const [before, after] = doc.split('@@') as [string, string];
  return new Uint8Array([...Buffer.from(before), ...raw, ...Buffer.from(after)]);
}

const HOSTILE: [string, string | Uint8Array][] = [
  ['a document type declaration', `<!DOCTYPE request>${validDoc()}`],
  ['an internal DTD subset', `<!DOCTYPE request [<!ELEMENT request ANY>]>${validDoc()}`],
  [
    'billion laughs',
    `<!DOCTYPE request [<!ENTITY lol "${MARKER}">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]>${withPickup('<property name="pickupLocation"><string>&lol9;</string></property>')}`,
  ],
  [
    'an external entity',
    `<!DOCTYPE request [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${withPickup('<property name="pickupLocation"><string>&xxe;</string></property>')}`,
  ],
  ['a parameter entity', `<!DOCTYPE request [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>${validDoc()}`],
  ['a comment', withPickup(`<!-- ${MARKER} -->${PICKUP_PROPERTY}`)],
  ['a comment before the root', `<!-- ${MARKER} -->${validDoc()}`],
  ['a CDATA section', withPickup(`<property name="pickupLocation"><string><![CDATA[SGN-APT-01]]></string></property>`)],
  ['a processing instruction', withPickup(`<?${MARKER} x?>${PICKUP_PROPERTY}`)],
  ['a processing instruction before the root', `${DECL}<?xml-stylesheet href="x.xsl"?>${validDoc()}`],
  [
    'a custom entity without a DTD',
    withPickup(`<property name="pickupLocation"><string>&${MARKER};</string></property>`),
  ],
  ['a duplicate property name', withPickup(`${PICKUP_PROPERTY}${PICKUP_PROPERTY}`)],
  ['the property name __proto__', withPickup(`${PICKUP_PROPERTY}<property name="__proto__"><object/></property>`)],
  ['the property name prototype', withPickup(`${PICKUP_PROPERTY}<property name="prototype"><null/></property>`)],
  ['the property name constructor', withPickup(`${PICKUP_PROPERTY}<property name="constructor"><null/></property>`)],
  [
    'invalid UTF-8',
    spliceBytes(withPickup('<property name="pickupLocation"><string>@@</string></property>'), [0xc3, 0x28]),
  ],
  ['an overlong UTF-8 encoding of "<"', spliceBytes(`${ROOT_OPEN}@@null/>${ROOT_CLOSE}`, [0xc0, 0xbc])],
  ['an unclosed element', validDoc().slice(0, -4)],
  ['mismatched tags', withPickup('<property name="pickupLocation"><string>SGN-APT-01</number></property>')],
  ['text outside any value', withPickup(`${PICKUP_PROPERTY}${MARKER}`)],
  ['two root elements', `${validDoc()}${validDoc()}`],
  ['an empty body of whitespace', '   '],
  ['an empty body (0 bytes)', ''],
  ['33 levels', depthDoc(34)],
  ['the wrong namespace', validDoc().replace(XML_NAMESPACE, 'urn:service:partner-api:v2')],
  ['no namespace', validDoc().replace(` xmlns="${XML_NAMESPACE}"`, '')],
  ['the wrong root', validDoc().replace('<request ', '<response ').replace('</request>', '</response>')],
  ['version 2', validDoc().replace('version="1"', 'version="2"')],
  ['no version', validDoc().replace(' version="1"', '')],
  ['an XML declaration naming another encoding', `<?xml version="1.0" encoding="ISO-8859-1"?>${validDoc()}`],
  ['XML 1.1', `<?xml version="1.1"?>${validDoc()}`],
  ['an unknown element', withPickup(`<property name="pickupLocation"><text>SGN-APT-01</text></property>`)],
  [
    'a number that is not finite',
    withPickup(`${PICKUP_PROPERTY}<property name="x"><number>Infinity</number></property>`),
  ],
  [
    'a boolean other than true or false',
    withPickup(`${PICKUP_PROPERTY}<property name="x"><boolean>yes</boolean></property>`),
  ],
];

describe('spec 4.14 XML bodies over HTTP (POST /availability)', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    token = await server.token('partnerA');
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (body: string | Uint8Array, accept = 'application/xml', contentType = 'application/xml') =>
    server.call('POST', '/availability', { token, headers: { 'content-type': contentType, accept }, body });

  it('the valid document is accepted (control for every rejection below)', async () => {
    expectValid<AvailabilityResponse>(await post(validDoc()), 'AvailabilityResponse');
  });

  for (const kind of ['xml', 'json'] as Kind[]) {
    it.each(HOSTILE)(`%s: 400 MALFORMED_XML (${kind} answer)`, async (_name, body) => {
      const res = await post(body, kind === 'xml' ? 'application/xml' : 'application/json');
      const envelope = expectApiError(res, 'MALFORMED_XML', kind);
      expect(envelope.error.message).not.toContain(MARKER);
      expect(res.text).not.toContain('root:');
      expect(res.text).not.toContain('/etc/passwd');
    });
  }

  describe('limits (spec 8)', () => {
    it('32 levels parse (the schema then refuses the value); 33 are MALFORMED_XML', async () => {
      expectApiError(await post(depthDoc(32)), 'VALIDATION_ERROR', 'xml');
      expectApiError(await post(depthDoc(34)), 'MALFORMED_XML', 'xml');
    });

    it('exactly 32,000 bytes are accepted; 32,001 are 413 REQUEST_TOO_LARGE', async () => {
      const base = validDoc();
      const pad = (total: number) => `${ROOT_OPEN}${' '.repeat(total - base.length)}${base.slice(ROOT_OPEN.length)}`;
      expect(Buffer.byteLength(pad(32_000))).toBe(32_000);
      expectValid<AvailabilityResponse>(await post(pad(32_000)), 'AvailabilityResponse');
      expect(Buffer.byteLength(pad(32_001))).toBe(32_001);
      expectApiError(await post(pad(32_001)), 'REQUEST_TOO_LARGE', 'xml');
      expectApiError(await post(pad(32_001), 'application/json'), 'REQUEST_TOO_LARGE', 'json');
    });

    it('as many elements as fit in 32,000 bytes parse; a 4,097-element document is over the byte limit first', async () => {
      // `<item><null/></item>` is the smallest element pair, 10 bytes a node: a structurally valid document
      // reaches the 4,096-node limit only past 32,000 bytes, so over HTTP it is answered 413 (see report).
      const largest = nodesDoc(1580);
      expect(Buffer.byteLength(largest)).toBeLessThanOrEqual(32_000);
      expectApiError(await post(largest), 'VALIDATION_ERROR', 'xml');
      const over = nodesDoc(2048);
      expect(Buffer.byteLength(over)).toBeGreaterThan(32_000);
      expectApiError(await post(over), 'REQUEST_TOO_LARGE', 'xml');
    });
  });

  describe('accepted forms', () => {
    it('a prefixed namespace and a default namespace both', async () => {
      const value = { ...rentalWindow() };
      for (const prefix of ['p', 'partner', undefined]) {
        const body = serializeTypedXml(value, 'request', prefix ? { prefix } : {});
        expectValid<AvailabilityResponse>(await post(body), 'AvailabilityResponse');
      }
    });

    it('the XML declaration, a byte order mark, predefined and numeric character references, text/xml', async () => {
      expectValid<AvailabilityResponse>(await post(`${DECL}${validDoc()}`), 'AvailabilityResponse');
      expectValid<AvailabilityResponse>(await post(`<?xml version="1.0"?>\n${validDoc()}`), 'AvailabilityResponse');
      expectValid<AvailabilityResponse>(await post(`\uFEFF${validDoc()}`), 'AvailabilityResponse');
      const refs = withPickup('<property name="pickupLocation"><string>&#x53;GN-APT&#45;01</string></property>');
      const body = expectValid<AvailabilityResponse>(await post(refs), 'AvailabilityResponse');
      expect(body.pickupLocation).toBe('SGN-APT-01');
      expectValid<AvailabilityResponse>(await post(validDoc(), 'text/xml', 'text/xml'), 'AvailabilityResponse');
    });

    it('null as <null/> or whitespace-only content', async () => {
      const spaced = withPickup(`${PICKUP_PROPERTY}<property name="accountCode"><null> </null></property>`);
      const res = await post(spaced);
      const envelope = expectApiError(res, 'VALIDATION_ERROR', 'xml');
      expect(envelope.error.fields?.map((f) => f.field)).toContain('accountCode');
    });
  });

  describe('a missing property differs from a property set to null', () => {
    it('optional accountCode missing: fine; null: VALIDATION_ERROR (the schema types it non-null)', async () => {
      expectValid<AvailabilityResponse>(await post(validDoc()), 'AvailabilityResponse');
      const withNull = withPickup(`${PICKUP_PROPERTY}<property name="accountCode"><null/></property>`);
      const envelope = expectApiError(await post(withNull), 'VALIDATION_ERROR', 'xml');
      expect(envelope.error.fields?.map((f) => f.field)).toContain('accountCode');
    });

    it('extras missing: fine; extras null: VALIDATION_ERROR', async () => {
      const withNull = withPickup(`${PICKUP_PROPERTY}<property name="extras"><null/></property>`);
      expectApiError(await post(withNull), 'VALIDATION_ERROR', 'xml');
      const withEmpty = withPickup(`${PICKUP_PROPERTY}<property name="extras"><object/></property>`);
      expectValid<AvailabilityResponse>(await post(withEmpty), 'AvailabilityResponse');
    });

    it('a required property null is reported on that property', async () => {
      const body = withPickup('<property name="pickupLocation"><null/></property>');
      const envelope = expectApiError(await post(body), 'VALIDATION_ERROR', 'xml');
      expect(envelope.error.fields?.map((f) => f.field)).toContain('pickupLocation');
    });
  });
});
