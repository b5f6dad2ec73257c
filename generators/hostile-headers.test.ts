import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES } from '../contract/constants.ts';
import { validExample } from '../contract/schemas/examples.ts';
import { parseTypedXml } from '../contract/xml/index.ts';
import { isAcceptance, isRejection, meetsRejection } from './expectations.ts';
import {
  acceptCases,
  acceptExpectation,
  acceptHeader,
  badIdempotencyKey,
  contentTypeCases,
  idempotencyKeyCases,
  type Negotiated,
  negotiate,
  negotiateLiterally,
} from './hostile-headers.ts';

describe('Idempotency-Key', () => {
  it('cases: missing, empty, 7 and 201 characters, with the codes of 4.7 and ambiguity #32', () => {
    const cases = idempotencyKeyCases();
    const values = cases.map((c) => c.headers['idempotency-key']);
    expect(values.map((v) => (v === null ? null : v?.length))).toEqual([null, 0, 7, 201]);
    const [missing, , short, long] = cases;
    expect(
      missing && isRejection(missing.expect) && meetsRejection(missing.expect, 400, 'IDEMPOTENCY_KEY_REQUIRED'),
    ).toBe(true);
    expect(missing && isRejection(missing.expect) && meetsRejection(missing.expect, 400, 'VALIDATION_ERROR')).toBe(
      false,
    );
    for (const c of [short, long]) {
      expect(c && isRejection(c.expect) && meetsRejection(c.expect, 400, 'VALIDATION_ERROR')).toBe(true);
      expect(c && isRejection(c.expect) && meetsRejection(c.expect, 409, 'VALIDATION_ERROR')).toBe(false);
    }
  });

  it('badIdempotencyKey is visible ASCII outside 8 to 200', () => {
    fc.assert(
      fc.property(badIdempotencyKey(), (key) => {
        expect(key).toMatch(/^[\x21-\x7e]+$/);
        expect(key.length < 8 || key.length > 200).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});

describe('Content-Type', () => {
  const cases = contentTypeCases(validExample('AvailabilityRequest') as object);

  it('names are unique; 415 for types outside 4.13, including none', () => {
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    const refused = cases.filter(
      (c) => isRejection(c.expect) && meetsRejection(c.expect, 415, 'UNSUPPORTED_MEDIA_TYPE'),
    );
    expect(refused.map((c) => c.contentType)).toContain(null);
    for (const c of refused) expect(['application/json', 'application/xml', 'text/xml']).not.toContain(c.contentType);
  });

  it('accepted variants carry a body of their declared representation; mismatches do not', () => {
    for (const c of cases) {
      const xmlDeclared = /xml/i.test(c.contentType ?? '') && !/xhtml/.test(c.contentType ?? '');
      const isXmlBody = parseTypedXml(c.bytes, 'request').ok;
      if (isAcceptance(c.expect)) expect(isXmlBody, c.name).toBe(xmlDeclared);
      if (c.name.includes('declared')) expect(isXmlBody, c.name).toBe(!xmlDeclared);
    }
    expect(cases.find((c) => c.contentType === MEDIA_TYPES.textXml)?.expect).toMatchObject({
      accept: true,
      level: 'MUST',
    });
  });
});

describe('Accept (spec 4.13)', () => {
  const table: [string | null, Negotiated][] = [
    [null, 'json'],
    ['application/json', 'json'],
    ['application/xml', 'xml'],
    ['text/xml', 'text-xml'],
    ['*/*', 'json'],
    ['application/*', 'json'],
    ['text/*', 'text-xml'],
    ['application/json;q=0.5, application/xml', 'xml'],
    ['application/xml;q=0.4, application/json;q=0.9', 'json'],
    ['text/xml;q=0.8, application/json;q=0.2', 'text-xml'],
    ['*/*;q=0.1, application/xml', 'xml'],
    ['application/xml, application/json', 'json'],
    ['application/xml;q=0.7, application/json;q=0.7', 'json'],
    ['text/xml, application/xml', 'either-xml'],
    ['application/xml ; q=0.9 , application/json ; q=0.8', 'xml'],
    ['text/html;q=0.9, application/*;q=0.1', 'json'],
    ['text/html', 'not-acceptable'],
    ['image/png, text/plain;q=0.5', 'not-acceptable'],
    ['application/json;q=0, */*', 'either-xml'],
    ['application/json;q=0', 'not-acceptable'],
    ['*/*;q=0', 'not-acceptable'],
    ['APPLICATION/XML', 'xml'],
    ['application/xml;q=0.5, */*;q=0.5', 'json'],
  ];
  for (const [accept, outcome] of table) {
    it(`${accept ?? '(absent)'} → ${outcome}`, () => expect(negotiate(accept)).toBe(outcome));
  }

  it('406 carries NOT_ACCEPTABLE; q=0 and case variants are SHOULD where the words alone do not decide', () => {
    const e = acceptExpectation('text/html');
    expect(isRejection(e) && meetsRejection(e, 406, 'NOT_ACCEPTABLE')).toBe(true);
    expect(acceptExpectation('application/json;q=0')).toMatchObject({ level: 'SHOULD' });
    expect(acceptExpectation('*/*;q=0')).toMatchObject({ level: 'SHOULD' });
    // The higher q wins (spec 4.13) whether q=0 excludes JSON or only weighs it least.
    expect(acceptExpectation('application/json;q=0, */*')).toMatchObject({ level: 'MUST' });
    expect(acceptExpectation('application/json;q=0, application/xml')).toMatchObject({
      level: 'MUST',
      mediaTypes: [MEDIA_TYPES.xml],
    });
    expect(acceptExpectation('APPLICATION/XML')).toMatchObject({ level: 'SHOULD', mediaTypes: [MEDIA_TYPES.xml] });
    expect(acceptExpectation('application/xml;q=0.001')).toMatchObject({ level: 'MUST' });
  });

  it('named cases and generated lists agree with negotiate', () => {
    for (const c of acceptCases()) {
      const accept = c.headers.accept ?? null;
      expect(isRejection(c.expect), c.name).toBe(negotiate(accept) === 'not-acceptable');
    }
    fc.assert(
      fc.property(acceptHeader(), (c) => {
        const accept = c.headers.accept ?? null;
        const outcome = negotiate(accept);
        if (outcome === 'not-acceptable') expect(isRejection(c.expect)).toBe(true);
        else expect(isAcceptance(c.expect) && c.expect.mediaTypes?.length).toBe(outcome === 'either-xml' ? 2 : 1);
        // SHOULD only where a q=0 range decides the outcome (generated lists are lower-case).
        const level = typeof c.expect === 'object' && c.expect.level;
        if (!/q=0(,|$)/.test(accept ?? '')) expect(level).toBe('MUST');
        else expect(level).toBe(negotiateLiterally(accept ?? '') === outcome ? 'MUST' : 'SHOULD');
      }),
      { numRuns: 200 },
    );
  });
});
