/**
 * The two shopping endpoints, POST /availability (spec 4.5) and POST /quotes (4.6), for the checks that judge the
 * same property of both: a body that is not the request (4.x.1), no token (4.x.4), a token without the scope
 * (4.0.10, 4.0.11), faulty requests and the rate limit (4.x.4). Each endpoint's suite file calls
 * `shoppingChecks(SHOPPING.<endpoint>)`, so a check still runs and reports under its own subsection, and each
 * endpoint declares its checks with its own literal clause ids (the declarers of the table below).
 */

import fc from 'fast-check';
import { expect } from 'vitest';
import type { Scope } from '../../contract/scopes.ts';
import type { AvailabilityRequest, QuoteRequest } from '../../contract/types.ts';
import {
  availabilityRequest as availabilityArbitrary,
  quoteRequest as quoteArbitrary,
  schemaFault,
  type TargetListings,
} from '../../generators/index.ts';
import { type ApiResult, type CheckContext, check, type DeclareCheck } from '../../harness/check/check.ts';
import { casesFor } from '../../harness/check/cost.ts';
import { errorStatusAmong, expectError, refusalMeets } from '../../harness/check/expect-api.ts';
import { requireStep } from '../../harness/check/scope.ts';
import { freshToken } from './auth.ts';
import { otherScope } from './draws.ts';
import { expectSomeError, inOwnWindow, MAX_REQUESTS_TO_429, probeCode, sendUntil429 } from './limits.ts';
import { targetListings } from './listings.ts';
import { business } from './presets.ts';
import { requireFaultRefused } from './request-faults.ts';

export interface ShoppingEndpoint<R extends object> {
  path: '/availability' | '/quotes';
  /** `POST <path>`, as check names say it. */
  label: string;
  /** The request's schema (spec 2.12), and how a check names it ("an AvailabilityRequest"). */
  requestSchema: 'AvailabilityRequest' | 'QuoteRequest';
  requestName: string;
  /** The scope the endpoint table (spec 4.0) asks for. */
  scope: Scope;
  /** Generated valid requests: rentals of up to 30 days, at the public rate or a listed plan. */
  requests(cat: TargetListings): fc.Arbitrary<R>;
  /**
   * Valid requests given one fault the schema cannot see (a code no target holds, an empty rental), each with the
   * 4.12 clause that says it is refused.
   */
  faults(t: CheckContext): [clauseId: string, fault: (req: R) => object][];
  /** Declares the endpoint's check of a body that is not its request (4.5.1, 4.6.1). */
  notARequest: DeclareCheck;
  /** Declares the endpoint's check of a call without a token (4.5.4, 4.6.4). */
  withoutToken: DeclareCheck;
  /** Declares the endpoint's check of a token without its scope (4.0.10, 4.0.11). */
  withoutScope: DeclareCheck;
  /** Declares the endpoint's check of faulty requests (4.5.4, 4.6.4). */
  faulty: DeclareCheck;
  /** Declares the endpoint's check of the rate limit (4.5.4, 4.6.4). */
  rateLimited: DeclareCheck;
}

export const SHOPPING: {
  availability: ShoppingEndpoint<AvailabilityRequest>;
  quotes: ShoppingEndpoint<QuoteRequest>;
} = {
  availability: {
    path: '/availability',
    label: 'POST /availability',
    requestSchema: 'AvailabilityRequest',
    requestName: 'an AvailabilityRequest',
    scope: 'availability:read',
    requests: (cat) => availabilityArbitrary(cat, { maxRentalDays: 30 }),
    faults: (t) => [
      ['4.12.1a', (req) => ({ ...req, pickupLocation: probeCode(t, 'LOC') })],
      ['4.12.3a', (req) => ({ ...req, vehicleCodes: [probeCode(t, 'VEH')] })],
      ['4.12.2', (req) => ({ ...req, dropoffDate: req.pickupDate, dropoffTime: req.pickupTime })],
      ['4.12.4a', (req) => ({ ...req, accountCode: probeCode(t, 'ACC') })],
    ],
    // Spec 4.5.1: "Body: AvailabilityRequest."
    notARequest: check('4.5.1'),
    // Spec 4.5.4: "Errors: 400, 401, 403, 409 (e.g. NO_AVAILABILITY), 429."
    withoutToken: check('4.5.4'),
    // Spec 4.0.10: "POST | /api/partner/v1/availability | availability:read | 200 AvailabilityResponse"
    withoutScope: check('4.0.10'),
    // Spec 4.5.4 (quoted above)
    faulty: check('4.5.4'),
    // Spec 4.5.4 (quoted above)
    rateLimited: check('4.5.4'),
  },
  quotes: {
    path: '/quotes',
    label: 'POST /quotes',
    requestSchema: 'QuoteRequest',
    requestName: 'a QuoteRequest',
    scope: 'quotes:write',
    requests: (cat) => quoteArbitrary(cat, { maxRentalDays: 30 }),
    faults: (t) => [
      ['4.12.1a', (req) => ({ ...req, dropoffLocation: probeCode(t, 'LOC') })],
      ['4.12.3a', (req) => ({ ...req, vehicleCode: probeCode(t, 'VEH') })],
      ['4.12.2', (req) => ({ ...req, dropoffDate: req.pickupDate, dropoffTime: req.pickupTime })],
      ['4.12.4b', (req) => ({ ...req, rateCode: probeCode(t, 'RATE') })],
    ],
    // Spec 4.6.1: "Body: QuoteRequest."
    notARequest: check('4.6.1'),
    // Spec 4.6.4: "Errors: 400, 401, 403, 409, 429."
    withoutToken: check('4.6.4'),
    // Spec 4.0.11: "POST | /api/partner/v1/quotes | quotes:write | 201 Quote"
    withoutScope: check('4.0.11'),
    // Spec 4.6.4 (quoted above)
    faulty: check('4.6.4'),
    // Spec 4.6.4 (quoted above)
    rateLimited: check('4.6.4'),
  },
};

/** The endpoint's generated valid requests, from partner A's listings. */
async function validRequests<R extends object>(
  t: CheckContext,
  endpoint: ShoppingEndpoint<R>,
): Promise<fc.Arbitrary<R>> {
  return endpoint.requests(await targetListings(t, 'partnerA'));
}

/** Declares the checks both shopping endpoints share, for `endpoint`; called inside its suite's describe. */
export function shoppingChecks<R extends object>(endpoint: ShoppingEndpoint<R>): void {
  const { path, label } = endpoint;

  endpoint.notARequest(
    { ...business, name: `A body that is not ${endpoint.requestName} (one schema fault): 400` },
    async (t) => {
      await t.forAll(schemaFault(endpoint.requestSchema, await validRequests(t, endpoint)), async (fault) => {
        const res = await t.client('partnerA').post(path, fault.value);
        requireFaultRefused(endpoint.requestSchema, fault, res);
        expect(
          refusalMeets(fault.expect.reject, res),
          `${fault.name}: expected ${JSON.stringify(fault.expect.reject)}, got HTTP ${res.status} ${res.excerpt}`,
        ).toBe(true);
        expectSomeError(res, t.representation);
      });
    },
  );

  endpoint.withoutToken({ ...business, name: `${label} without a token: 401` }, async (t) => {
    await t.forAll(
      await validRequests(t, endpoint),
      async (body) => {
        const res = await t.anonymous.post(path, body);
        expectError(res, ['INVALID_TOKEN', 'UNAUTHORIZED']);
      },
      { numRuns: casesFor(t, 'request') },
    );
  });

  endpoint.withoutScope(
    { ...business, name: `${label} with a token lacking ${endpoint.scope}: 403 INSUFFICIENT_SCOPE` },
    async (t) => {
      await t.forAll(
        fc.tuple(await validRequests(t, endpoint), otherScope(t, endpoint.scope)),
        async ([body, scopes]) => {
          const res = await t.client('partnerA').post(path, body, { scopes });
          expectError(res, 'INSUFFICIENT_SCOPE');
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  endpoint.faulty(
    { ...business, name: 'Faulty requests are answered 400 or 409 in the error envelope, never another status' },
    async (t) => {
      const base = await validRequests(t, endpoint);
      // A fault served instead of refused breaks the rule of its field or its 4.12 clause (filed there), not this
      // check, which judges how refusals look.
      const faulty = fc.oneof(
        schemaFault(endpoint.requestSchema, base).map((f) => ({
          body: f.value as object,
          refused: (res: ApiResult) => requireFaultRefused(endpoint.requestSchema, f, res),
        })),
        ...endpoint.faults(t).map(([clauseId, fault]) =>
          base.map((req) => ({
            body: fault(req),
            refused: (res: ApiResult) =>
              requireStep(clauseId, res.status >= 300, `the faulty request is refused (HTTP ${res.status})`, {
                actual: res.excerpt,
              }),
          })),
        ),
      );
      await t.forAll(faulty, async ({ body, refused }) => {
        const res = await t.client('partnerA').post(path, body);
        refused(res);
        expect(errorStatusAmong(res, [400, 409]), `HTTP 400 or 409: ${res.status} ${res.excerpt}`).toBe(true);
        expectSomeError(res, t.representation);
      });
    },
  );

  endpoint.rateLimited(
    {
      ...business,
      needs: ['rateLimit'],
      profile: 'full',
      provokesLimits: true,
      name: `${label} beyond the rate limit: 429 RATE_LIMITED`,
    },
    (t) => expectRateLimited(t, path),
  );
}

/** The rateLimit role floods `path` in a window of its own until a 429, which must be RATE_LIMITED. */
async function expectRateLimited(t: CheckContext, path: string): Promise<void> {
  await inOwnWindow(t, async () => {
    const token = (await freshToken(t, 'rateLimit')).access_token;
    // The rate limit comes before the body is judged: an empty object keeps every request cheap.
    const { limited, before, bound } = await sendUntil429(
      () => t.client('rateLimit').post(path, {}, { token }),
      MAX_REQUESTS_TO_429,
    );
    if (!limited) {
      // A limiter may count accepted requests only (what a bucket counts is not shown, spec 8; audit 8-R8): its
      // Remaining then stays put over refused bodies, and the flood never meets a 429. Said so, not judged.
      const remaining = new Set(before.map((res) => res.headers['x-ratelimit-remaining']));
      const uncounted =
        before.length > 1 && remaining.size === 1 && !remaining.has(undefined)
          ? `; X-RateLimit-Remaining stayed ${[...remaining][0]}: the refused requests were not counted`
          : '';
      return t.notApplicable(`no 429 ${bound} (spec 8: ceilings not shown)${uncounted}`);
    }
    expectError(limited, 'RATE_LIMITED');
  });
}
