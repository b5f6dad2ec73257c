/**
 * Spec 9 Versioning: the major version in the path, the contract release and its OpenAPI document, stable error
 * codes, the spec's field names, and the versioned XML namespace and root. 9.2 (the contract release and its
 * OpenAPI) is judged on the target's own machine-readable contract when it serves one at
 * /api/partner/v1/openapi.json; the spec names no such endpoint, so a target that serves none leaves 9.2 not
 * judged (the suite's own shipped copy says nothing about the target). Deprecation policy (9.5) is open and never
 * asserted.
 */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  API_PREFIX,
  CONTRACT_INFO_VERSION,
  MEDIA_TYPES,
  OPENAPI_VERSION,
  SPEC_RELEASE,
  XML_NAMESPACE,
  XML_VERSION,
} from '../contract/constants.ts';
import { isErrorCode } from '../contract/errors.ts';
import type { AvailabilityRequest, Reservation } from '../contract/types.ts';
import { availabilityRequest, xmlAttacks } from '../generators/index.ts';
import { type ApiResult, type CheckContext, check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { expectError, requireRepresentation, stringErrorCode } from '../harness/check/expect-api.ts';
import type { Role } from '../harness/config/target-config.ts';
import { expectNewState, requireGeneratedBooking } from './support/booking.ts';
import { unknownCodes } from './support/draws.ts';
import { sharedListingRead, targetListings, unknownCode } from './support/listings.ts';
import { business } from './support/presets.ts';
import { type Provoked, refusedOnly } from './support/provoked.ts';
import { LISTING_READ_ERRORS, provokedCase } from './support/provoked-cases.ts';
import { provokedOf, responsePairs } from './support/response-pairs.ts';
import { forSamples, levelOptions, SAMPLE_LEVELS } from './support/samples.ts';
import { unknownKeys } from './support/schema-walk.ts';
import { sharedRead } from './support/shared-reads.ts';
import { expectEnvelopeOnUnknownPath } from './support/unknown-path.ts';
import { xmlRootOf } from './support/xml-root.ts';

const onlyPartnerA: Role[] = ['partnerA'];

interface OpenApiDocument {
  openapi?: unknown;
  jsonSchemaDialect?: unknown;
  info?: { version?: unknown; description?: unknown; title?: unknown };
  paths?: Record<string, unknown>;
}

/** The target's published OpenAPI document at the conventional path; without one, 9.2 is not judged. */
async function publishedContract(t: CheckContext): Promise<{ source: string; doc: OpenApiDocument }> {
  // One read for 9.2a and 9.2b (sharedRead).
  const res = await sharedRead(t, '/openapi.json', { representation: 'json' });
  const served = res.status === 200 ? (res.body as OpenApiDocument | undefined) : undefined;
  if (served && typeof served === 'object' && 'openapi' in served) {
    return { source: `${API_PREFIX}/openapi.json`, doc: served };
  }
  return t.notApplicable(
    `the target serves no OpenAPI document at ${API_PREFIX}/openapi.json (answered ${res.status}); spec 9.2 names no ` +
      'endpoint for its contract, so the contract is not observable over the API',
  );
}

async function shoppingErrors(t: CheckContext, valid: AvailabilityRequest, code: string): Promise<Provoked[]> {
  const client = t.client('partnerA');
  return [
    {
      name: 'invalid pickupTime',
      clauseId: '2.4.4',
      res: await client.post('/availability', { ...valid, pickupTime: '24:00' }),
    },
    {
      name: 'unknown location',
      clauseId: '4.12.1a',
      res: await client.post('/availability', { ...valid, pickupLocation: code }),
    },
    {
      name: 'dropoff before pickup',
      clauseId: '4.12.2',
      res: await client.post('/availability', {
        ...valid,
        dropoffDate: valid.pickupDate,
        dropoffTime: valid.pickupTime,
        dropoffLocation: valid.pickupLocation,
      }),
    },
    {
      name: 'malformed JSON',
      clauseId: '4.13.3',
      res: await client.post('/availability', new TextEncoder().encode('{"pickupLocation": '), {
        headers: { 'content-type': MEDIA_TYPES.json },
      }),
    },
    {
      name: 'unsupported media type',
      clauseId: '4.13.2',
      res: await client.post('/availability', valid, { headers: { 'content-type': 'text/csv' } }),
    },
  ];
}

/**
 * Provocations that are schema faults of a request body: 7.3 leaves their specific code open ("violations such as
 * …"), so a 400 with a code of the server's own is no table code changing meaning (audit 7.3-R2).
 */
const VALIDATION_FAULTS = new Set(['invalid pickupTime']);

/** Every provoked error: a code of the 7.3 table with that code's status and retryable, in a valid envelope. */
function expectTableCodes(errors: Provoked[], t: CheckContext): void {
  // A provocation served instead of refused is its condition's clause's (filed there); a code that is not a string
  // is 7.2.2's; the status of a table code is its 7.3 row's (expectError files it there).
  for (const { name, res } of refusedOnly(errors, t.representation)) {
    const code = stringErrorCode(res);
    if (code === undefined) continue;
    if (VALIDATION_FAULTS.has(name) && !isErrorCode(code)) {
      expect(res.status, `${name}: a code of the server's own (${code}) for a validation fault, with 400`).toBe(400);
      continue;
    }
    expect(isErrorCode(code), `${name}: code ${code} is in the 7.3 table`).toBe(true);
    if (!isErrorCode(code)) continue;
    expectError(res, code, code === 'NOT_ACCEPTABLE' ? {} : { representation: t.representation });
  }
}

describe('9 Versioning', () => {
  // Spec 9.1: "The major version is in the path prefix `/api/partner/v1`."
  check('9.1')({ ...business, name: 'The v1 resources answer under /api/partner/v1' }, async (t) => {
    // The read every check of a plain listing answer shares (sharedListingRead).
    const res = await sharedListingRead(t, '/fleet', 'partnerA');
    expect(res.status, `GET ${API_PREFIX}/fleet: ${res.excerpt}`).toBe(200);
    expect(API_PREFIX.endsWith('/v1'), 'the prefix carries the major version').toBe(true);
  });

  // Spec 9.1 (quoted above)
  check('9.1')({ ...business, name: 'Another major version in the path is not v1: no success' }, async (t) => {
    const token = await t.client('partnerA').token();
    // Other majors, a minor, none at all: on each listing resource.
    const versions = fc.oneof(
      fc.constantFrom('v2', 'v0', 'v1.4', ''),
      fc.integer({ min: 2, max: 99 }).map((n) => `v${n}`),
    );
    const resources = ['fleet', 'locations', 'rates'] as const;
    const paths = fc
      .tuple(versions, fc.constantFrom(...resources))
      .map(([version, resource]) => `/api/partner/${version ? `${version}/` : ''}${resource}`);
    const expectNoSuccess = async (path: string) => {
      const res = await t.client('partnerA').raw({
        method: 'GET',
        path: `${t.settings.target.baseUrl}${path}`,
        headers: {
          authorization: `Bearer ${token}`,
          accept: t.representation === 'xml' ? 'application/xml' : 'application/json',
        },
      });
      expect(res.status, `GET ${path}: ${res.excerpt}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `GET ${path}`).toBeLessThan(500);
    };
    // The next major always, whatever the draw: the version a server most likely serves by mistake.
    for (const resource of resources) await expectNoSuccess(`/api/partner/v2/${resource}`);
    await t.forAll(paths, expectNoSuccess, { numRuns: casesFor(t, 'request') });
  });

  // Spec 9.1 (quoted above)
  check('9.1')(
    { ...business, level: 'SHOULD', name: 'Another major version in the path: 404 in the envelope' },
    async (t) => {
      const token = await t.client('partnerA').token();
      const paths = fc
        .tuple(fc.integer({ min: 2, max: 99 }), fc.constantFrom('fleet', 'locations', 'rates'))
        .map(([major, resource]) => `/api/partner/v${major}/${resource}`);
      await t.forAll(
        paths,
        async (path) => {
          const res = await t.client('partnerA').raw({
            method: 'GET',
            path: `${t.settings.target.baseUrl}${path}`,
            headers: {
              authorization: `Bearer ${token}`,
              accept: t.representation === 'xml' ? 'application/xml' : 'application/json',
            },
          });
          // A SHOULD judged under 9.1 alone: 7.2 and 4.13 cover the table's operations, not a path outside it (#40).
          expect(res.status, `GET ${path}: ${res.excerpt}`).toBe(404);
          expectEnvelopeOnUnknownPath(res, t.representation, `GET ${path}`, 'NOT_FOUND');
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 9.2a: "The published contract release is 1.4.0"
  check('9.2a')(
    { needs: onlyPartnerA, judgedBy: 'live', name: 'The published contract is release 1.4.0' },
    async (t) => {
      expect(SPEC_RELEASE, 'the release this suite certifies').toBe('1.4.0');
      const { source, doc } = await publishedContract(t);
      expect(
        `${String(doc.info?.description ?? '')} ${JSON.stringify(doc.info ?? {})}`,
        `${source}: info names the contract release`,
      ).toContain(SPEC_RELEASE);
    },
  );

  // Spec 9.2b: "the machine-readable contract is OpenAPI 3.1.2 (JSON Schema 2020-12 dialect) and its own info version
  // is 1.0.0."
  check('9.2b')(
    {
      needs: onlyPartnerA,
      judgedBy: 'live',
      name: 'The machine-readable contract is OpenAPI 3.1.2, JSON Schema 2020-12, info.version 1.0.0',
    },
    async (t) => {
      const { source, doc } = await publishedContract(t);
      expect(doc.openapi, `${source}: openapi`).toBe(OPENAPI_VERSION);
      expect(doc.info?.version, `${source}: info.version`).toBe(CONTRACT_INFO_VERSION);
      expect(
        doc.jsonSchemaDialect ?? 'https://spec.openapis.org/oas/3.1/dialect/base',
        `${source}: the schema dialect`,
      ).toMatch(/json-schema\.org\/draft\/2020-12\/schema|spec\.openapis\.org\/oas\/3\.1\/dialect/);
      expect(
        Object.keys(doc.paths ?? {}).every((p) => p.startsWith(API_PREFIX)),
        `${source}: every path under ${API_PREFIX}`,
      ).toBe(true);
    },
  );

  // Spec 9.3a: "Error codes do not change meaning within v1."
  check('9.3a')(
    { ...business, name: 'Provoked errors carry table codes with their 7.3 status and retryable (listing reads)' },
    async (t) => {
      // The run's listing-read error cases, the ones 7.2's envelope checks judge too (provokedCase): sent once. An
      // unknown vehicle's code is 4.2's open choice (404 with NOT_FOUND or INVALID_VEHICLE, docs/ambiguities.md #8),
      // not the INVALID_VEHICLE row's 400: judged by 4.2.5, not here.
      const runs = casesFor(t, 'severalRequests');
      await t.forAll(
        fc.integer({ min: 0, max: runs - 1 }),
        async (index) => {
          const provoked = await provokedCase(t, LISTING_READ_ERRORS, index);
          expectTableCodes(
            provoked.filter((p) => p.name !== 'unknown vehicle'),
            t,
          );
        },
        { numRuns: runs },
      );
    },
  );

  // Spec 9.3a (quoted above)
  check('9.3a')(
    {
      ...business,
      profile: 'shop',
      name: 'Provoked errors carry table codes with their 7.3 status and retryable (request bodies)',
    },
    async (t) => {
      const cat = await targetListings(t);
      await t.forAll(
        fc.tuple(availabilityRequest(cat, { rate: 'public' }), unknownCodes),
        async ([valid, code]) => expectTableCodes(await shoppingErrors(t, valid, code), t),
        { numRuns: casesFor(t, 'severalRequests') },
      );
    },
  );

  // Spec 9.3a (quoted above)
  check('9.3a')(
    {
      ...business,
      profile: 'book',
      bookings: true,
      name: 'Reservation errors carry table codes with their 7.3 status and retryable',
    },
    async (t) => {
      const { reservation, quote } = await requireGeneratedBooking(t, 'partnerA');
      const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
      const client = t.client('partnerA');
      expectTableCodes(
        [
          { name: 'PATCH', clauseId: '4.0.15', res: await client.patch(path, { dropoffTime: '09:00' }) },
          {
            name: 'missing Idempotency-Key',
            clauseId: '4.7.1',
            res: await client.post('/reservations', { quoteId: quote.quoteId }),
          },
          { name: 'unknown reservation', clauseId: '4.9.1', res: await client.get(`/reservations/${unknownCode(t)}`) },
        ],
        t,
      );
    },
  );

  for (const level of SAMPLE_LEVELS) {
    // Spec 9.3b: "Money and field names are as in this document."
    check('9.3b')(
      {
        ...business,
        ...levelOptions(level),
        name: `Field names are the spec's: every response validates, no other key (${level})`,
      },
      (t) =>
        forSamples(t, level, (samples) => {
          const unknown = samples.flatMap((s) => unknownKeys(s.schema, s.res.body).map((k) => `${s.label}: ${k}`));
          expect(unknown, 'keys the spec does not name').toEqual([]);
          // A Money's keys are among them (Money is closed); one lacking a key of its four is 2.1.1's, judged there.
        }),
    );
  }

  /**
   * The root of an XML body: `response` in the v1 namespace with version="1". A body not in XML at all has no root
   * to judge: it did not follow Accept (4.13.1a's, filed there by requireRepresentation).
   */
  function expectVersionedRoot(label: string, res: ApiResult): void {
    // A JSON answer to an XML Accept is 4.13.1a's (filed there): no XML root to judge.
    requireRepresentation(res, 'xml', label);
    const root = xmlRootOf(res.text);
    expect(root, `${label}: well-formed XML`).toBeDefined();
    expect({ local: root?.local, uri: root?.uri, version: root?.version }, label).toEqual({
      local: 'response',
      uri: XML_NAMESPACE,
      version: XML_VERSION,
    });
    expect(root?.uri.endsWith(':v1'), `${label}: the namespace carries the major version`).toBe(true);
  }

  for (const level of SAMPLE_LEVELS) {
    // Spec 9.4: "The XML namespace carries the version (`...:v1`) and the root attribute version is `1`."
    check('9.4')(
      {
        needs: onlyPartnerA,
        representations: ['xml'],
        ...levelOptions(level),
        name: `Every XML answer has root version="1" in the v1 namespace (${level})`,
      },
      (t) =>
        forSamples(t, level, (samples) => {
          for (const s of samples) expectVersionedRoot(s.label, s.res);
        }),
    );
  }

  // Spec 9.4 (quoted above)
  check('9.4')(
    {
      needs: onlyPartnerA,
      representations: ['xml'],
      profile: 'shop',
      name: 'A request in another version\'s namespace or with version="2" is refused (400 MALFORMED_XML)',
    },
    async (t) => {
      const cat = await targetListings(t);
      await t.forAll(
        availabilityRequest(cat, { rate: 'public' }),
        async (valid) => {
          const cases = xmlAttacks(valid).filter((c) => /another version|version "2"|version missing/.test(c.name));
          expect(cases.length, 'version cases from generators/').toBeGreaterThanOrEqual(3);
          for (const c of cases) {
            const res = await t.client('partnerA').post('/availability', c.bytes, {
              headers: { 'content-type': c.contentType ?? MEDIA_TYPES.xml },
            });
            // Refused is 9.4's; MALFORMED_XML's status is its row's (7.3.8).
            expectError(res, 'MALFORMED_XML');
          }
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 9.4 (quoted above)
  check('9.4')(
    {
      needs: onlyPartnerA,
      representations: ['xml'],
      name: 'XML error answers have root version="1" in the v1 namespace',
    },
    async (t) => {
      // The listing reads' refusals in XML (no token, a malformed token, a scope lacking, an unknown code): the pairs
      // 4.14's response rules judge too (responsePairs), sent once.
      for (const { name, res } of provokedOf(await responsePairs(t), 'xml')) expectVersionedRoot(name, res);
    },
  );

  // Spec 9.4 (quoted above)
  check('9.4')(
    {
      needs: onlyPartnerA,
      representations: ['xml'],
      profile: 'book',
      bookings: true,
      name: 'A cancelled reservation read as XML keeps the versioned root',
    },
    async (t) => {
      const { reservation } = await requireGeneratedBooking(t, 'partnerA');
      const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
      const cancelled = await t.client('partnerA').post(`${path}/cancel`, { reason: 'Certification: spec 9.4' });
      // The state the answer shows is 4.11.2's rule, filed there.
      expectNewState(cancelled.body as Reservation | undefined, 'the cancel answer');
      expectVersionedRoot(`POST ${path}/cancel`, cancelled);
      expectVersionedRoot(`PATCH ${path}`, await t.client('partnerA').patch(path, { remarks: 'x' }));
    },
  );
});
