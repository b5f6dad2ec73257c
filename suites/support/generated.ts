/**
 * Checks over requests drawn from generators/: one reproducible draw, the number of runs a property may take, and
 * properties over generated availability and quote requests (each answer judged by a rule; fast-check's report,
 * with seed, path and counterexample, is the failure message).
 */

import fc from 'fast-check';
import type { AvailabilityRequest, AvailabilityResponse, Quote, QuoteRequest } from '../../contract/types.ts';
import {
  availabilityRequest,
  quoteRequest,
  type ShoppingOptions,
  type TargetListings,
} from '../../generators/index.ts';
import { type ApiResult, type CheckContext, SKIP } from '../../harness/check/check.ts';
import { casesFor } from '../../harness/check/cost.ts';
import { errorCodeOf, expectSchema, requireSuccess } from '../../harness/check/expect-api.ts';
import { requireStep } from '../../harness/check/scope.ts';
import { targetListings } from './listings.ts';

/** One value of an arbitrary, reproducible from the check's seed (`salt` tells several draws apart). */
export function sampleOf<T>(t: CheckContext, arbitrary: fc.Arbitrary<T>, salt = 0): T {
  const [value] = fc.sample(arbitrary, { seed: (t.seed + salt) | 0, numRuns: 1 });
  if (value === undefined) throw new Error('fast-check produced no sample');
  return value;
}

/** A valid answer to a valid availability request: 200, or 409 NO_AVAILABILITY (docs/ambiguities.md #9). */
export function isAvailabilityAnswer(res: ApiResult): boolean {
  return res.status === 200 || (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY');
}

/** Options of the properties: the generators' shopping options, listings already read, the number of runs. */
export type PropertyOptions = ShoppingOptions & { listings?: TargetListings; runs?: number };

/**
 * A property over generated availability requests (partner A): each answered 200 (409 NO_AVAILABILITY is left
 * alone, #9), the body an AvailabilityResponse, and judged by `rule`.
 */
export async function forAvailability(
  t: CheckContext,
  rule: (request: AvailabilityRequest, response: AvailabilityResponse, res: ApiResult) => void,
  options: PropertyOptions = {},
): Promise<void> {
  const cat = options.listings ?? (await targetListings(t));
  await t.forAll(
    availabilityRequest(cat, options),
    async (request) => {
      const res = await t.client('partnerA').post('/availability', request);
      // The answer itself is 4.0.10's (filed there, blocking): the rule judges what a valid answer holds.
      if (res.status === 429 || res.status === 503) requireSuccess(res, 200, '4.0.10', 'POST /availability');
      requireStep('4.0.10', isAvailabilityAnswer(res), 'POST /availability of a generated request answers 200', {
        actual: `${res.status} ${res.excerpt}`,
      });
      if (res.status !== 200) return SKIP;
      expectSchema(res, 'AvailabilityResponse');
      rule(request, res.body as AvailabilityResponse, res);
    },
    { numRuns: options.runs ?? casesFor(t, 'availability') },
  );
}

/** Like forAvailability, for every offer of every answer (the check is not applicable if none came). */
export async function forOffers(
  t: CheckContext,
  rule: (offer: AvailabilityResponse['offers'][number], response: AvailabilityResponse, res: ApiResult) => void,
  options: ShoppingOptions = {},
): Promise<void> {
  let offers = 0;
  await forAvailability(
    t,
    (_request, response, res) => {
      for (const offer of response.offers) {
        offers += 1;
        rule(offer, response, res);
      }
    },
    options,
  );
  if (offers === 0) t.notApplicable('no generated availability request got an offer');
}

/**
 * A property over generated quote requests (partner A): each answered 201 with a Quote (409 NO_AVAILABILITY left
 * alone, as a case not judged) and judged by `rule`; not applicable when the target quoted fewer than a third.
 */
export async function forQuotes(
  t: CheckContext,
  rule: (request: QuoteRequest, quote: Quote, res: ApiResult) => void | Promise<void>,
  options: PropertyOptions = {},
): Promise<void> {
  const cat = options.listings ?? (await targetListings(t));
  await t.forAll(
    quoteRequest(cat, options),
    async (request) => {
      const res = await t.client('partnerA').post('/quotes', request);
      if (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY') return SKIP;
      // The answer itself is 4.0.11's (filed there, blocking): the rule judges what a quote holds.
      requireSuccess(res, 201, '4.0.11', 'POST /quotes of a generated request');
      expectSchema(res, 'Quote');
      await rule(request, res.body as Quote, res);
    },
    { numRuns: options.runs ?? casesFor(t, 'availability') },
  );
}
