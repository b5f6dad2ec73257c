import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FRAMEWORK_WORDS } from '../report/test-support/framework-words.ts';
import { main } from './cli-program.ts';
import { runCertification } from './run.ts';
import { type StubTarget, startStubTarget, stubConfig } from './test-support/stub-target.ts';

/**
 * Exit codes that mean one thing each (README "Certifying a server", exit code): the four ways a run cannot judge,
 * found by pre-flight in seconds with one line per problem, and a target that stops answering mid-run.
 */

const dir = mkdtempSync(join(tmpdir(), 'certify-verdict-'));
const SHOP = 'fleet:read locations:read rates:read availability:read quotes:write';
const roles = { partnerA: 'secret-a-0123456789', partnerB: 'secret-b-0123456789', readOnly: 'secret-ro-0123456789' };
const clients = {
  partnerA: { secret: roles.partnerA, scope: SHOP },
  partnerB: { secret: roles.partnerB, scope: SHOP },
  readOnly: { secret: roles.readOnly, scope: 'fleet:read locations:read rates:read' },
};
let https: StubTarget;
let plain: StubTarget;

beforeAll(async () => {
  https = await startStubTarget({ https: true, clients });
  // partnerB's secret in the config is not the one the server knows.
  plain = await startStubTarget({ clients: { ...clients, partnerB: { secret: 'another-secret-0123', scope: SHOP } } });
});

afterAll(async () => {
  await https?.close();
  await plain?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const started = Date.now();
  const code = await main(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: {},
  });
  return { code, stdout, stderr, ms: Date.now() - started };
}

describe('pre-flight: exit 2 within seconds, one line per problem with its fix, no verdict', () => {
  test('target down', async () => {
    const reports = join(dir, 'down');
    // A report of an earlier run must not stay behind for CI to read as this run's.
    mkdirSync(reports, { recursive: true });
    writeFileSync(join(reports, 'junit.xml'), '<testsuites/>');
    const config = stubConfig(dir, 'http://127.0.0.1:1', roles);
    const run = await cli('--config', config, '--report-dir', reports);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'certify: pre-flight found 1 problem(s); no check ran:\n  cannot reach http://127.0.0.1:1 (connection refused): is the server running, and is the base URL (--target or baseUrl) right?\n',
    );
    expect(run.stdout).not.toContain('Verdict');
    expect(run.ms).toBeLessThan(10_000);
    expect(existsSync(join(reports, 'junit.xml'))).toBe(false);
  });

  test('an https target whose certificate the config does not trust; trusted with tls.caFile', async () => {
    const run = await cli('--config', stubConfig(dir, https.baseUrl, roles), '--report-dir', join(dir, 'tls'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `  ${https.baseUrl}: certificate not trusted (self-signed certificate); set tls.caFile in the target config\n`,
    );
    const trusted = stubConfig(dir, https.baseUrl, roles, { tls: { caFile: https.certFile } });
    const ok = await cli('--config', trusted, '--preflight-only', '--report-dir', join(dir, 'tls-ok'));
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Pre-flight: reachable, TLS trusted, tokens for partnerA, partnerB, readOnly');
    expect(ok.stdout).toContain('Pre-flight passed');
  });

  test('a wrong secret for one role; scopes the profile uses that a role lacks are said, and the run goes on', async () => {
    const run = await cli('--config', stubConfig(dir, plain.baseUrl, roles), '--report-dir', join(dir, 'secret'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '  partnerB: token endpoint answered invalid_client (HTTP 401); check clients.partnerB.clientId and clientSecret in the target config\n',
    );
    expect(run.stderr).not.toContain(roles.partnerB);
    expect(run.stderr).not.toContain('another-secret');
    const book = await cli(
      ...['--config', stubConfig(dir, https.baseUrl, roles, { tls: { caFile: https.certFile } })],
      ...['--profile', 'book', '--allow-bookings', '--preflight-only'],
    );
    // A partner before joint certification (spec 1.7, 5.5): the booking checks are not judged, the others run.
    expect(book.stderr).toBe('');
    expect(book.code).toBe(0);
    expect(book.stdout).toContain(
      `Pre-flight: partnerA's token lacks reservations:read, reservations:write, reservations:cancel (profile book uses reservations:read, reservations:write, reservations:cancel): the checks that need them are not judged ("partnerA does not hold …"); booking scopes follow a joint certification (spec 5.5)\n`,
    );
    expect(book.stdout).toMatch(
      /^Pre-flight: clauses every check of which needs reservations:read, reservations:write, reservations:cancel, so not judged: \d+ \(/m,
    );
    // Nothing selected could be judged: exit 2, one line.
    const only = await cli(
      ...['--config', stubConfig(dir, https.baseUrl, roles, { tls: { caFile: https.certFile } })],
      ...['--profile', 'book', '--allow-bookings', '--preflight-only', '--only', '4.7'],
    );
    expect(only.code).toBe(2);
    expect(only.stderr).toContain(
      "  no check could run: 4.7 needs reservations:read, reservations:write, reservations:cancel, which partnerA's token lacks; booking scopes follow a joint certification (spec 5.5); ask the operator to grant them, or select checks that need none (--only)\n",
    );
  });

  test('--only with a profile below what the clauses need, server down: both problems, no verdict', async () => {
    const config = stubConfig(dir, 'http://127.0.0.1:1', roles);
    const run = await cli('--config', config, '--only', '4.7', '--report-dir', join(dir, 'only'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "  no check could run: 4.7 needs profile book (the run's profile is catalog); run with --profile book --allow-bookings\n",
    );
    expect(run.stderr).toContain('  cannot reach http://127.0.0.1:1');
    expect(run.stdout).not.toContain('Verdict: PASSED');
  });
});

describe('profiles: the test hooks are called in profile full only', () => {
  test('book with hooks in the config never calls them (not even to list them); full does', async () => {
    const BOOK = `${SHOP} reservations:read reservations:write reservations:cancel`;
    const stub = await startStubTarget({ clients: { partnerA: { secret: roles.partnerA, scope: BOOK } } });
    try {
      const hooks = { baseUrl: `${stub.baseUrl}/test-hooks/v1`, token: 'hooks-token-0123456789' };
      const config = stubConfig(dir, stub.baseUrl, { partnerA: roles.partnerA }, { hooks });
      const book = await cli('--config', config, '--profile', 'book', '--allow-bookings', '--preflight-only');
      expect(book.stderr).toBe('');
      expect(book.code).toBe(0);
      expect(stub.log.filter((request) => request.url.startsWith('/test-hooks'))).toEqual([]);
      const full = await cli('--config', config, '--profile', 'full', '--allow-bookings', '--preflight-only');
      expect(stub.log.filter((request) => request.url.startsWith('/test-hooks')).length).toBeGreaterThan(0);
      // The stub has no hooks to list: full could not run the checks that need them.
      expect(full.code).toBe(2);
      expect(full.stderr).toContain('test hooks: ');
    } finally {
      await stub.close();
    }
  });
});

describe('a target that stops answering mid-run', () => {
  test('nothing failed before: the remaining checks error with one note, exit 2', async () => {
    // Requests: pre-flight's token and its GET /locations (the limit it states), two lists with that token (the checks
    // reuse it); the fifth finds nobody.
    const stub = await startStubTarget({ clients, answerRequests: 5 });
    let output = '';
    try {
      const result = await runCertification({
        config: stubConfig(dir, stub.baseUrl, { partnerA: roles.partnerA }),
        suites: ['harness/runner/test-support/unreachable.checks.ts'],
        reportDir: join(dir, 'lost'),
        formats: 'json',
        output: (text) => {
          output += text;
        },
      });
      expect(result.exitCode).toBe(2);
      // The checks used the token pre-flight was issued: one token request in all.
      expect(stub.log.filter((request) => request.url.endsWith('/oauth/token'))).toHaveLength(1);
      expect(result.report.verdict.notes).toHaveLength(1);
      expect(output).toMatch(/^Note: the target stopped answering during the run: 3 check\(s\) could not run/m);
      expect(output).toContain('nothing had failed before, so there is no verdict (exit 2)');
      // One line for the lost clauses, not one per check.
      expect(output).toMatch(/^ {2}error ×3 {7}target unreachable: /m);
    } finally {
      await stub.close();
    }
  }, 60_000);

  test('after failures: exit 1 with the note; no test-framework wording in the terminal or any report', async () => {
    const stub = await startStubTarget({ clients, answerRequests: 6 });
    let output = '';
    const reports = join(dir, 'failed');
    try {
      const result = await runCertification({
        config: stubConfig(dir, stub.baseUrl, { partnerA: roles.partnerA }),
        suites: ['harness/runner/test-support/failing.checks.ts'],
        reportDir: reports,
        output: (text) => {
          output += text;
        },
      });
      expect(result.exitCode).toBe(1);
      expect(output).toContain('so the verdict stands (exit 1)');
      // Each failure in the report's one shape (harness/check/wording.ts): what, expected, what came back, the request.
      expect(output).toContain('  fail  4.2.1    HTTP status: expected 201; got HTTP 200 — GET /fleet\n');
      expect(output).toContain('  error 4.2.3    connect ECONNREFUSED 127.0.0.1:1\n');
      expect(output).toMatch(
        /^ {2}fail {2}4\.2\.2 {4}timezone is an IANA zone: expected <an object containing \{ timezone: .*\}>; got \{ .* \} — GET \/fleet$/m,
      );
      expect(output).toContain('  fail  4.2.5    a property fails an assertion: expected less than 3; got 3\n');
      const texts = [output, ...result.files.map((file) => readFileSync(file, 'utf8'))];
      expect(result.files.map((file) => file.slice(reports.length + 1))).toEqual([
        'report.json',
        'junit.xml',
        'report.html',
        'report.md',
      ]);
      for (const text of texts) for (const word of FRAMEWORK_WORDS) expect(text).not.toContain(word);
      const matcher = result.report.sections.flatMap((s) => s.clauses).find((c) => c.id === '4.2.2')
        ?.checks[0]?.evidence;
      expect(matcher?.expected).toBe('<an object containing { timezone: <a string matching /^[A-Z][a-z]+\\//> }>');
    } finally {
      await stub.close();
    }
  }, 60_000);
});
