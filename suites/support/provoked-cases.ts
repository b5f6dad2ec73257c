/**
 * Errors the suite can provoke without side effects, drawn from the run's seed: the listing reads' refusals (no
 * token, a malformed one, a scope lacking, unknown codes, an Accept never served) and the request bodies' (an invalid
 * value, a missing or unknown field, malformed JSON or XML, an unsupported media type). Each case is provoked once
 * for every check that judges errors on it (7.2's envelope, 9.3a's table codes).
 */
import fc from 'fast-check';
import { MEDIA_TYPES } from '../../contract/constants.ts';
import type { AvailabilityRequest } from '../../contract/types.ts';
import type { CheckContext } from '../../harness/check/check.ts';
import { otherScope, shoppingWindow, unknownCodes } from './draws.ts';
import type { Provoked } from './provoked.ts';
import { sharedRead } from './shared-reads.ts';
import { sharedDraw, sharedStep } from './shared-steps.ts';
import { availabilityRequest } from './shopping.ts';

/** What the provoked errors are drawn from: codes nobody holds, a forged token, a scope, a valid window. */
export interface ErrorInputs {
  location: string;
  vehicle: string;
  token: string;
  scopes: string[];
  accept: string;
  window?: AvailabilityRequest;
}

/** The inputs of one case; a window only for the request-body errors (shop profile). */
export async function errorInputs(t: CheckContext, withWindow: boolean): Promise<fc.Arbitrary<ErrorInputs>> {
  return fc.record(
    {
      location: unknownCodes,
      vehicle: unknownCodes,
      token: fc.stringMatching(/^[A-Za-z0-9._~-]{8,80}$/),
      scopes: otherScope(t, 'rates:read'),
      // Media types the API never serves (4.13): 406 whatever the parameters.
      accept: fc.constantFrom('text/html', 'text/plain', 'image/png', 'application/pdf', 'text/csv;charset=utf-8'),
      window: withWindow ? await shoppingWindow(t, 'partnerA') : fc.constant(undefined),
    },
    { requiredKeys: ['location', 'vehicle', 'token', 'scopes', 'accept'] },
  );
}

/** Errors of listing reads: authentication, scope, not found, not acceptable. */
async function listingReadErrors(t: CheckContext, input: ErrorInputs): Promise<Provoked[]> {
  // Each read is a question other shared sets may ask too (the walks' refusals, the pairs): asked once (sharedRead).
  return [
    { name: 'no token', clauseId: '5.6a', res: await sharedRead(t, '/locations', { token: null }) },
    { name: 'malformed token', clauseId: '5.6a', res: await sharedRead(t, '/fleet', { token: input.token }) },
    { name: 'scope lacking', clauseId: '4.0.9', res: await sharedRead(t, '/rates', { scopes: input.scopes }) },
    { name: 'unknown location', clauseId: '4.3.1', res: await sharedRead(t, `/locations/${input.location}`) },
    { name: 'unknown vehicle', clauseId: '4.2.5', res: await sharedRead(t, `/fleet/${input.vehicle}`) },
    { name: 'not acceptable', clauseId: '4.13.1c', res: await sharedRead(t, '/locations', { accept: input.accept }) },
  ];
}

/** Errors of request bodies: validation, malformed JSON and XML, unsupported media type. */
export async function bodyErrors(t: CheckContext, input: ErrorInputs): Promise<Provoked[]> {
  const client = t.client('partnerA');
  const valid = input.window ?? (await availabilityRequest(t, 'partnerA'));
  const bytes = (text: string) => new TextEncoder().encode(text);
  const { pickupLocation: _, ...withoutPickupLocation } = valid;
  return [
    {
      name: 'invalid pickupTime',
      clauseId: '2.4.4',
      res: await client.post('/availability', { ...valid, pickupTime: '25:00' }),
    },
    {
      name: 'missing pickupLocation',
      clauseId: '2.4.1',
      res: await client.post('/availability', withoutPickupLocation),
    },
    {
      name: 'unknown field',
      clauseId: '2.0.2',
      res: await client.post('/availability', { ...valid, certificationProbe: 1 }),
    },
    {
      name: 'malformed JSON',
      clauseId: '4.13.3',
      res: await client.post('/availability', bytes('{"pickupLocation":'), {
        headers: { 'content-type': MEDIA_TYPES.json },
      }),
    },
    {
      name: 'malformed XML',
      clauseId: '4.14.14i',
      res: await client.post('/availability', bytes('<request version="1"><object>'), {
        headers: { 'content-type': MEDIA_TYPES.xml },
      }),
    },
    {
      name: 'unsupported media type',
      clauseId: '4.13.2',
      res: await client.post('/availability', valid, { headers: { 'content-type': 'text/plain' } }),
    },
  ];
}

/** Where a check's provoked errors come from: the reads of the catalog profile, or the shop profile's bodies. */
export interface ProvokedSource {
  profile: 'catalog' | 'shop';
  label: string;
  provoke: (t: CheckContext, input: ErrorInputs) => Promise<Provoked[]>;
  withWindow: boolean;
}

export const LISTING_READ_ERRORS: ProvokedSource = {
  profile: 'catalog',
  label: 'listing-read errors',
  provoke: listingReadErrors,
  withWindow: false,
};

export const REQUEST_BODY_ERRORS: ProvokedSource = {
  profile: 'shop',
  label: 'request-body errors',
  provoke: bodyErrors,
  withWindow: true,
};

/**
 * The errors of the run's case `index` of `source` in the check's representation: drawn from the run's seed
 * (sharedDraw) and provoked once for every check that judges them (sharedStep), 7.2's fields of the envelope and
 * 9.3a's table codes, so the run spends the target's rate limit once, not once per check.
 */
export async function provokedCase(t: CheckContext, source: ProvokedSource, index: number): Promise<Provoked[]> {
  const inputs = await errorInputs(t, source.withWindow);
  return sharedStep(t, `provoked ${source.label} ${t.representation} ${index}`, async () => {
    const [input] = fc.sample(inputs, { seed: sharedDraw(t, index), numRuns: 1 });
    return source.provoke(t, input as ErrorInputs);
  });
}
