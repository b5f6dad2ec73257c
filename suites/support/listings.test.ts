import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { inCheckScope } from '../../harness/check/scope.ts';
import { signalOf } from '../../harness/check/signal.ts';
import { type HookName, testHooks } from '../../harness/hooks/adapter.ts';
import type { HttpRequest } from '../../harness/http/client.ts';
import { record, recording } from '../../harness/http/recorder.ts';
import type { RunSettings } from '../../harness/run-settings.ts';
import { fleetOf, forgetListings, LISTING_MAX_AGE_MS, locationsOf, ratesOf } from './listings.ts';

const LISTED: Record<string, unknown> = {
  '/fleet': { vehicles: [{ vehicleCode: 'CAR-1', locationCodes: ['LOC-1'] }], count: 1 },
  '/locations': {
    locations: [{ locationCode: 'LOC-1', capabilities: { pickup: true, dropoff: true } }],
    count: 1,
  },
  '/rates': { rates: [{ accountCode: 'ACC', rateCode: 'RATE', validFrom: null, validTo: null }] },
};

const ok = (path: string) => ({ status: 200, text: '{}', headers: {}, body: structuredClone(LISTED[path]) });

/**
 * A run of the suite in miniature: one settings object (as a run has), a hooks object, and checks whose client
 * counts what it sends; `answer` decides what the target answers.
 */
function fakeRun(offered: HookName[] = ['prices.move', 'rateLimits.reset']) {
  const sent: string[] = [];
  let answer: (path: string) => unknown = ok;
  const calls: string[] = [];
  // The real adapter (it counts the state-changing calls) over a hooks endpoint that says yes to everything.
  const hooks = testHooks(
    { baseUrl: 'https://target.example/test-hooks/v1', token: 'hooks-token' },
    offered,
    async (req: HttpRequest) => {
      calls.push(`${req.method} ${new URL(req.url).pathname.replace('/test-hooks/v1', '')}`);
      return { status: 200, headers: {}, body: new TextEncoder().encode('{}'), durationMs: 0 };
    },
  );
  const settings = {
    target: { baseUrl: 'https://target.example' },
    hooks: offered,
    profile: 'full',
    date: '2030-01-01',
  } as unknown as RunSettings;
  const contextOf = (clauseId: string) =>
    ({
      clause: { id: clauseId },
      settings,
      hookIfOffered: (name: HookName) => (offered.includes(name) ? hooks : undefined),
      get hooks() {
        return hooks;
      },
      client: () => ({
        get: async (path: string) => {
          sent.push(path);
          record({ request: { method: 'GET', url: path, headers: {} }, curl: `curl ${path}`, durationMs: sent.length });
          return answer(path) as ApiResult;
        },
      }),
    }) as unknown as CheckContext;
  return {
    sent,
    calls,
    hooks,
    contextOf,
    answerWith(fn: (path: string) => unknown) {
      answer = fn;
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('listings read as a step: one read per role shared by the run while fresh', () => {
  it('reads each list once for the checks that follow, each getting its own copy', async () => {
    const run = fakeRun();
    const first = await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    first.result?.vehicles.push({ vehicleCode: 'CHANGED' } as never);
    const second = await inCheckScope('4.5.1', () => fleetOf(run.contextOf('4.5.1'), 'partnerA'));
    await inCheckScope('4.5.1', () => locationsOf(run.contextOf('4.5.1'), 'partnerA'));
    await inCheckScope('4.5.1', () => ratesOf(run.contextOf('4.5.1'), 'partnerA'));
    await inCheckScope('4.6.1', () => ratesOf(run.contextOf('4.6.1'), 'partnerA'));
    expect(second.result?.vehicles.map((v) => v.vehicleCode)).toEqual(['CAR-1']);
    expect(run.sent).toEqual(['/fleet', '/locations', '/rates']);
  });

  it('keeps them per role', async () => {
    const run = fakeRun();
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerB'));
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerB'));
    expect(run.sent).toEqual(['/fleet', '/fleet']);
  });

  it('never keeps a failed read: it is filed under the row and blocks each check that sends it', async () => {
    const run = fakeRun();
    run.answerWith(() => ({ status: 500, text: 'boom', headers: {}, body: undefined }));
    const failed = await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    expect(signalOf(failed.error, 'blocked')).toBeDefined();
    expect(failed.observations.map((o) => o.clauseId)).toEqual(['4.0.5']);
    const again = await inCheckScope('4.7.2', () => fleetOf(run.contextOf('4.7.2'), 'partnerA'));
    expect(signalOf(again.error, 'blocked')).toBeDefined();
    run.answerWith(ok);
    const read = await inCheckScope('4.7.3', () => fleetOf(run.contextOf('4.7.3'), 'partnerA'));
    expect(read.error).toBeUndefined();
    expect(run.sent).toEqual(['/fleet', '/fleet', '/fleet']);
  });

  it('does not keep a body read despite a deviation (filed by the check that read it)', async () => {
    const run = fakeRun();
    run.answerWith((path) => ({ ...ok(path), readDespite: { representation: 'xml', reason: 'odd' } }));
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    expect(run.sent).toEqual(['/fleet', '/fleet']);
  });

  it('hands the same read to a check of a listing clause (its list is a step there too)', async () => {
    const run = fakeRun();
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    for (const clauseId of ['4.2.1', '2.5.20', '4.4.1', '2.7.7', '4.0.5', '4.0.10']) {
      await inCheckScope(clauseId, () => fleetOf(run.contextOf(clauseId), 'partnerA'));
    }
    expect(run.sent).toEqual(['/fleet']);
  });

  it('reads again once the kept read is a minute old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const run = fakeRun();
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    vi.advanceTimersByTime(LISTING_MAX_AGE_MS - 1);
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    vi.advanceTimersByTime(1);
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    expect(run.sent).toEqual(['/fleet', '/fleet']);
  });

  it('reads again after a test hook that may change the listings, not after one that cannot', async () => {
    const run = fakeRun();
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    await run.hooks.resetRateLimits();
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    expect(run.sent).toEqual(['/fleet']);
    await run.hooks.movePrice('CAR-1', 10);
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    expect(run.sent).toEqual(['/fleet', '/fleet']);
    expect(run.calls).toEqual(['POST /rate-limits/reset', 'PUT /prices/CAR-1']);
  });

  it("shows a reused read's exchange in the evidence of each check that reuses it", async () => {
    const run = fakeRun();
    const { exchanges } = await recording(() =>
      inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA')),
    );
    const again = await recording(() => inCheckScope('4.5.1', () => fleetOf(run.contextOf('4.5.1'), 'partnerA')));
    expect(run.sent).toEqual(['/fleet']);
    expect(exchanges.map((e) => e.curl)).toEqual(['curl /fleet']);
    expect(again.exchanges).toEqual(exchanges);
  });

  it('does not keep a read answered while a hook ran', async () => {
    const run = fakeRun();
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    forgetListings();
    run.answerWith((path) => {
      void run.hooks.movePrice('CAR-1', 10);
      return ok(path);
    });
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    run.answerWith(ok);
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    expect(run.sent).toEqual(['/fleet', '/fleet', '/fleet']);
  });

  it('reads every time once forgetListings is called', async () => {
    const run = fakeRun([]);
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    forgetListings();
    await inCheckScope('4.7.1', () => fleetOf(run.contextOf('4.7.1'), 'partnerA'));
    expect(run.sent).toEqual(['/fleet', '/fleet']);
  });
});
