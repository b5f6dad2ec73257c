/**
 * Spec 4.13 Content negotiation. Checks here set Accept and Content-Type themselves; the error checks run in
 * both representations (the error follows Accept). A tie between application/xml and text/xml may go either
 * way (docs/ambiguities.md #17).
 */

import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { MEDIA_TYPES } from '../contract/constants.ts';
import type { AvailabilityResponse, JsonValue } from '../contract/types.ts';
import type { Level } from '../contract/vocabulary.ts';
import { serializeTypedXml } from '../contract/xml/index.ts';
import {
  type Acceptance,
  acceptCases,
  type BodyCase,
  contentTypeCases,
  type HeaderCase,
  isAcceptance,
  isRejection,
  jsonAttacks,
  type Rejection,
  utf8,
} from '../generators/index.ts';
import { type ApiResult, type CheckContext, check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import {
  bodyOf,
  errorCodeOf,
  expectError,
  expectMediaType,
  expectSchema,
  listItems,
  readableBody,
  requireRepresentation,
} from '../harness/check/expect-api.ts';
import { claim } from '../harness/check/scope.ts';
import { ACCEPT_OF } from '../harness/http/partner-client.ts';
import { REPRESENTATIONS, type Representation } from '../harness/http/representation.ts';
import { locationsWithAccept, UNACCEPTABLE } from './support/accept-reads.ts';
import {
  basicCredentials,
  bearer,
  expectTokenRequestRefused,
  jsonTokenRequest,
  requestToken,
  TOKEN_PATH,
} from './support/auth.ts';
import {
  acceptOf,
  BODY_ENDPOINTS,
  type BodyEndpoint,
  bodyTarget,
  casesOf,
  endpointOptions,
  expectAnswered,
  expectRefusal,
  LABEL,
  REQUEST_CHECK,
  SHOPPING_ENDPOINTS,
} from './support/body-endpoints.ts';
import { shoppingWindow, unknownCodes } from './support/draws.ts';
import { responsePairs } from './support/response-pairs.ts';

const needs = ['partnerA' as const];

const XML_TYPES = [MEDIA_TYPES.xml, MEDIA_TYPES.textXml];

/** Offers in one order whatever order the answer gave them in (by vehicle code, then by their JSON text). */
function byVehicle<O extends object>(offers: O[]): O[] {
  const codeOf = (o: O) => {
    const own = (o as { vehicleCode?: unknown }).vehicleCode;
    const nested = (o as { vehicle?: { vehicleCode?: unknown } }).vehicle?.vehicleCode;
    return String(own ?? nested ?? '');
  };
  const keyOf = (o: O) => `${codeOf(o)}\u0000${JSON.stringify(o)}`;
  return [...offers].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

/**
 * A valid body sent without Content-Type (docs/ambiguities.md "JSON by default"): spec 4.13 says "otherwise 415",
 * spec 4 says business endpoints "receive JSON by default". At MUST a 415 UNSUPPORTED_MEDIA_TYPE or the body read
 * as the JSON it is both pass; at SHOULD only the 415.
 */
function judgeWithoutContentType(
  res: ApiResult,
  endpoint: BodyEndpoint,
  representation: Representation,
  level: Level,
): void {
  if (level === 'SHOULD' || res.status === 415) {
    expectError(res, 'UNSUPPORTED_MEDIA_TYPE', { representation });
    return;
  }
  if (endpoint === 'availability' || endpoint === 'quotes') {
    expectAnswered(res, endpoint);
    return;
  }
  // A booking or a cancel read as JSON: done as the valid request it is (bodyTarget records a booking it made).
  const done = res.status >= 200 && res.status < 300;
  expect(done, `415, or read as JSON and done: HTTP ${res.status} ${res.excerpt}`).toBe(true);
}

async function withoutContentType(t: CheckContext, level: Level): Promise<void> {
  const headers = { ...bearer(await t.client('partnerA').token()), accept: ACCEPT_OF[t.representation] };
  await t.forAll(
    await shoppingWindow(t, 'partnerA'),
    async (request) => {
      const body = JSON.stringify(request);
      const res = await t.client('partnerA').raw({ method: 'POST', path: '/availability', headers, body });
      judgeWithoutContentType(res, 'availability', t.representation, level);
    },
    { numRuns: casesFor(t, 'request') },
  );
}

describe('4.13 Content negotiation', () => {
  const selection: [name: string, accept: string | null, expected: readonly string[]][] = [
    ['Accept absent: JSON', null, [MEDIA_TYPES.json]],
    ['Accept: application/json: JSON', 'application/json', [MEDIA_TYPES.json]],
    ['Accept: application/xml: XML as application/xml', 'application/xml', [MEDIA_TYPES.xml]],
    ['Accept: text/xml: XML as text/xml', 'text/xml', [MEDIA_TYPES.textXml]],
  ];
  for (const [name, accept, expected] of selection) {
    // Spec 4.13.1a: "Response type is chosen from Accept: application/json (default when Accept is absent),
    // application/xml, text/xml."
    check('4.13.1a')({ needs, name }, async (t) => {
      const res = await locationsWithAccept(t, accept);
      expect(res.status, res.excerpt).toBe(200);
      // An Accept of one XML type alone leaves no choice between the two XML types: an XML answer under the other one
      // followed Accept and wrote the wrong type, which breaks 4.13.4 ("use the selected media type"), filed there.
      const [only] = expected;
      const xml: readonly string[] = XML_TYPES;
      if (only && xml.includes(only) && xml.includes(res.mediaType ?? '')) expectMediaType(res, only);
      expect(expected, 'Content-Type').toContain(res.mediaType);
      expectSchema(res, 'LocationList');
    });
  }

  const preference: [accept: string, expected: readonly string[]][] = [
    ['application/json;q=0.5, application/xml', [MEDIA_TYPES.xml]],
    ['application/xml;q=0.4, application/json;q=0.9', [MEDIA_TYPES.json]],
    ['text/xml;q=0.8, application/json;q=0.2', [MEDIA_TYPES.textXml]],
    ['*/*;q=0.1, application/xml', [MEDIA_TYPES.xml]],
    ['text/*', [MEDIA_TYPES.textXml]],
    ['application/xml, application/json', [MEDIA_TYPES.json]],
    ['application/xml;q=0.7, application/json;q=0.7', [MEDIA_TYPES.json]],
    ['*/*', [MEDIA_TYPES.json]],
    ['application/*', [MEDIA_TYPES.json]],
    ['text/xml, application/xml', XML_TYPES],
  ];
  for (const [accept, expected] of preference) {
    const outcome = expected.length === 1 ? expected[0] : 'either XML type';
    // Spec 4.13.1b: "When several are acceptable the higher q wins; ties choose JSON."
    check('4.13.1b')({ needs, name: `Accept: ${accept}: ${outcome}` }, async (t) => {
      const res = await locationsWithAccept(t, accept);
      expect(res.status, res.excerpt).toBe(200);
      expect(expected, 'Content-Type').toContain(res.mediaType);
      expectSchema(res, 'LocationList');
    });
  }

  for (const accept of UNACCEPTABLE) {
    // Spec 4.13.1c: "Unsupported Accept: 406 NOT_ACCEPTABLE (JSON error body)."
    check('4.13.1c')({ needs, name: `Accept: ${accept}: 406 NOT_ACCEPTABLE with a JSON error body` }, async (t) => {
      const res = await locationsWithAccept(t, accept);
      expectError(res, 'NOT_ACCEPTABLE', { representation: 'json' });
    });
  }

  // Spec 4.13.2: "Request Content-Type for business calls with a body: application/json, application/xml or text/xml;
  // otherwise 415 UNSUPPORTED_MEDIA_TYPE."
  check('4.13.2')(
    { needs, representations: REPRESENTATIONS, name: 'Unsupported request Content-Type: 415 UNSUPPORTED_MEDIA_TYPE' },
    async (t) => {
      const contentTypes = fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/octet-stream',
        'text/csv',
        'multipart/form-data; boundary=x',
        'application/yaml',
        'text/plain; charset=utf-8',
      );
      await t.forAll(
        fc.tuple(await shoppingWindow(t, 'partnerA'), contentTypes),
        async ([body, contentType]) => {
          const res = await t
            .client('partnerA')
            .post('/availability', body, { headers: { 'content-type': contentType } });
          expectError(res, 'UNSUPPORTED_MEDIA_TYPE');
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // A body without Content-Type: 4.13's "otherwise 415" or 4's "JSON by default" (docs/ambiguities.md "JSON by
  // default"). Either answer passes at MUST; the 415 is graded on its own, at SHOULD.
  // Spec 4.13.2 (quoted above)
  check('4.13.2')(
    {
      needs,
      representations: REPRESENTATIONS,
      name: 'A body without Content-Type: 415 UNSUPPORTED_MEDIA_TYPE, or read as JSON (the default)',
    },
    (t) => withoutContentType(t, 'MUST'),
  );

  // Spec 4.13.2 (quoted above)
  check('4.13.2')(
    {
      needs,
      representations: REPRESENTATIONS,
      level: 'SHOULD',
      name: 'A body without Content-Type: 415 UNSUPPORTED_MEDIA_TYPE (the stricter reading)',
    },
    (t) => withoutContentType(t, 'SHOULD'),
  );

  // Spec 4.13.2 (quoted above)
  check('4.13.2')(
    { needs, name: 'application/json, application/xml and text/xml request bodies are accepted' },
    async (t) => {
      await t.forAll(
        await shoppingWindow(t, 'partnerA'),
        async (generated) => {
          const request = generated as unknown as JsonValue;
          const bodies: [contentType: string, body: string][] = [
            ['application/json', JSON.stringify(request)],
            ['application/json; charset=utf-8', JSON.stringify(request)],
            // Without the optional declaration: only 4.14.16's checks send one.
            ['application/xml', serializeTypedXml(request, 'request', { declaration: false })],
            ['text/xml', serializeTypedXml(request, 'request', { declaration: false })],
          ];
          for (const [contentType, body] of bodies) {
            const res = await t.client('partnerA').post('/availability', new TextEncoder().encode(body), {
              headers: { 'content-type': contentType },
            });
            const answered = res.status === 200 || (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY');
            expect(answered, `${contentType}: HTTP ${res.status} ${res.excerpt}`).toBe(true);
            if (res.status === 200) expectSchema(res, 'AvailabilityResponse');
          }
        },
        { numRuns: casesFor(t, 'severalRequests') },
      );
    },
  );

  // Spec 4.13.3: "Invalid JSON body: 400 MALFORMED_JSON."
  check('4.13.3')(
    { needs, representations: REPRESENTATIONS, name: 'Invalid JSON body: 400 MALFORMED_JSON' },
    async (t) => {
      // A generated request broken three ways: cut short, trailing data, single-quoted strings.
      const broken = (await shoppingWindow(t, 'partnerA')).chain((request) => {
        const json = JSON.stringify(request);
        return fc.oneof(
          fc.integer({ min: 1, max: json.length - 1 }).map((cut) => json.slice(0, cut)),
          fc.constantFrom(' trailing', '}', ',', ' {}', '\u0000').map((tail) => `${json}${tail}`),
          fc.constant(json.replace(/"/g, "'")),
        );
      });
      await t.forAll(
        broken,
        async (text) => {
          const res = await t.client('partnerA').post('/availability', new TextEncoder().encode(text), {
            headers: { 'content-type': MEDIA_TYPES.json },
          });
          expectError(res, 'MALFORMED_JSON');
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 4.13.4: "XML responses are UTF-8 and use the selected media type."
  check('4.13.4')({ needs, name: 'XML responses are UTF-8 and carry the selected media type' }, async (t) => {
    const token = await t.client('partnerA').token();
    const judge = (res: ApiResult, what: string, accept: string) => {
      // An answer that is not XML at all does not follow Accept (4.13.1a's): no XML response to judge here.
      requireRepresentation(res, 'xml', what);
      expectMediaType(res, accept);
      const charset = /;\s*charset="?([^";]+)"?/i.exec(res.headers['content-type'] ?? '')?.[1];
      if (charset !== undefined) expect(charset.toLowerCase(), 'charset parameter').toBe('utf-8');
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(res.bytes), 'body is valid UTF-8').not.toThrow();
      const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(res.text)?.[1];
      if (declared !== undefined) expect(declared.toLowerCase(), 'XML declaration encoding').toBe('utf-8');
      // A body that cannot be read fails the XML rule it breaks (4.13.4's own for UTF-8), filed there.
      readableBody(res, what, res.status >= 400);
    };
    // The list is the same whatever the case: read once per XML type (application/xml's is the read the listing
    // checks share); each case asks for an unknown code, an error answer, in both types.
    for (const accept of XML_TYPES) judge(await locationsWithAccept(t, accept), `GET /locations as ${accept}`, accept);
    await t.forAll(
      unknownCodes,
      async (code) => {
        for (const accept of XML_TYPES) {
          const path = `/locations/${code}`;
          const res = await t.client('partnerA').raw({ method: 'GET', path, headers: { ...bearer(token), accept } });
          judge(res, `GET ${path} as ${accept}`, accept);
        }
      },
      { numRuns: casesFor(t, 'severalRequests') },
    );
  });

  // Spec 4.13.5a: "Authentication, scopes, validation, rate limits and business rules are identical for both
  // representations; XML grants no extra access."
  check('4.13.5a')(
    { needs, name: 'The same request gets the same status and error code in JSON and XML' },
    async (t) => {
      // The listing reads and four refusals (no token, a malformed token, a scope lacking, an unknown code), each
      // asked in both representations: the pairs 4.14's response rules judge too (responsePairs), sent once.
      for (const { call, json, xml } of await responsePairs(t)) {
        expect({ status: xml.status, code: errorCodeOf(xml) }, `${call}: XML against JSON`).toEqual({
          status: json.status,
          code: errorCodeOf(json),
        });
      }
    },
  );

  // Spec 4.13.5a (quoted above)
  check('4.13.5a')({ needs, profile: 'shop', name: 'Shopping answers the same in JSON and XML' }, async (t) => {
    const client = t.client('partnerA');
    await t.forAll(
      fc.tuple(await shoppingWindow(t, 'partnerA'), unknownCodes),
      async ([valid, code]) => {
        const bodies: [name: string, body: object][] = [
          ['valid window', valid],
          ['pickupTime 25:00', { ...valid, pickupTime: '25:00' }],
          ['unknown location', { ...valid, pickupLocation: code, dropoffLocation: code }],
          ['unknown field', { ...valid, certificationProbe: true }],
        ];
        for (const [name, body] of bodies) {
          const json = await client.post('/availability', body, { representation: 'json' });
          const xml = await client.post('/availability', body, { representation: 'xml' });
          expect({ status: xml.status, code: errorCodeOf(xml) }, `${name}: XML against JSON`).toEqual({
            status: json.status,
            code: errorCodeOf(json),
          });
          if (json.status === 200 && xml.status === 200) {
            // Quote ids and their expiry are per response; everything else is the same answer. The spec orders no
            // offers, so they are compared as a set (by vehicle).
            const strip = (res: ApiResult) => {
              const { offers, ...rest } = bodyOf<AvailabilityResponse>(res, 'POST /availability');
              return { ...rest, offers: byVehicle(offers.map(({ quoteId, quoteExpiresAt, ...offer }) => offer)) };
            };
            // The business answer (which classes, for how long, at what price) is 4.13.5a's; how each field is
            // written in XML against JSON (a null, a name) is 4.14.18a's, filed there.
            const business = (res: ApiResult) =>
              byVehicle(
                listItems(res, 'AvailabilityResponse', 'POST /availability').map((o) => ({
                  vehicleCode: o.vehicle?.vehicleCode,
                  rentalDays: o.rentalDays,
                  dailyRate: o.dailyRate,
                  estimatedTotal: o.estimatedTotal,
                })),
              );
            expect(business(xml), `${name}: XML offers against JSON offers`).toEqual(business(json));
            claim('4.14.18a', isDeepStrictEqual(strip(xml), strip(json)), `${name}: XML answer against JSON answer`, {
              expected: strip(json),
              actual: strip(xml),
            });
          }
        }
      },
      { numRuns: casesFor(t, 'severalRequests') },
    );
  });

  // Spec 4.13.5b: "The token endpoint stays form-encoded in and JSON out."
  check('4.13.5b')({ needs, name: 'The token endpoint takes no XML body: 400 in the JSON OAuth shape' }, async (t) => {
    const body = serializeTypedXml({ grant_type: 'client_credentials' }, 'request');
    // Valid Basic credentials, so the XML body is the only fault.
    const res = await t.client('partnerA').raw({
      method: 'POST',
      path: TOKEN_PATH,
      headers: {
        authorization: await basicCredentials(t, 'partnerA'),
        'content-type': MEDIA_TYPES.xml,
        accept: MEDIA_TYPES.xml,
      },
      body,
    });
    expect(res.status, res.excerpt).toBe(400);
    expectMediaType(res, 'json');
    expectSchema(res, 'OAuthError');
  });

  // Spec 4.13.5b (quoted above)
  check('4.13.5b')({ needs, name: 'The token endpoint takes no JSON body: no token issued' }, async (t) => {
    // Valid Basic credentials and a JSON body that would be a valid form: the body's media type is the only fault.
    // The status of the refusal is 5.4a's (400 for a malformed request), filed there.
    expectTokenRequestRefused(await jsonTokenRequest(t), 'a token request with a JSON body');
  });

  // Spec 4.13.5b (quoted above)
  check('4.13.5b')({ needs, name: 'The token endpoint answers JSON when XML is asked for' }, async (t) => {
    const ok = await requestToken(t, 'partnerA', { headers: { accept: `${MEDIA_TYPES.xml}, ${MEDIA_TYPES.textXml}` } });
    expect(ok.status, ok.excerpt).toBe(200);
    expectMediaType(ok, 'json');
    expectSchema(ok, 'TokenResponse');
    const refused = await requestToken(t, 'partnerA', { grantType: 'password', headers: { accept: MEDIA_TYPES.xml } });
    // Any OAuth error value (docs/ambiguities.md #30): the representation is what 4.13.5b judges, the 400 is 5.4a's.
    expectTokenRequestRefused(refused, 'a token request with grant_type password, asking for XML');
  });
});

/**
 * The same rules on every business call with a body (audit finding 18): each endpoint gets a valid body broken
 * one way, drawn from the generators (contentTypeCases, jsonAttacks, acceptCases). On /reservations and /cancel
 * only cases the target must refuse before acting are sent (support/body-endpoints.ts), so nothing is booked or
 * cancelled by a conforming target; accepted variants go to the shopping endpoints.
 */
describe('4.13 on every endpoint that takes a body', () => {
  /** Content-Types the spec refuses outright (MUST); a body without one is judged on its own below. */
  const unsupported = (c: BodyCase) =>
    isRejection(c.expect) &&
    c.expect.level === 'MUST' &&
    c.expect.reject.some((a) => a.codes.includes('UNSUPPORTED_MEDIA_TYPE'));
  /** Bodies that are not JSON (or not UTF-8 JSON at MUST): MALFORMED_JSON first among their answers. */
  const malformed = (c: BodyCase) =>
    isRejection(c.expect) && c.expect.level === 'MUST' && c.expect.reject[0]?.codes[0] === 'MALFORMED_JSON';
  /**
   * JSON that is no request (another top-level type, a prototype name, deep nesting under an unknown key): refused
   * with a 400 whose code the spec leaves open (7.3, docs/ambiguities.md G8, G9).
   */
  const anyBadRequest = (c: BodyCase) =>
    isRejection(c.expect) && c.expect.level === 'MUST' && c.expect.reject[0]?.codes[0] === 'VALIDATION_ERROR';
  const jsonAndContentTypeCases = (value: object) => [...jsonAttacks(value), ...contentTypeCases(value)];
  const acceptsOf = (keep: (c: HeaderCase) => boolean) => fc.constantFrom(...acceptCases().filter(keep));
  const levelOf = (c: HeaderCase) => (typeof c.expect === 'object' ? c.expect.level : undefined);
  const acceptOfCase = (c: HeaderCase) => c.headers.accept ?? null;
  /** An Accept whose q=0 range a `|| 1` default would read as q=1: the case's outcome depends on the zero. */
  const zeroWeighted = (c: HeaderCase) => /;\s*q=0(\s*,|$)/.test(acceptOfCase(c) ?? '');

  for (const endpoint of BODY_ENDPOINTS) {
    const label = LABEL[endpoint];
    const options = { needs, ...endpointOptions(endpoint) };

    // Spec 4.13.2 (quoted above)
    check('4.13.2')(
      { ...options, representations: REPRESENTATIONS, name: `${label}: another Content-Type: 415` },
      async (t) => {
        const target = await bodyTarget(t, endpoint);
        await t.forAll(
          casesOf(target.valid, contentTypeCases, unsupported),
          async (c) => {
            const res = await target.send(c.bytes, c.contentType, acceptOf(t.representation));
            expectRefusal(res, c.expect as Rejection, t.representation);
          },
          { numRuns: casesFor(t, 'request') },
        );
      },
    );

    for (const level of ['MUST', 'SHOULD'] as const) {
      // No Content-Type: 415, or read as JSON, the default of spec 4 (MUST); 415 alone graded SHOULD. A booking
      // made that way is recorded and cancelled at the end of the run (bodyTarget); a cancel cancels the check's own.
      // Spec 4.13.2 (quoted above)
      check('4.13.2')(
        {
          ...options,
          level,
          representations: level === 'MUST' ? REPRESENTATIONS : undefined,
          name: `${label}: a body without Content-Type: ${level === 'MUST' ? '415, or read as JSON' : '415'}`,
        },
        async (t) => {
          const target = await bodyTarget(t, endpoint);
          const representation = level === 'MUST' ? t.representation : 'json';
          const [value] = fc.sample(target.valid, 1);
          const res = await target.send(utf8(JSON.stringify(value)), null, acceptOf(representation));
          judgeWithoutContentType(res, endpoint, representation, level);
        },
      );
    }

    // Spec 4.13.3 (quoted above)
    check('4.13.3')(
      { ...options, representations: REPRESENTATIONS, name: `${label}: a body that is not JSON: 400 MALFORMED_JSON` },
      async (t) => {
        const target = await bodyTarget(t, endpoint);
        await t.forAll(
          casesOf(target.valid, jsonAndContentTypeCases, malformed),
          async (c) => {
            const res = await target.send(c.bytes, c.contentType, acceptOf(t.representation));
            expectRefusal(res, c.expect as Rejection, t.representation);
          },
          { numRuns: casesFor(t, 'request') },
        );
      },
    );

    // Each endpoint's own request-shape clause (2.12.1–2.12.4): support/body-endpoints.ts declares it with its
    // literal id and spec sentence.
    REQUEST_CHECK[endpoint](
      {
        ...options,
        name: `${label}: JSON that is no request object (another top-level type, __proto__, deep nesting): a 400`,
      },
      async (t) => {
        const target = await bodyTarget(t, endpoint);
        await t.forAll(
          casesOf(target.valid, jsonAttacks, anyBadRequest),
          async (c) => {
            const res = await target.send(c.bytes, c.contentType, acceptOf(t.representation));
            expectRefusal(res, c.expect as Rejection, t.representation);
          },
          { numRuns: casesFor(t, 'request') },
        );
      },
    );

    // Spec 4.13.1c (quoted above)
    check('4.13.1c')(
      { ...options, name: `${label}: an Accept allowing none of the three types: 406 with a JSON error body` },
      async (t) => {
        const target = await bodyTarget(t, endpoint);
        const refused = acceptsOf((c) => isRejection(c.expect) && levelOf(c) === 'MUST');
        await t.forAll(
          fc.tuple(target.valid, refused),
          async ([value, c]) => {
            const res = await target.send(utf8(JSON.stringify(value)), MEDIA_TYPES.json, acceptOfCase(c));
            expectRefusal(res, c.expect as Rejection, 'json');
          },
          { numRuns: casesFor(t, 'request') },
        );
      },
    );
  }

  for (const endpoint of SHOPPING_ENDPOINTS) {
    const label = LABEL[endpoint];
    const options = { needs, ...endpointOptions(endpoint) };

    // Spec 4.13.3 (quoted above)
    check('4.13.3')(
      {
        ...options,
        name: `${label}: JSON with a duplicate name or a byte order mark: read either way or refused with a 400, never a 5xx`,
      },
      async (t) => {
        // Valid JSON text, or invalid: either reading leaves the target two answers (docs/ambiguities.md G5, G9).
        const target = await bodyTarget(t, endpoint);
        const open = (c: BodyCase) => c.name.includes('duplicate') || c.name.includes('byte order mark');
        await t.forAll(
          casesOf(target.valid, jsonAttacks, open),
          async (c) => {
            const res = await target.send(c.bytes, c.contentType, acceptOf('json'));
            if (res.status >= 400 && res.status !== 409) {
              expectError(res, ['MALFORMED_JSON', 'VALIDATION_ERROR'], { representation: 'json', otherCodes: true });
            } else expectAnswered(res, endpoint, [MEDIA_TYPES.json]);
          },
          { numRuns: casesFor(t, 'request') },
        );
      },
    );

    for (const level of ['MUST', 'SHOULD'] as const) {
      // Spec 4.13.2 (quoted above)
      check('4.13.2')(
        {
          ...options,
          level,
          name: `${label}: JSON and XML bodies with the parameters and letter case ${level === 'MUST' ? 'the spec names' : 'of RFC 9110 8.3.1'} are read`,
        },
        async (t) => {
          const target = await bodyTarget(t, endpoint);
          const read = (c: BodyCase) => isAcceptance(c.expect) && c.expect.level === level;
          await t.forAll(
            casesOf(target.valid, contentTypeCases, read),
            async (c) => {
              const res = await target.send(c.bytes, c.contentType, acceptOf('json'));
              expectAnswered(res, endpoint);
            },
            { numRuns: casesFor(t, 'request') },
          );
        },
      );
    }

    // Spec 4.13.1c (quoted above)
    check('4.13.1c')(
      {
        ...options,
        level: 'SHOULD',
        name: `${label}: an Accept whose only ranges have q=0 (RFC 9110: not acceptable): 406`,
      },
      async (t) => {
        const target = await bodyTarget(t, endpoint);
        const refused = acceptsOf((c) => isRejection(c.expect) && levelOf(c) === 'SHOULD');
        await t.forAll(
          fc.tuple(target.valid, refused),
          async ([value, c]) => {
            const res = await target.send(utf8(JSON.stringify(value)), MEDIA_TYPES.json, acceptOfCase(c));
            expectRefusal(res, c.expect as Rejection, 'json');
          },
          { numRuns: casesFor(t, 'request') },
        );
      },
    );

    const answeredIn = async (t: CheckContext, keep: (c: HeaderCase) => boolean) => {
      const target = await bodyTarget(t, endpoint);
      await t.forAll(
        fc.tuple(
          target.valid,
          acceptsOf((c) => isAcceptance(c.expect) && keep(c)),
        ),
        async ([value, c]) => {
          const res = await target.send(utf8(JSON.stringify(value)), MEDIA_TYPES.json, acceptOfCase(c));
          expectAnswered(res, endpoint, (c.expect as Acceptance).mediaTypes);
        },
        { numRuns: casesFor(t, 'request') },
      );
    };

    // Spec 4.13.1b (quoted above)
    check('4.13.1b')({ ...options, name: `${label}: the answer takes the type the Accept weighs highest` }, async (t) =>
      answeredIn(t, (c) => levelOf(c) === 'MUST' && !zeroWeighted(c)),
    );

    // Spec 4.13.1b (quoted above)
    check('4.13.1b')(
      { ...options, name: `${label}: a type weighted q=0 loses to any type weighted above it` },
      async (t) => answeredIn(t, (c) => levelOf(c) === 'MUST' && zeroWeighted(c)),
    );

    // Spec 4.13.1a (quoted above)
    check('4.13.1a')(
      { ...options, level: 'SHOULD', name: `${label}: media types in Accept compare without letter case (RFC 9110)` },
      async (t) => answeredIn(t, (c) => levelOf(c) === 'SHOULD'),
    );
  }
});
