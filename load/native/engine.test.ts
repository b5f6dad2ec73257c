import { afterEach, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../contract/constants.ts';
import type { ArrivalModel, ScenarioDefinition } from '../engine-neutral/model.ts';
import { RATE_LIMIT_CEILING, WINDOW_CHECKS } from '../engine-neutral/window-monitor.ts';
import { rateLimitScenario } from '../scenarios/rate-limit.ts';
import { type FakeTarget, json, startFakeTarget, withToken } from '../test-support/fake-target.ts';
import { runNative } from './engine.ts';

let fake: FakeTarget | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A one-step scenario over GET /ping (engine behaviour, independent of the partner API). */
function pingScenario(arrival: ArrivalModel, sourceAddress?: number): ScenarioDefinition<null> {
  return {
    id: 'ping',
    title: 'ping',
    description: 'engine test',
    rateMeaning: 'requests a second',
    defaults: { rate: 1, durationS: 1 },
    ci: { rate: 1, durationS: 1 },
    steps: ['ping'],
    roles: [],
    checks: [{ name: 'answered', description: 'HTTP 200' }],
    thresholds: [],
    sourceAddresses: ['127.0.0.2', '127.0.0.3'],
    setup: async () => null,
    phases: () => [
      {
        name: 'ping',
        arrival,
        async exec(ctx) {
          const spec = { method: 'GET', url: `${ctx.target.baseUrl}/ping`, step: 'ping' };
          const res = await ctx.http.request(
            sourceAddress === undefined ? spec : { ...spec, sourceAddress: ctx.vu % 2 },
          );
          ctx.check('answered', res.status === 200, `HTTP ${res.status}`);
        },
      },
    ],
  };
}

describe('native engine', () => {
  it('keeps an open model on schedule and measures latency from the scheduled start (coordinated omission)', async () => {
    // One connection to a server that needs 50 ms per request: 40 requests a second cannot all be served on
    // time, so they queue in the engine. Their latency must include the queueing, not just the 50 ms.
    let busyUntil = 0;
    fake = await startFakeTarget((_req, res) => {
      const start = Math.max(Date.now(), busyUntil);
      busyUntil = start + 50;
      setTimeout(() => json(res, 200, {}), busyUntil - Date.now());
    });
    const result = await runNative(
      pingScenario({ kind: 'constant-arrival-rate', rate: 40, durationS: 1, maxInFlight: 1000 }),
      { target: fake.target, embedded: false, options: { rate: 1, durationS: 1 }, connections: 1 },
    );
    const ping = result.steps[0];
    expect(ping?.count).toBe(40);
    expect(result.droppedIterations).toBe(0);
    // The last request is scheduled at 975 ms and served at about 40 × 50 = 2000 ms.
    expect(ping?.latencyMs.max).toBeGreaterThan(900);
    expect(ping?.latencyMs.p50).toBeGreaterThan(300);
    expect(result.series?.requests.ping?.reduce((a, b) => a + b, 0)).toBe(40);
    expect(result.checks[0]?.outcome).toBe('pass');
  });

  it('sends from the loopback source address a request asks for (undici localAddress)', async () => {
    const seen = new Set<string>();
    fake = await startFakeTarget((req, res) => {
      seen.add(String(req.socket.remoteAddress));
      json(res, 200, {});
    });
    await runNative(pingScenario({ kind: 'per-vu-iterations', vus: 2, iterations: 2, maxDurationS: 5 }, 0), {
      target: fake.target,
      embedded: false,
      options: { rate: 1, durationS: 1 },
    });
    expect([...seen].sort()).toEqual(['127.0.0.2', '127.0.0.3']);
  });

  it('refuses a target that is not on this machine unless it is owned, before any request', async () => {
    await expect(
      runNative(rateLimitScenario, {
        target: { baseUrl: 'http://192.0.2.10:8080', clients: {} },
        embedded: false,
        options: { rate: 1, durationS: 1 },
      }),
    ).rejects.toThrow(/refusing to send load to 192.0.2.10/);
    await expect(
      runNative(rateLimitScenario, {
        target: { baseUrl: 'http://127.0.0.1:9', clients: {} },
        embedded: false,
        options: { rate: 5, durationS: 601 },
      }),
    ).rejects.toThrow(/--duration/);
  });

  it('fails the rate-limit scenario against a server that lets a client past its limit', async () => {
    let calls = 0;
    const reset = new Date(Date.now() + 60_000).toISOString();
    fake = await startFakeTarget(
      withToken((req, res) => {
        if (!req.url?.startsWith(`${API_PREFIX}/locations`)) return json(res, 404, {});
        calls += 1;
        json(
          res,
          200,
          { locations: [] },
          {
            'x-ratelimit-limit': '5',
            'x-ratelimit-remaining': String(Math.max(0, 5 - calls)),
            'x-ratelimit-reset': reset,
            'x-request-id': `r-${calls}`,
          },
        );
      }),
    );
    const result = await runNative(rateLimitScenario, {
      target: fake.target,
      embedded: false,
      // 20 calls: more than the stated Limit holds in the two windows a run without a control API may span.
      options: { rate: 20, durationS: 1 },
    });
    const outcome = (name: string) => result.checks.find((check) => check.name === name)?.outcome;
    expect(outcome(WINDOW_CHECKS.successes)).toBe('fail');
    expect(outcome(WINDOW_CHECKS.decreasing)).toBe('fail');
    // The Limit its headers state was passed without a 429: failed, not "not judged".
    expect(outcome(RATE_LIMIT_CEILING)).toBe('fail');
    expect(result.passed).toBe(false);
    expect(calls).toBeGreaterThanOrEqual(20);
  });
});
