/**
 * Spec 7.3 The code table: one clause per row (code, HTTP status, retryable). Each check provokes the row's
 * condition for real and judges the answer with expectError: the row's status and code, the closed envelope,
 * retryable as in the row, requestId equal to X-Request-Id, in the check's representation. Where the spec allows
 * two codes for one condition both are accepted (docs/ambiguities.md). Operator-only
 * conditions go through the target's test hooks (docs/test-hooks.md) and are always undone in `finally`: later checks share the target.
 */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { MEDIA_TYPES } from '../contract/constants.ts';
import { ERROR_CODES, type ErrorCode } from '../contract/errors.ts';
import type { AvailabilityRequest, Location, QuoteRequest, RentalWindow } from '../contract/types.ts';
import { serializeTypedXml } from '../contract/xml/index.ts';
import { addDays, quoteRequest, schemaFault } from '../generators/index.ts';
import { type ApiResult, type CheckContext, check, SKIP } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { errorCodeOf, expectError, expectOAuthError, listItems } from '../harness/check/expect-api.ts';
import { claim } from '../harness/check/scope.ts';
import type { Role } from '../harness/config/target-config.ts';
import type { HookName, TestHooks } from '../harness/hooks/adapter.ts';
import { REPRESENTATIONS } from '../harness/http/representation.ts';
import { locationsWithAccept, UNACCEPTABLE } from './support/accept-reads.ts';
import { credentialsOf, requestToken } from './support/auth.ts';
import { malformedBearers } from './support/bearer-refusals.ts';
import { requireBooking, requireQuote, sendBooking, sendCancel, withBookingsHeld } from './support/booking.ts';
import { otherScope, patchBodies, quoteFor, quoteWindow, unknownIds, wrongSecrets } from './support/draws.ts';
import { unauthenticated } from './support/endpoint-refusals.ts';
import { observeReplayHeader, retryPastInFlight } from './support/idempotency.ts';
import { unissuedId } from './support/ids.ts';
import { businessFill } from './support/limit-fills.ts';
import { observeRetryAfter } from './support/limits.ts';
import { targetListings } from './support/listings.ts';
import { booking, business } from './support/presets.ts';
import { requireFaultRefused } from './support/request-faults.ts';
import { freshKey, plainRequest } from './support/reservation-requests.ts';
import { type ScopedRead, scopeRefusals } from './support/scope-refusals.ts';
import { judgeSharedCases } from './support/shared-cases.ts';
import { plainQuoteRequest, shoppingDate } from './support/shopping.ts';
import { unknownCodeReads } from './support/unknown-code-reads.ts';

const partnerA: Role = 'partnerA';
/** Business checks that set an operator-side condition through the named hooks. */
const hooked = (...hooks: HookName[]) => ({ ...business, hooks });
const hookedBooking = (...hooks: HookName[]) => ({ ...booking, hooks });
/** Concurrent identical requests per round of the in-flight race, and the rounds tried. */
const RACE_SIZE = 20;
const RACE_ROUNDS = 10;

/** `CODE: HTTP n, (not) retryable`: the row as each check's name starts. */
function row(code: ErrorCode): string {
  const { status, retryable } = ERROR_CODES[code];
  return `${code}: HTTP ${status}, ${retryable ? 'retryable' : 'not retryable'}`;
}

function controlOf(t: CheckContext): TestHooks {
  return t.hooks;
}

/** A rental window of the role at a location where a listed vehicle is offered (no vehicle code). */
async function plainWindow(t: CheckContext, role: Role = partnerA): Promise<RentalWindow> {
  const { vehicleCode: _, ...window } = await plainQuoteRequest(t, role);
  return window;
}

/** The role's client, or not-applicable when the target config lacks it (probes name their role). */
function roleClient(t: CheckContext, role: Role) {
  if (!t.settings.target.clients[role]) return t.notApplicable(`the probe's role ${role} is not configured`);
  return t.client(role);
}

/** An arbitrary code of the LocationCode / VehicleCode pattern (spec 2.2) that no target holds: marked ZZ-CERT. */
const unknownCodeArb = fc.stringMatching(/^[A-Z0-9]{1,16}$/).map((s) => `ZZ-CERT-${s}`);
/** The same for CommercialCode. */
const unknownCommercialArb = fc.stringMatching(/^[A-Z0-9_]{1,16}$/).map((s) => `ZZ_CERT_${s}`);

describe('7.3 Error code table', () => {
  // ---------------------------------------------------------------------------------------------------------
  // Authentication and authorisation

  // Spec 7.3.1: "UNAUTHORIZED | 401 | no | authentication required"
  check('7.3.1')(
    {
      needs: [partnerA],
      representations: REPRESENTATIONS,
      name: `${row('UNAUTHORIZED')}: no Authorization header (#29)`,
    },
    async (t) => {
      // Spec 5.6 and 7.3 name both codes for a missing token (docs/ambiguities.md #29): each is judged by its row.
      // The listing reads' refusals 7.1.2 and 4.0.2 judge too (endpointRefusals): sent once for the run.
      for (const operationId of ['listFleet', 'listLocations', 'listRates']) {
        expectError(await unauthenticated(t, 'catalog', operationId), ['UNAUTHORIZED', 'INVALID_TOKEN']);
      }
    },
  );

  // Spec 7.3.2: "INVALID_CLIENT | 401 | no | client authentication failed"
  check('7.3.2')(
    { needs: [partnerA], name: `${row('INVALID_CLIENT')}: failed client authentication at the token endpoint` },
    async (t) => {
      // The token endpoint speaks the OAuth shape (7.1), so its client-authentication failure is invalid_client
      // with the row's status; the identical request fails again: nothing a retry changes (not retryable).
      await t.forAll(
        wrongSecrets(t, partnerA),
        async (secret) => {
          for (let attempt = 1; attempt <= 2; attempt++) {
            const res = await requestToken(t, partnerA, { secret });
            expectOAuthError(res, 'invalid_client');
            expect(res.status, `attempt ${attempt}: HTTP status of the INVALID_CLIENT row`).toBe(
              ERROR_CODES.INVALID_CLIENT.status,
            );
          }
        },
        { numRuns: casesFor(t, 'severalRequests') },
      );
    },
  );

  // Spec 7.3.2 (quoted above)
  check('7.3.2')(
    {
      ...business,
      name: `${row('INVALID_CLIENT')}: client credentials instead of a bearer token on a business call`,
    },
    async (t) => {
      // A business call authenticates a token, not a client: a target may answer INVALID_CLIENT, INVALID_TOKEN or
      // UNAUTHORIZED for client credentials in HTTP Basic; INVALID_CLIENT, when used, must keep its row
      // (docs/ambiguities.md, E: INVALID_CLIENT).
      const { clientId, clientSecret } = credentialsOf(t, partnerA);
      // The client's own secret or a wrong one, on any listing read.
      await t.forAll(
        fc.tuple(
          fc.oneof(fc.constant(clientSecret), wrongSecrets(t, partnerA)),
          fc.constantFrom('/fleet', '/locations', '/rates'),
        ),
        async ([secret, path]) => {
          const basic = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
          const res = await t.anonymous.get(path, { headers: { authorization: basic } });
          expectError(res, ['INVALID_CLIENT', 'INVALID_TOKEN', 'UNAUTHORIZED']);
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 7.3.3: "INVALID_TOKEN | 401 | no | access token missing, malformed or expired"
  check('7.3.3')(
    { representations: REPRESENTATIONS, name: `${row('INVALID_TOKEN')}: malformed bearer tokens` },
    async (t) => {
      // The malformed tokens of the bearer alphabet 5.6a sends (bearer-refusals.ts), judged for the row: sent once
      // for the run. The row is the same for every malformed token; the kinds are 5.6a's to explore, and a header with
      // characters outside the alphabet (a 5xx for it is 5.6a's "never a 5xx") is not a token the row needs.
      await judgeSharedCases(t, malformedBearers('in the alphabet'), casesFor(t, 'request'), ({ answer }) =>
        expectError(answer, 'INVALID_TOKEN'),
      );
    },
  );

  // Spec 7.3.3 (quoted above)
  check('7.3.3')({ ...hooked('tokens.expire'), name: `${row('INVALID_TOKEN')}: an expired token` }, async (t) => {
    const token = await t.client(partnerA).token();
    await t.hooks.expireTokens(credentialsOf(t, partnerA).clientId);
    // An expired token served is the lifetime's deviation (5.3b), filed there; this row judges the refusal.
    expectError(await t.anonymous.get('/fleet', { token }), 'INVALID_TOKEN', {
      servedBreaks: '5.3b',
    });
  });

  // Spec 7.3.4: "INSUFFICIENT_SCOPE | 403 | no | token lacks the operation's scope"
  check('7.3.4')(
    { ...business, name: `${row('INSUFFICIENT_SCOPE')}: listing reads with another scope's token` },
    async (t) => {
      // The refusals the endpoint rows and 5.6b judge too (scope-refusals.ts): the lists' first cases, sent once.
      // A read served without its scope breaks the endpoint's row of the table (4.0.5, 4.0.7, 4.0.9): filed there.
      const reads: [read: ScopedRead, endpointRow: string][] = [
        ['fleet', '4.0.5'],
        ['locations', '4.0.7'],
        ['rates', '4.0.9'],
      ];
      for (const [read, endpointRow] of reads) {
        await judgeSharedCases(t, scopeRefusals(read), 1, ({ answer }) =>
          expectError(answer, 'INSUFFICIENT_SCOPE', { servedBreaks: endpointRow }),
        );
      }
    },
  );

  // Spec 7.3.4 (quoted above)
  check('7.3.4')(
    { ...business, profile: 'shop', name: `${row('INSUFFICIENT_SCOPE')}: a valid quote request without quotes:write` },
    async (t) => {
      await t.forAll(
        fc.tuple(await quoteWindow(t, partnerA), otherScope(t, 'quotes:write')),
        async ([request, scopes]) => {
          const res = await t.client(partnerA).post('/quotes', request, { scopes });
          expectError(res, 'INSUFFICIENT_SCOPE', { servedBreaks: '4.0.11' });
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 7.3.5: "PARTNER_DISABLED | 403 | no | partner account not active"
  check('7.3.5')(
    {
      ...hooked('clients.partner'),
      needs: ['partnerB'],
      name: `${row('PARTNER_DISABLED')}: a partner made inactive after its token`,
    },
    async (t) => {
      const control = controlOf(t);
      const partnerId = credentialsOf(t, 'partnerB').clientId;
      // The token first: the token endpoint refuses an inactive partner's client (5.4).
      const token = await t.client('partnerB').token();
      try {
        await control.setPartnerEnabled(partnerId, false);
        for (const path of ['/locations', '/rates']) {
          const res = await t.client('partnerB').get(path, { token });
          expectError(res, 'PARTNER_DISABLED');
        }
      } finally {
        await control.setPartnerEnabled(partnerId, true);
      }
    },
  );

  // ---------------------------------------------------------------------------------------------------------
  // Request bodies and negotiation

  // Spec 7.3.6: "VALIDATION_ERROR | 400 | no | request body failed validation"
  check('7.3.6')(
    { ...business, name: `${row('VALIDATION_ERROR')}: generated schema faults of a quote request` },
    async (t) => {
      const cat = await targetListings(t, partnerA);
      // Every schema fault: VALIDATION_ERROR with its row's status, the field's 4.12 code where 4.12 gives one, or a
      // 400 code of the server's own (7.3: the specific code of "violations such as …" is not shown; audit 7.3-R2). A
      // table code other than those is wrong.
      const faults = schemaFault('QuoteRequest', quoteRequest(cat, { rate: 'public' })).filter((f) =>
        f.expect.reject.some((a) => a.codes.includes('VALIDATION_ERROR')),
      );
      await t.forAll(
        faults,
        async (fault) => {
          const res = await t.client(partnerA).post('/quotes', fault.value);
          requireFaultRefused('QuoteRequest', fault, res);
          const codes = fault.expect.reject.flatMap((a) => a.codes);
          expectError(res, codes, { otherCodes: true });
        },
        { numRuns: casesFor(t, 'errorRow') },
      );
    },
  );

  // Spec 7.3.7: "MALFORMED_JSON | 400 | no | body not valid JSON"
  check('7.3.7')(
    { ...business, profile: 'shop', name: `${row('MALFORMED_JSON')}: every truncation of a JSON quote request` },
    async (t) => {
      const bytes = new TextEncoder().encode(JSON.stringify(await plainQuoteRequest(t, partnerA)));
      // A strict prefix of a JSON object is never JSON (its closing brace is missing); the empty body is not
      // judged here (docs/ambiguities.md #45).
      await t.forAll(
        fc.integer({ min: 1, max: bytes.length - 1 }),
        async (cut) => {
          const res = await t
            .client(partnerA)
            .post('/quotes', bytes.slice(0, cut), { headers: { 'content-type': MEDIA_TYPES.json } });
          expectError(res, 'MALFORMED_JSON');
        },
        { numRuns: casesFor(t, 'errorRow') },
      );
    },
  );

  // Spec 7.3.8: "MALFORMED_XML | 400 | no | body not valid XML of the representation"
  check('7.3.8')(
    { ...business, profile: 'shop', name: `${row('MALFORMED_XML')}: every truncation of an XML quote request` },
    async (t) => {
      const text = serializeTypedXml(
        (await plainQuoteRequest(t, partnerA)) as unknown as Parameters<typeof serializeTypedXml>[0],
        'request',
      );
      const bytes = new TextEncoder().encode(text.trimEnd());
      // A strict prefix never closes the root element: not well-formed (cuts inside a character are invalid UTF-8,
      // which 4.14 rejects too).
      await t.forAll(
        fc.integer({ min: 1, max: bytes.length - 1 }),
        async (cut) => {
          const res = await t
            .client(partnerA)
            .post('/quotes', bytes.slice(0, cut), { headers: { 'content-type': MEDIA_TYPES.xml } });
          expectError(res, 'MALFORMED_XML');
        },
        { numRuns: casesFor(t, 'errorRow') },
      );
    },
  );

  // Spec 7.3.9: "NOT_ACCEPTABLE | 406 | no | Accept allows none of application/json, application/xml, text/xml"
  check('7.3.9')(
    { needs: [partnerA], name: `${row('NOT_ACCEPTABLE')}: Accept allowing none of the three types (JSON error body)` },
    async (t) => {
      // 4.13.1c's refusals (accept-reads.ts, sent once for the run) and one Accept whose wildcard allows none of the
      // three types either: the row is the same for every Accept the API cannot serve.
      for (const accept of [...UNACCEPTABLE, 'text/csv;q=0.9, image/*']) {
        const res = await locationsWithAccept(t, accept);
        // 4.13: the 406 body is JSON whatever was asked for. Served anyway: 4.13.1c's (filed there).
        expectError(res, 'NOT_ACCEPTABLE', { representation: 'json', servedBreaks: '4.13.1c' });
      }
    },
  );

  // Spec 7.3.10: "REQUEST_TOO_LARGE | 413 | no | body exceeds maximum size"
  check('7.3.10')(
    { ...business, profile: 'shop', name: `${row('REQUEST_TOO_LARGE')}: an XML body over 32,000 bytes` },
    async (t) => {
      const window = await plainQuoteRequest(t, partnerA);
      const base = serializeTypedXml(
        { ...window, certificationPadding: '' } as unknown as Parameters<typeof serializeTypedXml>[0],
        'request',
      );
      const baseBytes = new TextEncoder().encode(base).length;
      await t.forAll(
        fc.integer({ min: 32_001, max: 40_000 }),
        async (size) => {
          // ASCII padding inside a string value: exactly `size` bytes (spec 4.14: over 32,000 bytes gets 413).
          const padding = 'x'.repeat(size - baseBytes);
          const body = base.replace('<string></string>', `<string>${padding}</string>`);
          expect(new TextEncoder().encode(body).length).toBe(size);
          const res = await t
            .client(partnerA)
            .post('/quotes', new TextEncoder().encode(body), { headers: { 'content-type': MEDIA_TYPES.xml } });
          expectError(res, 'REQUEST_TOO_LARGE');
        },
        { numRuns: casesFor(t, 'largeOrBookingRequest') },
      );
    },
  );

  // Spec 7.3.11: "UNSUPPORTED_MEDIA_TYPE | 415 | no | Content-Type not application/json, application/xml or text/xml"
  check('7.3.11')(
    { ...business, profile: 'shop', name: `${row('UNSUPPORTED_MEDIA_TYPE')}: a body of another Content-Type` },
    async (t) => {
      const bytes = new TextEncoder().encode(JSON.stringify(await plainQuoteRequest(t, partnerA)));
      const types = fc.constantFrom(
        'text/plain',
        'text/html',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=certification',
        'application/octet-stream',
      );
      await t.forAll(
        types,
        async (contentType) => {
          const res = await t.client(partnerA).post('/quotes', bytes, { headers: { 'content-type': contentType } });
          // Read anyway (served): 4.13.2's (filed there).
          expectError(res, 'UNSUPPORTED_MEDIA_TYPE', { servedBreaks: '4.13.2' });
        },
        { numRuns: casesFor(t, 'errorRow', 5) },
      );
    },
  );

  // ---------------------------------------------------------------------------------------------------------
  // 4.12 rules of a rental window

  // Spec 7.3.12: "INVALID_ACCOUNT_CODE | 400 | no | account code unknown or not enabled"
  check('7.3.12')(
    { ...business, name: `${row('INVALID_ACCOUNT_CODE')}: an unknown accountCode, alone or with an own rateCode` },
    async (t) => {
      const request = await plainQuoteRequest(t, partnerA);
      const own = await ownPlans(t, partnerA);
      // Alone, and with one of the partner's own rate codes when it has one. Alone, a server may require the pair
      // and refuse it with 400 VALIDATION_ERROR first (ambiguity #7, audit 4.12-R5); with the pair, INVALID_RATE_CODE
      // may name the pair the partner does not hold. Neither shows this row: not judged.
      const rateCode = own[0]?.rateCode;
      await t.forAll(
        unknownCommercialArb.filter((c) => !own.some((p) => p.accountCode === c)),
        async (accountCode) => {
          let judged = 0;
          for (const pair of rateCode === undefined ? [false] : [false, true]) {
            const res = await t
              .client(partnerA)
              .post('/quotes', { ...request, accountCode, ...(pair ? { rateCode } : {}) });
            if (res.status === 400 && errorCodeOf(res) === (pair ? 'INVALID_RATE_CODE' : 'VALIDATION_ERROR')) continue;
            expectError(res, 'INVALID_ACCOUNT_CODE');
            judged += 1;
          }
          return judged > 0 ? undefined : SKIP;
        },
        { numRuns: casesFor(t, 'largeOrBookingRequest') },
      );
    },
  );

  // Spec 7.3.13: "INVALID_RATE_CODE | 400 | no | rate code unknown, not enabled or outside validity window"
  check('7.3.13')({ ...business, name: `${row('INVALID_RATE_CODE')}: an unknown rateCode` }, async (t) => {
    const request = await plainQuoteRequest(t, partnerA);
    const own = await ownPlans(t, partnerA);
    // With one of the partner's own account codes when it has one, so the rate code is the only fault.
    const accountCode = own[0]?.accountCode;
    await t.forAll(
      unknownCommercialArb.filter((c) => !own.some((p) => p.rateCode === c)),
      async (rateCode) => {
        const body: QuoteRequest = { ...request, rateCode, ...(accountCode ? { accountCode } : {}) };
        const res = await t.client(partnerA).post('/quotes', body);
        // Alone (the partner lists no account), a server may require the pair and refuse it with 400
        // VALIDATION_ERROR first (ambiguity #7): that shows nothing of this row.
        if (!accountCode && res.status === 400 && errorCodeOf(res) === 'VALIDATION_ERROR') return SKIP;
        expectError(res, 'INVALID_RATE_CODE');
      },
      { numRuns: casesFor(t, 'largeOrBookingRequest') },
    );
  });

  for (const [probe, what] of [
    ['expiredRate', 'a plan outside its validity window'],
    ['disabledRate', 'a plan that is not enabled'],
  ] as const) {
    // Spec 7.3.13 (quoted above)
    check('7.3.13')({ ...business, name: `${row('INVALID_RATE_CODE')}: ${what} (target probe)` }, async (t) => {
      const rate = t.settings.target.probes?.[probe];
      if (!rate) return t.notApplicable(`no probes.${probe} in the target config`);
      const client = roleClient(t, rate.role);
      const body = {
        ...(await plainQuoteRequest(t, rate.role)),
        accountCode: rate.accountCode,
        rateCode: rate.rateCode,
      };
      expectError(await client.post('/quotes', body), 'INVALID_RATE_CODE');
    });
  }

  // Spec 7.3.14: "RATE_NOT_APPROVED | 409 | no | rate plan awaiting commercial approval"
  check('7.3.14')(
    {
      ...business,
      probes: ['pendingRate'],
      name: `${row('RATE_NOT_APPROVED')}: a plan awaiting approval (target probe)`,
    },
    async (t) => {
      const rate = t.settings.target.probes?.pendingRate;
      if (!rate) return t.notApplicable('no probes.pendingRate in the target config');
      const client = roleClient(t, rate.role);
      const body = {
        ...(await plainQuoteRequest(t, rate.role)),
        accountCode: rate.accountCode,
        rateCode: rate.rateCode,
      };
      expectError(await client.post('/quotes', body), 'RATE_NOT_APPROVED');
    },
  );

  // Spec 7.3.15: "INVALID_LOCATION | 400 | no | location code unknown or not active"
  check('7.3.15')(
    { ...business, name: `${row('INVALID_LOCATION')}: an unknown pickup or dropoff location` },
    async (t) => {
      const window = await plainWindow(t);
      await t.forAll(
        fc.tuple(unknownCodeArb, fc.constantFrom('pickupLocation', 'dropoffLocation', 'both')),
        async ([code, side]) => {
          const body: AvailabilityRequest = {
            ...window,
            ...(side !== 'dropoffLocation' ? { pickupLocation: code } : {}),
            ...(side !== 'pickupLocation' ? { dropoffLocation: code } : {}),
          };
          const res = await t.client(partnerA).post('/availability', body);
          expectError(res, 'INVALID_LOCATION', { servedBreaks: '4.12.1a' });
        },
        { numRuns: casesFor(t, 'errorRow') },
      );
    },
  );

  // Spec 7.3.15 (quoted above)
  check('7.3.15')(
    { ...business, name: `${row('INVALID_LOCATION')}: a location that is not active (target probe)` },
    async (t) => {
      const code = t.settings.target.probes?.inactiveLocationCode;
      if (!code) return t.notApplicable('no probes.inactiveLocationCode in the target config');
      const window = await plainWindow(t);
      const res = await t
        .client(partnerA)
        .post('/availability', { ...window, pickupLocation: code, dropoffLocation: code });
      expectError(res, 'INVALID_LOCATION');
    },
  );

  // Spec 7.3.16: "LOCATION_NOT_ONE_WAY | 400 | no | one-way not available between the locations"
  check('7.3.16')(
    { ...business, name: `${row('LOCATION_NOT_ONE_WAY')}: branches without one-way between them` },
    async (t) => {
      const pair = await noOneWayPair(t);
      const window = await plainWindow(t);
      const res = await t.client(partnerA).post('/availability', { ...window, ...pair });
      expectError(res, 'LOCATION_NOT_ONE_WAY');
    },
  );

  // Spec 7.3.17: "INVALID_RENTAL_WINDOW | 400 | no | pickup and dropoff not valid Vietnam local times, or dropoff not
  // after pickup"
  check('7.3.17')({ ...business, name: `${row('INVALID_RENTAL_WINDOW')}: dropoff not after pickup` }, async (t) => {
    const window = await plainWindow(t);
    const time = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    const backwards = fc
      .record({ days: fc.integer({ min: 0, max: 60 }), back: fc.integer({ min: 0, max: 10 }), a: time, b: time })
      .map(({ days, back, a, b }) => {
        const pickupDate = addDays(shoppingDate(t), days + 10);
        // Same day: dropoff at or before pickup; earlier day: any times.
        const [pickupTime, dropoffTime] = back === 0 ? (a >= b ? [a, b] : [b, a]) : [a, b];
        return { pickupDate, pickupTime, dropoffDate: addDays(pickupDate, -back), dropoffTime };
      });
    await t.forAll(
      backwards,
      async (times) => {
        const res = await t.client(partnerA).post('/availability', { ...window, ...times });
        // A backwards window served: 4.12.2's (filed there).
        expectError(res, 'INVALID_RENTAL_WINDOW', { servedBreaks: '4.12.2' });
      },
      { numRuns: casesFor(t, 'errorRow') },
    );
  });

  // Spec 7.3.18: "INVALID_VEHICLE | 400 | no | vehicle code unknown or not published to partners"
  check('7.3.18')({ ...business, name: `${row('INVALID_VEHICLE')}: an unknown vehicle code` }, async (t) => {
    const request = await plainQuoteRequest(t, partnerA);
    await t.forAll(
      unknownCodeArb,
      async (vehicleCode) => {
        const res = await t.client(partnerA).post('/quotes', { ...request, vehicleCode });
        expectError(res, 'INVALID_VEHICLE');
      },
      { numRuns: casesFor(t, 'largeOrBookingRequest') },
    );
  });

  // Spec 7.3.18 (quoted above)
  check('7.3.18')(
    { ...business, name: `${row('INVALID_VEHICLE')}: a vehicle not published to partners (target probe)` },
    async (t) => {
      const vehicleCode = t.settings.target.probes?.unpublishedVehicleCode;
      if (!vehicleCode) return t.notApplicable('no probes.unpublishedVehicleCode in the target config');
      const res = await t.client(partnerA).post('/quotes', { ...(await plainQuoteRequest(t, partnerA)), vehicleCode });
      expectError(res, 'INVALID_VEHICLE');
    },
  );

  // Spec 7.3.19: "FLEET_PROFILE_INCOMPLETE | 409 | no | vehicle lacks a complete partner specification"
  check('7.3.19')(
    {
      ...business,
      probes: ['incompleteVehicleCode'],
      name: `${row('FLEET_PROFILE_INCOMPLETE')}: a vehicle without a full specification (target probe)`,
    },
    async (t) => {
      const vehicleCode = t.settings.target.probes?.incompleteVehicleCode;
      if (!vehicleCode) return t.notApplicable('no probes.incompleteVehicleCode in the target config');
      const quoteRes = await t
        .client(partnerA)
        .post('/quotes', { ...(await plainQuoteRequest(t, partnerA)), vehicleCode });
      expectError(quoteRes, 'FLEET_PROFILE_INCOMPLETE');
      const fleetRes = await t.client(partnerA).get(`/fleet/${encodeURIComponent(vehicleCode)}`);
      expectError(fleetRes, 'FLEET_PROFILE_INCOMPLETE');
    },
  );

  // Spec 7.3.20: "NOT_FOUND | 404 | no | resource does not exist for this partner"
  check('7.3.20')({ ...business, name: `${row('NOT_FOUND')}: an unknown location by code` }, async (t) => {
    // The reads 4.0.17 and 4.3.1 judge too (unknown-code-reads.ts), judged for the row: sent once for the run.
    await judgeSharedCases(t, unknownCodeReads('locations'), casesFor(t, 'largeOrBookingRequest'), ({ answer }) =>
      expectError(answer, 'NOT_FOUND'),
    );
  });

  // Spec 7.3.20 (quoted above)
  check('7.3.20')({ ...business, profile: 'book', name: `${row('NOT_FOUND')}: an unknown reservation` }, async (t) => {
    await t.forAll(
      unknownIds,
      async (id) => {
        const res = await t.client(partnerA).get(`/reservations/${id}`);
        expectError(res, 'NOT_FOUND');
      },
      { numRuns: casesFor(t, 'request') },
    );
  });

  // Spec 7.3.21: "NO_AVAILABILITY | 409 | no | no vehicle class offerable for the criteria"
  check('7.3.21')(
    { ...business, name: `${row('NO_AVAILABILITY')}: a quote for a vehicle not offered at the pickup location` },
    async (t) => {
      // Listings the target lets partner A shop: a listed location it refuses would answer INVALID_LOCATION (2.6.16).
      const listings = await targetListings(t, partnerA);
      const vehicles = listings.vehicles;
      const locations = listings.locations.filter((l) => l.capabilities?.pickup && l.capabilities?.dropoff);
      const pairs = vehicles.flatMap((v) =>
        locations.filter((l) => !v.locationCodes.includes(l.locationCode)).map((l) => ({ v, l })),
      );
      if (pairs.length === 0) return t.notApplicable('every listed vehicle is offered at every round-trip location');
      const window = await plainWindow(t);
      await t.forAll(
        fc.constantFrom(...pairs),
        async ({ v, l }) => {
          const body: QuoteRequest = {
            ...window,
            pickupLocation: l.locationCode,
            dropoffLocation: l.locationCode,
            vehicleCode: v.vehicleCode,
          };
          expectError(await t.client(partnerA).post('/quotes', body), 'NO_AVAILABILITY');
        },
        { numRuns: casesFor(t, 'largeOrBookingRequest') },
      );
    },
  );

  // ---------------------------------------------------------------------------------------------------------
  // Quotes and bookings

  // Spec 7.3.22: "QUOTE_EXPIRED | 409 | no | quote expired; request a new one"
  check('7.3.22')(
    { ...hookedBooking('quotes.expire'), name: `${row('QUOTE_EXPIRED')}: booking a quote past its 30 minutes` },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, partnerA),
        async (request) => {
          const q = await quoteFor(t, partnerA, request);
          if (!q) return SKIP;
          await t.hooks.expireQuote(q.quoteId);
          const { res } = await sendBooking(t, partnerA, q.quoteId);
          // Booked anyway: the refusal 4.7.9a requires is missing, filed there (this row has no status to judge).
          expectError(res, 'QUOTE_EXPIRED', { servedBreaks: '4.7.9a' });
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 7.3.23: "QUOTE_INVALID | 400 | no | quote reference invalid for this partner or tampered"
  check('7.3.23')({ ...booking, name: `${row('QUOTE_INVALID')}: a tampered quote id` }, async (t) => {
    await t.forAll(
      await quoteWindow(t, partnerA),
      async (request) => {
        const q = await quoteFor(t, partnerA, request);
        if (!q) return SKIP;
        const { res } = await sendBooking(t, partnerA, unissuedId(q.quoteId));
        expectError(res, 'QUOTE_INVALID');
      },
      { numRuns: casesFor(t, 'booking') },
    );
  });

  // Spec 7.3.23 (quoted above)
  check('7.3.23')(
    { ...booking, needs: [partnerA, 'partnerB'], name: `${row('QUOTE_INVALID')}: another partner's quote` },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, partnerA),
        async (request) => {
          const q = await quoteFor(t, partnerA, request);
          if (!q) return SKIP;
          const { res } = await sendBooking(t, 'partnerB', q.quoteId);
          expectError(res, 'QUOTE_INVALID');
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 7.3.24: "QUOTE_STALE | 409 | no | price changed since the quote was issued"
  check('7.3.24')(
    { ...hookedBooking('prices.move'), name: `${row('QUOTE_STALE')}: the price moved after the quote` },
    async (t) => {
      const control = controlOf(t);
      await t.forAll(
        fc.tuple(await quoteWindow(t, partnerA), fc.integer({ min: 5, max: 50 })),
        async ([request, percent]) => {
          const q = await quoteFor(t, partnerA, request);
          if (!q) return SKIP;
          // The vehicle asked for: whether the quote describes it is 2.9.5's, not this row's.
          const vehicleCode = request.vehicleCode;
          try {
            await control.movePrice(vehicleCode, percent);
            const { res } = await sendBooking(t, partnerA, q.quoteId);
            expectError(res, 'QUOTE_STALE');
          } finally {
            await control.movePrice(vehicleCode, 0);
          }
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 7.3.25: "IDEMPOTENCY_KEY_REQUIRED | 400 | no | Idempotency-Key header missing"
  check('7.3.25')(
    { ...booking, name: `${row('IDEMPOTENCY_KEY_REQUIRED')}: POST /reservations without Idempotency-Key` },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, partnerA),
        async (request) => {
          const q = await quoteFor(t, partnerA, request);
          if (!q) return SKIP;
          const { res } = await sendBooking(t, partnerA, q.quoteId, { key: null });
          expectError(res, 'IDEMPOTENCY_KEY_REQUIRED');
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 7.3.26: "IDEMPOTENCY_CONFLICT | 409 | no | key already used with a different body"
  check('7.3.26')(
    { ...booking, name: `${row('IDEMPOTENCY_CONFLICT')}: a used key with a different body` },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, partnerA),
        async (request) => {
          const q = await quoteFor(t, partnerA, request);
          if (!q) return SKIP;
          const first = await requireBooking(t, partnerA, q.quoteId);
          const { res } = await sendBooking(t, partnerA, q.quoteId, {
            key: first.key,
            body: plainRequest(t, q.quoteId),
          });
          expectError(res, 'IDEMPOTENCY_CONFLICT');
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 7.3.27: "IDEMPOTENT_REPLAY_IN_FLIGHT | 409 | yes | identical request still being processed"
  check('7.3.27')(
    {
      ...booking,
      timeoutMs: 60_000,
      name: `${row('IDEMPOTENT_REPLAY_IN_FLIGHT')}: concurrent identical requests, then the retry succeeds`,
    },
    async (t) =>
      withBookingsHeld(t, async () => {
        const seen = new Map<string, number>();
        for (let round = 1; round <= RACE_ROUNDS; round++) {
          const q = await requireQuote(t, partnerA);
          const body = plainRequest(t, q.quoteId);
          const key = freshKey(t);
          const answers = await Promise.all(
            Array.from({ length: RACE_SIZE }, () => sendBooking(t, partnerA, q.quoteId, { body, key })),
          );
          const inFlight = answers.find((a) => errorCodeOf(a.res) === 'IDEMPOTENT_REPLAY_IN_FLIGHT');
          for (const a of answers) {
            const answer = `${a.res.status} ${errorCodeOf(a.res) ?? ''}`.trim();
            seen.set(answer, (seen.get(answer) ?? 0) + 1);
          }
          if (!inFlight) continue;
          expectError(inFlight.res, 'IDEMPOTENT_REPLAY_IN_FLIGHT');
          // Retryable: the identical request, once the first is done, gets the original answer (4.7.3). The server
          // may clear its in-flight marker a moment after its first answer (ambiguity #12), so the retry is sent
          // again after a short backoff while it is still told IN_FLIGHT (or refused for now: 429, 503), a few times.
          const { res: retry, inFlight: waited } = await retryPastInFlight(
            async () => (await sendBooking(t, partnerA, q.quoteId, { body, key })).res,
            'the retry after the race',
          );
          for (const res of waited) expectError(res, 'IDEMPOTENT_REPLAY_IN_FLIGHT');
          // Retryable: once the first is done, the retry is no longer in flight. How it is then answered (200, the
          // original response, the header) is 4.7.3's rule, filed there.
          expect(
            errorCodeOf(retry),
            `the retry, once the first is done (${waited.length} times in flight first): ${retry.excerpt}`,
          ).not.toBe('IDEMPOTENT_REPLAY_IN_FLIGHT');
          if (
            claim('4.7.3', retry.status === 200, 'the retry is the 200 replay', {
              expected: 200,
              actual: retry.status,
            })
          ) {
            observeReplayHeader(retry, true, 'the retry is a replay');
          }
          return;
        }
        t.notApplicable(
          `no IDEMPOTENT_REPLAY_IN_FLIGHT in ${RACE_ROUNDS} races of ${RACE_SIZE} (answers: ${JSON.stringify(Object.fromEntries(seen))})`,
        );
      }),
  );

  // Spec 7.3.28: "DUPLICATE_PARTNER_REFERENCE | 409 | no | reservation already exists for the partner reference"
  check('7.3.28')(
    { ...booking, name: `${row('DUPLICATE_PARTNER_REFERENCE')}: a used partnerReference under a new key` },
    async (t) => {
      await t.forAll(
        await quoteWindow(t, partnerA),
        async (request) => {
          const first = await quoteFor(t, partnerA, request);
          if (!first) return SKIP;
          const booked = await requireBooking(t, partnerA, first.quoteId);
          // A second quote, of the plain window: the reference is what repeats, not the quote.
          const q = await requireQuote(t, partnerA);
          const body = plainRequest(t, q.quoteId, { partnerReference: booked.body.partnerReference });
          const { res } = await sendBooking(t, partnerA, q.quoteId, { body });
          expectError(res, 'DUPLICATE_PARTNER_REFERENCE');
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 7.3.29: "RESERVATION_REJECTED | 422 | no | the operator declined; reason only via support with requestId"
  check('7.3.29')(
    {
      ...hookedBooking('bookings.declineNext'),
      name: `${row('RESERVATION_REJECTED')}: the operator declines the booking`,
    },
    async (t) => {
      const control = controlOf(t);
      await t.forAll(
        await quoteWindow(t, partnerA),
        async (request) => {
          const q = await quoteFor(t, partnerA, request);
          if (!q) return SKIP;
          try {
            await control.declineNextBookings(1);
            const { res } = await sendBooking(t, partnerA, q.quoteId);
            expectError(res, 'RESERVATION_REJECTED');
          } finally {
            await control.declineNextBookings(0);
          }
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 7.3.30: "INVALID_STATE_TRANSITION | 409 | no | reservation state does not allow the operation"
  check('7.3.30')(
    {
      ...hookedBooking('reservations.status'),
      name: `${row('INVALID_STATE_TRANSITION')}: cancelling a completed reservation`,
    },
    async (t) => {
      const control = controlOf(t);
      // Cancellable states are not shown (3): a completed rental is taken as not cancellable
      // (docs/ambiguities.md, E: INVALID_STATE_TRANSITION).
      await t.forAll(
        await quoteWindow(t, partnerA),
        async (request) => {
          const q = await quoteFor(t, partnerA, request);
          if (!q) return SKIP;
          const { reservation } = await requireBooking(t, partnerA, q.quoteId);
          try {
            await control.setReservationStatus(reservation.reservationId, 'completed');
            const res = await sendCancel(t, partnerA, reservation.reservationId);
            // A target that cancels completed rentals shows this row nowhere (spec 3: cancellable states not shown).
            if (res.status === 200) return SKIP;
            expectError(res, 'INVALID_STATE_TRANSITION');
          } finally {
            // Back to confirmed, so the end-of-run cleanup can cancel it.
            await control.setReservationStatus(reservation.reservationId, 'confirmed');
          }
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 7.3.31: "CANCELLATION_NEEDS_STAFF | 409 | no | rental payment or security deposit exists; staff review;
  // request recorded, staff alerted"
  check('7.3.31')(
    {
      ...hookedBooking('reservations.money'),
      name: `${row('CANCELLATION_NEEDS_STAFF')}: cancelling with a deposit attached`,
    },
    async (t) => {
      const control = controlOf(t);
      await t.forAll(
        await quoteWindow(t, partnerA),
        async (request) => {
          const q = await quoteFor(t, partnerA, request);
          if (!q) return SKIP;
          const { reservation } = await requireBooking(t, partnerA, q.quoteId);
          try {
            await control.attachMoney(reservation.reservationId, true);
            const res = await sendCancel(t, partnerA, reservation.reservationId);
            expectError(res, 'CANCELLATION_NEEDS_STAFF');
          } finally {
            await control.attachMoney(reservation.reservationId, false);
          }
        },
        { numRuns: casesFor(t, 'booking') },
      );
    },
  );

  // Spec 7.3.32: "MODIFICATION_NOT_SUPPORTED | 501 | no | modification unsupported in v1"
  check('7.3.32')(
    { ...booking, name: `${row('MODIFICATION_NOT_SUPPORTED')}: PATCH of an own reservation` },
    async (t) => {
      const { reservation } = await requireBooking(t, partnerA, (await requireQuote(t, partnerA)).quoteId);
      // Any change a partner might ask for.
      await t.forAll(
        patchBodies,
        async (change) => {
          const res = await t
            .client(partnerA)
            .patch(`/reservations/${encodeURIComponent(reservation.reservationId)}`, change);
          expectError(res, 'MODIFICATION_NOT_SUPPORTED');
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // ---------------------------------------------------------------------------------------------------------
  // Limits and the service's own state

  // Spec 7.3.33: "RATE_LIMITED | 429 | yes | rate limit exceeded; Retry-After given"
  check('7.3.33')(
    {
      representations: REPRESENTATIONS,
      needs: ['rateLimit'],
      provokesLimits: true,
      timeoutMs: 120_000,
      name: `${row('RATE_LIMITED')}: the rateLimit client past its ceiling, with Retry-After`,
    },
    async (t) => {
      const { limited, bound } = await businessFill(t);
      if (!limited) return t.notApplicable(`no 429 ${bound} (spec 8: ceilings not shown)`);
      expectError(limited, 'RATE_LIMITED');
      observeRetryAfter(limited, 'Retry-After in whole seconds');
    },
  );

  // Spec 7.3.34: "API_DISABLED | 503 | yes | partner API not enabled on this environment"
  check('7.3.34')(
    { ...hooked('api.switch'), name: `${row('API_DISABLED')}: the partner API switched off, then on again` },
    async (t) => {
      const control = controlOf(t);
      const token = await t.client(partnerA).token();
      try {
        await control.setApiEnabled(false);
        const res = await t.client(partnerA).get('/locations', { token });
        expectError(res, 'API_DISABLED');
      } finally {
        await control.setApiEnabled(true);
      }
      await expectRetrySucceeds(t, token);
    },
  );

  for (const [declare, code, fault] of [
    // Spec 7.3.35: "DEPENDENCY_UNAVAILABLE | 503 | yes | downstream dependency temporarily unavailable"
    [check('7.3.35'), 'DEPENDENCY_UNAVAILABLE', 'dependencyUnavailable'],
    // Spec 7.3.36: "INTERNAL_ERROR | 500 | yes | unexpected error"
    [check('7.3.36'), 'INTERNAL_ERROR', 'internalError'],
  ] as const) {
    declare(
      { ...hooked('failures'), name: `${row(code)}: the ${fault} failure switched on, then off again` },
      async (t) => {
        const control = controlOf(t);
        const token = await t.client(partnerA).token();
        try {
          await control.setFailures({ [fault]: true });
          const res = await t.client(partnerA).get('/locations', { token });
          expectError(res, code);
        } finally {
          await control.setFailures({ [fault]: false });
        }
        await expectRetrySucceeds(t, token);
      },
    );
  }
});

/** Retryable: the identical request once the condition is gone succeeds (spec 7.2 "retrying … may succeed"). */
async function expectRetrySucceeds(t: CheckContext, token: string): Promise<void> {
  const retry: ApiResult = await t.client(partnerA).get('/locations', { token });
  expect(retry.status, `the identical request once the condition is gone: ${retry.excerpt}`).toBe(200);
}

/** The role's listed rate plans (JSON). */
async function ownPlans(t: CheckContext, role: Role) {
  const res = await t.client(role).get('/rates', { representation: 'json' });
  expect(res.status, `GET /rates: ${res.excerpt}`).toBe(200);
  return listItems(res, 'RateList', 'GET /rates');
}

/**
 * Two listed locations of different branches between which one-way is not available: the target's probe, or
 * derived from the list: a pickup location whose capabilities say oneWay false and a dropoff of another branch.
 */
async function noOneWayPair(t: CheckContext): Promise<{ pickupLocation: string; dropoffLocation: string }> {
  const probe = t.settings.target.probes?.noOneWayPair;
  if (probe) return probe;
  const locations = (await targetListings(t, partnerA)).locations;
  const pickup = locations.find((l) => l.capabilities?.pickup && l.capabilities.oneWay === false);
  const dropoff =
    pickup && locations.find((l: Location) => l.capabilities?.dropoff && l.branchCode !== pickup.branchCode);
  if (!pickup || !dropoff) {
    return t.notApplicable('no probes.noOneWayPair and no listed location without one-way next to another branch');
  }
  return { pickupLocation: pickup.locationCode, dropoffLocation: dropoff.locationCode };
}
