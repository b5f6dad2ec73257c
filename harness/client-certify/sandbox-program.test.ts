import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../runner/paths.ts';
import { referenceFixtureConfig } from '../target/embedded.ts';
import type { ClientReport } from './report.ts';
import { RECORDING_FILE } from './run.ts';
import { sandboxMain } from './sandbox-program.ts';
import { READY_LINE } from './serve.ts';

/**
 * `partner-api-sandbox` end to end: the real reference as the sandbox, a few calls made here, then the stop (the
 * program's abort in-process; SIGINT to the bin as a child process) and the verdict written. Each test waits for the
 * printed ready line and for the process's end, never for a fixed time.
 */
const dirs: string[] = [];
const reportDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'client-sandbox-test-'));
  dirs.push(dir);
  return dir;
};
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as ClientReport;

/** The printed output, and a promise of the moment the ready line is printed. */
function printed() {
  let text = '';
  let ready: () => void = () => {};
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  return {
    write: (chunk: string) => {
      text += chunk;
      if (text.split('\n').some((line) => line.startsWith(READY_LINE))) ready();
    },
    text: () => text,
    isReady,
  };
}

/** The `export NAME='value'` lines of the handout, as a map. */
function handout(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/^ {2}export ([A-Z0-9_]+)='([^']*)'$/gm)].map((match) => [match[1] ?? '', match[2] ?? '']),
  );
}

type Fetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{
  status: number;
  json(): Promise<unknown>;
}>;

/** A client that keeps the clauses it touches: one token, Basic, then business calls with it. */
async function politeSession(env: Record<string, string>, send: Fetch): Promise<void> {
  const base = env.PARTNER_API_BASE_URL ?? '';
  const basic = Buffer.from(`${env.PARTNER_API_CLIENT_ID}:${env.PARTNER_API_CLIENT_SECRET}`).toString('base64');
  const issued = await send(`${base}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  expect(issued.status).toBe(200);
  const token = ((await issued.json()) as { access_token: string }).access_token;
  for (const path of ['/locations', '/fleet']) {
    const answer = await send(`${base}${path}`, {
      method: 'GET',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
    expect(answer.status).toBe(200);
    // Read to the end, as a client does: the sandbox records an exchange once its answer has been sent whole.
    await answer.json();
  }
}

describe('partner-api-sandbox', () => {
  it('serves HTTPS until stopped, prints what a client needs, then judges the session (exit 0)', async () => {
    const dir = reportDir();
    const out = printed();
    const controller = new AbortController();
    const exit = sandboxMain(['--report-dir', dir, '--format', 'json,md'], {
      stdout: out.write,
      stderr: out.write,
      signal: controller.signal,
    });
    try {
      await Promise.race([out.isReady, exit]);
      const env = handout(out.text());
      expect(Object.keys(env)).toEqual([
        'PARTNER_API_BASE_URL',
        'PARTNER_API_CLIENT_ID',
        'PARTNER_API_CLIENT_SECRET',
        'PARTNER_API_CLIENT_ID_2',
        'PARTNER_API_CLIENT_SECRET_2',
        'PARTNER_API_CA_FILE',
        'NODE_EXTRA_CA_CERTS',
      ]);
      expect(env.PARTNER_API_BASE_URL).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api\/partner\/v1$/);
      // The handout is the fixture's test clients: the same ids and secrets as the reference's own target file.
      expect(env.PARTNER_API_CLIENT_ID).toBe(referenceFixtureConfig().clients.partnerA?.clientId);
      const dispatcher = new Agent({ connect: { ca: readFileSync(env.PARTNER_API_CA_FILE ?? '', 'utf8') } });
      await politeSession(env, (url, init) => undiciFetch(url, { ...init, dispatcher }));
      await dispatcher.close();
    } finally {
      controller.abort();
    }
    expect(await exit).toBe(0);
    expect(out.text()).toContain('Verdict: PASSED');
    const report = readReport(dir);
    expect(report.command).toBeNull();
    expect(report.exchanges).toBe(3);
    expect(report.sandbox.transport).toBe('https');
    const passed = report.clauses.filter((clause) => clause.outcome === 'pass').map((clause) => clause.id);
    expect(passed).toEqual(expect.arrayContaining(['C4.1a', 'C5.2', 'C5.3a', 'C5.3b', 'C5.7']));
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toContain('- Command: none: the sandbox was served by hand');
    // Printed to the developer, never written to a report or the recording.
    const secrets = Object.values(referenceFixtureConfig().clients).map((client) => client?.clientSecret ?? '');
    for (const file of ['report.json', 'report.md', RECORDING_FILE]) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const secret of secrets) expect(text.includes(secret), `${file} holds a client secret`).toBe(false);
    }
  });

  it('as the bin: SIGINT stops it, and a token per call fails C5.3b (exit 1)', async () => {
    const dir = reportDir();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(PROJECT_ROOT, 'harness', 'sandbox-cli.ts'),
        '--http',
        '--report-dir',
        dir,
        '--format',
        'json',
      ],
      { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    const out = printed();
    child.stdout.setEncoding('utf8').on('data', out.write);
    child.stderr.setEncoding('utf8').on('data', out.write);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await Promise.race([out.isReady, exited]);
    const env = handout(out.text());
    expect(env.PARTNER_API_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/partner\/v1$/);
    expect(env.PARTNER_API_CA_FILE).toBeUndefined();
    // Two polite sessions, one after the other: the second token is asked for while the first is valid.
    await politeSession(env, fetch);
    await politeSession(env, fetch);
    child.kill('SIGINT');
    expect(await exited).toBe(1);
    expect(out.text()).toMatch(/SIGINT: stopping and judging the session/);
    const report = readReport(dir);
    expect(report.verdict).toBe('failed');
    expect(report.clauses.filter((clause) => clause.outcome === 'fail').map((clause) => clause.id)).toEqual(['C5.3b']);
    expect(report.notes.join('\n')).toMatch(/plain HTTP/);
  });

  it('nothing recorded is no verdict (exit 2); a wrong option is refused before the sandbox starts', async () => {
    const dir = reportDir();
    const out = printed();
    const controller = new AbortController();
    const exit = sandboxMain(['--http', '--report-dir', dir, '--format', 'json'], {
      stdout: out.write,
      stderr: out.write,
      signal: controller.signal,
    });
    await Promise.race([out.isReady, exit]);
    controller.abort();
    expect(await exit).toBe(2);
    const report = readReport(dir);
    expect(report.verdict).toBe('not-judged');
    expect(report.notes[0]).toBe('no client called the sandbox while it served: nothing to judge');

    const io = { stdout: () => {}, stderr: (text: string) => errors.push(text), signal: new AbortController().signal };
    const errors: string[] = [];
    expect(await sandboxMain(['--scenario', 'no-such-scenario'], io)).toBe(2);
    expect(await sandboxMain(['--port', '70000'], io)).toBe(2);
    expect(await sandboxMain(['--format', 'pdf'], io)).toBe(2);
    expect(await sandboxMain(['extra'], io)).toBe(2);
    expect(errors.join('')).toMatch(
      /unknown scenario "no-such-scenario"[\s\S]*--port: expected an integer from 0 to 65535[\s\S]*unknown format "pdf"[\s\S]*too many arguments/,
    );
  });
});
