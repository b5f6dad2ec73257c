import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../../contract/validation.ts';
import { CANCELLABLE_STATES } from '../../domain/reservations.ts';
import {
  newIdempotencyKey,
  PartnerApiClient,
  reservationBody,
  withoutRequestId,
} from '../../testing/booking-helpers.ts';
import { startTestServer, type TestServer, type TestServerOptions } from '../../testing/test-server.ts';

/** Spec 4.8 to 4.11 and 3: listing, reading, PATCH and cancelling reservations over HTTP, on both store setups. */

const BACKENDS: { name: string; options: TestServerOptions }[] = [
  { name: 'SQLite', options: { store: 'sqlite' } },
  { name: 'PostgreSQL + Redis', options: { store: 'postgres', redis: true } },
];

const path = (id: string) => `/reservations/${encodeURIComponent(id)}`;
const MISSING_ID = 'RSV-00000000-0000-4000-8000-000000000000';

describe.each(BACKENDS)('reading and cancelling reservations on $name', ({ options }) => {
  let server: TestServer;
  let api: PartnerApiClient;

  beforeAll(async () => {
    server = await startTestServer(options);
    api = new PartnerApiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  const cancel = (id: string, reason: unknown, as: 'partnerA' | 'partnerB' = 'partnerA') =>
    api.call('POST', `${path(id)}/cancel`, { as, json: { reason } });
  const setStatus = async (id: string, status: string) =>
    expect((await api.control('PUT', `${path(id)}/status`, { status })).status).toBe(200);
  const statusOf = async (id: string) => (await api.call('GET', path(id), { as: 'partnerA' })).json.status;

  describe('GET /reservations', () => {
    it("[4.8] newest first, default limit 25, limits 1 and 100 accepted, only the caller's reservations", async () => {
      const quoteId = await api.quote();
      const ids: string[] = [];
      for (let i = 0; i < 27; i++) {
        const res = await api.book('partnerA', reservationBody(quoteId), newIdempotencyKey());
        expect(res.status).toBe(201);
        ids.push(res.json.reservationId);
      }
      const bOwn = (await api.bookFresh('partnerB')).reservationId;

      const byDefault = await api.call('GET', '/reservations', { as: 'partnerA' });
      expect(byDefault.status).toBe(200);
      expect(validate('ReservationList', byDefault.json)).toEqual({ valid: true });
      expect(byDefault.json.limit).toBe(25);
      expect(byDefault.json.count).toBe(25);
      const newestFirst = [...ids].reverse();
      expect(byDefault.json.reservations.map((r: { reservationId: string }) => r.reservationId)).toEqual(
        newestFirst.slice(0, 25),
      );

      const one = await api.call('GET', '/reservations?limit=1', { as: 'partnerA' });
      expect(one.status).toBe(200);
      expect(one.json).toMatchObject({ count: 1, limit: 1 });
      expect(one.json.reservations[0].reservationId).toBe(ids.at(-1));

      const hundred = await api.call('GET', '/reservations?limit=100', { as: 'partnerA' });
      expect(hundred.status).toBe(200);
      expect(hundred.json.limit).toBe(100);
      const listed: string[] = hundred.json.reservations.map((r: { reservationId: string }) => r.reservationId);
      expect(listed.slice(0, 27)).toEqual(newestFirst);
      expect(listed).not.toContain(bOwn);
      const bList = await api.listIds('partnerB');
      expect(bList).toContain(bOwn);
      for (const id of ids) expect(bList).not.toContain(id);
    });

    it('[4.8] limit 0, 101, abc, 1.5, -1, empty or repeated: 400 VALIDATION_ERROR', async () => {
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'limit=-1', 'limit=', 'limit=1&limit=2']) {
        const res = await api.call('GET', `/reservations?${query}`, { as: 'partnerA' });
        expect(res.status, query).toBe(400);
        expect(res.json.error.code, query).toBe('VALIDATION_ERROR');
      }
    });

    it('[4.8] 401 without a token, 403 INSUFFICIENT_SCOPE without reservations:read', async () => {
      expect((await api.call('GET', '/reservations')).status).toBe(401);
      const readOnly = await api.call('GET', '/reservations', { as: 'readOnly' });
      expect(readOnly.status).toBe(403);
      expect(readOnly.json.error.code).toBe('INSUFFICIENT_SCOPE');
    });
  });

  describe('GET /reservations/{reservationId}', () => {
    it("[4.9, 1.4] another partner's reservation is a 404 equal, but for requestId, to a nonexistent id's", async () => {
      const { reservationId } = await api.bookFresh('partnerA');
      const own = await api.call('GET', path(reservationId), { as: 'partnerA' });
      expect(own.status).toBe(200);
      expect(validate('Reservation', own.json)).toEqual({ valid: true });
      const foreign = await api.call('GET', path(reservationId), { as: 'partnerB' });
      const missing = await api.call('GET', path(MISSING_ID), { as: 'partnerB' });
      expect(foreign.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(foreign.json.error.code).toBe('NOT_FOUND');
      expect(foreign.json.error.requestId).not.toBe(missing.json.error.requestId);
      expect(withoutRequestId(foreign.json)).toEqual(withoutRequestId(missing.json));
      expect(foreign.headers.get('content-type')).toBe(missing.headers.get('content-type'));
      expect(foreign.text.length).toBe(missing.text.length);
      expect(foreign.text).not.toContain(reservationId);
    });

    it('[4.9] 401 without a token, 403 without reservations:read', async () => {
      const { reservationId } = await api.bookFresh('partnerA');
      expect((await api.call('GET', path(reservationId))).status).toBe(401);
      expect((await api.call('GET', path(reservationId), { as: 'readOnly' })).status).toBe(403);
    });
  });

  describe('PATCH /reservations/{reservationId}', () => {
    it('[4.10] 501 MODIFICATION_NOT_SUPPORTED after authentication (401) and scope (403), whatever the id or body', async () => {
      const { reservationId } = await api.bookFresh('partnerA');
      const change = { json: { driver: { firstName: 'X' } } };
      expect((await api.call('PATCH', path(reservationId), change)).status).toBe(401);
      const readOnly = await api.call('PATCH', path(reservationId), { ...change, as: 'readOnly' });
      expect(readOnly.status).toBe(403);
      expect(readOnly.json.error.code).toBe('INSUFFICIENT_SCOPE');
      const readScope = await api.call('PATCH', path(reservationId), {
        ...change,
        token: await api.token('partnerA', 'reservations:read'),
      });
      expect(readScope.status).toBe(403);
      for (const [who, id, init] of [
        ['own', reservationId, change],
        ['own, no body', reservationId, {}],
        ['own, text body', reservationId, { body: 'hello', headers: { 'content-type': 'text/plain' } }],
        ['nonexistent', MISSING_ID, change],
      ] as const) {
        const res = await api.call('PATCH', path(id), { ...init, as: 'partnerA' });
        expect(res.status, who).toBe(501);
        expect(res.json.error.code, who).toBe('MODIFICATION_NOT_SUPPORTED');
        expect(res.json.error.retryable, who).toBe(false);
      }
      const foreign = await api.call('PATCH', path(reservationId), { ...change, as: 'partnerB' });
      expect(foreign.status).toBe(501);
      const xml = await api.call('PATCH', path(reservationId), {
        ...change,
        as: 'partnerA',
        headers: { accept: 'application/xml' },
      });
      expect(xml.status).toBe(501);
      expect(xml.text).toContain('<string>MODIFICATION_NOT_SUPPORTED</string>');
      expect(await statusOf(reservationId)).toBe('confirmed');
    });
  });

  describe('POST /reservations/{reservationId}/cancel', () => {
    it('[3] confirmed → 200 cancelled; repeated → 200 with the current state', async () => {
      const { reservationId } = await api.bookFresh('partnerA');
      const res = await cancel(reservationId, 'plans changed');
      expect(res.status).toBe(200);
      expect(validate('Reservation', res.json)).toEqual({ valid: true });
      expect(res.json).toMatchObject({ reservationId, status: 'cancelled' });
      const again = await cancel(reservationId, 'asking again');
      expect(again.status).toBe(200);
      expect(again.json).toEqual(res.json);
      const read = await api.call('GET', path(reservationId), { as: 'partnerA' });
      expect(read.json).toEqual(res.json);
    });

    it("[3] pending is cancellable too (the reference's set: pending, confirmed)", async () => {
      expect([...CANCELLABLE_STATES].sort()).toEqual(['confirmed', 'pending']);
      const { reservationId } = await api.bookFresh('partnerA');
      await setStatus(reservationId, 'pending');
      const res = await cancel(reservationId, 'no longer needed');
      expect(res.status).toBe(200);
      expect(res.json.status).toBe('cancelled');
    });

    it('[3] a non-cancellable state (in_progress, completed, expired, rejected): 409 INVALID_STATE_TRANSITION, unchanged', async () => {
      for (const status of ['in_progress', 'completed', 'expired', 'rejected']) {
        const { reservationId } = await api.bookFresh('partnerA');
        await setStatus(reservationId, status);
        const res = await cancel(reservationId, 'too late');
        expect(res.status, status).toBe(409);
        expect(res.json.error.code, status).toBe('INVALID_STATE_TRANSITION');
        expect(res.json.error.retryable).toBe(false);
        expect(await statusOf(reservationId)).toBe(status);
      }
    });

    it('[3] money attached: 409 CANCELLATION_NEEDS_STAFF, status unchanged, a staff alert recorded', async () => {
      const { reservationId } = await api.bookFresh('partnerA');
      expect((await api.control('PUT', `${path(reservationId)}/money`, { attached: true })).status).toBe(200);
      const alertsBefore = (await api.control('GET', '/alerts')).json.count as number;
      const res = await cancel(reservationId, 'guest fell ill');
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe('CANCELLATION_NEEDS_STAFF');
      expect(res.json.error.retryable).toBe(false);
      expect(res.text).not.toContain('guest fell ill');
      expect(await statusOf(reservationId)).toBe('confirmed');
      const alerts = await api.control('GET', '/alerts');
      expect(alerts.status).toBe(200);
      expect(alerts.json.count).toBe(alertsBefore + 1);
      expect(alerts.json.alerts.at(-1)).toMatchObject({
        kind: 'cancellation_needs_staff',
        reservationId,
        partnerId: 'PARTNER-A',
        reason: 'guest fell ill',
      });
      // Once staff settle the money, the partner's cancel goes through.
      await api.control('PUT', `${path(reservationId)}/money`, { attached: false });
      expect((await cancel(reservationId, 'guest fell ill')).json.status).toBe('cancelled');
    });

    it("[4.11, 1.4] another partner's reservation: 404 like a nonexistent one, and it stays confirmed", async () => {
      const { reservationId } = await api.bookFresh('partnerA');
      const foreign = await cancel(reservationId, 'not mine', 'partnerB');
      const missing = await cancel(MISSING_ID, 'not mine', 'partnerB');
      expect(foreign.status).toBe(404);
      expect(withoutRequestId(foreign.json)).toEqual(withoutRequestId(missing.json));
      expect(await statusOf(reservationId)).toBe('confirmed');
    });

    it('[2.12, 8] reason of 0 or 501 characters, missing or not a string: 400; 1 and 500 accepted', async () => {
      const { reservationId } = await api.bookFresh('partnerA');
      for (const [what, init] of [
        ['empty', { json: { reason: '' } }],
        ['501 characters', { json: { reason: 'r'.repeat(501) } }],
        ['missing', { json: {} }],
        ['a number', { json: { reason: 5 } }],
        ['unknown property', { json: { reason: 'ok', refund: true } }],
        ['no body', {}],
      ] as const) {
        const res = await api.call('POST', `${path(reservationId)}/cancel`, { ...init, as: 'partnerA' });
        expect(res.status, what).toBe(400);
        expect(res.json.error.code, what).toBe('VALIDATION_ERROR');
      }
      expect(await statusOf(reservationId)).toBe('confirmed');
      expect((await cancel(reservationId, 'r')).status).toBe(200);
      const other = await api.bookFresh('partnerA');
      expect((await cancel(other.reservationId, 'r'.repeat(500))).status).toBe(200);
    });

    it('[4.11] 401 without a token, 403 without reservations:cancel', async () => {
      const { reservationId } = await api.bookFresh('partnerA');
      expect((await api.call('POST', `${path(reservationId)}/cancel`, { json: { reason: 'x' } })).status).toBe(401);
      const noCancel = await api.call('POST', `${path(reservationId)}/cancel`, {
        token: await api.token('partnerA', 'reservations:read reservations:write'),
        json: { reason: 'x' },
      });
      expect(noCancel.status).toBe(403);
      expect(noCancel.json.error.code).toBe('INSUFFICIENT_SCOPE');
      expect(await statusOf(reservationId)).toBe('confirmed');
    });

    it('[3] concurrent cancels all answer 200 cancelled', async () => {
      const { reservationId } = await api.bookFresh('partnerA');
      const answers = await Promise.all(Array.from({ length: 8 }, () => cancel(reservationId, 'race')));
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.json.status).toBe('cancelled');
      }
    });

    it('[4.7.3] a replay after cancelling answers the original 201 body (confirmed), as the spec words it', async () => {
      const body = reservationBody(await api.quote());
      const key = newIdempotencyKey();
      const first = await api.book('partnerA', body, key);
      expect((await cancel(first.json.reservationId, 'changed')).status).toBe(200);
      const replay = await api.book('partnerA', body, key);
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(first.text);
      expect(replay.json.status).toBe('confirmed');
    });
  });
});
