import { execFile } from 'node:child_process';
import net from 'node:net';

/**
 * What the outage tests' own services (own-redis.ts, own-postgres.ts, own-disk.ts) share: a free loopback port, a
 * command runner, and a last-resort cleanup when the test process exits without reaching its afterAll (a crash, a
 * timeout that kills the worker): every service still running is stopped, every mount and folder removed, so no test
 * ever leaves a redis-server, a postmaster or a tmpfs behind.
 */

const exitCleanups = new Set<() => void>();
let exitHookInstalled = false;

/** Registers a synchronous cleanup run when the process exits; the returned function unregisters it. */
export function onProcessExit(cleanup: () => void): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const run of exitCleanups) {
        try {
          run();
        } catch {
          // Best effort: the process is leaving.
        }
      }
    });
  }
  exitCleanups.add(cleanup);
  return () => exitCleanups.delete(cleanup);
}

/** A TCP port nobody listens on right now (the kernel's choice); the caller binds it soon after. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address === null || typeof address === 'string') reject(new Error('no TCP address'));
        else resolve(address.port);
      });
    });
  });
}

/** Runs a command to its end; rejects with its output when it fails or outlasts `timeoutMs`. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, timeout: options.timeoutMs ?? 30_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stdout}${stderr}`.trim()));
        else resolve(`${stdout}${stderr}`);
      },
    );
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `ready` every 50 ms until it answers true; rejects after `timeoutMs` with `what`. */
export async function waitUntil(what: string, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ready().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(`${what}: not ready within ${timeoutMs} ms`);
}

/** True when something accepts a TCP connection on 127.0.0.1:`port` and answers `probe` with a reply starting `expect`. */
export function answers(port: number, probe: string, expect: string, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write(probe));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.length >= expect.length) done(reply.startsWith(expect));
    });
  });
}
