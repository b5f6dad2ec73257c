import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuoteRequest } from '../../contract/types.ts';
import { newIdempotencyKey, PartnerApiClient, quoteRequest, reservationBody } from '../testing/booking-helpers.ts';
import { startTestServer, type TestServer, type TestServerOptions } from '../testing/test-server.ts';

/** The operator control API (docs/design.md "Target control"): its bearer secret, input validation and effects. */

const BACKENDS: { name: string; options: TestServerOptions }[] = [
  { name: 'SQLite', options: { store: 'sqlite' } },
  { name: 'PostgreSQL + Redis', options: { store: 'postgres', redis: true } },
];

const ROUTES: [method: string, path: string, body?: unknown][] = [
  ['GET', '/state'],
  ['POST', '/clock/advance', { seconds: 1 }],
  ['POST', '/clock/reset', {}],
  ['PUT', '/api', { enabled: true }],
  ['GET', '/clients/pa-client-partner-a'],
  ['PUT', '/partners/PARTNER-A', { enabled: true }],
  ['PUT', '/prices/TOYOTA-VIOS-AT', { movePercent: 0 }],
  ['POST', '/bookings/decline-next', { count: 0 }],
  ['PUT', '/reservations/RSV-x/money', { attached: false }],
  ['PUT', '/reservations/RSV-x/status', { status: 'confirmed' }],
  ['GET', '/alerts'],
];

describe.each(BACKENDS)('control API on $name', ({ options }) => {
  let server: TestServer;
  let api: PartnerApiClient;

  beforeAll(async () => {
    server = await startTestServer(options);
    api = new PartnerApiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  const expectInvalid = async (method: string, path: string, body: unknown, field: string) => {
    const res = await api.control(method, path, body);
    expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
    expect(res.json.error.code).toBe('VALIDATION_ERROR');
    expect(res.json.error.fields?.[0]?.field).toBe(field);
  };

  it('every operation requires the control bearer secret: 401 without it, with a wrong one, or with a partner token', async () => {
    const partnerToken = await api.token('partnerA');
    const stateBefore = (await api.control('GET', '/state')).json;
    for (const [method, path, body] of ROUTES) {
      for (const token of ['', 'wrong-secret', partnerToken]) {
        const res = await api.control(method, path, body, { token });
        expect(res.status, `${method} ${path} with ${token ? 'a wrong token' : 'no token'}`).toBe(401);
        expect(res.json.error.code).toBe('UNAUTHORIZED');
      }
    }
    const basic = await fetch(`${server.baseUrl}/control/v1/state`, {
      headers: { authorization: `Basic ${Buffer.from(`x:${server.target.hooks?.token}`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
    // Nothing the refused calls asked for happened.
    const stateAfter = (await api.control('GET', '/state')).json;
    expect({ ...stateAfter, now: undefined }).toEqual({ ...stateBefore, now: undefined });
  });

  it('GET /state describes the control state and the service time', async () => {
    const res = await api.control('GET', '/state');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      clockOffsetMs: expect.any(Number),
      apiDisabled: false,
      disabledPartnerIds: [],
      priceMovesPercent: {},
      declineNextBookings: 0,
    });
    expect(Math.abs(Date.parse(res.json.now) - (Date.now() + res.json.clockOffsetMs))).toBeLessThan(5_000);
  });

  it('a body that is not a JSON object: 400 MALFORMED_JSON', async () => {
    for (const rawBody of ['{', '[1]', '"text"']) {
      const res = await api.control('POST', '/clock/advance', undefined, { rawBody });
      expect(res.status, rawBody).toBe(400);
      expect(res.json.error.code).toBe('MALFORMED_JSON');
    }
  });

  it('POST /clock/advance: validated; moves the service clock, so a 600 s token expires', async () => {
    for (const seconds of [-1, 'ten', null, 366 * 86_400 + 1, undefined]) {
      await expectInvalid('POST', '/clock/advance', { seconds }, 'seconds');
    }
    const token = await api.token('partnerA');
    expect((await api.call('GET', '/locations', { token })).status).toBe(200);
    const before = Date.parse((await api.control('GET', '/state')).json.now);
    const res = await api.control('POST', '/clock/advance', { seconds: 601 });
    expect(res.status).toBe(200);
    expect(Date.parse(res.json.now) - before).toBeGreaterThanOrEqual(601_000);
    expect(Date.parse(res.json.now) - before).toBeLessThan(611_000);
    const expired = await api.call('GET', '/locations', { token });
    expect(expired.status).toBe(401);
    expect(expired.json.error.code).toBe('INVALID_TOKEN');
    api.forgetTokens();
  });

  it('POST /clock/reset: the offset goes back to zero', async () => {
    await api.control('POST', '/clock/advance', { seconds: 3600 });
    const res = await api.control('POST', '/clock/reset', {});
    expect(res.status).toBe(200);
    expect(res.json.clockOffsetMs).toBe(0);
    expect((await api.control('GET', '/state')).json.clockOffsetMs).toBe(0);
    api.forgetTokens();
  });

  it('PUT /api: validated; disabling answers 503 API_DISABLED on business calls until enabled again', async () => {
    for (const enabled of ['false', 0, null, undefined]) await expectInvalid('PUT', '/api', { enabled }, 'enabled');
    const token = await api.token('partnerA');
    try {
      expect((await api.control('PUT', '/api', { enabled: false })).json).toEqual({ apiEnabled: false });
      const res = await api.call('GET', '/locations', { token });
      expect(res.status).toBe(503);
      expect(res.json.error.code).toBe('API_DISABLED');
    } finally {
      expect((await api.control('PUT', '/api', { enabled: true })).json).toEqual({ apiEnabled: true });
    }
    expect((await api.call('GET', '/locations', { token })).status).toBe(200);
  });

  it('PUT /faults: validated; dependencyUnavailable answers 503 DEPENDENCY_UNAVAILABLE, internalError 500 INTERNAL_ERROR', async () => {
    await expectInvalid('PUT', '/faults', { dependencyUnavailable: 'yes' }, 'dependencyUnavailable');
    await expectInvalid('PUT', '/faults', { diskFull: true }, 'diskFull');
    const token = await api.token('partnerA');
    try {
      expect((await api.control('PUT', '/faults', { dependencyUnavailable: true })).json).toEqual({
        dependencyUnavailable: true,
        internalError: false,
        enabled: [],
      });
      const unavailable = await api.call('GET', '/locations', { token });
      expect(unavailable.status).toBe(503);
      expect(unavailable.json.error).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', retryable: true });
      await api.control('PUT', '/faults', { dependencyUnavailable: false, internalError: true });
      const internal = await api.call('GET', '/locations', { token });
      expect(internal.status).toBe(500);
      expect(internal.json.error).toMatchObject({ code: 'INTERNAL_ERROR', retryable: true });
      expect(internal.json.error.message).not.toContain('injected');
      // Authentication still comes first: a call without a token is 401, not the fault.
      expect((await api.call('GET', '/locations')).status).toBe(401);
    } finally {
      await api.control('PUT', '/faults', { dependencyUnavailable: false, internalError: false });
    }
    expect((await api.call('GET', '/locations', { token })).status).toBe(200);
  });

  it('the probes of fixtures/reference-target.json answer as spec 4.12 states (the suite relies on them)', async () => {
    const probes = JSON.parse(
      readFileSync(new URL('../../fixtures/reference-target.json', import.meta.url), 'utf8'),
    ).probes;
    const codeOf = async (change: Partial<QuoteRequest>) =>
      (await api.call('POST', '/quotes', { as: 'partnerA', json: quoteRequest(change) })).json.error?.code;
    expect(await codeOf({ pickupLocation: probes.inactiveLocationCode })).toBe('INVALID_LOCATION');
    expect(await codeOf({ vehicleCode: probes.unpublishedVehicleCode })).toBe('INVALID_VEHICLE');
    expect(await codeOf({ vehicleCode: probes.incompleteVehicleCode })).toBe('FLEET_PROFILE_INCOMPLETE');
    const { accountCode, rateCode } = probes.pendingRate;
    expect(await codeOf({ accountCode, rateCode })).toBe('RATE_NOT_APPROVED');
    expect(await codeOf({ accountCode: probes.expiredRate.accountCode, rateCode: probes.expiredRate.rateCode })).toBe(
      'INVALID_RATE_CODE',
    );
    expect(await codeOf({ accountCode: probes.disabledRate.accountCode, rateCode: probes.disabledRate.rateCode })).toBe(
      'INVALID_RATE_CODE',
    );
    expect(await codeOf(probes.noOneWayPair)).toBe('LOCATION_NOT_ONE_WAY');
  });

  it('PUT /partners/{partnerId}: 404 for an unknown partner, validated; a disabled partner gets 403 PARTNER_DISABLED', async () => {
    expect((await api.control('PUT', '/partners/PARTNER-NOPE', { enabled: false })).status).toBe(404);
    await expectInvalid('PUT', '/partners/PARTNER-B', { enabled: 'no' }, 'enabled');
    const token = await api.token('partnerB');
    try {
      expect((await api.control('PUT', '/partners/PARTNER-B', { enabled: false })).json).toEqual({
        partnerId: 'PARTNER-B',
        enabled: false,
      });
      const res = await api.call('GET', '/locations', { token });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('PARTNER_DISABLED');
      // Partner A is untouched.
      expect((await api.call('GET', '/locations', { as: 'partnerA' })).status).toBe(200);
    } finally {
      expect((await api.control('PUT', '/partners/PARTNER-B', { enabled: true })).json.enabled).toBe(true);
    }
    expect((await api.call('GET', '/locations', { token })).status).toBe(200);
  });

  it('PUT /prices/{vehicleCode}: 404 for an unknown vehicle, validated; a move changes the quoted total, 0 restores it', async () => {
    expect((await api.control('PUT', '/prices/NO-SUCH-CAR', { movePercent: 10 })).status).toBe(404);
    for (const movePercent of [-100, 1000.5, '10', null]) {
      await expectInvalid('PUT', '/prices/TOYOTA-VIOS-AT', { movePercent }, 'movePercent');
    }
    const totalOf = async () =>
      (await api.call('POST', '/quotes', { as: 'partnerA', json: quoteRequest() })).json.charges.total.amount as number;
    const base = await totalOf();
    try {
      expect((await api.control('PUT', '/prices/TOYOTA-VIOS-AT', { movePercent: 20 })).json).toEqual({
        vehicleCode: 'TOYOTA-VIOS-AT',
        movePercent: 20,
      });
      expect((await api.control('GET', '/state')).json.priceMovesPercent).toEqual({ 'TOYOTA-VIOS-AT': 20 });
      expect(await totalOf()).toBeGreaterThan(base);
    } finally {
      expect((await api.control('PUT', '/prices/TOYOTA-VIOS-AT', { movePercent: 0 })).json.movePercent).toBe(0);
    }
    expect((await api.control('GET', '/state')).json.priceMovesPercent).toEqual({});
    expect(await totalOf()).toBe(base);
  });

  it('POST /bookings/decline-next: validated; declines exactly that many bookings (default one)', async () => {
    for (const count of [-1, 1.5, 1001, '2', null])
      await expectInvalid('POST', '/bookings/decline-next', { count }, 'count');
    const quoteId = await api.quote();
    const bookOnce = async () => (await api.book('partnerA', reservationBody(quoteId), newIdempotencyKey())).status;
    expect((await api.control('POST', '/bookings/decline-next', { count: 2 })).json).toEqual({
      declineNextBookings: 2,
    });
    expect([await bookOnce(), await bookOnce(), await bookOnce()]).toEqual([422, 422, 201]);
    expect((await api.control('POST', '/bookings/decline-next')).json).toEqual({ declineNextBookings: 1 });
    expect([await bookOnce(), await bookOnce()]).toEqual([422, 201]);
    expect((await api.control('POST', '/bookings/decline-next', { count: 0 })).json).toEqual({
      declineNextBookings: 0,
    });
  });

  it('PUT /reservations/{id}/money: 404 for an unknown reservation, validated; attached money blocks a partner cancel', async () => {
    const { reservationId } = await api.bookFresh('partnerA');
    expect((await api.control('PUT', '/reservations/RSV-none/money', { attached: true })).status).toBe(404);
    await expectInvalid('PUT', `/reservations/${reservationId}/money`, { attached: 'yes' }, 'attached');
    expect((await api.control('PUT', `/reservations/${reservationId}/money`, { attached: true })).json).toEqual({
      reservationId,
      moneyAttached: true,
    });
    const cancel = await api.call('POST', `/reservations/${reservationId}/cancel`, {
      as: 'partnerA',
      json: { reason: 'x' },
    });
    expect(cancel.json.error.code).toBe('CANCELLATION_NEEDS_STAFF');
    const alerts = (await api.control('GET', '/alerts')).json;
    expect(alerts.alerts.filter((a: { reservationId: string }) => a.reservationId === reservationId)).toHaveLength(1);
    expect(alerts.alerts.at(-1).createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(alerts.count).toBe(alerts.alerts.length);
  });

  it('PUT /reservations/{id}/status: 404 for an unknown reservation, validated; the partner sees the new status', async () => {
    const { reservationId } = await api.bookFresh('partnerA');
    expect((await api.control('PUT', '/reservations/RSV-none/status', { status: 'completed' })).status).toBe(404);
    for (const status of ['done', 'CONFIRMED', 3, null]) {
      await expectInvalid('PUT', `/reservations/${reservationId}/status`, { status }, 'status');
    }
    for (const status of ['in_progress', 'completed', 'confirmed']) {
      const res = await api.control('PUT', `/reservations/${reservationId}/status`, { status });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ reservationId, status });
      expect((await api.call('GET', `/reservations/${reservationId}`, { as: 'partnerA' })).json.status).toBe(status);
    }
  });

  it("GET /clients/{clientId}: the client's partner and role; 404 for an unknown client", async () => {
    const res = await api.control('GET', '/clients/rl-client-rate-limit');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ clientId: 'rl-client-rate-limit', partnerId: 'PARTNER-RL', role: 'rateLimit' });
    expect((await api.control('GET', '/clients/nobody')).status).toBe(404);
  });
});
