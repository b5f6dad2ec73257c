import type { Capability, HttpResponseData, RunContext } from '../engine-neutral/model.ts';

export interface RecordedChecks {
  ctx: RunContext;
  passes(name: string): number;
  failures(name: string): string[];
  remaining: [string, number][];
}

/** A RunContext that records checks, for unit tests of scenario helpers (no HTTP). */
export function recordingContext(capabilities: Capability[] = ['shared-memory', 'source-address']): RecordedChecks {
  const passed = new Map<string, number>();
  const failed = new Map<string, string[]>();
  const remaining: [string, number][] = [];
  const ctx: RunContext = {
    target: { baseUrl: 'http://127.0.0.1:1', clients: {} },
    http: { request: () => Promise.reject(new Error('no HTTP in this test')) },
    runId: 'test',
    check(name, ok, detail) {
      if (ok) passed.set(name, (passed.get(name) ?? 0) + 1);
      else failed.set(name, [...(failed.get(name) ?? []), detail ?? '']);
      return ok;
    },
    notApplicable() {},
    notJudged() {},
    ceiling() {},
    remaining: (client, value) => remaining.push([client, value]),
    sleep: async () => {},
    has: (capability) => capabilities.includes(capability),
    log() {},
  };
  return {
    ctx,
    passes: (name) => passed.get(name) ?? 0,
    failures: (name) => failed.get(name) ?? [],
    remaining,
  };
}

/** A response of the rate-limited client with X-RateLimit-* headers. */
export function limited(status: number, limit: number, remaining: number, resetMs: number): HttpResponseData {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': new Date(resetMs).toISOString(),
    'x-request-id': 'req-1',
  };
  if (status === 429) headers['retry-after'] = '30';
  const body =
    status === 429
      ? JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'slow down', requestId: 'req-1', retryable: true } })
      : '{}';
  return { status, headers, body };
}
