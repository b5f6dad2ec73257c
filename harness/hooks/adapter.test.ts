/** The test hooks adapter against the embedded reference: the reference implements docs/test-hooks.md in full. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../contract/constants.ts';
import { configureHttp, send } from '../http/client.ts';
import { provokingLimits } from '../http/rate-limits.ts';
import { type EmbeddedTarget, startEmbeddedTarget } from '../target/embedded.ts';
import { getLocations, tokenOf } from '../target/test-support/target-calls.ts';
import { discoverHooks, HOOK_NAMES, HookError, type TestHooks, testHooks } from './adapter.ts';

let target: EmbeddedTarget;
let hooks: TestHooks;

beforeAll(async () => {
  target = await startEmbeddedTarget();
  configureHttp({ tls: target.config.tls });
  const endpoint = target.config.hooks;
  if (!endpoint) throw new Error('the embedded target has no hooks');
  hooks = testHooks(endpoint, await discoverHooks(endpoint));
});
afterAll(async () => {
  await target?.stop();
});

const token = (role: 'partnerA' | 'partnerB') => tokenOf(target.config, role);
const locations = (bearer: string) => getLocations(target.config, bearer);
const clientId = (role: 'partnerA' | 'partnerB') => target.config.clients[role]?.clientId ?? '';

describe('test hooks of the reference implementation', () => {
  it('lists every hook of the contract', () => {
    expect([...hooks.available].sort()).toEqual([...HOOK_NAMES].sort());
  });

  it('switches the API off and on (spec 5.8)', async () => {
    const bearer = await token('partnerA');
    await hooks.setApiEnabled(false);
    try {
      expect((await locations(bearer)).status).toBe(503);
    } finally {
      await hooks.setApiEnabled(true);
    }
    expect((await locations(bearer)).status).toBe(200);
  });

  it("disables a client's partner and enables it again (spec 5.6)", async () => {
    const bearer = await token('partnerB');
    await hooks.setPartnerEnabled(clientId('partnerB'), false);
    try {
      expect((await locations(bearer)).status).toBe(403);
    } finally {
      await hooks.setPartnerEnabled(clientId('partnerB'), true);
    }
    expect((await locations(bearer)).status).toBe(200);
  });

  it('expires the tokens issued so far to one client, and only its (spec 5.3)', async () => {
    const a = await token('partnerA');
    const b = await token('partnerB');
    await hooks.expireTokens(clientId('partnerA'));
    expect((await locations(a)).status).toBe(401);
    expect((await locations(b)).status).toBe(200);
    // The contract expires tokens issued *so far*: one fetched right after the hook's answer is valid.
    expect((await locations(await token('partnerA'))).status).toBe(200);
  });

  it('empties the rate-limit windows (spec 8)', async () => {
    const bearer = await tokenOf(target.config, 'rateLimit');
    let status = 0;
    // Provoked on purpose: the transport hands the 429 over instead of waiting it out.
    await provokingLimits(async () => {
      for (let i = 0; i < 400 && status !== 429; i++) status = (await locations(bearer)).status;
    });
    expect(status, 'the rateLimit client reaches its 429').toBe(429);
    await hooks.resetRateLimits();
    expect((await locations(bearer)).status).toBe(200);
  });

  it("lowers the token endpoint's per-address ceiling and sets it back (spec 8.16a)", async () => {
    // Token requests without client authentication: counted by the address bucket only, refused invalid_client.
    const anonymousToken = () =>
      send({
        method: 'POST',
        url: `${target.config.baseUrl}${API_PREFIX}/oauth/token`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      });
    await hooks.resetRateLimits();
    await hooks.setTokenAddressCeiling(3);
    const statuses: number[] = [];
    try {
      await provokingLimits(async () => {
        for (let i = 0; i < 4; i++) statuses.push((await anonymousToken()).status);
      });
    } finally {
      await hooks.setTokenAddressCeiling(null);
      await hooks.resetRateLimits();
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await anonymousToken()).status, "the service's own ceiling again").toBe(401);
    await expect(hooks.setTokenAddressCeiling(0)).rejects.toMatchObject({ name: 'HookError', status: 400 });
  });

  it('switches the failures on and off (spec 7.3)', async () => {
    const bearer = await token('partnerA');
    await hooks.setFailures({ dependencyUnavailable: true });
    try {
      expect((await locations(bearer)).status).toBe(503);
    } finally {
      await hooks.setFailures({ dependencyUnavailable: false });
    }
    expect((await locations(bearer)).status).toBe(200);
  });

  it('reads alerts, accepts price moves, declines, forgetting, and resets', async () => {
    expect(Array.isArray(await hooks.listAlerts())).toBe(true);
    await hooks.declineNextBookings(2);
    await hooks.holdBookings(10);
    await hooks.holdBookings(0);
    await expect(hooks.holdBookings(2001)).rejects.toMatchObject({ name: 'HookError', status: 400 });
    await hooks.movePrice('TOYOTA-VIOS-AT', 10);
    await hooks.forgetIdempotencyKeys(0);
    await hooks.reset();
    await expect(hooks.movePrice('NO-SUCH-VEHICLE', 0)).rejects.toMatchObject({ name: 'HookError', status: 404 });
  });

  it('reports refusals as HookError with the status, never the token', async () => {
    const error = (await hooks.attachMoney('no-such-reservation', true).catch((e: unknown) => e)) as HookError;
    expect(error).toBeInstanceOf(HookError);
    expect(error.status).toBe(404);
    const endpoint = target.config.hooks ?? { baseUrl: '', token: '' };
    const wrong = testHooks({ ...endpoint, token: 'wrong-hooks-token' }, []);
    const unauthorized = (await wrong.listAlerts().catch((e: unknown) => e)) as HookError;
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.message).not.toContain(endpoint.token);
  });
});
