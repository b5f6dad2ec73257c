import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_RATE_LIMIT_PER_MINUTE } from '../../target/embedded.ts';
import { PROJECT_ROOT } from '../paths.ts';

export interface SpawnedServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts the reference implementation by its entry point in a child process, as a user would (`npm run serve`):
 * a target the runner has to be told about with --target and --config. Never imported: the harness is an oracle.
 */
export async function spawnReferenceServer(): Promise<SpawnedServer> {
  const dir = mkdtempSync(join(tmpdir(), 'certify-reference-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'reference.db')}`,
    LOG_LEVEL: 'info',
    // npm run serve's default (600 calls a minute per ordinary client) is a real service's: a whole certification
    // makes thousands a minute as partnerA, which the harness does not pace on loopback. The embedded target's ceiling.
    RATE_LIMIT_PER_MINUTE: String(EMBEDDED_RATE_LIMIT_PER_MINUTE),
  };
  for (const name of ['REDIS_URL', 'API_DISABLED', 'CONTROL_TOKEN']) delete env[name];
  const child = spawn(
    process.execPath,
    [join(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs'), join(PROJECT_ROOT, 'reference-impl/main.ts')],
    {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`reference server did not start: ${seen.slice(-2000)}`)), 30_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`reference server exited (${code}): ${seen.slice(-2000)}`));
    });
  });
  // Keep draining its log so the child never blocks on a full pipe.
  child.stdout.resume();
  child.stderr.resume();
  return {
    baseUrl,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
