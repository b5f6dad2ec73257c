/**
 * A naive partner client: it gets the work done on a good day, and breaks client clauses the way integrations
 * commonly do. It exists to show what the client certification catches (docs/client-clauses.md):
 *
 *   npx partner-api-certify client -- npx tsx examples/naive-client.ts                         (exit 1)
 *   npx partner-api-certify client --scenario resilience -- npx tsx examples/naive-client.ts   (exit 1)
 *   npx partner-api-certify client --scenario limits -- npx tsx examples/naive-client.ts       (exit 1)
 *
 * Its faults, each on purpose (do not copy them):
 * - a new token for every call (C5.3b: reuse one until it expires);
 * - every failed call is sent again at once, up to three times, whatever the error, and a booking with a fresh
 *   Idempotency-Key each time (C7.2b on a non-retryable error; C4.7d when a booking's answer is lost, which the
 *   resilience scenario provokes);
 * - Retry-After is ignored (C8.3, when a 429 comes: the resilience and limits scenarios send them), and a refused
 *   token request is not even noticed (the limits scenario's slow_down: it then sends `Bearer undefined`);
 * - a reservation is changed with PATCH (C4.10: cancel and re-book).
 * Everything else it does right (Basic, form-encoded, Accept and Content-Type, keys of the right length), so it
 * fails only the clauses its faults break.
 */
import { randomUUID } from 'node:crypto';

const BASE_URL = (process.env.PARTNER_API_BASE_URL ?? '').replace(/\/+$/, '');
const CLIENT_ID = process.env.PARTNER_API_CLIENT_ID ?? '';
const CLIENT_SECRET = process.env.PARTNER_API_CLIENT_SECRET ?? '';

async function newToken(): Promise<string> {
  const response = await fetch(`${BASE_URL}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
    },
    body: 'grant_type=client_credentials',
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Fault: a token per call. Fault: any failure is sent again at once (a booking under a fresh key). */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${await newToken()}`, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let last: { status: number; json: unknown } = { status: 0, json: null };
  for (let attempt = 0; attempt < 3; attempt++) {
    const booking = method === 'POST' && path === '/reservations';
    const response = await fetch(`${BASE_URL}${path}`, {
      method,
      headers: booking ? { ...headers, 'Idempotency-Key': randomUUID() } : headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    last = { status: response.status, json: await response.json().catch(() => null) };
    if (response.ok) return last;
  }
  return last;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const rental = {
  pickupLocation: 'SGN-APT-01',
  dropoffLocation: 'SGN-APT-01',
  pickupDate: day(40),
  pickupTime: '10:00',
  dropoffDate: day(42),
  dropoffTime: '10:00',
};

await call('GET', '/locations');
const availability = (await call('POST', '/availability', rental)).json as {
  offers: { quoteId: string; vehicle: { vehicleCode: string } }[];
};
const offer = availability.offers[0];
if (!offer) throw new Error('no offer');
const quote = (await call('POST', '/quotes', { ...rental, vehicleCode: offer.vehicle.vehicleCode })).json as {
  quoteId: string;
};
const driver = {
  firstName: 'Minh',
  lastName: 'Tran',
  email: 'minh.tran@example.com',
  phone: '+84907654321',
  dateOfBirth: '1990-01-01',
};
const booked = (await call('POST', '/reservations', { quoteId: quote.quoteId, driver })).json as {
  reservationId: string;
};
const id = encodeURIComponent(booked.reservationId);
await call('GET', `/reservations/${id}`);
// Fault: the traveller's new email is sent as a PATCH (answered 501 MODIFICATION_NOT_SUPPORTED, then sent again).
const modified = await call('PATCH', `/reservations/${id}`, { driver: { ...driver, email: 'minh@example.com' } });
console.log(`naive client: PATCH answered ${modified.status}`);
await call('GET', '/reservations');
await call('POST', `/reservations/${id}/cancel`, { reason: 'changed plans' });
