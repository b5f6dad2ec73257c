import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES } from '../contract/constants.ts';
import { parseTypedXml } from '../contract/xml/index.ts';
import { renderBody, renderForm } from './render.ts';
import { availabilityRequest, cancelRequest, quoteRequest, reservationRequest, tokenForm } from './requests.ts';
import { TODAY, testListings } from './test-listings.testkit.ts';

const cat = testListings();
const bodies = fc.oneof(
  availabilityRequest(cat),
  quoteRequest(cat, { sameBranch: false }),
  reservationRequest('q_0123456789abcdef', TODAY, { partnerReferencePrefix: 'CERT-' }),
  cancelRequest(),
);
const decode = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);

describe('renderBody', () => {
  it('JSON parses back to the value', () => {
    fc.assert(
      fc.property(bodies, (value) => {
        const body = renderBody(value, 'json');
        expect(body.contentType).toBe(MEDIA_TYPES.json);
        expect(JSON.parse(decode(body.bytes))).toEqual(value);
      }),
      { numRuns: 100 },
    );
  });

  it('XML, default namespace or a prefix, with or without declaration, parses back to the value', () => {
    const options = fc.record({
      prefix: fc.constantFrom(undefined, 'p', 'partner'),
      declaration: fc.boolean(),
      xmlMediaType: fc.constantFrom(MEDIA_TYPES.xml, MEDIA_TYPES.textXml),
    });
    fc.assert(
      fc.property(bodies, options, (value, opts) => {
        const body = renderBody(value, 'xml', opts);
        expect(body.contentType).toBe(opts.xmlMediaType);
        const text = decode(body.bytes);
        expect(text.startsWith('<?xml')).toBe(opts.declaration);
        if (opts.prefix) expect(text).toContain(`<${opts.prefix}:request `);
        expect(parseTypedXml(body.bytes, 'request')).toEqual({ ok: true, value });
      }),
      { numRuns: 100 },
    );
  });
});

describe('renderForm', () => {
  it('is form-encoded and decodes to the same fields', () => {
    fc.assert(
      fc.property(tokenForm('client id/1', 'sécret&=+', ['fleet:read', 'rates:read']), (form) => {
        const body = renderForm(form);
        expect(body.contentType).toBe(MEDIA_TYPES.form);
        expect(Object.fromEntries(new URLSearchParams(decode(body.bytes)))).toEqual(form);
      }),
      { numRuns: 30 },
    );
  });
});
