import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_HOOKS_PATH, parseTargetConfig, type TargetConfig } from '../config/target-config.ts';

/** The project root; in the compiled package, dist/ (which holds fixtures/ and reference-impl/ as JavaScript). */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const COMPILED = import.meta.url.endsWith('.js');
/** The reference implementation is started by its entry point, as any user would (never imported). */
const MAIN = join(REPO, 'reference-impl', COMPILED ? 'main.js' : 'main.ts');
/**
 * From the sources: tsx as a loader of this very process (`node --import tsx`), not its CLI: the CLI runs the server
 * in a second process, which a SIGKILL of the first would leave behind. Compiled: plain Node, with source maps.
 */
const NODE_ARGS = COMPILED
  ? ['--enable-source-maps', MAIN]
  : ['--import', pathToFileURL(join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href, MAIN];
const FIXTURE_TARGET = join(REPO, 'fixtures', 'reference-target.json');

const LISTENING = /Server listening at (https?:\/\/127\.0\.0\.1:\d+)/;

/** Server settings the parent environment must not leak into the embedded target (it must be the fixture's). */
const INHERITED_SERVER_ENV =
  /^(PORT|HOST|DATABASE_URL|REDIS_URL|REDIS_KEY_PREFIX|CONTROL_TOKEN|API_DISABLED|LOG_LEVEL|LOG_REQUESTS|TLS_CERT_FILE|TLS_KEY_FILE|TOKEN_LIMIT_.*|RATE_LIMIT_PER_MINUTE|CLIENT_SECRET_.*|FAULTS|SANDBOX_RECORD|SANDBOX_SCENARIO)$/;

/**
 * Business calls a minute for each ordinary client of a reference the harness starts itself (its
 * RATE_LIMIT_PER_MINUTE; `--embedded-rate-limit`): raised for speed, since the suite's own traffic makes several
 * thousand calls a minute as partnerA; a real service limits near 600 (the reference's own default). The `rateLimit`
 * client keeps its 30, which the rate-limit checks exhaust.
 */
export const EMBEDDED_RATE_LIMIT_PER_MINUTE = 60_000;

export interface EmbeddedTarget {
  config: TargetConfig;
  /** The server's process id (for diagnostics). */
  pid: number | undefined;
  stop(): Promise<void>;
}

export interface EmbeddedTargetOptions {
  /** Extra environment for the server (e.g. TOKEN_LIMIT_PER_CLIENT); it wins over the settings below. */
  env?: Record<string, string>;
  /** RATE_LIMIT_PER_MINUTE of the server (default EMBEDDED_RATE_LIMIT_PER_MINUTE). */
  rateLimitPerMinute?: number;
  startTimeoutMs?: number;
  /**
   * 'https' (default): a certificate made for this start with the openssl CLI; without openssl, plain HTTP (the
   * TLS clause 5.7 is then not-applicable). 'http': plain HTTP (load runs measure the service, not TLS).
   */
  transport?: 'https' | 'http';
  /** The openssl executable (default: `openssl` on PATH). */
  openssl?: string;
}

/** fixtures/reference-target.json: the bundled reference implementation's clients, probes and control token. */
export function referenceFixtureConfig(): TargetConfig {
  return parseTargetConfig(JSON.parse(readFileSync(FIXTURE_TARGET, 'utf8')), {}, FIXTURE_TARGET).config;
}

/**
 * Starts the bundled reference implementation on a free loopback port with a fresh SQLite store in a temp
 * directory, and returns its target config (fixtures/reference-target.json with the real address and control).
 * HTTPS by default, as spec 5.7 asks: the config's tls.caFile is the certificate the harness must trust.
 */
export async function startEmbeddedTarget(options: EmbeddedTargetOptions = {}): Promise<EmbeddedTarget> {
  const fixture = referenceFixtureConfig();
  const controlToken = fixture.hooks?.token;
  if (!controlToken) throw new Error(`${FIXTURE_TARGET} has no hooks token`);
  const dir = mkdtempSync(join(tmpdir(), 'partner-cert-embedded-'));
  let tls: { certFile: string; keyFile: string } | undefined;
  try {
    tls = options.transport === 'http' ? undefined : selfSignedCertificate(dir, options.openssl ?? 'openssl');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!INHERITED_SERVER_ENV.test(name)) env[name] = value;
  Object.assign(env, {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'reference.db')}`,
    CONTROL_TOKEN: controlToken,
    // The listening line is logged at info. A line per request is not: nobody reads this log, which goes with the
    // run, and writing it was a sixth of the server's CPU in a certification.
    LOG_LEVEL: 'info',
    LOG_REQUESTS: '0',
    RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute ?? EMBEDDED_RATE_LIMIT_PER_MINUTE),
    ...(tls ? { TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile } : {}),
    ...options.env,
  });
  // The server logs into a file, not a pipe: a pipe nobody reads (a parent blocked in spawnSync, say) would fill
  // up and stall the server on its next log line.
  const logFile = join(dir, 'server.log');
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, NODE_ARGS, {
    cwd: REPO,
    env,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });

  let url: string;
  try {
    url = await waitForListening(child, logFile, options.startTimeoutMs ?? 30_000, () => spawnError);
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  // Never leave the server or its store behind if the harness exits without stopping it.
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  let stopping: Promise<void> | undefined;
  return {
    config: {
      baseUrl: url,
      clients: fixture.clients,
      hooks: { baseUrl: `${url}${DEFAULT_HOOKS_PATH}`, token: controlToken },
      owned: true,
      ...(fixture.probes ? { probes: fixture.probes } : {}),
      // The certificate is self-signed: it is its own CA.
      ...(tls ? { tls: { caFile: tls.certFile } } : {}),
    },
    pid: child.pid,
    stop() {
      stopping ??= (async () => {
        process.off('exit', killOnExit);
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
        }
        rmSync(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}

/** A named fault or benign variant of the reference implementation (its `--list-faults`). */
export interface ReferenceFault {
  name: string;
  kind: 'fault' | 'benign';
  clause: string;
  description: string;
}

/** The reference implementation's registry of faults, asked of its entry point (never imported). */
export function listReferenceFaults(): ReferenceFault[] {
  const result = spawnSync(process.execPath, [...NODE_ARGS, '--list-faults'], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(`the reference implementation could not list its faults: ${(result.stderr ?? '').slice(-500)}`);
  }
  return JSON.parse(result.stdout) as ReferenceFault[];
}

/**
 * A throwaway certificate for 127.0.0.1 (valid two days), by the openssl CLI: Node has no API that issues an X.509
 * certificate. Undefined when openssl is not installed; any other failure of it is an error.
 */
function selfSignedCertificate(dir: string, openssl: string): { certFile: string; keyFile: string } | undefined {
  const certFile = join(dir, 'tls-cert.pem');
  const keyFile = join(dir, 'tls-key.pem');
  // biome-ignore format: the openssl command line as one reads it
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'];
  const result = spawnSync(openssl, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return undefined;
  if (result.error || result.status !== 0) {
    const detail = result.error?.message ?? result.stderr.toString().trim().slice(-500);
    throw new Error(`the embedded target's certificate could not be made with ${openssl}: ${detail}`);
  }
  return { certFile, keyFile };
}

async function waitForListening(
  child: ChildProcess,
  logFile: string,
  timeoutMs: number,
  spawnError: () => Error | undefined,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const failed = spawnError();
    if (failed) throw new Error(`the embedded target could not be started: ${failed.message}`);
    const output = readFileSync(logFile, 'utf8');
    const url = LISTENING.exec(output)?.[1];
    if (url) return url;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the embedded target exited (${child.exitCode ?? child.signalCode}) before listening:\n${output.slice(-2000)}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(`the embedded target did not start within ${timeoutMs} ms:\n${output.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
