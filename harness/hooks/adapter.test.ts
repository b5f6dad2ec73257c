/** The reference implementation's control adapter, against an embedded reference server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureHttp } from '../http/client.ts';
import { type EmbeddedTarget, startEmbeddedTarget } from '../target/embedded.ts';
import { getLocations, tokenOf } from '../target/test-support/target-calls.ts';
import { type ControlAdapter, ControlError, referenceControlAdapter } from './adapter.ts';

let target: EmbeddedTarget;
let control: ControlAdapter;

beforeAll(async () => {
  target = await startEmbeddedTarget();
  configureHttp({ tls: target.config.tls });
  const { baseUrl, token } = target.config.control ?? { token: '' };
  control = referenceControlAdapter(baseUrl ?? target.config.baseUrl, token);
});
afterAll(async () => {
  await target?.stop();
});

const token = (role: 'partnerA' | 'partnerB') => tokenOf(target.config, role);
const locations = (bearer: string) => getLocations(target.config, bearer);

describe('referenceControlAdapter', () => {
  it('switches the API off and on (spec 5.8)', async () => {
    const bearer = await token('partnerA');
    await control.setApiEnabled(false);
    try {
      expect((await locations(bearer)).status).toBe(503);
    } finally {
      await control.setApiEnabled(true);
    }
    expect((await locations(bearer)).status).toBe(200);
  });

  it('finds a client partner and disables it (spec 5.6)', async () => {
    const bearer = await token('partnerB');
    const partnerId = await control.partnerIdOf(target.config.clients.partnerB?.clientId ?? '');
    expect(partnerId).toEqual(expect.any(String));
    await control.setPartnerEnabled(partnerId, false);
    try {
      expect((await locations(bearer)).status).toBe(403);
    } finally {
      await control.setPartnerEnabled(partnerId, true);
    }
    expect((await locations(bearer)).status).toBe(200);
  });

  it('moves the clock past token expiry and back', async () => {
    const bearer = await token('partnerA');
    await control.advanceClock(601);
    try {
      expect((await locations(bearer)).status).toBe(401);
    } finally {
      await control.resetClock();
    }
    expect((await locations(bearer)).status).toBe(200);
  });

  it('reads alerts and accepts price moves and booking declines', async () => {
    expect(Array.isArray(await control.listAlerts())).toBe(true);
    await control.declineNextBookings(0);
    await control.movePrice('TOYOTA-VIOS-AT', 0);
    await expect(control.movePrice('NO-SUCH-VEHICLE', 0)).rejects.toMatchObject({ name: 'ControlError', status: 404 });
  });

  it('reports refusals as ControlError with the status, never the token', async () => {
    const error = (await control.attachMoney('no-such-reservation', true).catch((e: unknown) => e)) as ControlError;
    expect(error).toBeInstanceOf(ControlError);
    expect(error.status).toBe(404);
    const wrong = referenceControlAdapter(target.config.baseUrl, 'wrong-control-token');
    const unauthorized = (await wrong.listAlerts().catch((e: unknown) => e)) as ControlError;
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.message).not.toContain(target.config.control?.token);
  });
});
