import { fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_PREFIX } from '../../contract/constants.ts';
import { testHooks } from '../hooks/adapter.ts';
import { configureHttp, httpDispatcher } from '../http/client.ts';
import { type EmbeddedTarget, startEmbeddedTarget } from '../target/embedded.ts';
import { cleanupBookings, describeLeftover } from './cleanup.ts';

let target: EmbeddedTarget;
let token: string;

/** Plain calls for the setup: the reservations to clean are made through the public API, as a check would. */
async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${target.config.baseUrl}${API_PREFIX}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'content-type': 'application/json',
      ...headers,
    },
    body: body === undefined ? null : JSON.stringify(body),
    // The embedded target is HTTPS with its own certificate: the harness pool trusts it.
    dispatcher: httpDispatcher(target.config.baseUrl),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

let quoteId: string;
let sequence = 0;

async function book(partnerReference: string): Promise<string> {
  sequence += 1;
  const driver = {
    firstName: 'Ada',
    lastName: 'Tester',
    email: 'ada@example.test',
    phone: '+4915112345678',
    dateOfBirth: '1980-01-01',
  };
  const created = await call(
    'POST',
    '/reservations',
    { quoteId, driver, partnerReference },
    { 'idempotency-key': `cleanup-test-${sequence}-${partnerReference}` },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.reservationId as string;
}

beforeAll(async () => {
  target = await startEmbeddedTarget();
  configureHttp({ tls: target.config.tls });
  const partnerA = target.config.clients.partnerA;
  if (!partnerA) throw new Error('the embedded target has no partnerA');
  const tokenResponse = await fetch(`${target.config.baseUrl}${API_PREFIX}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${partnerA.clientId}:${partnerA.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
    dispatcher: httpDispatcher(target.config.baseUrl),
  });
  token = ((await tokenResponse.json()) as { access_token: string }).access_token;
  // Any offer will do: the first location, a three-day window a month ahead.
  const locations = await call('GET', '/locations');
  const location = (locations.body.locations as { locationCode: string }[])[0]?.locationCode;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const availability = await call('POST', '/availability', {
    pickupLocation: location,
    dropoffLocation: location,
    pickupDate: day(30),
    pickupTime: '10:00',
    dropoffDate: day(33),
    dropoffTime: '10:00',
  });
  const offer = (availability.body.offers as { quoteId: string }[] | undefined)?.[0];
  if (!offer) throw new Error(`no offer to book from: ${JSON.stringify(availability.body)}`);
  quoteId = offer.quoteId;
}, 60_000);

afterAll(async () => {
  await target?.stop();
});

describe('end-of-run booking cleanup against the reference implementation', () => {
  test("cancels the run's reservations (also one that needs staff, through control), leaves others alone", async () => {
    const prefix = `CERT-T${Date.now().toString(36).toUpperCase()}-`;
    const plain = await book(`${prefix}1`);
    const withMoney = await book(`${prefix}2`);
    const alreadyCancelled = await book(`${prefix}3`);
    const foreign = await book(`OTHER-${Date.now()}`);
    expect((await call('POST', `/reservations/${alreadyCancelled}/cancel`, { reason: 'test' })).status).toBe(200);
    const endpoint = target.config.hooks;
    if (!endpoint) throw new Error('the embedded target has no hooks');
    const adapter = testHooks(endpoint, ['reservations.money']);
    await adapter.attachMoney(withMoney, true);

    const result = await cleanupBookings({
      target: target.config,
      bookingPrefix: prefix,
      detachMoney: (id) => adapter.attachMoney(id, false),
    });
    expect(result.leftovers).toEqual([]);
    expect([...result.cancelled].sort()).toEqual([plain, withMoney].sort());
    for (const id of [plain, withMoney])
      expect((await call('GET', `/reservations/${id}`)).body.status).toBe('cancelled');
    expect((await call('GET', `/reservations/${foreign}`)).body.status).toBe('confirmed');
  }, 60_000);

  test('without control, a reservation that needs staff is a leftover with the reason; recorded ids are found too', async () => {
    const prefix = `CERT-U${Date.now().toString(36).toUpperCase()}-`;
    const stuck = await book(`${prefix}1`);
    // Recorded by a check but outside the prefix (e.g. booked without partnerReference): looked up by id.
    const recorded = await book(`NOPREFIX-${Date.now()}`);
    const endpoint = target.config.hooks;
    if (!endpoint) throw new Error('the embedded target has no hooks');
    await testHooks(endpoint, ['reservations.money']).attachMoney(stuck, true);

    const result = await cleanupBookings({
      target: target.config,
      bookingPrefix: prefix,
      recorded: [recorded, 'no-such-id'],
    });
    expect(result.cancelled).toEqual([recorded]);
    expect(result.leftovers.map((l) => [l.reservationId, l.reason])).toEqual([
      ['no-such-id', 'not found by any configured client'],
      [stuck, 'cancel answered 409 CANCELLATION_NEEDS_STAFF'],
    ]);
    const leftover = result.leftovers.find((l) => l.reservationId === stuck);
    expect(leftover && describeLeftover(leftover)).toContain(`${prefix}1 (confirmed): cancel answered 409`);
  }, 60_000);
});
