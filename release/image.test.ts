/**
 * The container image end to end (README "Certifying a container image"; npm run test:image, after npm test in
 * .ci/run): the reference implementation's image, built from the Dockerfile, certified through
 * `partner-api-certify --image` and loaded through `partner-api-load --image`, with no container left behind: after a
 * passing run, after Ctrl-C, and after a second Ctrl-C; and the client sandbox run from it (`docker run …
 * partner-api-sandbox`), the sample client certified against it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageInfo } from '../contract/package-info.ts';
import { IMAGE_LABELS } from '../harness/target/image-options.ts';
import {
  buildReferenceImage,
  CLI,
  ENGINE_REQUIRED,
  engineUnavailable,
  REFERENCE_IMAGE,
  ROOT,
  runContainers,
} from './engine.ts';

const unavailable = await engineUnavailable();
if (unavailable && ENGINE_REQUIRED) throw new Error(`PARTNER_API_REQUIRE_ENGINE=1 but ${unavailable}`);
if (unavailable) console.warn(`release/image.test.ts skipped: ${unavailable}`);

const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const dir = mkdtempSync(join(tmpdir(), 'certify-image-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface BinRun {
  child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output: () => string;
  done: Promise<{ code: number | null; output: string }>;
}

/** A bin of this checkout, run from a directory of its own (as from the sources: tsx as the loader). */
function startBin(entry: string, args: string[]): BinRun {
  const child = spawn(process.execPath, ['--import', TSX, join(ROOT, entry), ...args], {
    cwd: dir,
    env: { ...process.env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const add = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, output })),
  );
  return { child, output: () => output, done };
}

async function waitForRunContainer(timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [id] = runContainers();
    if (id) return id;
    if (Date.now() > deadline) throw new Error('no container of the run appeared');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(unavailable !== undefined)('the reference implementation image', () => {
  beforeAll(() => {
    expect(runContainers(), 'containers of earlier runs').toEqual([]);
    const started = Date.now();
    const { baseArgs } = buildReferenceImage(packageInfo().version);
    console.info(
      `image ${REFERENCE_IMAGE} built in ${((Date.now() - started) / 1000).toFixed(0)} s ${baseArgs.join(' ')}`,
    );
  }, 900_000);

  test('is built as the issue asks: non-root, HEALTHCHECK on the readiness route, /data volume, port 8080', () => {
    const [inspect] = JSON.parse(execFileSync(CLI, ['image', 'inspect', REFERENCE_IMAGE], { encoding: 'utf8' }));
    const config = inspect.Config;
    expect(config.User).toBe('10001:10001');
    expect(config.Healthcheck.Test.join(' ')).toContain('healthcheck.js');
    expect(Object.keys(config.Volumes ?? {})).toEqual(['/data']);
    expect(Object.keys(config.ExposedPorts ?? {})).toEqual(['8080/tcp']);
    expect(config.Env).toEqual(
      expect.arrayContaining(['HOST=0.0.0.0', 'PORT=8080', 'DATABASE_URL=sqlite:/data/reference.db']),
    );
    expect(config.Labels[IMAGE_LABELS.reference]).toBe('true');
    expect(config.Labels[IMAGE_LABELS.readyPath]).toBe('/health/ready');
    expect(config.Labels['org.opencontainers.image.version']).toBe(packageInfo().version);
  });

  test('partner-api-certify --image passes (profile full), writes the report and leaves no container', async () => {
    // Signed as well (README "Signed certification records"): the record's subject is the digest the engine reports.
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(join(dir, 'attest.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'attest.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    const { done } = startBin('harness/cli.ts', [
      '--image',
      REFERENCE_IMAGE,
      '--image-port',
      '0',
      '--report-dir',
      'full',
      '--format',
      'json,junit,md',
      '--attest',
      'attest.pem',
    ]);
    const { code, output } = await done;
    expect(code, output).toBe(0);
    const envelope = JSON.parse(readFileSync(join(dir, 'full', 'certification.intoto.json'), 'utf8'));
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    const [inspected] = JSON.parse(execFileSync(CLI, ['image', 'inspect', REFERENCE_IMAGE], { encoding: 'utf8' }));
    const engineDigests = [
      inspected.Id,
      ...(inspected.RepoDigests ?? []).map((d: string) => d.slice(d.indexOf('@') + 1)),
    ];
    expect(engineDigests).toContain(`sha256:${statement.subject[0].digest.sha256}`);
    const verified = await startBin('harness/cli.ts', [
      'verify',
      join(dir, 'full', 'certification.intoto.json'),
      '--key',
      join(dir, 'attest.pub.pem'),
      '--report',
      join(dir, 'full', 'report.json'),
      '--image',
      REFERENCE_IMAGE,
    ]).done;
    expect(verified.code, verified.output).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'full', 'report.json'), 'utf8'));
    expect(report.verdict.passed).toBe(true);
    expect(report.profile).toBe('full');
    expect(report.leftovers).toEqual([]);
    // Plain HTTP inside the image: the HTTPS clause (5.7) is the one not-applicable check.
    expect(report.verdict.counts.fail).toBe(0);
    expect(output).toMatch(/Started: image .* \(host network\) at http:\/\/127\.0\.0\.1:\d+/);
    expect(runContainers()).toEqual([]);
  }, 600_000);

  test('Ctrl-C during the run: the run is cancelled, the report written, the container removed', async () => {
    const {
      child,
      output: sofar,
      done,
    } = startBin('harness/cli.ts', [
      '--image',
      REFERENCE_IMAGE,
      '--image-port',
      '0',
      '--report-dir',
      'interrupted',
      '--format',
      'json',
    ]);
    await waitForRunContainer(60_000);
    // Into the suites: the readiness wait is over once the header line is out.
    for (let i = 0; i < 600 && !/Started: image/.test(sofar()); i++) await sleep(100);
    await sleep(2_000);
    child.kill('SIGINT');
    const { code, output } = await done;
    expect([2, 130], output).toContain(code);
    expect(output).toContain('cancelling the run');
    expect(runContainers()).toEqual([]);
  }, 300_000);

  test('a second Ctrl-C quits at once and still removes the container', async () => {
    const { child, done } = startBin('harness/cli.ts', [
      '--image',
      REFERENCE_IMAGE,
      '--image-port',
      '0',
      '--report-dir',
      'quit',
      '--format',
      'json',
    ]);
    await waitForRunContainer(60_000);
    await sleep(3_000);
    child.kill('SIGINT');
    await sleep(200);
    child.kill('SIGINT');
    const { code } = await done;
    expect(code).toBe(130);
    expect(runContainers()).toEqual([]);
  }, 300_000);

  test('Ctrl-C while the container starts: removed, exit 2 with a message', async () => {
    const { child, done } = startBin('harness/cli.ts', ['--image', REFERENCE_IMAGE, '--image-port', '0']);
    await waitForRunContainer(60_000);
    child.kill('SIGINT');
    const { code, output } = await done;
    expect(code, output).toBe(2);
    expect(runContainers()).toEqual([]);
  }, 120_000);

  test('partner-api-sandbox from the image: the sample client certified against it, judged when it is stopped', async () => {
    const reports = mkdtempSync(join(dir, 'sandbox-'));
    chmodSync(reports, 0o777); // written by the image's own user (10001)
    const port = await freePort();
    const name = `partner-api-sandbox-test-${process.pid}`;
    const args = ['run', '--rm', '--name', name, '--network', 'host', '-v', `${reports}:/reports`, REFERENCE_IMAGE];
    const sandbox = spawn(
      CLI,
      [...args, 'partner-api-sandbox', '--http', '--port', String(port), '--report-dir', '/reports'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    sandbox.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    sandbox.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => sandbox.once('exit', resolve));
    try {
      // The handout ends with its Ready line once the sandbox answers (harness/client-certify/serve.ts).
      for (let i = 0; i < 1200 && !output.includes('Ready:') && sandbox.exitCode === null; i++) await sleep(100);
      expect(output, 'the sandbox in the container is ready').toContain('Ready:');
      const env = Object.fromEntries(
        [...output.matchAll(/^ {2}export (\w+)='([^']*)'$/gm)].map((m) => [m[1] as string, m[2] as string]),
      );
      expect(env.PARTNER_API_BASE_URL).toBe(`http://127.0.0.1:${port}/api/partner/v1`);
      const client = spawn(process.execPath, ['--import', TSX, join(ROOT, 'examples', 'good-client.ts')], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let clientOutput = '';
      client.stdout?.on('data', (chunk: Buffer) => {
        clientOutput += chunk.toString();
      });
      client.stderr?.on('data', (chunk: Buffer) => {
        clientOutput += chunk.toString();
      });
      const clientCode = await new Promise<number | null>((resolve) => client.once('exit', resolve));
      expect(clientCode, clientOutput).toBe(0);
    } finally {
      // SIGTERM, as a partner's CI stops it: the sandbox judges the session and writes the reports, then exits.
      execFileSync(CLI, ['stop', '--time', '60', name], { stdio: 'ignore' });
    }
    expect(await exited, output).toBe(0);
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as {
      verdict: string;
      clauses: { id: string; outcome: string }[];
    };
    expect(report.verdict).toBe('passed');
    expect(report.clauses.filter((c) => c.outcome === 'pass').length).toBeGreaterThan(15);
  }, 300_000);

  test('partner-api-load --image runs a scenario against a fresh container', async () => {
    const { done } = startBin('load/cli.ts', [
      'rate-limit',
      '--ci',
      '--image',
      REFERENCE_IMAGE,
      '--image-port',
      '0',
      '--out',
      'load',
    ]);
    const { code, output } = await done;
    expect(code, output).toBe(0);
    expect(runContainers()).toEqual([]);
  }, 300_000);
});

/** A loopback port nothing listens on now (the sandbox in the container listens on the host's network). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
