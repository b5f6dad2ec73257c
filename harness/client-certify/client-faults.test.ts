import { describe, expect, it } from 'vitest';
import { CLIENT_CLAUSES } from '../../contract/client-clauses/index.ts';
import { inParallel, listClientFaults, NO_CLIENT_FAULT, runClient, verdictOnFault } from './client-faults.ts';
import { CLIENT_SCENARIOS } from './scenarios.ts';

/**
 * The named client faults of examples/faulty-client.ts, fast: the table covers the client clause catalogue, and two
 * faults run side by side under happy-path are caught on their own clauses. Every fault under its scenario, and the
 * good client beside them, is client-faults.long.test.ts (npm run test:long).
 */
describe('examples/faulty-client.ts', () => {
  it('names a fault for every client clause a client can break, or says why none can', async () => {
    const faults = await listClientFaults();
    const ids = CLIENT_CLAUSES.map((clause) => clause.id);
    expect(new Set(faults.map((fault) => fault.name)).size).toBe(faults.length);
    for (const fault of faults) {
      expect(fault.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(ids, fault.name).toContain(fault.clause);
      expect(CLIENT_SCENARIOS, fault.name).toContain(fault.scenario);
      expect(fault.description, fault.name).not.toBe('');
    }
    const proven = new Set(faults.map((fault) => fault.clause));
    for (const id of Object.keys(NO_CLIENT_FAULT)) {
      expect(ids, id).toContain(id);
      expect(proven.has(id), `${id} has a fault and a reason for none`).toBe(false);
    }
    expect(ids.filter((id) => !proven.has(id) && NO_CLIENT_FAULT[id] === undefined)).toEqual([]);
  });

  it('is caught on its own clause: one key too short, a token per call', async () => {
    const faults = (await listClientFaults()).filter((fault) =>
      ['token-per-call', 'key-too-short'].includes(fault.name),
    );
    expect(faults).toHaveLength(2);
    const runs = await inParallel(faults, 2, (fault) => runClient(fault.scenario, fault.name));
    faults.forEach((fault, at) => {
      const run = runs[at];
      if (!run) throw new Error(`${fault.name}: no run`);
      const verdict = verdictOnFault(fault, run);
      expect(run.exitCode, fault.name).toBe(1);
      expect(verdict.own, fault.name).toBe(verdict.expected);
      expect(verdict.otherFails.length, `${fault.name}: ${verdict.otherFails}`).toBeLessThanOrEqual(1);
    });
  }, 60_000);
});
