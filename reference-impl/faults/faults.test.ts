import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clauseById } from '../../contract/clauses/index.ts';
import { parseXmlResponse } from '../testing/http-helpers.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
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
      else expect(fault.name, fault.name).toMatch(/^benign-/);
    }
  });
});

describe('the fault switch', () => {
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
