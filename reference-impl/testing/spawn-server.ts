import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
/**
 * tsx's loader, imported into the server process itself. Not the tsx CLI: the CLI runs the script in a
 * grandchild, so a SIGKILL sent to `child` would kill only the wrapper and leave the server running.
 */
const TSX_LOADER = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

/**
 * The server environment of a test that sends far more than 600 calls a minute as one ordinary client (a booking
 * storm, a flood): it measures the store or the memory, not the limiter, so the ceiling RATE_LIMIT_PER_MINUTE of
 * every ordinary client is raised from a real service's 600 to the embedded target's 60,000.
 */
export const HIGH_RATE_LIMIT = { RATE_LIMIT_PER_MINUTE: '60000' } as const;

export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  /** Sends a signal and waits for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `reference-impl/main.ts` in a child process, exactly as `npm run serve` does, on a free port, and
 * resolves once it listens. For tests that need several instances or a kill -9. The timeout only ends a server that
 * never starts: a start takes 2 s on a quiet machine and up to about 10 s with both cores busy (tsx compiles main.ts).
 */
export function spawnServer(env: Record<string, string>, timeoutMs = 40_000): Promise<SpawnedServer> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms:\n${output.slice(-2000)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        const url = match[1];
        resolve({
          url,
          child,
          async kill(signal = 'SIGTERM') {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            await exited;
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output.slice(-2000)}`));
    });
  });
}
