import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answers, freePort, onProcessExit, waitUntil } from './own-services.ts';

/**
 * A redis-server of the test's own, on a free loopback port with a temporary working folder, that the test can
 * really stop (SIGKILL: the process dies, every connection is reset, nothing is kept) and start again on the same
 * port. It never touches the shared Redis on 6379.
 */
export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** Kills the server (SIGKILL) and waits until it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing) and waits until it answers PING. */
  start(): Promise<void>;
  /** Stops it if running and removes its folder. */
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'own-redis-'));
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const unregister = onProcessExit(() => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<void> {
    if (child) throw new Error('own redis: already running');
    const started = spawn(
      'redis-server',
      // No persistence, loopback only, quiet: the test's Redis is as disposable as the shared one (README "Tests").
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2_000);
    });
    child = started;
    exited = new Promise((resolve) =>
      started.once('exit', () => {
        if (child === started) child = undefined;
        resolve();
      }),
    );
    try {
      await waitUntil(
        `redis-server on port ${port}`,
        async () => {
          if (started.exitCode !== null) throw new Error(`redis-server exited: ${stderr}`);
          return answers(port, 'PING\r\n', '+PONG');
        },
        READY_TIMEOUT_MS,
      );
    } catch (error) {
      started.kill('SIGKILL');
      await exited;
      throw error;
    }
  }

  async function stop(): Promise<void> {
    child?.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
      unregister();
    },
  };
}
