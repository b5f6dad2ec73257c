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
  /** The load generator's own CPU time per request (user + system, its whole process), in microseconds. */
  clientCpuUsPerRequest?: number;
}

const nothing = (): void => {};

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
        // No async wrapper: one promise less a request on the engine's hot path.
        exec: (ctx) => ctx.http.request(makeRequest()).then(nothing),
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

/** One short run of an interleaved pair (see `combineSlices`). */
export interface Slice {
  measurement: Measurement;
  seconds: number;
  /** Server CPU over the slice, in seconds (NaN when the process is not known). */
  cpuSeconds: number;
}

/**
 * One measurement from the short runs of a server taken in turns with another's: the rate is every request over every
 * measured second, the CPU per request every CPU second over every request, p50 and p99 the medians of the runs'
 * (the engine reports percentiles, not histograms).
 */
export function combineSlices(slices: readonly Slice[]): Measurement {
  if (slices.length === 0) throw new Error('no slices to combine');
  let requests = 0;
  let seconds = 0;
  let cpu = 0;
  const errors: Record<string, number> = {};
  for (const slice of slices) {
    requests += slice.measurement.requestsPerSecond * slice.seconds;
    seconds += slice.seconds;
    cpu += slice.cpuSeconds;
    for (const [code, count] of Object.entries(slice.measurement.errors)) errors[code] = (errors[code] ?? 0) + count;
  }
  const out: Measurement = {
    requestsPerSecond: Math.round((requests / seconds) * 100) / 100,
    p50Ms: median(slices.map((s) => s.measurement.p50Ms)),
    p99Ms: median(slices.map((s) => s.measurement.p99Ms)),
    errors,
  };
  if (Number.isFinite(cpu) && requests > 0) out.cpuUsPerRequest = (cpu * 1e6) / requests;
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
