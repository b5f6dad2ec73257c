import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../contract/limits.ts';
import { validExample } from '../contract/schemas/examples.ts';
import type { JsonValue } from '../contract/types.ts';
import { validate } from '../contract/validation.ts';
import { parseTypedXml, XML_REJECTION_REASONS as REASONS, type XmlLimits } from '../contract/xml/index.ts';
import type { BodyCase } from './cases.ts';
import { isAcceptance, isRejection } from './expectations.ts';
import { UNKNOWN_PROPERTY } from './hostile-schema.ts';
import { elementCount, nodeCountDocument, xmlAttacks } from './hostile-xml.ts';
import { availabilityRequest, cancelRequest, quoteRequest, reservationRequest } from './requests.ts';
import { TODAY, testListings } from './test-listings.testkit.ts';

const cat = testListings();
const requests = fc.oneof(
  availabilityRequest(cat),
  quoteRequest(cat),
  reservationRequest('q_0123456789abcdef', TODAY, { partnerReferencePrefix: 'CERT-' }),
  cancelRequest(),
);
const verdict = (bytes: Uint8Array, limits: XmlLimits = LIMITS.xml) => {
  const r = parseTypedXml(bytes, 'request', limits);
  return r.ok ? { ok: true } : r;
};
const byName = (cases: BodyCase[], part: string): BodyCase => {
  const found = cases.find((c) => c.name.includes(part));
  if (!found) throw new Error(`no case ${part}`);
  return found;
};

describe('xmlAttacks', () => {
  it('each case is refused (or accepted) by parseTypedXml exactly as it says', () => {
    fc.assert(
      fc.property(requests, (value) => {
        const cases = xmlAttacks(value);
        expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
        for (const c of cases) {
          expect(verdict(c.bytes), c.name).toEqual(c.codec);
          if (isRejection(c.expect) && c.expect.reject.every((a) => a.codes.includes('MALFORMED_XML'))) {
            expect(c.codec?.ok, c.name).toBe(false);
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  it('text that looks like replacement patterns ($&, $1) is carried as it is', () => {
    for (const reason of ['a $& b', '$1 $$ $`', "]]> & <x> $'"]) {
      for (const c of xmlAttacks({ reason })) expect(verdict(c.bytes), c.name).toEqual(c.codec);
    }
  });

  it('only the size and node cases exceed 32,000 bytes', () => {
    for (const c of xmlAttacks(validExample('ReservationRequest') as object)) {
      const big = /bytes$|elements$/.test(c.name) && !c.name.includes('exactly');
      if (!big) expect(c.bytes.length, c.name).toBeLessThanOrEqual(LIMITS.xml.maxBytes);
    }
  });

  it('allowed forms carry the same value as the plain document', () => {
    fc.assert(
      fc.property(requests, (value) => {
        for (const c of xmlAttacks(value).filter((x) => isAcceptance(x.expect))) {
          expect(parseTypedXml(c.bytes, 'request'), c.name).toEqual({ ok: true, value });
        }
      }),
      { numRuns: 25 },
    );
  });

  it('size: exactly 32,000 and 32,001 bytes', () => {
    const cases = xmlAttacks(validExample('QuoteRequest') as object);
    expect(byName(cases, 'exactly 32000 bytes').bytes.length).toBe(32_000);
    expect(byName(cases, '32001 bytes').bytes.length).toBe(32_001);
    expect(verdict(byName(cases, '32001 bytes').bytes, { ...LIMITS.xml, maxBytes: 32_001 })).toEqual({ ok: true });
  });

  it('depth: 32 levels parse and fail the schema on the probe only; level 33 is the only fault of its case', () => {
    const valid = validExample('AvailabilityRequest') as JsonValue;
    const cases = xmlAttacks(valid as object);
    const inside = parseTypedXml(byName(cases, '32 levels').bytes, 'request');
    expect(inside.ok).toBe(true);
    const result = inside.ok ? validate('AvailabilityRequest', inside.value) : undefined;
    expect(result).toEqual({
      valid: false,
      fields: [{ field: UNKNOWN_PROPERTY, message: 'is not an allowed property' }],
    });
    const past = byName(cases, 'level 33').bytes;
    expect(verdict(past)).toEqual({ ok: false, error: 'malformed', reason: REASONS.tooDeep });
    expect(verdict(past, { ...LIMITS.xml, maxDepth: 34 })).toEqual({ ok: true });
    expect(verdict(past, { ...LIMITS.xml, maxDepth: 33 })).toEqual({
      ok: false,
      error: 'malformed',
      reason: REASONS.tooDeep,
    });
  });

  it('nodes: 4,098 elements are refused for the count once the byte limit is lifted, 4,096 are not', () => {
    const valid = validExample('CancelRequest') as JsonValue;
    const past = byName(xmlAttacks(valid as object), '4098 elements').bytes;
    expect(elementCount(new TextDecoder().decode(past))).toBe(4_098);
    expect(verdict(past)).toEqual({ ok: false, error: 'too_large', reason: REASONS.tooLarge });
    const lifted = { ...LIMITS.xml, maxBytes: 1_000_000 };
    expect(verdict(past, lifted)).toEqual({ ok: false, error: 'malformed', reason: REASONS.tooManyNodes });
    expect(verdict(nodeCountDocument(valid, 4_096), lifted)).toEqual({ ok: true });
    expect(() => nodeCountDocument(valid, 4_097)).toThrow(/cannot reach/);
  });

  it('the custom-entity case would expand to exactly the valid value', () => {
    const valid = { reason: 'A & B <ok> "quoted" 100%' };
    const text = new TextDecoder().decode(byName(xmlAttacks(valid), 'custom entity for a value').bytes);
    const declared = /<!ENTITY v "([^"]*)">/.exec(text)?.[1] ?? '';
    // What an expanding parser does: character references in the literal first, then the text as markup.
    const replacement = declared.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
    const expanded = text.replace(/<!DOCTYPE[^\]]*\]>/, '').replace('&v;', replacement);
    expect(parseTypedXml(new TextEncoder().encode(expanded), 'request')).toEqual({ ok: true, value: valid });
  });
});
