/**
 * Spec 2.3 Extras (closed, all optional): generated extras accepted, each field's type and range refused by
 * one-fault variants, cdwInsurance and fullProtection exclusive.
 */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { LIMITS } from '../contract/limits.ts';
import { availabilityRequest, extras, quoteRequest } from '../generators/index.ts';
import { type CheckContext, check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { expectError } from '../harness/check/expect-api.ts';
import { isAvailabilityAnswer, sampleOf } from './support/generated.ts';
import { targetListings } from './support/listings.ts';
import { shop } from './support/presets.ts';
import { availabilityFaults, quoteFaults } from './support/request-faults.ts';

/** Generated availability requests with `extras.<field>` true or false are accepted. */
function booleanAccepted(t: CheckContext, field: string): Promise<void> {
  return extrasAccepted(
    t,
    fc.boolean().map((value) => ({ [field]: value })),
  );
}

/** Generated availability requests carrying the drawn extras are accepted (200 or 409 NO_AVAILABILITY). */
async function extrasAccepted(t: CheckContext, extrasArb: fc.Arbitrary<Record<string, unknown>>): Promise<void> {
  const cat = await targetListings(t);
  await t.forAll(
    fc.tuple(availabilityRequest(cat, { rate: 'public' }), extrasArb),
    async ([request, x]) => {
      const res = await t.client('partnerA').post('/availability', { ...request, extras: x });
      expect(isAvailabilityAnswer(res), `extras ${JSON.stringify(x)}: HTTP ${res.status} ${res.excerpt}`).toBe(true);
    },
    { numRuns: casesFor(t, 'availability') },
  );
}

describe('2.3 Extras', () => {
  // Spec 2.3.1: "Extras (object, closed, all optional)"
  check('2.3.1')({ ...shop, name: 'Extras with no field, or any generated mix of fields, is accepted' }, async (t) => {
    await extrasAccepted(t, fc.oneof(fc.constant({}), extras() as fc.Arbitrary<Record<string, unknown>>));
  });

  // Spec 2.3.1 (quoted above)
  check('2.3.1')(
    { ...shop, name: 'An unknown property inside extras: 400 (VALIDATION_ERROR or another code)' },
    async (t) => {
      await availabilityFaults(t, 'extras', ['unknown-property']);
      await quoteFaults(t, 'extras', ['unknown-property']);
    },
  );

  // Spec 2.3.1 (quoted above)
  check('2.3.1')({ ...shop, name: 'Extras that is not an object: 400' }, async (t) => {
    await availabilityFaults(t, 'extras', ['type']);
  });

  // Spec 2.3.2: "cdwInsurance | boolean"
  check('2.3.2')({ ...shop, name: 'extras.cdwInsurance true or false is accepted' }, (t) =>
    booleanAccepted(t, 'cdwInsurance'),
  );
  // Spec 2.3.2 (quoted above)
  check('2.3.2')({ ...shop, name: 'extras.cdwInsurance of another type: 400' }, (t) =>
    availabilityFaults(t, 'extras.cdwInsurance', ['type']),
  );

  // Spec 2.3.3: "fullProtection | boolean | supersedes cdwInsurance; sending both is a validation error (no double
  // charge)"
  check('2.3.3')({ ...shop, name: 'extras.fullProtection true or false is accepted' }, (t) =>
    booleanAccepted(t, 'fullProtection'),
  );
  // Spec 2.3.3 (quoted above)
  check('2.3.3')({ ...shop, name: 'extras.fullProtection of another type: 400' }, (t) =>
    availabilityFaults(t, 'extras.fullProtection', ['type']),
  );

  // Spec 2.3.3 (quoted above)
  check('2.3.3')({ ...shop, name: 'cdwInsurance and fullProtection both true: 400 VALIDATION_ERROR' }, async (t) => {
    const cat = await targetListings(t);
    const both = { cdwInsurance: true, fullProtection: true };
    const availability = sampleOf(t, availabilityRequest(cat, { rate: 'public' }));
    expectError(
      await t.client('partnerA').post('/availability', { ...availability, extras: both }),
      'VALIDATION_ERROR',
    );
    const quote = sampleOf(t, quoteRequest(cat, { rate: 'public' }));
    expectError(await t.client('partnerA').post('/quotes', { ...quote, extras: both }), 'VALIDATION_ERROR');
  });

  // Spec 2.3.4: "additionalDriver | boolean"
  check('2.3.4')({ ...shop, name: 'extras.additionalDriver true or false is accepted' }, (t) =>
    booleanAccepted(t, 'additionalDriver'),
  );
  // Spec 2.3.4 (quoted above)
  check('2.3.4')({ ...shop, name: 'extras.additionalDriver of another type: 400' }, (t) =>
    availabilityFaults(t, 'extras.additionalDriver', ['type']),
  );

  // Spec 2.3.5: "roadSideAssistance | boolean"
  check('2.3.5')({ ...shop, name: 'extras.roadSideAssistance true or false is accepted' }, (t) =>
    booleanAccepted(t, 'roadSideAssistance'),
  );
  // Spec 2.3.5 (quoted above)
  check('2.3.5')({ ...shop, name: 'extras.roadSideAssistance of another type: 400' }, (t) =>
    availabilityFaults(t, 'extras.roadSideAssistance', ['type']),
  );

  // Spec 2.3.6: "childSeats | integer | 0 to 3"
  check('2.3.6')({ ...shop, name: 'extras.childSeats 0, 1, 2 or 3 is accepted' }, async (t) => {
    await extrasAccepted(
      t,
      fc.integer({ min: LIMITS.childSeats.min, max: LIMITS.childSeats.max }).map((childSeats) => ({ childSeats })),
    );
  });

  // Spec 2.3.6 (quoted above)
  check('2.3.6')({ ...shop, name: 'extras.childSeats -1, 4, 1.5 or a string: 400' }, async (t) => {
    await availabilityFaults(t, 'extras.childSeats');
    await quoteFaults(t, 'extras.childSeats', ['range']);
    const cat = await targetListings(t);
    const request = sampleOf(t, availabilityRequest(cat, { rate: 'public' }));
    const res = await t.client('partnerA').post('/availability', { ...request, extras: { childSeats: 1.5 } });
    // 7.3: the specific code of a validation fault is not shown (audit 7.3-R2): VALIDATION_ERROR or one of its own.
    expectError(res, 'VALIDATION_ERROR', { otherCodes: true });
  });
});
