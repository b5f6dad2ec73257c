import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clauseById } from '../../contract/clauses/index.ts';
import { profileRank } from '../run-settings.ts';
import { runCertification } from './run.ts';
import { type SpawnedServer, spawnReferenceServer } from './test-support/reference-server.ts';
import { checksOf, reportSchemaErrors } from './test-support/report-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-reference-'));
let server: SpawnedServer;
let configFile: string;

beforeAll(async () => {
  server = await spawnReferenceServer();
  // A partner's view of the target: the fixture's credentials at the real address, no operator control.
  const fixture = JSON.parse(readFileSync(new URL('../../fixtures/reference-target.json', import.meta.url), 'utf8'));
  configFile = join(dir, 'target.json');
  writeFileSync(configFile, JSON.stringify({ baseUrl: server.baseUrl, clients: fixture.clients }));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('certify a separately started reference server (--target URL --config FILE)', () => {
  test('--profile catalog: exit 0; checks above catalog are not-applicable by profile', async () => {
    const reportDir = join(dir, 'reports');
    const result = await runCertification({
      target: server.baseUrl,
      config: configFile,
      profile: 'catalog',
      reportDir,
      formats: 'json',
      seed: 5,
    });
    const checks = checksOf(result.report);
    const failures = checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
    expect(failures.map((c) => `${c.id}: ${c.evidence?.message ?? ''}`)).toEqual([]);
    expect(result.report.harnessErrors ?? []).toEqual([]);
    expect(result.exitCode).toBe(0);
    expect(result.report.target).toEqual({ baseUrl: server.baseUrl, embedded: false });
    expect(result.report.profile).toBe('catalog');
    expect(result.report.options.allowBookings).toBe(false);
    expect(reportSchemaErrors(result.report)).toEqual([]);
    expect(result.files).toEqual([join(reportDir, 'report.json')]);

    expect(checks.filter((c) => c.outcome === 'pass').length).toBeGreaterThan(0);
    // Every check of a shop, book or full clause is not-applicable with the reason 'profile' …
    const shopOrAbove = checks.filter(
      (c) => profileRank(clauseById(c.id.split('/')[0] ?? '')?.minProfile ?? 'catalog') > 0,
    );
    expect(shopOrAbove.length).toBeGreaterThan(0);
    for (const check of shopOrAbove) {
      expect({ id: check.id, outcome: check.outcome, kind: check.notApplicable?.kind }).toEqual({
        id: check.id,
        outcome: 'not-applicable',
        kind: 'profile',
      });
    }
  }, 600_000);
});
