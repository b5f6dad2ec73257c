/**
 * A partner's server without test hooks, certified in full (spec-wide): what a target nobody here wrote gets when
 * it publishes no hooks (docs/test-hooks.md "Without hooks"). Nothing fails, every clause is judged or listed "not
 * judged" with its reason, the probe-only clauses are judged, and the coverage counts only what was judged.
 * In npm run test:long: a full certification takes about two minutes on the CI machine.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCertification } from './run.ts';
import { type SpawnedServer, spawnReferenceServer } from './test-support/reference-server.ts';
import { checksOf } from './test-support/report-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-nohooks-'));
let server: SpawnedServer;
let configFile: string;

/** Clauses whose checks need only probe codes (audit finding 5): judged without hooks. */
const PROBE_ONLY = ['4.2.4', '4.12.3b', '4.12.4c', '7.3.14', '7.3.19'];

beforeAll(async () => {
  server = await spawnReferenceServer();
  // The fixture's credentials and probes at the real address; no hooks entry.
  const fixture = JSON.parse(readFileSync(new URL('../../fixtures/reference-target.json', import.meta.url), 'utf8'));
  configFile = join(dir, 'target.json');
  writeFileSync(
    configFile,
    JSON.stringify({ baseUrl: server.baseUrl, clients: fixture.clients, probes: fixture.probes }),
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('certify a server without test hooks, profile full', () => {
  test('exit 0; each clause judged or not judged with a reason; probe-only clauses judged', async () => {
    const result = await runCertification({
      target: server.baseUrl,
      config: configFile,
      profile: 'full',
      allowBookings: true,
      reportDir: join(dir, 'reports'),
      formats: 'json',
      seed: 5,
    });
    const failures = checksOf(result.report).filter((c) => c.outcome === 'fail' || c.outcome === 'error');
    expect(failures.map((c) => `${c.id}: ${c.evidence?.message ?? ''}`)).toEqual([]);
    expect(result.report.harnessErrors ?? []).toEqual([]);
    expect(result.exitCode).toBe(0);

    const clauses = result.report.sections.flatMap((s) => s.clauses);
    const judged = clauses.filter((c) => (c.judgedBy ?? []).length > 0);
    const notJudged = clauses.filter((c) => (c.judgedBy ?? []).length === 0);
    for (const clause of notJudged) {
      expect({ id: clause.id, reasons: (clause.notJudged ?? []).length > 0 }).toEqual({ id: clause.id, reasons: true });
    }
    expect(result.report.coverage.clausesJudged).toBe(judged.length);
    expect(result.report.coverage.clausesTotal).toBe(clauses.length);
    // The hooks' clauses are the ones left: not judged, each naming the hooks it needs.
    expect(notJudged.length).toBeGreaterThan(0);
    expect(notJudged.some((c) => (c.notJudged ?? []).some((r) => /hook/i.test(r)))).toBe(true);
    console.log(
      `[no hooks] ${judged.length}/${clauses.length} clauses judged; not judged: ${notJudged.map((c) => c.id).join(', ')}`,
    );
    for (const id of PROBE_ONLY) {
      expect({ id, judged: judged.some((c) => c.id === id) }).toEqual({ id, judged: true });
    }
  }, 600_000);
});
