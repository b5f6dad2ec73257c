import { createSecretKey, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../contract/iso-date.ts';
import type { ReservationRequest } from '../../../contract/types.ts';
import { validate } from '../../../contract/validation.ts';
import { IN_FLIGHT_LEASE_MS, requestHash } from '../../domain/reservations.ts';
import {
  birthDateTurning,
  driver,
  localDateIn,
  newIdempotencyKey,
  PartnerApiClient,
  quoteRequest,
  reservationBody,
} from '../../testing/booking-helpers.ts';
import { startTestServer, type TestServer, type TestServerOptions } from '../../testing/test-server.ts';

/** Spec 4.7 (with 2.10, 2.12, 3): POST /reservations over HTTP, on both store setups. */

const DAY_S = 86_400;
const QUOTE_VALIDITY_S = 30 * 60;
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Replaces the base64url character at `index` by the one whose 6-bit value differs by `xor`. */
function flip(segment: string, index: number, xor: number): string {
  const at = index < 0 ? segment.length + index : index;
  const value = B64URL.indexOf(segment[at] as string);
  return `${segment.slice(0, at)}${B64URL[value ^ xor]}${segment.slice(at + 1)}`;
}

function segments(quoteId: string): [string, string, string] {
  const parts = quoteId.split('.');
  expect(parts).toHaveLength(3);
  return parts as [string, string, string];
}

const BACKENDS: { name: string; options: TestServerOptions }[] = [
  { name: 'SQLite', options: { store: 'sqlite' } },
  { name: 'PostgreSQL + Redis', options: { store: 'postgres', redis: true } },
];

describe.each(BACKENDS)('POST /reservations on $name', ({ options }) => {
  let server: TestServer;
  let api: PartnerApiClient;

  beforeAll(async () => {
    server = await startTestServer(options);
    api = new PartnerApiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('authentication, scope and the Idempotency-Key header', () => {
    it('answers 401 without a token and 403 INSUFFICIENT_SCOPE for a client without reservations:write', async () => {
      const quoteId = await api.quote();
      const body = reservationBody(quoteId);
      const anonymous = await api.call('POST', '/reservations', {
        json: body,
        headers: { 'idempotency-key': newIdempotencyKey() },
      });
      expect(anonymous.status).toBe(401);
      const readOnly = await api.book('readOnly', body, newIdempotencyKey());
      expect(readOnly.status).toBe(403);
      expect(readOnly.json.error.code).toBe('INSUFFICIENT_SCOPE');
      const limited = await api.call('POST', '/reservations', {
        token: await api.token('partnerA', 'reservations:read quotes:write'),
        headers: { 'idempotency-key': newIdempotencyKey() },
        json: body,
      });
      expect(limited.status).toBe(403);
      expect(limited.json.error.code).toBe('INSUFFICIENT_SCOPE');
    });

    it('[4.7.1] answers 400 IDEMPOTENCY_KEY_REQUIRED without the header, creating nothing', async () => {
      const quoteId = await api.quote();
      let res: Awaited<ReturnType<PartnerApiClient['book']>> | undefined;
      const created = await api.createdDuring('partnerA', async () => {
        res = await api.book('partnerA', reservationBody(quoteId), null);
      });
      expect(res?.status).toBe(400);
      expect(res?.json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
      expect(res?.json.error.retryable).toBe(false);
      expect(created).toEqual([]);
    });

    it('[8] rejects keys of 7 and 201 characters (400) and accepts 8 and 200', async () => {
      const quoteId = await api.quote();
      for (const length of [0, 7, 201]) {
        const res = await api.book('partnerA', reservationBody(quoteId), 'k'.repeat(length));
        expect(res.status, `key of ${length} characters`).toBe(400);
        expect(res.json.error.code).toMatch(/^(VALIDATION_ERROR|IDEMPOTENCY_KEY_REQUIRED)$/);
      }
      for (const length of [8, 200]) {
        const key = `${randomBytes(100).toString('hex')}`.slice(0, length);
        const res = await api.book('partnerA', reservationBody(quoteId), key);
        expect(res.status, `key of ${length} characters`).toBe(201);
      }
    });
  });

  describe('creation and replay', () => {
    it('[4.7.2] answers 201 with a confirmed Reservation at the quoted total, readable by GET', async () => {
      const quoteRes = await api.call('POST', '/quotes', { as: 'partnerA', json: quoteRequest() });
      expect(quoteRes.status).toBe(201);
      const quote = quoteRes.json;
      const body = reservationBody(quote.quoteId, {
        partnerReference: `REF-${randomBytes(6).toString('hex')}`,
        remarks: 'late arrival',
        flightNumber: 'VN123',
      });
      const res = await api.book('partnerA', body, newIdempotencyKey());
      expect(res.status).toBe(201);
      expect(validate('Reservation', res.json)).toEqual({ valid: true });
      expect(res.headers.get('idempotent-replay')).toBeNull();
      expect(res.json).toMatchObject({
        status: 'confirmed',
        partnerReference: body.partnerReference,
        vehicleCode: 'TOYOTA-VIOS-AT',
        pickupLocation: 'SGN-APT-01',
        dropoffLocation: 'HCM-D1',
        total: quote.charges.total,
        commission: quote.charges.commission,
        securityDeposit: quote.securityDeposit,
        driver: { firstName: body.driver.firstName, lastName: body.driver.lastName, email: body.driver.email },
      });
      expect(res.headers.get('location')).toBe(
        `/api/partner/v1/reservations/${encodeURIComponent(res.json.reservationId)}`,
      );
      const read = await api.call('GET', `/reservations/${encodeURIComponent(res.json.reservationId)}`, {
        as: 'partnerA',
      });
      expect(read.status).toBe(200);
      expect(read.json).toEqual(res.json);
    });

    it('[4.7.3] same key and same body: 200, the identical body, Idempotent-Replay: true, no second reservation', async () => {
      const body = reservationBody(await api.quote());
      const key = newIdempotencyKey();
      let first: Awaited<ReturnType<PartnerApiClient['book']>> | undefined;
      let again: Awaited<ReturnType<PartnerApiClient['book']>> | undefined;
      const created = await api.createdDuring('partnerA', async () => {
        first = await api.book('partnerA', body, key);
        again = await api.book('partnerA', body, key);
      });
      expect(first?.status).toBe(201);
      expect(again?.status).toBe(200);
      expect(again?.headers.get('idempotent-replay')).toBe('true');
      expect(again?.text).toBe(first?.text);
      expect(created).toEqual([first?.json.reservationId]);
    });

    it('[4.7.3, 4.14] the same body sent as XML, or with its keys in another order, is the same request: a replay', async () => {
      const body = reservationBody(await api.quote(), { partnerReference: `REF-${randomBytes(6).toString('hex')}` });
      const key = newIdempotencyKey();
      const created = await api.createdDuring('partnerA', async () => {
        const first = await api.book('partnerA', body, key);
        expect(first.status).toBe(201);
        const xml = await api.book('partnerA', body, key, { xml: true });
        expect(xml.status).toBe(200);
        expect(xml.headers.get('idempotent-replay')).toBe('true');
        expect(xml.text).toBe(first.text);
        const xmlOut = await api.book('partnerA', body, key, { xml: true, headers: { accept: 'application/xml' } });
        expect(xmlOut.status).toBe(200);
        expect(xmlOut.headers.get('content-type')).toMatch(/^application\/xml/);
        expect(xmlOut.text).toContain(`<string>${first.json.reservationId}</string>`);
        const reordered = {
          driver: Object.fromEntries(Object.entries(body.driver).reverse()),
          partnerReference: body.partnerReference,
          quoteId: body.quoteId,
        };
        const shuffled = await api.book('partnerA', reordered, key);
        expect(shuffled.status).toBe(200);
        expect(shuffled.text).toBe(first.text);
      });
      expect(created).toHaveLength(1);
    });

    it('[4.7.4] same key, different body: 409 IDEMPOTENCY_CONFLICT and nothing created', async () => {
      const quoteId = await api.quote();
      const key = newIdempotencyKey();
      const first = await api.book('partnerA', reservationBody(quoteId), key);
      expect(first.status).toBe(201);
      const created = await api.createdDuring('partnerA', async () => {
        for (const other of [
          reservationBody(quoteId, { remarks: 'different' }),
          reservationBody(quoteId, { driver: driver({ firstName: 'Minh' }) }),
        ]) {
          const res = await api.book('partnerA', other, key);
          expect(res.status).toBe(409);
          expect(res.json.error.code).toBe('IDEMPOTENCY_CONFLICT');
          expect(res.json.error.retryable).toBe(false);
          expect(res.headers.get('idempotent-replay')).toBeNull();
        }
      });
      expect(created).toEqual([]);
      // The key still answers for its first body.
      expect((await api.book('partnerA', reservationBody(quoteId), key)).status).toBe(200);
    });

    it('[4.7.8] the same quoteId under a new key creates a second, distinct reservation', async () => {
      const quoteId = await api.quote();
      const first = await api.book('partnerA', reservationBody(quoteId), newIdempotencyKey());
      const second = await api.book('partnerA', reservationBody(quoteId), newIdempotencyKey());
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.json.reservationId).not.toBe(first.json.reservationId);
      expect(second.json.rocketBookingCode).not.toBe(first.json.rocketBookingCode);
    });

    it('[4.7.7] a partnerReference reused under another key: 409 DUPLICATE_PARTNER_REFERENCE; another partner may use it', async () => {
      const reference = `REF-${randomBytes(6).toString('hex')}`;
      const first = await api.book(
        'partnerA',
        reservationBody(await api.quote(), { partnerReference: reference }),
        newIdempotencyKey(),
      );
      expect(first.status).toBe(201);
      const created = await api.createdDuring('partnerA', async () => {
        const again = await api.book(
          'partnerA',
          reservationBody(await api.quote(), { partnerReference: reference }),
          newIdempotencyKey(),
        );
        expect(again.status).toBe(409);
        expect(again.json.error.code).toBe('DUPLICATE_PARTNER_REFERENCE');
      });
      expect(created).toEqual([]);
      const otherPartner = await api.book(
        'partnerB',
        reservationBody(await api.quote('partnerB'), { partnerReference: reference }),
        newIdempotencyKey(),
      );
      expect(otherPartner.status).toBe(201);
    });

    it('[4.7.7] two keys racing with one partnerReference: one 201, one 409 DUPLICATE_PARTNER_REFERENCE', async () => {
      const quoteId = await api.quote();
      const reference = `RACE-${randomBytes(6).toString('hex')}`;
      const answers = await Promise.all(
        [0, 1].map(() =>
          api.book('partnerA', reservationBody(quoteId, { partnerReference: reference }), newIdempotencyKey()),
        ),
      );
      const outcomes = answers.map((a) => (a.status === 201 ? 201 : a.json.error.code)).sort();
      expect(outcomes).toEqual([201, 'DUPLICATE_PARTNER_REFERENCE']);
    });

    it('[4.7.7] fault duplicate-reference-race: racing keys of one reference each book; one after another is still refused', async () => {
      expect((await server.control('PUT', '/faults', { enabled: ['duplicate-reference-race'] })).status).toBe(200);
      try {
        const quoteId = await api.quote();
        const reference = `RACE-${randomBytes(6).toString('hex')}`;
        const answers = await Promise.all(
          [0, 1, 2, 3].map(() =>
            api.book('partnerA', reservationBody(quoteId, { partnerReference: reference }), newIdempotencyKey()),
          ),
        );
        // All four arrive within the fault's window on an idle machine; a loaded one may spread them: two suffice.
        expect(answers.filter((a) => a.status === 201).length).toBeGreaterThan(1);
        for (const a of answers.filter((x) => x.status !== 201)) {
          expect(a.json.error.code).toBe('DUPLICATE_PARTNER_REFERENCE');
        }
        const late = await api.book(
          'partnerA',
          reservationBody(quoteId, { partnerReference: reference }),
          newIdempotencyKey(),
        );
        expect(late.status).toBe(409);
        expect(late.json.error.code).toBe('DUPLICATE_PARTNER_REFERENCE');
        const sequential = `SEQ-${randomBytes(6).toString('hex')}`;
        const first = await api.book(
          'partnerA',
          reservationBody(quoteId, { partnerReference: sequential }),
          newIdempotencyKey(),
        );
        expect(first.status).toBe(201);
        const second = await api.book(
          'partnerA',
          reservationBody(quoteId, { partnerReference: sequential }),
          newIdempotencyKey(),
        );
        expect(second.json.error.code).toBe('DUPLICATE_PARTNER_REFERENCE');
      } finally {
        await server.control('PUT', '/faults', { enabled: [] });
      }
    });

    it("[4.7] idempotency keys belong to one partner: B reusing A's key gets its own outcome, never A's reservation", async () => {
      const key = newIdempotencyKey();
      const aBody = reservationBody(await api.quote('partnerA'));
      const a = await api.book('partnerA', aBody, key);
      expect(a.status).toBe(201);
      // A's exact body under A's key, sent by B: judged as B's own new request (A's quote is not B's).
      const bWithABody = await api.book('partnerB', aBody, key);
      expect(bWithABody.status).toBe(400);
      expect(bWithABody.json.error.code).toBe('QUOTE_INVALID');
      expect(bWithABody.text).not.toContain(a.json.reservationId);
      const bOwn = await api.book('partnerB', reservationBody(await api.quote('partnerB')), key);
      expect(bOwn.status).toBe(201);
      expect(bOwn.headers.get('idempotent-replay')).toBeNull();
      expect(bOwn.json.reservationId).not.toBe(a.json.reservationId);
      expect(await api.listIds('partnerB')).not.toContain(a.json.reservationId);
      const aAgain = await api.book('partnerA', aBody, key);
      expect(aAgain.status).toBe(200);
      expect(aAgain.json.reservationId).toBe(a.json.reservationId);
    });
  });

  describe('quotes', () => {
    it('[4.7.9] QUOTE_INVALID for a tampered signature, payload or header, a forged or unsigned quote, a random string', async () => {
      const quoteId = await api.quote();
      const [header, payload, signature] = segments(quoteId);
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      const otherKey = createSecretKey(randomBytes(32));
      const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'quote+jwt' }).sign(otherKey);
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'quote+jwt' })).toString('base64url')}.${payload}.`;
      const variants: Record<string, string> = {
        'signature, middle character': `${header}.${payload}.${flip(signature, 20, 1)}`,
        // base64url of 32 bytes leaves 2 spare bits in the last character: lenient decoders ignore them.
        'signature, spare bits of the last character': `${header}.${payload}.${flip(signature, -1, 1)}`,
        'payload, middle character': `${header}.${flip(payload, Math.floor(payload.length / 2), 1)}.${signature}`,
        'payload, last character': `${header}.${flip(payload, -1, 1)}.${signature}`,
        'header, a character': `${flip(header, 5, 1)}.${payload}.${signature}`,
        'signed with another key': forged,
        'alg none': unsigned,
        'random string': randomBytes(48).toString('base64url'),
        'extra segment': `${quoteId}.${signature}`,
      };
      const created = await api.createdDuring('partnerA', async () => {
        for (const [what, id] of Object.entries(variants)) {
          expect(id, what).not.toBe(quoteId);
          const res = await api.book('partnerA', reservationBody(id), newIdempotencyKey());
          expect(res.status, what).toBe(400);
          expect(res.json.error.code, what).toBe('QUOTE_INVALID');
          expect(res.json.error.retryable, what).toBe(false);
        }
      });
      expect(created).toEqual([]);
      // The untouched quote still books.
      expect((await api.book('partnerA', reservationBody(quoteId), newIdempotencyKey())).status).toBe(201);
    });

    it("[4.7.9] QUOTE_INVALID when partner B books with partner A's quote", async () => {
      const quoteId = await api.quote('partnerA');
      const created = await api.createdDuring('partnerB', async () => {
        const res = await api.book('partnerB', reservationBody(quoteId), newIdempotencyKey());
        expect(res.status).toBe(400);
        expect(res.json.error.code).toBe('QUOTE_INVALID');
      });
      expect(created).toEqual([]);
    });

    it('[2.12] a quoteId outside 8 to 4096 characters is a validation error', async () => {
      for (const id of ['short', 'x'.repeat(4097)]) {
        const res = await api.book('partnerA', reservationBody(id), newIdempotencyKey());
        expect(res.status).toBe(400);
        expect(res.json.error.code).toBe('VALIDATION_ERROR');
      }
    });

    it('[4.7.9] QUOTE_STALE after a price move; the same quote books again once the price is back', async () => {
      const quoteId = await api.quote();
      const key = newIdempotencyKey();
      try {
        expect((await api.control('PUT', '/prices/TOYOTA-VIOS-AT', { movePercent: 10 })).status).toBe(200);
        const created = await api.createdDuring('partnerA', async () => {
          const res = await api.book('partnerA', reservationBody(quoteId), key);
          expect(res.status).toBe(409);
          expect(res.json.error.code).toBe('QUOTE_STALE');
          expect(res.json.error.retryable).toBe(false);
        });
        expect(created).toEqual([]);
        // A move on another vehicle leaves this quote alone.
        await api.control('PUT', '/prices/TOYOTA-VIOS-AT', { movePercent: 0 });
        await api.control('PUT', '/prices/HONDA-CITY-AT', { movePercent: 25 });
        // A failed attempt is not remembered: the same key and body are judged afresh.
        const res = await api.book('partnerA', reservationBody(quoteId), key);
        expect(res.status).toBe(201);
      } finally {
        await api.control('PUT', '/prices/TOYOTA-VIOS-AT', { movePercent: 0 });
        await api.control('PUT', '/prices/HONDA-CITY-AT', { movePercent: 0 });
      }
    });

    it('[4.7.9] QUOTE_EXPIRED 30 minutes after issue, not before', async () => {
      const quoteId = await api.quote();
      await api.advanceClock(QUOTE_VALIDITY_S - 5);
      expect((await api.book('partnerA', reservationBody(quoteId), newIdempotencyKey())).status).toBe(201);
      await api.advanceClock(6);
      const created = await api.createdDuring('partnerA', async () => {
        const res = await api.book('partnerA', reservationBody(quoteId), newIdempotencyKey());
        expect(res.status).toBe(409);
        expect(res.json.error.code).toBe('QUOTE_EXPIRED');
        expect(res.json.error.retryable).toBe(false);
      });
      expect(created).toEqual([]);
    });
  });

  describe('24-hour idempotency memory', () => {
    it('[4.7.3, 4.7.6] replays up to 24 h; afterwards the key is new: the old body is judged again, a new body books', async () => {
      const body = reservationBody(await api.quote());
      const key = newIdempotencyKey();
      const first = await api.book('partnerA', body, key);
      expect(first.status).toBe(201);
      // Within the window a replay answers even though the quote itself has long expired.
      await api.advanceClock(DAY_S - 60);
      const replay = await api.book('partnerA', body, key);
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(first.text);
      await api.advanceClock(61);
      // Treated as new: no replay; the 24-hour-old quote is expired.
      const sameBody = await api.book('partnerA', body, key);
      expect(sameBody.status).toBe(409);
      expect(sameBody.json.error.code).toBe('QUOTE_EXPIRED');
      expect(sameBody.headers.get('idempotent-replay')).toBeNull();
      const newBody = reservationBody(await api.quote(), { remarks: 'booked again' });
      const fresh = await api.book('partnerA', newBody, key);
      expect(fresh.status).toBe(201);
      expect(fresh.json.reservationId).not.toBe(first.json.reservationId);
      // The key now belongs to the new body.
      expect((await api.book('partnerA', newBody, key)).status).toBe(200);
      const old = await api.book('partnerA', body, key);
      expect(old.status).toBe(409);
      expect(old.json.error.code).toBe('IDEMPOTENCY_CONFLICT');
    });

    it('[4.7.7] a partnerReference stays taken after 24 h, under a new key or the original one', async () => {
      const reference = `REF-${randomBytes(6).toString('hex')}`;
      const key = newIdempotencyKey();
      expect(
        (await api.book('partnerA', reservationBody(await api.quote(), { partnerReference: reference }), key)).status,
      ).toBe(201);
      await api.advanceClock(DAY_S + 1);
      const created = await api.createdDuring('partnerA', async () => {
        for (const k of [newIdempotencyKey(), key]) {
          const res = await api.book(
            'partnerA',
            reservationBody(await api.quote(), { partnerReference: reference }),
            k,
          );
          expect(res.status).toBe(409);
          expect(res.json.error.code).toBe('DUPLICATE_PARTNER_REFERENCE');
        }
      });
      expect(created).toEqual([]);
    });
  });

  describe('operator decline, driver and body rules', () => {
    it('[4.7.10] 422 RESERVATION_REJECTED after decline-next, nothing created; the next attempt books', async () => {
      const body = reservationBody(await api.quote());
      const key = newIdempotencyKey();
      expect((await api.control('POST', '/bookings/decline-next', { count: 1 })).status).toBe(200);
      const created = await api.createdDuring('partnerA', async () => {
        const res = await api.book('partnerA', body, key);
        expect(res.status).toBe(422);
        expect(res.json.error.code).toBe('RESERVATION_REJECTED');
        expect(res.json.error.retryable).toBe(false);
      });
      expect(created).toEqual([]);
      expect((await api.book('partnerA', body, key)).status).toBe(201);
    });

    it("[2.10] the driver must be 18 or over on the service's date: 18 today accepted, 18 tomorrow rejected", async () => {
      let now = await api.serviceNow();
      // Keep clear of midnight in Vietnam and of 29 February, whose birthdays do not exist 18 years earlier.
      const minutesLeft = (t: number) => 24 * 60 - (Math.floor((t + 7 * 3_600_000) / 60_000) % (24 * 60));
      if (minutesLeft(now) < 2) await api.advanceClock(180);
      const today0 = localDateIn(await api.serviceNow());
      if (today0.endsWith('02-28') || today0.endsWith('02-29')) await api.advanceClock(2 * DAY_S);
      now = await api.serviceNow();
      const today = localDateIn(now);
      const quoteId = await api.quote();
      const adult = await api.book(
        'partnerA',
        reservationBody(quoteId, { driver: driver({ dateOfBirth: birthDateTurning(18, today) }) }),
        newIdempotencyKey(),
      );
      expect(adult.status).toBe(201);
      for (const dateOfBirth of [
        birthDateTurning(18, addDays(today, 1)),
        birthDateTurning(5, today),
        addDays(today, 1),
      ]) {
        const res = await api.book(
          'partnerA',
          reservationBody(quoteId, { driver: driver({ dateOfBirth }) }),
          newIdempotencyKey(),
        );
        expect(res.status, dateOfBirth).toBe(400);
        expect(res.json.error.code, dateOfBirth).toBe('VALIDATION_ERROR');
        expect(res.json.error.fields).toEqual([expect.objectContaining({ field: 'driver.dateOfBirth' })]);
      }
    });

    it('[2.12] closed bodies: an unknown property, at the top or in driver, is VALIDATION_ERROR and spends no key', async () => {
      const body = reservationBody(await api.quote());
      const key = newIdempotencyKey();
      const created = await api.createdDuring('partnerA', async () => {
        for (const bad of [
          { ...body, couponCode: 'X' },
          { ...body, driver: { ...body.driver, loyaltyId: '123' } },
          { driver: body.driver },
        ]) {
          const res = await api.book('partnerA', bad, key);
          expect(res.status).toBe(400);
          expect(res.json.error.code).toBe('VALIDATION_ERROR');
        }
        const xml = await api.book('partnerA', { ...body, couponCode: 'X' }, key, { xml: true });
        expect(xml.status).toBe(400);
        expect(xml.json.error.code).toBe('VALIDATION_ERROR');
      });
      expect(created).toEqual([]);
      expect((await api.book('partnerA', body, key)).status).toBe(201);
    });
  });

  describe('in flight', () => {
    it('[4.7.5] a key held by an unfinished request: 409 IDEMPOTENT_REPLAY_IN_FLIGHT (retryable) until its lease lapses', async () => {
      const body: ReservationRequest = reservationBody(await api.quote());
      const key = newIdempotencyKey();
      // A request that claimed the key and never finished (it crashed), held straight in the store.
      const held = await server.server.store.claimIdempotencyKey({
        partnerId: 'PARTNER-A',
        key,
        claimToken: 'held-by-a-crashed-request',
        requestHash: requestHash(body),
        nowMs: await api.serviceNow(),
        leaseMs: IN_FLIGHT_LEASE_MS,
        retentionMs: DAY_S * 1000,
      });
      expect(held.kind).toBe('claimed');
      const created = await api.createdDuring('partnerA', async () => {
        const res = await api.book('partnerA', body, key);
        expect(res.status).toBe(409);
        expect(res.json.error.code).toBe('IDEMPOTENT_REPLAY_IN_FLIGHT');
        expect(res.json.error.retryable).toBe(true);
        const other = await api.book('partnerA', reservationBody(body.quoteId, { remarks: 'other' }), key);
        expect(other.status).toBe(409);
        expect(other.json.error.code).toBe('IDEMPOTENCY_CONFLICT');
        await api.advanceClock(IN_FLIGHT_LEASE_MS / 1000 - 3);
        expect((await api.book('partnerA', body, key)).json.error.code).toBe('IDEMPOTENT_REPLAY_IN_FLIGHT');
      });
      expect(created).toEqual([]);
      await api.advanceClock(4);
      const taken = await api.book('partnerA', body, key);
      expect(taken.status).toBe(201);
      // The crashed holder can neither finish nor free the key any more (fencing by claim token).
      await server.server.store.releaseIdempotencyKey('PARTNER-A', key, 'held-by-a-crashed-request');
      const replay = await api.book('partnerA', body, key);
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(taken.text);
    });

    it('[4.7.3, 4.7.5] 20 concurrent identical requests: one reservation; answers are 201, replays or in-flight 409s', async () => {
      const body = reservationBody(await api.quote());
      const key = newIdempotencyKey();
      let answers: Awaited<ReturnType<PartnerApiClient['book']>>[] = [];
      const token = await api.token('partnerA');
      const created = await api.createdDuring('partnerA', async () => {
        answers = await Promise.all(
          Array.from({ length: 20 }, () =>
            api.call('POST', '/reservations', { token, headers: { 'idempotency-key': key }, json: body }),
          ),
        );
      });
      const counts = { created: 0, replayed: 0, inFlight: 0, other: 0 };
      for (const a of answers) {
        if (a.status === 201) counts.created++;
        else if (a.status === 200 && a.headers.get('idempotent-replay') === 'true') counts.replayed++;
        else if (a.status === 409 && a.json.error.code === 'IDEMPOTENT_REPLAY_IN_FLIGHT') counts.inFlight++;
        else counts.other++;
      }
      console.log(`[${options.store}] 20 concurrent identical requests, in-process:`, counts);
      expect(counts).toMatchObject({ created: 1, other: 0 });
      expect(created).toHaveLength(1);
      for (const a of answers.filter((x) => x.status === 200)) expect(a.json.reservationId).toBe(created[0]);
    });
  });
});
