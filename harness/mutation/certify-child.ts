import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ReportModel } from '../report/model.ts';
import { PROJECT_ROOT } from '../runner/paths.ts';
import { outcomeOf, type RunOutcome } from './matrix.ts';

const CLI = join(PROJECT_ROOT, 'harness', 'cli.ts');
const TSX_LOADER = pathToFileURL(join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export interface ChildRunOptions {
  faults: string[];
  seed: number;
  runs?: number;
  /** Only these sections or clauses (development: the real matrix judges with the whole suite). */
  only?: string[];
  /** RATE_LIMIT_PER_MINUTE of the embedded reference (default: the runner's, raised for speed). */
  rateLimitPerMinute?: number;
  /** Aborting kills the certification (its own Ctrl-C handling stops the embedded server). */
  signal?: AbortSignal;
  /**
   * Where to keep the run's report.json (the temp dir goes): the matrix keeps each fault's, so its messages and root
   * causes can be judged afterwards without certifying again (harness/report/fault-reports.test.ts).
   */
  keepReport?: string;
}

/**
 * One certification of the embedded reference started with `faults`, in a process of its own (a clean module graph
 * and vitest per run, and runs can go side by side). Reads its report.json (a copy kept at `keepReport` when asked);
 * the temp report dir is removed.
 */
export async function certifyInChild(options: ChildRunOptions): Promise<RunOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'partner-cert-mutation-'));
  const started = performance.now();
  const args = ['--import', TSX_LOADER, CLI, '--target', 'embedded', '--format', 'json', '--report-dir', dir];
  args.push('--seed', String(options.seed));
  if (options.runs !== undefined) args.push('--runs', String(options.runs));
  if (options.only && options.only.length > 0) args.push('--only', options.only.join(','));
  if (options.faults.length > 0) args.push('--embedded-faults', options.faults.join(','));
  if (options.rateLimitPerMinute !== undefined) args.push('--embedded-rate-limit', String(options.rateLimitPerMinute));
  try {
    const { code, output } = await run(args, options.signal);
    const durationMs = Math.round(performance.now() - started);
    const file = join(dir, 'report.json');
    if (!existsSync(file)) {
      return {
        faults: options.faults,
        exitCode: code,
        flagged: [],
        errors: [],
        judged: 0,
        durationMs,
        problem: `no report (exit ${code}): ${output.slice(-600)}`,
      };
    }
    if (options.keepReport !== undefined) {
      mkdirSync(dirname(options.keepReport), { recursive: true });
      copyFileSync(file, options.keepReport);
    }
    const report = JSON.parse(readFileSync(file, 'utf8')) as ReportModel;
    return outcomeOf(options.faults, report, code, durationMs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(args: string[], signal: AbortSignal | undefined): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const abort = () => child.kill('SIGINT');
    signal?.addEventListener('abort', abort, { once: true });
    child.once('close', (code) => {
      signal?.removeEventListener('abort', abort);
      resolve({ code: code ?? 1, output });
    });
  });
}
