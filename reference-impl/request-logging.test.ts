import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX_LOADER = new URL('../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'request-logging-'));
const STARTUP_MS = 60_000;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the server as `npm run serve` does, asks one request of it, stops it and returns everything it logged. */
async function logOfOneRequest(env: Record<string, string>, name: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Waits for the server's own "listening" line; the deadline only ends a server that never starts (tsx compiling
  // main.ts took 7 s with both cores busy).
  const deadline = Date.now() + STARTUP_MS;
  let url: string | undefined;
  while (!url) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
    url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect((await fetch(`${url}/health/ready`)).status).toBe(200);
  child.kill('SIGTERM');
  await exited;
  return output;
}

describe('LOG_REQUESTS', () => {
  it(
    'logs a line on receiving and on answering each request by default',
    async () => {
      const log = await logOfOneRequest({ LOG_LEVEL: 'info' }, 'default');
      expect(log).toMatch(/"msg":"incoming request"/);
      expect(log).toMatch(/"msg":"request completed"/);
    },
    STARTUP_MS + 30_000,
  );

  it(
    '0: no line per request, the start-up lines stay',
    async () => {
      const log = await logOfOneRequest({ LOG_LEVEL: 'info', LOG_REQUESTS: '0' }, 'off');
      expect(log).toMatch(/Server listening at/);
      expect(log).not.toMatch(/incoming request|request completed/);
    },
    STARTUP_MS + 30_000,
  );
});
