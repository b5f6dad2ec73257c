import { Writable } from 'node:stream';
import type { Reporter, TestSpecification } from 'vitest/node';
import { BaseSequencer, createVitest, startVitest, type Vitest } from 'vitest/node';
import type { CheckDeclaration } from '../check/outcome-and-evidence.ts';
import { type PreflightTokens, RUN_SETTINGS_KEY, RUN_TOKENS_KEY, type RunSettings } from '../run-settings.ts';

export interface SuiteRunInput {
  /** The project root (vite resolves modules from here). */
  root: string;
  /** Globs of suite files, relative to root. */
  include: string[];
  /** The run's settings, handed to the workers with vitest's provide (they read them with inject). */
  settings: RunSettings;
  /** Pre-flight's tokens, handed over the same way (harness/check/harness-state.ts adopts them). */
  tokens?: PreflightTokens;
  reporters: Reporter[];
  /** Only tests whose full name matches (--replay). */
  testNamePattern?: string;
  /** Default per-check timeout; a check may set its own. */
  testTimeoutMs?: number;
  /** Aborting cancels the run (Ctrl-C): the reporters still get onTestRunEnd with what finished. */
  signal?: AbortSignal;
  /** Show vitest's own output and suite console output (PARTNER_CERT_DEBUG=1); otherwise both are captured. */
  verbose?: boolean;
}

export interface SuiteRunResult {
  /** What vitest itself wrote (errors it printed, warnings), kept for harness-error messages. */
  output: string;
  /** vitest stopped before running (startup or configuration failure). */
  started: boolean;
}

/**
 * Runs the suites in this process's own vitest (programmatic API), one file at a time so checks never overlap on a
 * target, with our config only (the project's vitest.config.ts is for its unit tests and excludes suites/).
 */
export async function runSuites(input: SuiteRunInput): Promise<SuiteRunResult> {
  const capture = new CaptureStream();
  let vitest: Vitest | undefined;
  let started = false;
  const cancel = () => {
    void vitest?.cancelCurrentRun('keyboard-input');
  };
  // vitest hands us its instance through onInit; that is how a run started by startVitest can be cancelled.
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const ours = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const lifecycle: Reporter = {
    onInit(ctx) {
      vitest = ctx;
      // vitest's logger exits the process on SIGINT/SIGTERM; the runner cancels instead (input.signal), so the
      // embedded server is stopped and the report of what finished is still written.
      for (const signal of signals) {
        for (const listener of process.listeners(signal)) {
          if (!ours.get(signal)?.has(listener)) process.off(signal, listener as (...args: unknown[]) => void);
        }
      }
      if (input.signal?.aborted) cancel();
    },
    onTestRunStart() {
      started = true;
    },
  };
  input.signal?.addEventListener('abort', cancel, { once: true });
  // startVitest sets process.exitCode when a test fails; the certify exit code is the verdict's, decided by us.
  const exitCode = process.exitCode;
  const env = { TEST: process.env.TEST, VITEST: process.env.VITEST, NODE_ENV: process.env.NODE_ENV };
  try {
    await startVitest(
      'test',
      [],
      {
        ...suiteConfig(input),
        run: true,
        sequence: { shuffle: false, concurrent: false, sequencer: SpecOrderSequencer },
        reporters: input.verbose ? ['default', lifecycle, ...input.reporters] : [lifecycle, ...input.reporters],
        silent: !input.verbose,
        testTimeout: input.testTimeoutMs ?? 120_000,
        hookTimeout: 120_000,
        allowOnly: false,
        retry: 0,
        bail: 0,
      },
      { logLevel: input.verbose ? 'info' : 'silent', clearScreen: false },
      input.verbose ? {} : { stdout: capture, stderr: capture },
    );
  } finally {
    input.signal?.removeEventListener('abort', cancel);
    process.exitCode = exitCode;
    restoreEnv(env);
  }
  return { output: capture.text(), started };
}

/** What runSuites and collectChecks configure alike: our config only, one worker, one module graph. */
function suiteConfig(input: Pick<SuiteRunInput, 'root' | 'include' | 'settings' | 'testNamePattern' | 'tokens'>) {
  return {
    config: false as const,
    root: input.root,
    include: input.include,
    watch: false,
    pool: 'forks' as const,
    // One module graph for every suite file: the harness's state (token cache, connection pool) is per run anyway,
    // and re-importing it per file costs about a third of a run.
    isolate: false,
    fileParallelism: false,
    maxWorkers: 1,
    provide: { [RUN_SETTINGS_KEY]: input.settings, [RUN_TOKENS_KEY]: input.tokens ?? {} },
    testNamePattern: input.testNamePattern,
    passWithNoTests: true,
    cache: false as const,
    globals: false,
    coverage: { enabled: false },
  };
}

/** prepareVitest marks this process as a test process; the runner is not one (it may go on to run other work). */
function restoreEnv(env: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}

/**
 * The checks a run will run, per suite file, as vitest collects them under the run's settings (its --only, --xml and
 * --replay), without running any: each registered test is one check in one representation, with what it declares
 * resolved at registration (check.ts). h2spec walks its tree of test cases for --dryrun; this is that walk, so the
 * progress total and pre-flight's view of the checks are the run's own, not a reading of the sources.
 */
export async function collectChecks(
  input: Pick<SuiteRunInput, 'root' | 'include' | 'settings' | 'testNamePattern'>,
): Promise<Map<string, CheckDeclaration[]>> {
  const env = { TEST: process.env.TEST, VITEST: process.env.VITEST, NODE_ENV: process.env.NODE_ENV };
  const vitest = await createVitest('test', { ...suiteConfig(input), reporters: [] }, { logLevel: 'silent' });
  try {
    const { testModules } = await vitest.collect();
    const checks = new Map<string, CheckDeclaration[]>();
    for (const module of testModules) {
      // A suite file that cannot be loaded declares nothing here: the run loads it again and reports its harness error.
      const declared: CheckDeclaration[] = [];
      for (const test of module.children.allTests()) {
        const declaration = test.meta().declared;
        if (declaration && test.options.mode !== 'skip' && test.options.mode !== 'todo') declared.push(declaration);
      }
      checks.set(module.moduleId, declared);
    }
    return checks;
  } finally {
    await vitest.close();
    restoreEnv(env);
  }
}

/**
 * Suite files in name order (spec order), with the patient checks last: they wait out what is left of the 30
 * minutes the runner started before the suites, so the rest runs in the meantime.
 */
class SpecOrderSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const last = (id: string) => (/patient\.test\.ts$/.test(id) ? 1 : 0);
    return [...files].sort((a, b) => last(a.moduleId) - last(b.moduleId) || a.moduleId.localeCompare(b.moduleId));
  }
}

/** Keeps the last 64 KiB of what vitest writes: enough for an error message, bounded on a long run. */
class CaptureStream extends Writable {
  private chunks: string[] = [];
  private size = 0;

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    this.chunks.push(text);
    this.size += text.length;
    while (this.size > 65_536 && this.chunks.length > 1) this.size -= this.chunks.shift()?.length ?? 0;
    callback();
  }

  text(): string {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal colour codes vitest writes
    return this.chunks.join('').replace(/\u001b\[[0-9;]*m/g, '');
  }
}
