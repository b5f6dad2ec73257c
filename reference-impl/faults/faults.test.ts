import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clauseById } from '../../contract/clauses/index.ts';
import { BOOKING_SCOPES } from '../../contract/scopes.ts';
import { READ_AND_SHOP_SCOPES } from '../../fixtures/index.ts';
import type { RateLimitDecision } from '../http/rate-limit/types.ts';
import { parseXmlResponse } from '../testing/http-helpers.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { slidingWindowLimit } from './registry/benign.ts';
import { FAULTS } from './registry/index.ts';
import { FaultSwitch, UnknownFaultError } from './switch.ts';

describe('the fault registry', () => {
  const faults = FAULTS.filter((f) => f.kind === 'fault');
  const benign = FAULTS.filter((f) => f.kind === 'benign');

  it('holds at least 100 faults over every section 1 to 9 and at least 25 benign variants', () => {
    expect(faults.length).toBeGreaterThanOrEqual(100);
    expect(benign.length).toBeGreaterThanOrEqual(25);
    const sections = new Set(faults.map((f) => f.clause.split('.')[0]));
    expect([...sections].sort()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });

  it('names each once, in lower-case words, with a description; each fault breaks one clause of the clause catalogue', () => {
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    for (const fault of FAULTS) {
      expect(fault.name, fault.name).toMatch(/^[a-z0-9][A-Za-z0-9-]{1,80}$/);
      expect(fault.description.length, fault.name).toBeGreaterThan(10);
      if (fault.kind === 'fault') expect(clauseById(fault.clause), fault.name).toBeDefined();
      else if (!fault.includes) expect(fault.name, fault.name).toMatch(/^benign-/);
    }
  });

  it('a composite includes registered variants of its own kind, and nothing else', () => {
    const byName = new Map(FAULTS.map((f) => [f.name, f]));
    for (const composite of FAULTS.filter((f) => f.includes)) {
      expect(composite.includes?.length, composite.name).toBeGreaterThan(1);
      for (const name of composite.includes ?? []) {
        expect(byName.get(name)?.kind, `${composite.name} includes ${name}`).toBe(composite.kind);
        expect(byName.get(name)?.includes, `${composite.name} includes ${name}`).toBeUndefined();
      }
      const seams = ['request', 'body', 'response', 'text', 'enforce', 'adjust'] as const;
      expect(
        seams.filter((seam) => composite[seam] !== undefined),
        composite.name,
      ).toEqual([]);
    }
  });
});

describe('the fault switch', () => {
  it('switches a composite on as the variants it includes', () => {
    const faults = new FaultSwitch(FAULTS);
    const composite = FAULTS.find((f) => f.name === 'foreign-choices');
    faults.set(['foreign-choices']);
    expect(faults.enabled()).toEqual([...(composite?.includes ?? [])]);
    expect(faults.enabled().length).toBeGreaterThan(1);
  });

  it('refuses unknown names and changes nothing then', () => {
    const faults = new FaultSwitch(FAULTS);
    faults.set(['tokens-never-expire']);
    expect(() => faults.set(['tokens-never-expire', 'no-such-fault'])).toThrow(UnknownFaultError);
    expect(faults.enabled()).toEqual(['tokens-never-expire']);
  });

  it('with nothing on, every rule holds and every value stays', () => {
    const faults = new FaultSwitch(FAULTS);
    expect(faults.enforce('quote.expiry')).toBe(true);
    expect(faults.adjust('quote.validityMs', 1_800_000, {})).toBe(1_800_000);
    faults.set(['expired-quote-books', 'quote-validity-one-hour']);
    expect(faults.enforce('quote.expiry')).toBe(false);
    expect(faults.adjust('quote.validityMs', 1_800_000, {})).toBe(3_600_000);
  });
});

describe('benign-burst-20-per-second: 20 calls per client in any sliding second', () => {
  /** A minute window with room left: what the limiter answers before the variant looks. */
  const minute = (remaining: number, allowed = true): RateLimitDecision => ({
    allowed,
    limit: 600,
    remaining,
    resetAtMs: 60_000,
    retryAfterSeconds: 17,
  });

  it('serves 20 calls of a key within 1,000 ms and refuses the 21st: Retry-After 1, the minute window kept', () => {
    const limit = slidingWindowLimit(20, 1_000);
    const served = Array.from({ length: 20 }, (_, i) => limit(minute(599 - i), 'client:a', 1_000 + i * 10));
    expect(served.every((d) => d.allowed)).toBe(true);
    const refused = limit(minute(579), 'client:a', 1_200);
    expect(refused).toEqual({ ...minute(579), allowed: false, retryAfterSeconds: 1 });
    // Per key: another client is not touched.
    expect(limit(minute(599), 'client:b', 1_200).allowed).toBe(true);
  });

  it('slides: a call is served again once the oldest served call is 1,000 ms old, not at a calendar second', () => {
    const limit = slidingWindowLimit(20, 1_000);
    for (let i = 0; i < 20; i++) limit(minute(100), 'client:a', 1_500 + i * 10); // 1,500 … 1,690
    // A calendar second would start afresh at 2,000; the sliding window still holds all 20 calls.
    expect(limit(minute(100), 'client:a', 2_000).allowed).toBe(false);
    expect(limit(minute(100), 'client:a', 2_499).allowed).toBe(false);
    expect(limit(minute(100), 'client:a', 2_500).allowed).toBe(true); // 1,500 has left
    expect(limit(minute(100), 'client:a', 2_505).allowed).toBe(false); // 1,510 … 1,690 and 2,500: 20
    expect(limit(minute(100), 'client:a', 2_510).allowed).toBe(true); // 1,510 has left
  });

  it('counts served calls only, and passes a refusal of the minute window unchanged', () => {
    const limit = slidingWindowLimit(2, 1_000);
    expect(limit(minute(0, false), 'client:a', 0)).toEqual(minute(0, false));
    expect(limit(minute(5), 'client:a', 10).allowed).toBe(true);
    expect(limit(minute(4), 'client:a', 20).allowed).toBe(true);
    for (let t = 30; t < 1_000; t += 100) expect(limit(minute(3), 'client:a', t).allowed).toBe(false);
    // The refusals did not enter the log: the first served call (10) leaving is enough.
    expect(limit(minute(3), 'client:a', 1_010).allowed).toBe(true);
  });

  it('is what the switched-on variant does at the rateLimit seam', () => {
    const faults = new FaultSwitch(FAULTS);
    faults.set(['benign-burst-20-per-second']);
    const input = { key: `client:burst-${Math.random()}`, limit: 600 };
    // 21 calls in well under a second.
    const decisions = Array.from({ length: 21 }, (_, i) => faults.adjust('rateLimit', minute(599 - i), input));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
    expect(decisions[20]).toEqual({ ...minute(579), allowed: false, retryAfterSeconds: 1 });
    const variant = FAULTS.find((f) => f.name === 'benign-burst-20-per-second');
    expect(variant).toMatchObject({ kind: 'benign', clause: '8.14' });
  });
});

describe('faults on a running server (FAULTS at start, PUT /control/v1/faults at run time)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { faults: ['money-currency-lowercase'] } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('changes the answers in JSON and in XML', async () => {
    const token = await server.token('partnerA');
    const json = await server.call('GET', '/fleet', { token });
    expect(json.json.vehicles[0].securityDeposit.currency).toBe('vnd');
    const xml = await server.call('GET', '/fleet', { token, headers: { accept: 'application/xml' } });
    const value = parseXmlResponse(xml.text) as { vehicles: { securityDeposit: { currency: string } }[] };
    expect(value.vehicles[0]?.securityDeposit.currency).toBe('vnd');
  });

  it('lists the registry and switches faults by name', async () => {
    const listed = await server.control('GET', '/faults');
    expect(listed.json.enabled).toEqual(['money-currency-lowercase']);
    expect(listed.json.registry.length).toBe(FAULTS.length);
    expect((await server.control('PUT', '/faults', { enabled: ['no-such-fault'] })).status).toBe(400);
    expect((await server.control('PUT', '/faults', { enabled: [] })).json.enabled).toEqual([]);
    const token = await server.token('partnerA');
    expect((await server.call('GET', '/fleet', { token })).json.vehicles[0].securityDeposit.currency).toBe('VND');
  });
});

describe('benign-partner-a-read-shop: partnerA before joint certification (spec 1.7, 5.5)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { faults: ['benign-partner-a-read-shop'] } });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A token request of a fixture role (HTTP Basic), with the scopes asked for, if any. */
  async function tokenAnswer(role: string, scope?: string) {
    const creds = server.target.clients[role];
    if (!creds) throw new Error(`no fixture client ${role}`);
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope !== undefined) form.set('scope', scope);
    const res = await fetch(`${server.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
    return {
      status: res.status,
      body: (await res.json()) as { access_token?: string; scope?: string; error?: string },
    };
  }

  it("partnerA's tokens carry the read and shop scopes only, a booking scope is refused it; partnerB keeps its own", async () => {
    const a = await tokenAnswer('partnerA');
    expect(a.status).toBe(200);
    expect(a.body.scope?.split(' ').sort()).toEqual([...READ_AND_SHOP_SCOPES].sort());
    expect((await tokenAnswer('partnerA', 'fleet:read reservations:write')).body).toMatchObject({
      error: 'invalid_scope',
    });
    const token = a.body.access_token;
    expect((await server.call('GET', '/fleet', { token })).status).toBe(200);
    const reservations = await server.call('GET', '/reservations', { token });
    expect(reservations.status).toBe(403);
    expect(reservations.json.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await tokenAnswer('partnerB')).body.scope?.split(' ')).toEqual(expect.arrayContaining([...BOOKING_SCOPES]));
  });
});
