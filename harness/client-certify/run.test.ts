import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../runner/cli-program.ts';
import { CertifyError } from '../runner/errors.ts';
import { referenceFixtureConfig } from '../target/embedded.ts';
import { RECORDING_FILE, runClientCertification } from './run.ts';
import { example, quiet, readReport, reportDirs } from './test-support/sessions.ts';

/**
 * The client certification end to end: the real reference as the sandbox, the sample and naive clients of
 * examples/ as the partner's command (each run takes two to three seconds), and the CLI's own parse.
 */
const reportDir = reportDirs('client-certify-test');

describe('partner-api-certify client', () => {
  it('passes the sample client: every clause pass, or not judged with the reason', async () => {
    const dir = reportDir();
    const result = await runClientCertification({ ...quiet, command: example('good-client.ts'), reportDir: dir });
    expect(result.commandOutput).toContain('client 2: booked');
    expect(result.exitCode).toBe(0);
    const report = readReport(dir);
    expect(report.verdict).toBe('passed');
    expect(report.command?.exitCode).toBe(0);
    for (const clause of report.clauses) {
      expect(['pass', 'not-judged'], `${clause.id}: ${clause.reason}`).toContain(clause.outcome);
      expect(clause.reason).not.toBe('');
    }
    // What a happy-path session exercises is judged, not left aside.
    const passed = report.clauses.filter((clause) => clause.outcome === 'pass').map((clause) => clause.id);
    expect(passed).toEqual(expect.arrayContaining(['C4.1a', 'C4.7a', 'C4.7c', 'C4.10', 'C5.2', 'C5.3a', 'C5.3b']));
    expect(report.sandbox.transport).toBe('https');
    expect(passed).toContain('C5.7');
    expect(result.written.map((file) => file.slice(dir.length + 1))).toEqual([
      'report.json',
      'junit.xml',
      'report.html',
      'report.md',
    ]);
    expect(readFileSync(join(dir, RECORDING_FILE), 'utf8').trim().split('\n')).toHaveLength(report.exchanges);
  });

  it('fails the naive client on exactly the clauses its faults break, with the exchanges that show it', async () => {
    const dir = reportDir();
    const result = await runClientCertification({
      ...quiet,
      command: example('naive-client.ts'),
      reportDir: dir,
      formats: 'json,md',
    });
    expect(result.exitCode).toBe(1);
    const report = readReport(dir);
    const failed = report.clauses.filter((clause) => clause.outcome === 'fail');
    expect(failed.map((clause) => clause.id)).toEqual(['C4.10', 'C5.3b', 'C7.2b']);
    expect(report.clauses.filter((clause) => clause.outcome === 'warn')).toEqual([]);
    const patch = failed.find((clause) => clause.id === 'C4.10');
    expect(patch?.exchanges.map((exchange) => `${exchange.method} ${exchange.status}`)).toEqual([
      'PATCH 501',
      'PATCH 501',
      'PATCH 501',
    ]);
    expect(patch?.exchanges[0]?.curl).toMatch(/^curl .* -X PATCH .*Bearer '"\$TOKEN_[0-9a-f]{16}"/);
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toContain('### C5.3b FAIL');
    expect(markdown).toContain('-u "$PARTNER_API_CLIENT_ID":"$PARTNER_API_CLIENT_SECRET"');
    // Only the formats asked for; and no secret of the sandbox's clients in any file written.
    expect(existsSync(join(dir, 'junit.xml'))).toBe(false);
    const secrets = Object.values(referenceFixtureConfig().clients).map((client) => client?.clientSecret ?? '');
    for (const file of [...result.written, join(dir, RECORDING_FILE)]) {
      const text = readFileSync(file, 'utf8');
      for (const secret of secrets) expect(text.includes(secret), `${file} holds a client secret`).toBe(false);
    }
  });

  it('cannot judge a command that never called the sandbox (exit 2), and says why in the report', async () => {
    const dir = reportDir();
    const result = await runClientCertification({
      ...quiet,
      command: [process.execPath, '-e', 'process.exit(3)'],
      reportDir: dir,
      transport: 'http',
    });
    expect(result.exitCode).toBe(2);
    const report = readReport(dir);
    expect(report.verdict).toBe('not-judged');
    expect(report.command?.exitCode).toBe(3);
    expect(report.notes.join('\n')).toMatch(/never called the sandbox[\s\S]*exited 3[\s\S]*plain HTTP/);
    expect(report.clauses.every((clause) => clause.outcome === 'not-judged')).toBe(true);
    expect(existsSync(join(dir, RECORDING_FILE))).toBe(false);
  });

  it('a command that cannot start is a CertifyError, and leaves no earlier verdict behind', async () => {
    const dir = reportDir();
    writeFileSync(join(dir, 'report.json'), '{"verdict":"passed"}');
    await expect(
      runClientCertification({ ...quiet, command: ['/nonexistent/partner-client'], reportDir: dir, transport: 'http' }),
    ).rejects.toThrow(/the command could not be started/);
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
  });

  it('checks the scenario and the command before starting the sandbox', async () => {
    const startSandbox = () => Promise.reject(new Error('must not start'));
    await expect(
      runClientCertification({ ...quiet, command: ['true'], scenario: 'no-such-scenario', startSandbox }),
    ).rejects.toThrow(CertifyError);
    await expect(runClientCertification({ ...quiet, command: ['true'], port: '70000', startSandbox })).rejects.toThrow(
      /--port: expected an integer from 0 to 65535/,
    );
    await expect(
      runClientCertification({ ...quiet, command: ['true'], scenario: '/no/such/scenario.json', startSandbox }),
    ).rejects.toThrow(/no such scenario file/);
    await expect(runClientCertification({ ...quiet, command: [], startSandbox })).rejects.toThrow(/no command/);
  });

  it('is a subcommand of the CLI: its options before the command, the command with its own flags after', async () => {
    const out: string[] = [];
    const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => out.push(text), env: {} };
    expect(await main(['client', '--scenario', 'no-such-scenario', '--', 'node', '-v'], io)).toBe(2);
    expect(out.join('')).toMatch(
      /--scenario: unknown scenario "no-such-scenario" \(available: happy-path, resilience, limits/,
    );

    out.length = 0;
    const dir = reportDir();
    const code = await main(
      ['client', '--http', '--format', 'json', '--report-dir', dir, process.execPath, '-e', 'process.exit(0)'],
      { ...io, env: process.env },
    );
    expect(code).toBe(2);
    expect(out.join('')).toContain('Verdict: NOT JUDGED');
    expect(readReport(dir).command?.argv).toEqual([process.execPath, '-e', 'process.exit(0)']);

    out.length = 0;
    expect(await main(['--only', '4.7', 'client', '--', 'node'], io)).toBe(2);
    expect(out.join('')).toMatch(/take their own options only/);
  });
});
