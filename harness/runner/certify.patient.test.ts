import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ReportModel } from '../report/model.ts';
import { runCertification } from './run.ts';
import { type ExpiringServer, startExpiringServer } from './test-support/expiring-server.ts';

/**
 * The patient path (harness/runner/patient.ts) in seconds: the same checks as a real --patient run, against a server
 * whose tokens live 2 s and quotes 3 s, with the waits shortened by PARTNER_CERT_PATIENT_WAITS (the checks' logic
 * unchanged).
 */
const dir = mkdtempSync(join(tmpdir(), 'certify-patient-'));
const servers: ExpiringServer[] = [];

afterAll(async () => {
  for (const server of servers) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function certifyPatiently(honoursExpiry: boolean, patient = true): Promise<ReportModel> {
  const server = await startExpiringServer({ tokenSeconds: 2, quoteSeconds: 3, honoursExpiry });
  servers.push(server);
  const config = join(dir, `target-${servers.length}.json`);
  writeFileSync(
    config,
    JSON.stringify({ baseUrl: server.baseUrl, clients: { partnerA: { clientId: 'a', clientSecret: 'a-secret' } } }),
  );
  const result = await runCertification({
    target: server.baseUrl,
    config,
    profile: 'book',
    allowBookings: true,
    patient,
    only: ['5.3b', '3.9', '4.7.9a'],
    formats: 'json',
    reportDir: join(dir, `report-${servers.length}`),
    env: { ...process.env, PARTNER_CERT_PATIENT_WAITS: 'token=2,quote=3' },
    suites: ['suites/patient.test.ts'],
  });
  return result.report;
}

function patientChecks(report: ReportModel) {
  return report.sections
    .flatMap((s) => s.clauses)
    .flatMap((c) => c.checks.filter((k) => k.judgedBy === 'patient').map((k) => ({ clause: c.id, check: k })));
}

describe('certify --patient', () => {
  test('judges token and quote expiry by waiting: pass when they expire', async () => {
    const checks = patientChecks(await certifyPatiently(true));
    expect(checks.map((c) => `${c.clause} ${c.check.outcome}`).sort()).toEqual([
      '3.9 pass',
      '4.7.9a pass',
      '5.3b pass',
    ]);
  }, 60_000);

  test('fails a server whose tokens and quotes never expire, on those clauses', async () => {
    const checks = patientChecks(await certifyPatiently(false));
    expect(checks.map((c) => `${c.clause} ${c.check.outcome}`).sort()).toEqual([
      '3.9 fail',
      '4.7.9a fail',
      '5.3b fail',
    ]);
  }, 60_000);

  test('without --patient the checks say how to judge them', async () => {
    const report = await certifyPatiently(true, false);
    const checks = report.sections.flatMap((s) => s.clauses).flatMap((c) => c.checks);
    expect(checks.length).toBeGreaterThan(0);
    for (const check of checks) expect(check.notApplicable?.kind, check.id).toBe('not-patient');
  }, 60_000);
});
