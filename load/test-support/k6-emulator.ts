/**
 * Test support: just enough of k6's JavaScript API (k6, k6/http, k6/metrics, k6/execution, k6/timers) to load a
 * bundled entry script in Node and run its lifecycle, so that tests prove the scripts work without a k6 binary.
 * Not a k6: no VU isolation, no executors; the test drives setup, iterations and teardown itself.
 */
import type { Plugin } from 'esbuild';
import { request } from 'undici';

interface MetricRecord {
  type: 'counter' | 'rate' | 'trend';
  values: number[];
}

export interface K6Emulation {
  metrics: Map<string, MetricRecord>;
  checks: Map<string, { passes: number; fails: number }>;
  scenario: { name: string; iterationInTest: number };
  vu: { idInTest: number };
  logs: string[];
}

declare global {
  var __k6emu: K6Emulation;
}

const MODULES: Record<string, string> = {
  k6: `export function check(value, sets) { let all = true; for (const [name, fn] of Object.entries(sets)) {
    const ok = !!fn(value); const c = globalThis.__k6emu.checks.get(name) ?? { passes: 0, fails: 0 };
    if (ok) c.passes++; else { c.fails++; all = false; } globalThis.__k6emu.checks.set(name, c); } return all; }`,
  'k6/http': `export default { asyncRequest: (...args) => globalThis.__k6emuRequest(...args) };`,
  'k6/metrics': `class Metric { constructor(name, type) { if (globalThis.__k6emu.metrics.has(name)) throw new Error('duplicate metric ' + name);
      this.record = { type, values: [] }; globalThis.__k6emu.metrics.set(name, this.record); }
    add(value) { this.record.values.push(Number(value)); } }
    export class Counter extends Metric { constructor(name) { super(name, 'counter'); } }
    export class Rate extends Metric { constructor(name) { super(name, 'rate'); } }
    export class Trend extends Metric { constructor(name) { super(name, 'trend'); } }`,
  'k6/execution': `export default { get scenario() { return globalThis.__k6emu.scenario; }, get vu() { return globalThis.__k6emu.vu; } };`,
  'k6/timers': `export const setTimeout = (fn, ms) => globalThis.setTimeout(fn, ms);`,
};

/** esbuild plugin: k6 module imports resolve to the emulation above. */
export const k6EmulatorPlugin: Plugin = {
  name: 'k6-emulator',
  setup(build) {
    build.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => ({ path: args.path, namespace: 'k6-emulator' }));
    build.onLoad({ filter: /.*/, namespace: 'k6-emulator' }, (args) => {
      const contents = MODULES[args.path];
      if (contents === undefined) throw new Error(`the emulator has no ${args.path}`);
      return { contents, loader: 'js' };
    });
  },
};

/** Installs the globals an entry script's init context reads; returns the emulation state. */
export function installK6Emulation(env: Record<string, string>, readFile: (path: string) => string): K6Emulation {
  const emulation: K6Emulation = {
    metrics: new Map(),
    checks: new Map(),
    scenario: { name: '', iterationInTest: 0 },
    vu: { idInTest: 1 },
    logs: [],
  };
  globalThis.__k6emu = emulation;
  // k6's own globals (typed by @types/k6 in this program): what an entry script's init context reads.
  Object.assign(globalThis, { __ENV: env, open: readFile });
  (globalThis as Record<string, unknown>).__k6emuRequest = async (
    method: string,
    url: string,
    body: string | null,
    params: { headers?: Record<string, string> },
  ) => {
    const start = performance.now();
    try {
      const res = await request(url, { method: method as 'GET', headers: params.headers ?? {}, body: body ?? null });
      const text = await res.body.text();
      const headers: Record<string, string> = {};
      // k6 canonicalises header names (X-Ratelimit-Limit); the runtime must lower-case them itself.
      for (const [name, value] of Object.entries(res.headers)) {
        const canonical = name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
        headers[canonical] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      return {
        status: res.statusCode,
        headers,
        body: text,
        error: '',
        timings: { duration: performance.now() - start },
      };
    } catch (error) {
      return { status: 0, headers: {}, body: null, error: (error as Error).message, timings: { duration: 0 } };
    }
  };
  return emulation;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** The handleSummary argument k6 would build from what the emulation recorded. */
export function summaryData(emulation: K6Emulation, testRunDurationMs: number): unknown {
  const metrics: Record<string, { type: string; values: Record<string, number> }> = {};
  for (const [name, record] of emulation.metrics) {
    const sum = record.values.reduce((a, b) => a + b, 0);
    if (record.type === 'counter') metrics[name] = { type: 'counter', values: { count: sum, rate: sum } };
    else if (record.type === 'rate') {
      metrics[name] = { type: 'rate', values: { rate: record.values.length ? sum / record.values.length : 0 } };
    } else {
      const sorted = [...record.values].sort((a, b) => a - b);
      metrics[name] = {
        type: 'trend',
        values: {
          count: sorted.length,
          'p(50)': percentile(sorted, 50),
          'p(90)': percentile(sorted, 90),
          'p(99)': percentile(sorted, 99),
          max: sorted[sorted.length - 1] ?? 0,
        },
      };
    }
  }
  metrics.dropped_iterations = { type: 'counter', values: { count: 0, rate: 0 } };
  return {
    metrics,
    root_group: {
      name: '',
      groups: [],
      checks: [...emulation.checks].map(([name, c]) => ({ name, passes: c.passes, fails: c.fails })),
    },
    state: { testRunDurationMs },
  };
}
