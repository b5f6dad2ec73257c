/**
 * Spec 7.2 The error envelope of every operation but the token endpoint, judged on a spread of errors the
 * suite can provoke without side effects: listing reads (catalog profile) and request bodies (shop profile).
 */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { ERROR_CODES, isErrorCode } from '../contract/errors.ts';
import { type CheckContext, check, SKIP } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import {
  errorCodeOf,
  errorStatusAmong,
  expectRowStatus,
  expectSchema,
  observeUnparsed,
  stringErrorCode,
} from '../harness/check/expect-api.ts';
import { claim, requireStep } from '../harness/check/scope.ts';
import { REPRESENTATIONS, type Representation } from '../harness/http/representation.ts';
import { requireQuoteToBook, sendReservationBody } from './support/booking.ts';
import { unknownCode } from './support/listings.ts';
import { type Provoked, refusedOnly } from './support/provoked.ts';
import {
  bodyErrors,
  errorInputs,
  LISTING_READ_ERRORS,
  type ProvokedSource,
  provokedCase,
  REQUEST_BODY_ERRORS,
} from './support/provoked-cases.ts';
import { plainRequest } from './support/reservation-requests.ts';
import { listingPairCalls, provokedOf, responsePairs } from './support/response-pairs.ts';
import { freshRead, sharedRead } from './support/shared-reads.ts';
import { availabilityRequest } from './support/shopping.ts';

/**
 * Every provoked error of a case, judged by `judge`. The cases are the run's draws (sharedDraw), provoked once for
 * every check of the source (sharedStep) in the check's representation: each check judges its own field of the
 * envelope on the same answers, so the run spends the target's rate limit once, not once per field.
 */
async function eachCase(
  t: CheckContext,
  source: ProvokedSource,
  judge: (provoked: Provoked[]) => void,
  options: { envelopesOnly?: boolean } = {},
): Promise<void> {
  const runs = casesFor(t, 'severalRequests');
  await t.forAll(
    fc.integer({ min: 0, max: runs - 1 }),
    async (index) => {
      const provoked = await provokedCase(t, source, index);
      const refused = refusedOnly(provoked, t.representation);
      const judged = options.envelopesOnly ? envelopesOnly(refused) : refused;
      if (judged.length === 0) return SKIP;
      judge(judged);
      return undefined;
    },
    { numRuns: runs },
  );
}

/**
 * The refusals whose body is an envelope at all (an `error` object), for the checks of its fields (7.2.2 to 7.2.5).
 * A body that is none is 7.2.1's deviation, or 7.1.2's when it is the token endpoint's OAuth shape (a string
 * `error`): filed there, once, and not judged again field by field.
 */
function envelopesOnly(all: readonly Provoked[]): Provoked[] {
  return all.filter((p) => {
    // A body that cannot be parsed at all is the rule's it breaks (a 4.14 rule for XML), filed there: no envelope to
    // judge.
    if (observeUnparsed(p.res, `${p.name}: the error body`)) return false;
    const error = (p.res.body as { error?: unknown } | undefined)?.error;
    if (typeof error === 'object' && error !== null && !Array.isArray(error)) return true;
    const oauthShaped = typeof error === 'string';
    claim(
      oauthShaped ? '7.1.2' : '7.2.1',
      false,
      `${p.name}: the error body is ${oauthShaped ? 'the OAuth error shape' : 'no envelope'}, not { error: { … } }`,
      { actual: `${p.res.status} ${p.res.excerpt}` },
    );
    return false;
  });
}

const describeError = ({ name, res }: Provoked) => `${name}: HTTP ${res.status} ${res.excerpt}`;

const MEANING_SOURCES = [
  { profile: 'catalog' as const, label: 'listing-read errors', provoke: listingReadErrorsIn },
  { profile: 'shop' as const, label: 'request-body errors', provoke: bodyErrorsIn },
];

describe('7.2 Error envelope', () => {
  for (const source of [LISTING_READ_ERRORS, REQUEST_BODY_ERRORS]) {
    const { profile, label } = source;
    const options = { needs: ['partnerA' as const], representations: REPRESENTATIONS, profile };

    // Spec 7.2.1: "`{ error: { code, message, requestId, retryable, fields? } }`, closed."
    check('7.2.1')(
      {
        ...options,
        name: `The closed envelope { error: { code, message, requestId, retryable, fields? } } (${label})`,
      },
      async (t) =>
        eachCase(t, source, (all) => {
          for (const provoked of all) {
            expectSchema(provoked.res, 'ErrorEnvelope');
          }
        }),
    );

    // 7.3 leaves codes beyond its table open (an unknown field's, say): a code is a stable non-empty string.
    // Spec 7.2.2: "code | string | stable; clients switch on it, never on message"
    check('7.2.2')({ ...options, name: `error.code is a non-empty code string (${label})` }, async (t) =>
      eachCase(
        t,
        source,
        (all) => {
          for (const provoked of all) {
            const code = errorCodeOf(provoked.res);
            expect(code !== undefined && /\S/.test(code), describeError(provoked)).toBe(true);
          }
        },
        { envelopesOnly: true },
      ),
    );

    // Spec 7.2.3: "message | string | human-safe; contains no customer data or internals"
    check('7.2.3')({ ...options, name: `error.message is human-safe text without internals (${label})` }, async (t) =>
      eachCase(
        t,
        source,
        (all) => {
          for (const provoked of all) {
            const message = (provoked.res.body as { error?: { message?: unknown } } | undefined)?.error?.message;
            expect(message, describeError(provoked)).toEqual(expect.any(String));
            expect((message as string).trim().length, `${provoked.name}: message is not empty`).toBeGreaterThan(0);
            expect(internalsIn(message as string), `${provoked.name}: message "${message}"`).toEqual([]);
          }
        },
        { envelopesOnly: true },
      ),
    );

    // Spec 7.2.4: "requestId | string | correlation id, same as X-Request-Id"
    check('7.2.4')({ ...options, name: `error.requestId equals the X-Request-Id header (${label})` }, async (t) =>
      eachCase(
        t,
        source,
        (all) => {
          for (const provoked of all) {
            const requestId = (provoked.res.body as { error?: { requestId?: unknown } } | undefined)?.error?.requestId;
            expect(provoked.res.requestId, `${provoked.name}: X-Request-Id header`).toEqual(expect.any(String));
            expect(requestId, describeError(provoked)).toBe(provoked.res.requestId);
          }
        },
        { envelopesOnly: true },
      ),
    );

    // Spec 7.2.4 (quoted above)
    check('7.2.4')({ ...options, level: 'SHOULD', name: `Each error has its own request id (${label})` }, async (t) =>
      eachCase(t, source, (all) => {
        const ids = all.map((p) => p.res.requestId);
        expect(new Set(ids).size, `request ids ${ids.join(', ')}`).toBe(ids.length);
      }),
    );

    // Spec 7.2.5: "retryable | boolean | true only when retrying the identical request may succeed"
    check('7.2.5')(
      { ...options, name: `error.retryable is a boolean, true only where the 7.3 table says so (${label})` },
      async (t) =>
        eachCase(
          t,
          source,
          (all) => {
            for (const provoked of all) {
              const error = (provoked.res.body as { error?: { code?: unknown; retryable?: unknown } } | undefined)
                ?.error;
              expect(typeof error?.retryable, describeError(provoked)).toBe('boolean');
              const code = String(error?.code);
              if (isErrorCode(code))
                expect(error?.retryable, `${provoked.name}: retryable of ${code}`).toBe(ERROR_CODES[code].retryable);
            }
          },
          { envelopesOnly: true },
        ),
    );
  }

  // Spec 7.2.6: "fields | array, optional | items with required field (string) and message (string); closed"
  check('7.2.6')(
    {
      needs: ['partnerA'],
      representations: REPRESENTATIONS,
      name: 'error.fields, when present, holds closed { field, message } items',
    },
    async (t) => {
      await t.forAll(
        await errorInputs(t, true),
        async (input) => {
          const all = refusedOnly(await bodyErrors(t, input), t.representation);
          const validationErrors = all.filter((p) => errorCodeOf(p.res) === 'VALIDATION_ERROR');
          if (validationErrors.length === 0) return SKIP;
          for (const provoked of validationErrors) {
            expectSchema(provoked.res, 'ErrorEnvelope');
            const fields = (provoked.res.body as { error: { fields?: { field: string; message: string }[] } }).error
              .fields;
            for (const item of fields ?? []) {
              expect(item.field.length, `${provoked.name}: fields[].field`).toBeGreaterThan(0);
              expect(item.message.length, `${provoked.name}: fields[].message`).toBeGreaterThan(0);
            }
          }
        },
        { numRuns: casesFor(t, 'severalRequests') },
      );
    },
  );

  for (const { profile, label, provoke } of MEANING_SOURCES) {
    // Spec 7.2.7: "Codes keep their meaning within v1."
    check('7.2.7')(
      {
        needs: ['partnerA'],
        profile,
        name: `One condition, one code with its 7.3 status: in JSON and XML and on repeat (${label})`,
      },
      async (t) => {
        // A run cannot see other releases of v1: what it can see is that a code names one condition, the same on
        // every call and in both representations, with the status its row gives.
        const seen = new Map<string, string[]>();
        for (const round of [1, 2]) {
          for (const representation of REPRESENTATIONS) {
            for (const { name, res } of refusedOnly(await provoke(t, representation, round), representation)) {
              // An error.code that is not a string is 7.2.2's (filed there): no code to compare.
              const known = stringErrorCode(res);
              if (known === undefined) continue;
              // A table code has its row's status (judged under that 7.3 row); a code of the server's own (7.3: not
              // shown) any error status.
              if (isErrorCode(known)) expectRowStatus(res, known);
              seen.set(name, [...(seen.get(name) ?? []), `${round}/${representation}: ${known}`]);
            }
          }
        }
        for (const [name, codes] of seen) {
          const distinct = new Set(codes.map((c) => c.split(': ')[1]));
          expect(distinct.size, `${name} answered ${codes.join(', ')}`).toBe(1);
        }
      },
    );
  }
  // Spec 7.2.3 (quoted above)
  check('7.2.3')(
    {
      needs: ['partnerA'],
      profile: 'book',
      bookings: true,
      representations: REPRESENTATIONS,
      name: 'A refused booking’s message repeats none of the driver data sent (no customer data)',
    },
    async (t) => {
      const { quote } = await requireQuoteToBook(t);
      const body = plainRequest(t, quote.quoteId);
      // Customer data the target must not echo, with one field broken so the booking is refused (2.10).
      const driver = { ...body.driver, email: 'thu.tran.cert@example.com', phone: '0901234567' };
      const res = await sendReservationBody(t, 'partnerA', { ...body, driver });
      requireStep(
        '2.10.6',
        errorStatusAmong(res, [400]),
        `a phone without country code is refused: HTTP ${res.status}`,
        {
          actual: res.excerpt,
        },
      );
      const error = (res.body as { error?: { message?: unknown; fields?: { message?: unknown }[] } } | undefined)
        ?.error;
      const texts = [error?.message, ...(error?.fields ?? []).map((f) => f.message)].map((m) => String(m ?? ''));
      for (const value of [driver.email, driver.phone, driver.firstName, driver.lastName]) {
        expect(
          texts.filter((text) => text.includes(value)),
          `messages repeating ${value}`,
        ).toEqual([]);
      }
    },
  );
});

/**
 * Listing-read errors in a given representation (7.2.7 compares them across representations and rounds). The first
 * round's refusals are the pairs 4.14's response rules and 4.13.5a judge too (responsePairs, sent once); the second
 * sends the same requests again.
 */
async function listingReadErrorsIn(
  t: CheckContext,
  representation: Representation,
  round: number,
): Promise<Provoked[]> {
  const refusals = round === 1 ? provokedOf(await responsePairs(t), representation) : await resent(t, representation);
  // The first round's 406 is the one 4.13.1c and 7.3.9 judge (sharedRead); the second asks again.
  const as = { representation, accept: 'text/html' };
  const notAcceptable = round === 1 ? await sharedRead(t, '/locations', as) : await freshRead(t, '/locations', as);
  return [...refusals, { name: 'not acceptable', clauseId: '4.13.1c', res: notAcceptable }];
}

/** The refusals of the response pairs sent again in `representation`. */
async function resent(t: CheckContext, representation: Representation): Promise<Provoked[]> {
  const out: Provoked[] = [];
  for (const { call, sendAgain, refusedBy } of await listingPairCalls(t)) {
    if (refusedBy !== undefined) out.push({ name: call, clauseId: refusedBy, res: await sendAgain(representation) });
  }
  return out;
}

/** Request-body errors in a given representation. */
async function bodyErrorsIn(t: CheckContext, representation: Representation, _round: number): Promise<Provoked[]> {
  const client = t.client('partnerA');
  const valid = await availabilityRequest(t, 'partnerA');
  const opts = { representation };
  return [
    {
      name: 'invalid pickupTime',
      clauseId: '2.4.4',
      res: await client.post('/availability', { ...valid, pickupTime: '25:00' }, opts),
    },
    {
      name: 'unknown field',
      clauseId: '2.0.2',
      res: await client.post('/availability', { ...valid, certificationProbe: 1 }, opts),
    },
    {
      name: 'dropoff before pickup',
      clauseId: '4.12.2',
      res: await client.post('/availability', { ...valid, dropoffDate: valid.pickupDate, dropoffTime: '09:00' }, opts),
    },
    {
      name: 'unknown pickup location',
      clauseId: '4.12.1a',
      res: await client.post('/availability', { ...valid, pickupLocation: unknownCode(t) }, opts),
    },
    {
      name: 'unsupported media type',
      clauseId: '4.13.2',
      res: await client.post('/availability', valid, { ...opts, headers: { 'content-type': 'text/plain' } }),
    },
  ];
}

/** Signs of internals in a message: stack frames, source paths, SQL, exception class names. */
function internalsIn(message: string): string[] {
  const signs: [name: string, pattern: RegExp][] = [
    ['stack frame', /\bat\s+\S+\s+\(?[^)\s]*:\d+:\d+\)?/],
    ['source path', /(?:\/[\w.-]+){2,}\.(?:[cm]?[jt]s|py|java|go|rb|php)\b|node_modules|[A-Za-z]:\\/],
    ['SQL', /\b(?:SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b/i],
    [
      'exception',
      /\b(?:TypeError|ReferenceError|SyntaxError|Traceback|Exception:|NullPointerException|SQLITE_|ECONNREFUSED)\b/,
    ],
  ];
  return signs.filter(([, pattern]) => pattern.test(message)).map(([name]) => name);
}
