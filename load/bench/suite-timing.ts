/**
 * The suite's own figures of the performance goals (load/README.md "Benchmark"): a full certification of the bundled
 * reference (`npm run certify`: embedded, profile full, default runs) and the README's test command (`npm test`) on a
 * fresh clone of the committed HEAD, each timed by the wall clock and run alone, after the other bench parts (they
 * would take each other's cores).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface SuiteTiming {
  name: 'npm run certify' | 'npm test';
  /** What ran, for the reader of the table. */
  detail: string;
  seconds: number;
  exitCode: number;
  goalSeconds: number;
  /** The last lines of its output when it failed: why, without a second run. */
  failureTail?: string;
}

export const SUITE_GOALS = { certify: 40, npmTest: 300 } as const;

const TAIL_BYTES = 4000;

/**
 * Runs a command to its end, its output kept only as a bounded tail (the bench prints its own table, and the tail
 * only when the command failed); wall seconds and exit code.
 */
function timed(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ seconds: number; exitCode: number; failureTail?: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const exitCode = code ?? (signal ? 128 : 1);
      const seconds = (performance.now() - started) / 1000;
      resolve(exitCode === 0 ? { seconds, exitCode } : { seconds, exitCode, failureTail: lastLines(tail, 20) });
    });
  });
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

/** `npm run certify` with its reports in a folder of its own (the user's reports/ stay as they were). */
export async function timeCertification(log: (text: string) => void): Promise<SuiteTiming> {
  const reportDir = mkdtempSync(join(tmpdir(), 'bench-certify-'));
  try {
    log('suite: npm run certify (embedded reference, profile full)');
    const run = await timed(
      'npm',
      ['run', 'certify', '--', '--format', 'json', '--report-dir', reportDir],
      ROOT,
      process.env,
    );
    return {
      name: 'npm run certify',
      detail: 'embedded, full, default runs',
      ...run,
      goalSeconds: SUITE_GOALS.certify,
    };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/**
 * `npm test` on a fresh clone of HEAD: no vitest cache and no compiled output of an earlier run. The clone shares this
 * checkout's node_modules (a link), as `npm ci` would install the same lock file.
 */
export async function timeNpmTest(log: (text: string) => void): Promise<SuiteTiming> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-npm-test-'));
  const clone = join(dir, 'clone');
  try {
    const cloned = await timed('git', ['clone', '--quiet', ROOT, clone], dir, process.env);
    if (cloned.exitCode !== 0) throw new Error(`git clone of ${ROOT} failed (exit ${cloned.exitCode})`);
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    log('suite: npm test on a fresh clone of HEAD');
    const run = await timed('npm', ['test'], clone, { ...process.env, CI: 'true' });
    return { name: 'npm test', detail: 'fresh clone of HEAD', ...run, goalSeconds: SUITE_GOALS.npmTest };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Met when it passed within its goal; a run that failed says so, whatever its time. */
export function suiteVerdict(timing: SuiteTiming): string {
  if (timing.exitCode !== 0) return `failed (exit ${timing.exitCode})`;
  return timing.seconds < timing.goalSeconds ? 'met' : 'NOT met';
}
