/**
 * Spec 6 Events: there are none. No webhook, subscription or history resource is served or published, a request
 * cannot register a callback, and the read operations return the current state of a reservation, the same on
 * every read. "Clients process repeated observations idempotently" binds the client (NON_SERVICE_STATEMENTS).
 * Unknown paths must be refused with a 4xx (9.1), never served nor a server error; the 7.2 envelope covers the
 * operations of the table, so on these paths it is a SHOULD of its own check (docs/ambiguities.md #40, RS23). 404
 * NOT_FOUND in the envelope is what the reference answers.
 */

import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { API_PREFIX } from '../contract/constants.ts';
import { ENDPOINTS } from '../contract/endpoints.ts';
import type { Reservation } from '../contract/types.ts';
import { availabilityRequest } from '../generators/index.ts';
import { type ApiResult, type CheckContext, check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { expectError, expectSchema } from '../harness/check/expect-api.ts';
import type { Role } from '../harness/config/target-config.ts';
import { currentStatus, listedWhen, requireCancel, requireGeneratedBooking } from './support/booking.ts';
import { targetListings } from './support/listings.ts';
import { book, business } from './support/presets.ts';
import { requireUnknownKeysRefused } from './support/request-faults.ts';
import { sharedStep } from './support/shared-steps.ts';
import { expectEnvelopeOnUnknownPath, expectNotServed } from './support/unknown-path.ts';

const onlyPartnerA: Role[] = ['partnerA'];

const OPENAPI = JSON.parse(
  readFileSync(new URL('../contract/openapi/partner-api-v1.openapi.json', import.meta.url), 'utf8'),
) as Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };

/** Whether an object tree has a key anywhere. */
function hasKey(value: unknown, key: string): boolean {
  if (Array.isArray(value)) return value.some((v) => hasKey(v, key));
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([k, v]) => k === key || hasKey(v, key));
}

/**
 * A partner's callback URL: plain https on example.com. (fc.webUrl values met a SocketError on the reference,
 * reproducible with --only 6 --seed 1; see the report of branch props.)
 */
const callbackUrls = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/), fc.stringMatching(/^[a-z0-9/_-]{0,40}$/))
  .map(([host, path]) => `https://${host}.example.com/${path}`);

const EVENT_PATHS = [
  '/webhooks',
  '/webhooks/subscriptions',
  '/subscriptions',
  '/events',
  '/callbacks',
  '/notifications',
];

async function reservationAt(t: CheckContext, path: string): Promise<Reservation> {
  const res = await t.client('partnerA').get(path);
  expect(res.status, `GET ${path}: ${res.excerpt}`).toBe(200);
  expectSchema(res, 'Reservation');
  return res.body as Reservation;
}

/** GET of every webhook-like path, sent once for the run's checks of them (sharedStep), each judging its own rule. */
function eventPathReads(t: CheckContext): Promise<{ path: string; res: ApiResult }[]> {
  return sharedStep(t, `event path reads ${t.representation}`, async () => {
    const out: { path: string; res: ApiResult }[] = [];
    for (const path of EVENT_PATHS) out.push({ path, res: await t.client('partnerA').get(path) });
    return out;
  });
}

describe('6 Events', () => {
  // Spec 6.1: "The service emits no events. Webhooks are not available"
  check('6.1')({ needs: onlyPartnerA, name: 'The published contract has no webhooks and no callbacks' }, async () => {
    expect(Object.keys(OPENAPI), 'top-level keys of the shipped OpenAPI').not.toContain('webhooks');
    expect(hasKey(OPENAPI.paths, 'callbacks'), 'callbacks on an operation').toBe(false);
  });

  // Spec 6.1 (quoted above)
  check('6.1')({ ...business, name: 'No webhook or subscription resource is served (GET)' }, async (t) => {
    for (const { path, res } of await eventPathReads(t)) expectNotServed(res, `GET ${API_PREFIX}${path}`);
  });

  // Spec 6.1 (quoted above)
  check('6.1')(
    { ...business, level: 'SHOULD', name: 'Webhook-like paths are refused in the 7.2 envelope (GET)' },
    async (t) => {
      for (const { path, res } of await eventPathReads(t)) {
        expectEnvelopeOnUnknownPath(res, t.representation, `GET ${API_PREFIX}${path}`);
      }
    },
  );

  // A POST to a path outside the endpoint table is not a call any narrower profile may send.
  // Spec 6.1 (quoted above)
  check('6.1')(
    { ...business, profile: 'full', name: 'A subscription cannot be registered (POST to webhook-like paths)' },
    async (t) => {
      // Every usual path, with a generated registration (a plain https URL and some reservation events).
      const registrations = fc.record({
        url: callbackUrls,
        events: fc.subarray(['reservation.created', 'reservation.cancelled', 'reservation.updated'], { minLength: 1 }),
      });
      await t.forAll(
        registrations,
        async (registration) => {
          for (const path of EVENT_PATHS) {
            expectNotServed(await t.client('partnerA').post(path, registration), `POST ${API_PREFIX}${path}`);
          }
        },
        { numRuns: casesFor(t, 'severalRequests') },
      );
    },
  );

  // Spec 6.1 (quoted above)
  check('6.1')(
    { ...business, profile: 'shop', name: 'A request cannot register a callback: such a property is refused (400)' },
    async (t) => {
      const cat = await targetListings(t);
      // A callback-like property of any usual name, with a URL, on a generated request.
      const keys = fc.constantFrom('callbackUrl', 'webhookUrl', 'callback', 'notifyUrl', 'webhook', 'statusCallback');
      const urls = callbackUrls;
      await t.forAll(
        fc.tuple(availabilityRequest(cat, { rate: 'public' }), keys, urls),
        async ([request, key, url]) => {
          const send = (body: object) => t.client('partnerA').post('/availability', body);
          const res = await send({ ...request, [key]: url });
          // Served because every unknown key is: 2.12.3's (filed there), not a callback registered.
          await requireUnknownKeysRefused('AvailabilityRequest', request, res, send);
          // 7.3: an unknown field's specific code beyond VALIDATION_ERROR is not shown.
          expectError(res, 'VALIDATION_ERROR', { otherCodes: true });
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 6.2: "no reservation transition history is provided"
  check('6.2')({ needs: onlyPartnerA, name: 'The published contract has no history or event resource' }, async () => {
    const published = Object.keys(OPENAPI.paths).sort();
    const table = [...new Set(ENDPOINTS.map((e) => e.path))].sort();
    expect(published, 'paths of the shipped OpenAPI against the endpoint table of spec 4').toEqual(table);
    expect(published.filter((p) => /history|event|transition|audit/i.test(p))).toEqual([]);
  });

  // Spec 6.2 (quoted above)
  check('6.2')(
    { ...book, name: 'A reservation carries no transition history and has no history resource' },
    async (t) => {
      const { reservation } = await requireGeneratedBooking(t, 'partnerA');
      const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
      // The cancel is 3.4's step (its answer's state 4.11.2's); reads that disagree are 6.3's (filed there).
      await requireCancel(t, 'partnerA', reservation.reservationId, { reason: 'Certification: spec 6' });
      const read = await reservationAt(t, path);
      const keys = Object.keys(read).filter((k) => /history|event|transition|previous|statuses|audit/i.test(k));
      expect(keys, 'history-like keys on the reservation').toEqual([]);
      expect(
        await currentStatus(t, 'partnerA', reservation.reservationId, 'cancelled'),
        'only the current status',
      ).toBe('cancelled');
      for (const sub of ['/history', '/events', '/transitions']) {
        expectNotServed(await t.client('partnerA').get(`${path}${sub}`), `GET ${path}${sub}`);
      }
    },
  );

  // Spec 6.2 (quoted above)
  check('6.2')(
    { ...book, level: 'SHOULD', name: 'History-like paths of a reservation are refused in the 7.2 envelope' },
    async (t) => {
      const { reservation } = await requireGeneratedBooking(t, 'partnerA');
      const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
      for (const sub of ['/history', '/events', '/transitions']) {
        const what = `GET ${path}${sub}`;
        expectEnvelopeOnUnknownPath(await t.client('partnerA').get(`${path}${sub}`), t.representation, what);
      }
    },
  );

  // Spec 6.3: "State is observed by polling the read operations (GET /reservations and GET
  // /reservations/{reservationId}), which return current state at least once"
  check('6.3')(
    { ...book, name: 'GET by id and the list return the current state: as created, then cancelled' },
    async (t) => {
      const { reservation } = await requireGeneratedBooking(t, 'partnerA');
      const id = reservation.reservationId;
      const path = `/reservations/${encodeURIComponent(id)}`;
      // Which state a new reservation has is 1.3a's; here reads agree with it and with each other.
      expect((await reservationAt(t, path)).status, 'GET after booking').toBe(reservation.status);
      const created = await listedWhen(t, 'partnerA', id, (r) => r?.status === reservation.status);
      expect(created?.status, 'listed after booking').toBe(reservation.status);
      const cancelled = await t.client('partnerA').post(`${path}/cancel`, { reason: 'Certification: polling' });
      expect(cancelled.status, cancelled.excerpt).toBe(200);
      const read = await reservationAt(t, path);
      expect(read.status, 'GET after cancelling').toBe('cancelled');
      // The list may show the cancel a moment after GET by id (6.3: current state "at least once"): polled until it does.
      const inList = await listedWhen(t, 'partnerA', id, (r) => r !== undefined && isDeepStrictEqual(r, read));
      expect(inList, 'the list still holds the cancelled reservation').toBeDefined();
      expect(inList, 'the list shows the same current state as GET by id').toEqual(read);
    },
  );

  // Spec 6.3 (quoted above)
  check('6.3')({ ...book, name: 'Repeated reads give the same state' }, async (t) => {
    const { reservation } = await requireGeneratedBooking(t, 'partnerA');
    const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
    const reads = [await reservationAt(t, path), await reservationAt(t, path), await reservationAt(t, path)];
    // Read against read: whether the 201 body equals the stored resource is 4.7.2's and 4.9's, not polling's.
    for (const read of reads.slice(1)) expect(read, 'a repeated read against the first read').toEqual(reads[0]);
  });

  // Spec 6.3 (quoted above)
  check('6.3')(
    { ...book, hooks: ['reservations.status'], name: 'A change made by the operator is what the next read returns' },
    async (t) => {
      const control = t.hooks;
      const { reservation } = await requireGeneratedBooking(t, 'partnerA');
      const id = reservation.reservationId;
      await control.setReservationStatus(id, 'in_progress');
      const path = `/reservations/${encodeURIComponent(id)}`;
      expect((await reservationAt(t, path)).status, 'GET after the operator moved it').toBe('in_progress');
      const moved = await listedWhen(t, 'partnerA', id, (r) => r?.status === 'in_progress');
      expect(moved?.status, 'listed after the operator moved it').toBe('in_progress');
      // Back to a state the run's cleanup can cancel.
      await control.setReservationStatus(id, 'confirmed');
    },
  );
});
