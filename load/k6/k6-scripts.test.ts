import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadScenarioResult } from '../../harness/report/model.ts';
import { startEmbeddedTarget } from '../../harness/target/embedded.ts';
import { SCENARIOS } from '../scenarios/index.ts';
import { rateLimitScenario } from '../scenarios/rate-limit.ts';
import { embeddedLoadTarget } from '../target.ts';
import { installK6Emulation, k6EmulatorPlugin, summaryData } from '../test-support/k6-emulator.ts';

const ROOT = new URL('../../', import.meta.url);
const K6_DIR = new URL('./', import.meta.url);
const entry = (id: string) => new URL(`${id}.ts`, K6_DIR).pathname;
const addFormats = addFormatsModule.default;

function loadResultValidator() {
  const schema = JSON.parse(readFileSync(new URL('harness/report/report-model.schema.json', ROOT), 'utf8'));
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(schema);
  return ajv.compile({ $ref: `${schema.$id}#/$defs/loadResult` });
}

interface EntryModule {
  options: { scenarios: Record<string, Record<string, unknown>>; thresholds: Record<string, string[]> };
  setup(): Promise<{ runId: string; shared: unknown }>;
  run(data: unknown): Promise<void>;
  teardown(data: unknown): Promise<void>;
  handleSummary(data: unknown): Record<string, string>;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'load-k6-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles an entry with the k6 emulation in place of k6's modules and imports it (a fresh module each time). */
async function loadEntry(id: string, env: Record<string, string>): Promise<EntryModule> {
  const out = await build({
    entryPoints: [entry(id)],
    bundle: true,
    write: false,
    platform: 'neutral',
    format: 'esm',
    target: 'es2022',
    plugins: [k6EmulatorPlugin],
    logLevel: 'silent',
  });
  const file = join(dir, `${id}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, out.outputFiles[0]?.text ?? '');
  installK6Emulation(env, (path) => readFileSync(path, 'utf8'));
  return (await import(pathToFileURL(file).href)) as EntryModule;
}

describe('k6 entry scripts', () => {
  it('type-check against @types/k6 alone (no Node types: k6 has no Node API)', () => {
    const tsc = join(new URL('node_modules/typescript/bin/tsc', ROOT).pathname);
    const result = spawnSync(process.execPath, [tsc, '-p', new URL('tsconfig.json', K6_DIR).pathname], {
      encoding: 'utf8',
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 90_000);

  it.each(SCENARIOS.map((s) => s.id))('%s bundles with esbuild for k6: only k6 modules stay external', async (id) => {
    const out = await build({
      entryPoints: [entry(id)],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'neutral',
      format: 'esm',
      target: 'es2022',
      external: ['k6', 'k6/*'],
      logLevel: 'silent',
    });
    expect(out.errors).toEqual([]);
    const output = Object.values(out.metafile.outputs)[0];
    const imports = output?.imports.map((i) => i.path) ?? [];
    expect(imports.length).toBeGreaterThan(0);
    for (const path of imports) expect(path).toMatch(/^k6(\/(http|metrics|execution|timers))?$/);
    expect([...(output?.exports ?? [])].sort()).toEqual(['handleSummary', 'options', 'run', 'setup', 'teardown']);
  });

  it('load in k6 form: one k6 scenario per phase in sequence, thresholds, and the safety check in init', async () => {
    const config = join(dir, 'target.json');
    writeFileSync(config, JSON.stringify({ baseUrl: 'http://127.0.0.1:9', clients: {} }));
    const tokens = await loadEntry('token-buckets', { TARGET_CONFIG: config, LOAD_CI: '1' });
    expect(Object.keys(tokens.options.scenarios)).toEqual([
      'per_client',
      'per_client_probe',
      'per_address',
      'per_address_probe',
    ]);
    expect(tokens.options.scenarios.per_client).toMatchObject({
      executor: 'per-vu-iterations',
      vus: 4,
      iterations: 4,
      exec: 'run',
      startTime: '0s',
    });
    expect(tokens.options.scenarios.per_client_probe?.startTime).toBe('20s');
    // Whether a bucket was reached is a ceiling check (judged in handleSummary, "not judged" when not reached and not
    // stated), never a k6 threshold: k6's exit code must not fail a target for a ceiling the run could not reach.
    expect(Object.keys(tokens.options.thresholds)).toEqual(['load_unexpected_0']);

    const rate = await loadEntry('rate-limit', { TARGET_CONFIG: config, RATE: '2.5', DURATION: '8' });
    expect(rate.options.scenarios.load).toMatchObject({
      executor: 'constant-arrival-rate',
      rate: 250,
      timeUnit: '100s',
      duration: '8s',
      maxVUs: 1,
    });
    expect(rate.options.thresholds.load_step_locations).toEqual(['p(99)<1000']);

    writeFileSync(config, JSON.stringify({ baseUrl: 'https://api.partner.example', clients: {} }));
    await expect(loadEntry('rate-limit', { TARGET_CONFIG: config })).rejects.toThrow(/refusing to send load/);
    writeFileSync(config, JSON.stringify({ baseUrl: 'http://127.0.0.1:9', clients: {} }));
    await expect(loadEntry('rate-limit', { TARGET_CONFIG: config, DURATION: '3600' })).rejects.toThrow(/--duration/);
  });

  it('run rate-limit through setup, iterations, teardown and handleSummary (emulated k6) into the one result shape', async () => {
    const target = await startEmbeddedTarget({ transport: 'http' });
    try {
      const config = join(dir, 'embedded.json');
      // With the control API, as `npm run load` gives it: the run starts on a fresh window, so exactly 6 are refused.
      writeFileSync(config, JSON.stringify(embeddedLoadTarget(target.config)));
      const out = join(dir, 'rate-limit.k6.json');
      const script = await loadEntry('rate-limit', { TARGET_CONFIG: config, LOAD_OUT: out });
      const emulation = globalThis.__k6emu;
      const started = Date.now();
      const data = await script.setup();
      emulation.scenario.name = 'load';
      // One VU (the phase's k6MaxVus), iterations back to back: past the rateLimit client's 30 a minute.
      for (let i = 0; i < 36; i++) {
        emulation.scenario.iterationInTest = i;
        await script.run(data);
      }
      await script.teardown(data);
      const outputs = script.handleSummary(summaryData(emulation, Date.now() - started));
      const result = JSON.parse(outputs[out] ?? '') as LoadScenarioResult;
      const validate = loadResultValidator();
      expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
      expect(result.engine).toBe('k6');
      expect(result.series).toBeUndefined();
      expect(result.steps[0]).toMatchObject({ name: 'locations', count: 36, errors: { RATE_LIMITED: 6 } });
      expect(result.checks.map((c) => [c.name, c.outcome])).toEqual(
        rateLimitScenario.checks.map((c) => [c.name, 'pass']),
      );
      expect(result.passed).toBe(true);
      expect(outputs.stdout).toContain('rate-limit: Rate limit under load: PASSED (k6 engine');
    } finally {
      await target.stop();
    }
  }, 90_000);
});
