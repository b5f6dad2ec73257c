import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientFaultEntry,
  type ClientRun,
  inParallel,
  listClientFaults,
  runClient,
  verdictOnFault,
} from './client-faults.ts';
import type { ClientScenario } from './scenarios.ts';

/**
 * The client-side mutation proof (docs/client-clauses.md "Which client fault proves each clause"): every named fault
 * of examples/faulty-client.ts under the scenario that exposes it, and the good client under each of those scenarios,
 * four sandboxes at a time. A fault passes when its own clause fails (warns, for a SHOULD) and at most one other clause
 * fails; the good client when no clause fails or warns.
 */
const WIDTH = 4;
let faults: ClientFaultEntry[] = [];
const faultRuns = new Map<string, ClientRun>();
const goodRuns = new Map<ClientScenario, ClientRun>();
const started = Date.now();

beforeAll(async () => {
  faults = await listClientFaults();
  const scenarios = [...new Set(faults.map((fault) => fault.scenario))];
  const jobs = [
    ...scenarios.map((scenario) => ({ scenario, fault: undefined as string | undefined })),
    ...faults.map((fault) => ({ scenario: fault.scenario, fault: fault.name as string | undefined })),
  ];
  const runs = await inParallel(jobs, WIDTH, (job) => runClient(job.scenario, job.fault));
  jobs.forEach((job, at) => {
    const run = runs[at] as ClientRun;
    if (job.fault === undefined) goodRuns.set(job.scenario, run);
    else faultRuns.set(job.fault, run);
  });
});

afterAll(() => {
  // The measurement docs/client-clauses.md and the changelog quote.
  const lines = faults.map((fault) => {
    const run = faultRuns.get(fault.name);
    if (!run) return `${fault.name}: not run`;
    const verdict = verdictOnFault(fault, run);
    const others = [...verdict.otherFails.map((id) => `${id} fail`), ...verdict.otherWarns.map((id) => `${id} warn`)];
    return `${fault.name} (${fault.clause}, ${fault.scenario}): ${fault.clause} ${verdict.own}${others.length ? `; also ${others.join(', ')}` : ''}; exit ${run.exitCode}, ${run.exchanges} exchanges, ${run.seconds.toFixed(1)} s`;
  });
  for (const [scenario, run] of goodRuns) {
    lines.push(
      `good client (${scenario}): exit ${run.exitCode}, ${run.exchanges} exchanges, ${run.seconds.toFixed(1)} s`,
    );
  }
  console.log(`${lines.join('\n')}\nin all ${((Date.now() - started) / 1000).toFixed(0)} s, ${WIDTH} at a time`);
});

describe('the named client faults, each under the scenario that exposes it', () => {
  it('leaves the good client passing under every scenario the faults use', () => {
    expect(goodRuns.size).toBeGreaterThan(0);
    for (const [scenario, run] of goodRuns) {
      const flagged = Object.entries(run.outcomes).filter(([, outcome]) => outcome === 'fail' || outcome === 'warn');
      expect(flagged, scenario).toEqual([]);
      expect(run.exitCode, scenario).toBe(0);
      expect(run.commandExitCode, `${scenario}: ${run.output}`).toBe(0);
    }
  });

  it('catches each fault on its own clause, with at most one other clause failed', () => {
    expect(faults.length).toBeGreaterThan(0);
    for (const fault of faults) {
      const run = faultRuns.get(fault.name);
      if (!run) throw new Error(`${fault.name}: not run`);
      const verdict = verdictOnFault(fault, run);
      expect(verdict.own, `${fault.name} on ${fault.clause}`).toBe(verdict.expected);
      expect(
        verdict.otherFails.length,
        `${fault.name}: also failed ${verdict.otherFails.join(', ')}`,
      ).toBeLessThanOrEqual(1);
      // A MUST broken fails the verdict; a SHOULD broken alone is a warning (exit 0).
      expect(run.exitCode, fault.name).toBe(verdict.expected === 'fail' || verdict.otherFails.length > 0 ? 1 : 0);
    }
  });
});
