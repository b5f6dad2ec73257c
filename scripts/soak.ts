/**
 * `npm run test:soak`: `npm test` several times in a row with every core kept busy beside it (a suite that
 * is green on a busy machine). A test whose verdict hangs on the scheduler (a lease renewed late, a timer fired late,
 * two sockets answered in the other order) fails here long before it fails in CI.
 *
 *   npm run test:soak                                  10 runs of npm test, one busy loop per core
 *   npm run test:soak -- --runs 2 -- reference-impl/store   2 runs; what follows `--` goes to vitest
 *   npm run test:soak -- --hogs 0                      no hog (a quiet-machine baseline)
 *   npm run test:soak -- --unit -- reference-impl      npm run test:unit only (no typecheck, no lint)
 *
 * Each run's output goes to reports/soak/<start>/run-<n>.log; the console gets one line a run (result, time, the
 * failed tests' titles) and the total time. Exit 0 only when every run passed. The hogs are child processes that end
 * on their own when this script ends, whatever ends it (they read their stdin, a pipe this process holds).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A busy loop that yields every 50 ms only to notice that its parent is gone (stdin at its end). */
const HOG = `
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
const spin = () => { const until = Date.now() + 50; while (Date.now() < until); setImmediate(spin); };
spin();
`;

interface SoakOptions {
  runs: number;
  hogs: number;
  /** `npm run test:unit` instead of `npm test`: the tests alone, when typecheck and lint are not what is soaked. */
  unit: boolean;
  vitestArgs: string[];
}

function parseArgs(argv: string[]): SoakOptions {
  const options: SoakOptions = { runs: 10, hogs: availableParallelism(), unit: false, vitestArgs: [] };
  const positiveInteger = (flag: string, value: string | undefined, min: number): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`${flag} needs an integer of at least ${min}, not ${value}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.vitestArgs = argv.slice(i + 1);
      break;
    }
    if (arg === '--runs') options.runs = positiveInteger(arg, argv[++i], 1);
    else if (arg === '--hogs') options.hogs = positiveInteger(arg, argv[++i], 0);
    else if (arg === '--unit') options.unit = true;
    else if (arg === '--help' || arg === '-h') {
      console.log('usage: npm run test:soak -- [--runs N (10)] [--hogs N (one per core)] [--unit] [-- vitest args]');
      process.exit(0);
    } else throw new Error(`unknown argument ${arg} (vitest's go after --)`);
  }
  return options;
}

const hogs: ChildProcess[] = [];
let current: ChildProcess | undefined;

function startHogs(count: number): void {
  for (let i = 0; i < count; i++) {
    hogs.push(spawn(process.execPath, ['-e', HOG], { stdio: ['pipe', 'ignore', 'ignore'] }));
  }
}

/** Ends the hogs and the run in progress (its whole process group: npm, vitest, the servers it started). */
function stopAll(signal: NodeJS.Signals = 'SIGTERM'): void {
  for (const hog of hogs.splice(0)) {
    hog.stdin?.destroy();
    hog.kill('SIGKILL');
  }
  if (current?.pid !== undefined && current.exitCode === null) {
    try {
      process.kill(-current.pid, signal);
    } catch {
      // already gone
    }
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape that starts an ANSI colour
const plain = (output: string) => output.replace(/\u001b\[[0-9;]*m/g, '');

/** Titles of the failed tests, as vitest prints them (" FAIL  file > describe > test"). */
function failedTests(output: string): string[] {
  const titles = plain(output)
    .split('\n')
    .map((line) => /^\s*FAIL\s+(.*)$/.exec(line)?.[1]?.trim())
    .filter((title): title is string => title !== undefined && title.length > 0);
  return [...new Set(titles)];
}

/** What a failed typecheck or lint names: tsc's "file(line,col): error TS…" lines, Biome's "file rule ━━━" heads. */
function failedChecks(output: string): string[] {
  return plain(output)
    .split('\n')
    .filter((line) => /: error TS\d+:|━━━$/.test(line) && !/^check ━/.test(line))
    .map((line) => line.replace(/\s*━+$/, '').trim());
}

/** The npm script that was running when the run ended (npm prints "> package@version script" as each starts). */
function lastStep(output: string): string | undefined {
  return [...output.matchAll(/^> \S+@\S+ (\S+)$/gm)].at(-1)?.[1];
}

/** npm's arguments: `npm test` passes what follows its `--` to the last command of the script, vitest. */
function npmArgs(options: SoakOptions): string[] {
  const script = options.unit ? ['run', 'test:unit'] : ['test'];
  if (options.vitestArgs.length === 0) return script;
  return options.unit ? [...script, '--', ...options.vitestArgs] : [...script, '--', '--', ...options.vitestArgs];
}

function runOnce(args: string[], logPath: string): Promise<{ code: number | null; output: string }> {
  const log = createWriteStream(logPath);
  let output = '';
  return new Promise((resolve, reject) => {
    // Its own process group, so a signal to the soak reaches everything the run started.
    const child = spawn('npm', args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    current = child;
    const take = (chunk: Buffer) => {
      log.write(chunk);
      output += chunk.toString('utf8');
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.on('error', reject);
    child.on('close', (code) => {
      current = undefined;
      log.end(() => resolve({ code, output }));
    });
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const clock = (ms: number) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const logDir = join(ROOT, 'reports', 'soak', stamp);
  mkdirSync(logDir, { recursive: true });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      console.log(`\n${signal}: stopping the hogs and the run in progress`);
      stopAll('SIGINT');
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
  process.on('exit', () => stopAll('SIGKILL'));

  const what = `npm ${npmArgs(options).join(' ')}`;
  console.log(
    `soak: ${options.runs} × ${what}, ${options.hogs} busy loop(s) beside it on ${availableParallelism()} core(s); ` +
      `logs in ${relative(process.cwd(), logDir) || '.'}`,
  );
  startHogs(options.hogs);
  const started = performance.now();
  let passed = 0;
  for (let run = 1; run <= options.runs; run++) {
    const runStarted = performance.now();
    const logPath = join(logDir, `run-${run}.log`);
    const { code, output } = await runOnce(npmArgs(options), logPath);
    const took = seconds(performance.now() - runStarted);
    if (code === 0) {
      passed++;
      console.log(`run ${run}/${options.runs}: pass (${took})`);
    } else {
      const failed = failedTests(output);
      console.log(`run ${run}/${options.runs}: FAIL, exit ${code} (${took}); log ${relative(process.cwd(), logPath)}`);
      for (const title of failed) console.log(`  FAIL ${title}`);
      if (failed.length === 0) {
        const checks = failedChecks(output);
        console.log(`  no failed test named; it ended in npm's ${lastStep(output) ?? '?'} step`);
        for (const line of checks.slice(0, 10)) console.log(`  ${line}`);
        if (checks.length > 10) console.log(`  … and ${checks.length - 10} more`);
      }
    }
  }
  stopAll();
  const total = performance.now() - started;
  console.log(
    `soak: ${passed}/${options.runs} runs passed in ${clock(total)} (${seconds(total / options.runs)} a run on average)`,
  );
  return passed === options.runs ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`soak: ${error instanceof Error ? error.message : String(error)}`);
    stopAll();
    process.exit(2);
  },
);
