import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ReportModel } from '../report/model.ts';
import { main } from './cli-program.ts';
import { runCertification } from './run.ts';
import { type BrokenServer, type LoggedRequest, startBrokenServer } from './test-support/broken-server.ts';
import { checksOf, failingClauses, readReport, reportSchemaErrors } from './test-support/report-files.ts';

const SEED = 424242;
const dir = mkdtempSync(join(tmpdir(), 'certify-broken-'));
let server: BrokenServer;
let configFile: string;
/** The first run's report and request log; later tests compare with them. */
let first: { report: ReportModel; log: LoggedRequest[]; stdout: string; code: number };

beforeAll(async () => {
  server = await startBrokenServer();
  configFile = join(dir, 'target.json');
  const client = (name: string) => ({ clientId: `${name}-id`, clientSecret: `${name}-secret-value-123` });
  writeFileSync(
    configFile,
    JSON.stringify({
      baseUrl: server.baseUrl,
      clients: { partnerA: client('a'), partnerB: client('b'), readOnly: client('ro') },
    }),
  );
  let stdout = '';
  const reportDir = join(dir, 'first');
  const code = await main(
    ['--target', server.baseUrl, '--config', configFile, '--seed', String(SEED), '--report-dir', reportDir],
    {
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => {},
      env: {},
    },
  );
  first = { report: readReport(reportDir), log: [...server.log], stdout, code };
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the broken server violates that the suites judge: Accept ignored, error envelopes without requestId. */
const broken = ['4.13.1c', '7.2.1', '7.2.4'];

describe('certify a deliberately broken server', () => {
  test('exit 1; the violated clauses are named in the report and on the terminal', () => {
    expect(first.code).toBe(1);
    expect(reportSchemaErrors(first.report)).toEqual([]);
    expect(first.report.verdict.passed).toBe(false);
    expect(first.report.harnessErrors ?? []).toEqual([]);
    const failing = failingClauses(first.report);
    for (const clause of broken) {
      expect(failing).toContain(clause);
      // On its own line (the clause id once, then the cause) or in the list of a line of clauses with one cause.
      const id = clause.replace(/\./g, '\\.');
      expect(first.stdout).toMatch(new RegExp(`^ {2}(fail|error) +${id} |[ (]${id}[,)]`, 'm'));
    }
    expect(first.stdout).toContain('Verdict: FAILED');
    // Failure evidence carries the exchange and a curl line without the client secret.
    const evidence = checksOf(first.report).find((c) => c.id.startsWith('7.2.4/') && c.outcome === 'fail')?.evidence;
    expect(evidence?.exchanges.length).toBeGreaterThan(0);
    expect(evidence?.exchanges[0]?.curl).toMatch(/^curl /);
    expect(JSON.stringify(first.report)).not.toContain('secret-value-123');
  });

  test('a catalog run (the default for a URL) sends GET requests and token requests only', () => {
    const sent = new Set(first.log.map((request) => `${request.method} ${request.url.split('?')[0]}`));
    const others = [...sent].filter((line) => !line.startsWith('GET ') && line !== 'POST /api/partner/v1/oauth/token');
    expect(others).toEqual([]);
    expect(first.report.profile).toBe('catalog');
  });

  test('the same seed sends the same requests; another seed sends others', async () => {
    expect(first.log.length).toBeGreaterThan(10);
    server.clearLog();
    const again = await runCertification({
      target: server.baseUrl,
      config: configFile,
      seed: SEED,
      reportDir: join(dir, 'again'),
      formats: 'json',
    });
    expect(again.report.options.seed).toBe(SEED);
    expect(server.log).toEqual(first.log);
    expect(again.report.verdict.counts).toEqual(first.report.verdict.counts);

    // The comparison can tell: generated data (e.g. unknown codes) follows the seed.
    server.clearLog();
    await runCertification({
      target: server.baseUrl,
      config: configFile,
      seed: SEED + 1,
      reportDir: join(dir, 'other'),
      formats: 'json',
    });
    // Another seed may also send a different number of requests: failing properties shrink along seed-dependent paths.
    expect(server.log).not.toEqual(first.log);
  }, 600_000);

  test('--replay re-runs only the failed check, with the seed and date of the report', async () => {
    const failed = checksOf(first.report).find((c) => c.id.startsWith('7.2.4/') && c.outcome === 'fail');
    if (!failed) throw new Error('no failed 7.2.4 check in the first report');
    server.clearLog();
    let stdout = '';
    const code = await main(
      [
        '--replay',
        failed.id,
        '--from',
        join(dir, 'first', 'report.json'),
        '--config',
        configFile,
        '--report-dir',
        join(dir, 'replay'),
      ],
      {
        stdout: (text) => {
          stdout += text;
        },
        stderr: () => {},
        env: {},
      },
    );
    expect(code).toBe(1);
    const replay = readReport(join(dir, 'replay'));
    expect(checksOf(replay).map((c) => [c.id, c.outcome])).toEqual([[failed.id, 'fail']]);
    expect(replay.options).toMatchObject({ seed: SEED, date: first.report.options.date, only: ['7.2.4'] });
    expect(stdout).toContain(`Replay: ${failed.id}`);
    // Only that check's requests reached the server.
    expect(server.log.length).toBeGreaterThan(0);
    expect(server.log.length).toBeLessThan(first.log.length / 4);
  }, 120_000);

  test('waivers: used (the failure is waived), expired (still fails), unused-passing (flagged)', async () => {
    const passing = first.report.sections
      .flatMap((s) => s.clauses)
      .find((c) => c.checks.length > 0 && c.checks.every((check) => check.outcome === 'pass'));
    if (!passing) throw new Error('the broken server passes no clause; the test needs one');
    const waivers = join(dir, 'waivers.json');
    writeFileSync(
      waivers,
      JSON.stringify([
        { clause: '4.13.1c', reason: '406 lands in release 2', expires: '2099-12-31' },
        { clause: '7.2.4', reason: 'was due long ago', expires: '2020-01-31' },
        { clause: passing.id, reason: 'fixed since', expires: '2099-12-31' },
      ]),
    );
    const only = `4.13.1c,7.2.4,${passing.id}`;
    const mixed = await runCertification({
      target: server.baseUrl,
      config: configFile,
      seed: SEED,
      only,
      expectedFailures: waivers,
      reportDir: join(dir, 'waivers'),
      formats: 'json',
    });
    const status = Object.fromEntries(mixed.report.waivers.map((w) => [w.clauseId, w.status]));
    expect(status).toEqual({ '4.13.1c': 'used', '7.2.4': 'expired', [passing.id]: 'unused-passing' });
    expect(failingClauses(mixed.report)).toEqual(['7.2.4']);
    expect(
      checksOf(mixed.report)
        .filter((c) => c.id.startsWith('4.13.1c/'))
        .every((c) => c.waived !== undefined || c.outcome !== 'fail'),
    ).toBe(true);
    expect(mixed.report.verdict.waived).toBeGreaterThan(0);
    expect(mixed.exitCode).toBe(1);

    // With only the waived clause, the run passes: the waiver reaches the exit code.
    const waivedOnly = await runCertification({
      target: server.baseUrl,
      config: configFile,
      seed: SEED,
      only: '4.13.1c',
      expectedFailures: waivers,
      reportDir: join(dir, 'waived'),
      formats: 'json',
    });
    expect(waivedOnly.exitCode).toBe(0);
    expect(waivedOnly.report.verdict.waived).toBeGreaterThan(0);
  }, 300_000);
});
