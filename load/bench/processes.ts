/**
 * The servers a bench run starts, each a child process that IS the server (node --import tsx, no wrapper), so
 * stopping the child stops the server.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { EMBEDDED_RATE_LIMIT_PER_MINUTE } from '../../harness/target/embedded.ts';
import type { BareRoute } from './bare-server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningServer {
  url: string;
  /** CPU seconds (user + system) the server process has used so far; NaN where /proc is not there. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** utime + stime of a process from /proc/<pid>/stat, in seconds (Linux). */
function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
/** USER_HZ: 100 on every Linux the bench runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

function stopper(child: ChildProcess, cleanup: () => void = () => {}): () => Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      process.off('exit', killOnExit);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      cleanup();
    })();
    return stopping;
  };
}

/** A free loopback port (the quiet reference implementation logs nothing, so the port is chosen for it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before answering`);
    try {
      const res = await request(url);
      await res.body.dump();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms`);
}

/**
 * Compiles the reference as it ships (`npm run build`: the image and the partner-api-reference bin run the compiled
 * JavaScript) into a folder of the bench's own inside node_modules/.cache, where its imports find node_modules, and
 * returns its entry point. Run from source through tsx, the reference spent about a tenth more CPU a request (tsx's
 * loader and the function names esbuild keeps), a cost no deployment pays (docs/measurements/bench-2026-11-24-to-29.md "Answers as bytes").
 */
export function buildReference(): string {
  const out = join(ROOT, 'node_modules', '.cache', 'bench-reference');
  const built = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'build.ts'), '--out-dir', out], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) throw new Error(`the reference did not compile (exit ${built.status ?? built.signal})`);
  return join(out, 'reference-impl', 'main.js');
}

/**
 * The reference implementation on `databaseUrl` (a fresh SQLite file when absent), logging warnings only: request
 * logging would measure the logger and the pipe, not the implementation. `entry` is a compiled main.js
 * (`buildReference`); without it the source runs through tsx.
 */
export async function startReference(
  databaseUrl?: string,
  cpuProfileDir?: string,
  entry?: string,
): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'load-bench-ref-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl ?? `sqlite:${join(dir, 'bench.db')}`,
    LOG_LEVEL: 'warn',
    // The bench measures throughput as partnerA: the embedded target's raised ceiling, not a real service's 600 a
    // minute (access.ts moves the service clock a minute every half second on top, so each window is fresh).
    RATE_LIMIT_PER_MINUTE: String(EMBEDDED_RATE_LIMIT_PER_MINUTE),
  };
  for (const name of [
    'REDIS_URL',
    'API_DISABLED',
    'TOKEN_LIMIT_PER_CLIENT',
    'TOKEN_LIMIT_PER_ADDRESS',
    'CONTROL_TOKEN',
  ]) {
    delete env[name];
  }
  // --cpu-prof writes the profile when the server exits (SIGTERM closes it and exits normally).
  const profile = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
  const main = entry ? [entry] : ['--import', 'tsx', join(ROOT, 'reference-impl', 'main.ts')];
  const child = spawn(process.execPath, [...profile, ...main], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = stopper(child, () => rmSync(dir, { recursive: true, force: true }));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/api/partner/v1/locations`, child, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop, cpuSeconds: () => cpuSecondsOf(child.pid) };
}

/** The bare node:http server answering `routes` (key: "METHOD /path"). */
export async function startBare(routes: Record<string, BareRoute>): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'load-bench-bare-'));
  const file = join(dir, 'routes.json');
  writeFileSync(file, JSON.stringify(routes));
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'load', 'bench', 'bare-server.ts')], {
    cwd: ROOT,
    env: { ...process.env, BARE_ROUTES: file },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = stopper(child, () => rmSync(dir, { recursive: true, force: true }));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  child.stdout?.resume();
  return { url: `http://127.0.0.1:${port}`, stop, cpuSeconds: () => cpuSecondsOf(child.pid) };
}

/** What the reference's seeder reports (reference-impl/store/seed.ts SeedResult). */
export interface SeederResult {
  seeded: number;
  ms: number;
  sampleIds: string[];
}

/**
 * Seeds `count` reservations modelled on `templateId` into the store at `databaseUrl`, numbered from `from`, with the
 * reference's own seeder run as a process (reference-impl/store/seed-cli.ts), which alone knows the schema.
 */
export async function runSeeder(
  databaseUrl: string,
  templateId: string,
  count: number,
  from: number,
): Promise<SeederResult> {
  const script = join(ROOT, 'reference-impl', 'store', 'seed-cli.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, databaseUrl, templateId, String(count), String(from)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the seeder exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as SeederResult;
}
