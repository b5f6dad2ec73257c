import autocannon from 'autocannon';
import type { HttpRequestSpec, ScenarioDefinition } from '../engine-neutral/model.ts';
import { runNative } from '../native/engine.ts';

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses other than 2xx, by code. */
  errors: Record<string, number>;
  /** Server CPU time per request (user + system), in microseconds, when the server's process is known. */
  cpuUsPerRequest?: number;
}

/** A closed-loop run of the native engine: `connections` VUs, each on its own connection, for `seconds`. */
export async function measureNative(
  baseUrl: string,
  makeRequest: () => HttpRequestSpec,
  connections: number,
  seconds: number,
): Promise<Measurement> {
  const scenario: ScenarioDefinition<null> = {
    id: 'bench',
    title: 'bench',
    description: 'closed-loop throughput',
    rateMeaning: 'connections',
    defaults: { rate: connections, durationS: seconds },
    ci: { rate: connections, durationS: seconds },
    steps: ['bench'],
    roles: [],
    checks: [],
    thresholds: [],
    setup: async () => null,
    phases: () => [
      {
        name: 'bench',
        arrival: { kind: 'constant-vus', vus: connections, durationS: seconds },
        connectionPerVu: true,
        async exec(ctx) {
          await ctx.http.request(makeRequest());
        },
      },
    ],
  };
  const result = await runNative(scenario, {
    target: { baseUrl, clients: {} },
    embedded: false,
    options: { rate: connections, durationS: seconds },
  });
  const step = result.steps[0];
  if (!step) throw new Error('no bench step measured');
  return {
    requestsPerSecond: step.ratePerSecond,
    p50Ms: step.latencyMs.p50,
    p99Ms: step.latencyMs.p99,
    errors: step.errors,
  };
}

/** autocannon on the same request, same connections and duration. */
export async function measureAutocannon(
  spec: HttpRequestSpec,
  connections: number,
  seconds: number,
): Promise<Measurement> {
  const result = await autocannon({
    url: spec.url,
    method: spec.method,
    connections,
    duration: seconds,
    pipelining: 1,
    ...(spec.headers ? { headers: spec.headers } : {}),
    ...(spec.body ? { body: spec.body } : {}),
  });
  const errors: Record<string, number> = {};
  if (result.non2xx > 0) errors.non2xx = result.non2xx;
  if (result.errors > 0) errors.NETWORK = result.errors;
  return {
    requestsPerSecond: Math.round((result.requests.total / result.duration) * 100) / 100,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors,
  };
}
