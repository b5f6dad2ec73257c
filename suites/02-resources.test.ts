/**
 * Spec 2 preamble (2.0.x): `T|null` keys present, closed objects and the /api/partner/v1 prefix, judged on
 * samples of every response of every endpoint. The subsections are judged in 02.01 to 02.12, one file each: each
 * field rule of the tables on its own (so a failure names the rule), on what the target lists and answers; request
 * shapes by generated valid bodies (accepted) and one-fault variants of them from generators/ (refused). What the
 * spec leaves open (price computation, the rentalDays rule, identifier formats) is not asserted; see
 * docs/ambiguities.md.
 */
import { describe, expect } from 'vitest';
import { API_PREFIX } from '../contract/constants.ts';
import { check } from '../harness/check/check.ts';
import { requireSuccess } from '../harness/check/expect-api.ts';
import { plainTokenAnswer } from './support/auth.ts';
import { sharedListingRead } from './support/listings.ts';
import { book, business, shop } from './support/presets.ts';
import { availabilityFaults, quoteFaults, reservationFaults } from './support/request-faults.ts';
import { expectSamples, forSamples, levelOptions, SAMPLE_LEVELS, type Sample } from './support/samples.ts';
import { absentKeys, nullableRequiredKeys, unknownKeys } from './support/schema-walk.ts';

describe('2 Conventions', () => {
  for (const level of SAMPLE_LEVELS) {
    const options = { ...business, ...levelOptions(level) };
    // Spec 2.0.1: "`T|null` means the key is present and may be null."
    check('2.0.1')(
      { ...options, name: `Every required T|null key is present in every response, null or not (${level})` },
      (t) =>
        forSamples(t, level, (samples) => {
          // A required key that may not be null is its resource's "Required:" clause's (filed there by the samples'
          // schema validation); this clause's own are the T|null ones: present, null or not.
          const absent = samples.flatMap((s) =>
            absentKeys(s.schema, s.res.body, 'required-nullable').map((k) => `${s.label}: ${k}`),
          );
          expect(absent, 'required T|null keys missing (a T|null key is present, its value may be null)').toEqual([]);
          const nullable = samples.flatMap((s) => nullableRequiredKeys(s.schema, s.res.body));
          if (nullable.length === 0) t.notApplicable('no sampled response has a required T|null key');
        }),
    );

    // Spec 2.0.1 (quoted above)
    check('2.0.1')(
      {
        ...options,
        level: 'SHOULD',
        name: `Every "T or null" field of the tables is sent, as null when it has no value (${level})`,
      },
      (t) =>
        forSamples(t, level, (samples) => {
          const absent = samples.flatMap((s) =>
            absentKeys(s.schema, s.res.body, 'nullable').map((k) => `${s.label}: ${k}`),
          );
          expect(absent, 'nullable keys left out instead of null (docs/ambiguities.md RS1)').toEqual([]);
        }),
    );

    // Spec 2.0.2: "Objects are closed (no unknown properties) unless stated."
    check('2.0.2')(
      { ...options, name: `No object of any response carries a key its schema does not declare (${level})` },
      (t) =>
        forSamples(t, level, (samples) => {
          const unknown = samples.flatMap((s) => unknownKeys(s.schema, s.res.body).map((k) => `${s.label}: ${k}`));
          expect(unknown, 'unknown properties in closed objects').toEqual([]);
        }),
    );
  }

  // TokenResponse is one of the objects (2.12 names it, 4.1 lists its members) and nothing states it open
  // (docs/ambiguities.md). The token endpoint answers JSON whatever the representation, so the samples above (one set
  // per representation) leave it out: judged here, on the plain token answer every check shares.
  // Spec 2.0.2 (quoted above)
  check('2.0.2')({ needs: ['partnerA'], name: 'The token response carries no member 4.1 does not list' }, async (t) => {
    const res = await plainTokenAnswer(t, 'partnerA');
    // The answer itself is 4.1.1's (filed there, blocking): this clause judges the members of a token it issued.
    requireSuccess(res, 200, '4.1.1', 'POST /oauth/token');
    expect(unknownKeys('TokenResponse', res.body), 'members of the token response its schema does not declare').toEqual(
      [],
    );
  });

  // Spec 2.0.2 (quoted above)
  check('2.0.2')(
    {
      ...shop,
      name: 'An unknown property at any level of an availability or quote request: 400 (VALIDATION_ERROR or another code)',
    },
    async (t) => {
      await availabilityFaults(t, '', ['unknown-property']);
      await availabilityFaults(t, 'extras', ['unknown-property']);
      await quoteFaults(t, '', ['unknown-property']);
    },
  );

  // Spec 2.0.2 (quoted above)
  check('2.0.2')(
    {
      ...book,
      name: 'An unknown property in a reservation request or its driver: 400 (VALIDATION_ERROR or another code)',
    },
    async (t) => {
      await reservationFaults(t, '', ['unknown-property']);
      await reservationFaults(t, 'driver', ['unknown-property']);
    },
  );

  // Spec 2.0.3: "all paths start with `/api/partner/v1`"
  check('2.0.3')({ ...business, name: 'The token and listing endpoints answer under /api/partner/v1' }, async (t) => {
    const token = await plainTokenAnswer(t, 'partnerA');
    expect(token.status, `POST ${API_PREFIX}/oauth/token: ${token.excerpt}`).toBe(200);
    expectSamples(
      await Promise.all(
        (
          [
            ['/fleet', 'FleetList'],
            ['/locations', 'LocationList'],
            ['/rates', 'RateList'],
          ] as const
        ).map(async ([path, schema]): Promise<Sample> => {
          return { label: `GET ${API_PREFIX}${path}`, res: await sharedListingRead(t, path), status: 200, schema };
        }),
      ),
    );
  });

  // Spec 2.0.3 (quoted above)
  check('2.0.3')({ ...shop, name: 'The shopping endpoints answer under /api/partner/v1' }, (t) =>
    forSamples(t, 'shop', () => undefined),
  );

  // Spec 2.0.3 (quoted above)
  check('2.0.3')({ ...book, name: 'The reservation endpoints answer under /api/partner/v1' }, (t) =>
    forSamples(t, 'book', () => undefined),
  );

  // Spec 2.0.3 (quoted above)
  check('2.0.3')(
    { ...business, level: 'SHOULD', name: 'The resources are not served outside /api/partner/v1' },
    async (t) => {
      const token = await t.client('partnerA').token();
      for (const path of ['/fleet', '/api/fleet', '/api/partner/fleet', '/partner/v1/fleet']) {
        const res = await t.client('partnerA').raw({
          method: 'GET',
          path: `${t.settings.target.baseUrl}${path}`,
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        });
        expect(res.status, `GET ${path}: ${res.excerpt}`).not.toBe(200);
      }
    },
  );
});
