import { Command, CommanderError } from 'commander';
import { packageInfo } from '../contract/package-info.ts';
import { HarnessConfigError, readTargetConfig } from '../harness/config/target-config.ts';
import type { LoadScenarioResult } from '../harness/report/model.ts';
import { ImageOptionError, type ImageSpec, parseImageFlags } from '../harness/target/image-options.ts';
import type { AnyScenario, LoadOptions } from './engine-neutral/model.ts';
import { assertOptionsBounded, assertPhasesBounded, LOAD_BOUNDS, LoadSafetyError } from './engine-neutral/safety.ts';
import { resolveLoadImageTarget } from './image-target.ts';
import { runNative } from './native/engine.ts';
import { assertSameTarget, mergeIntoReport, readReportForMerge, scrubber, writeLoadResults } from './output.ts';
import { SCENARIOS, scenarioById } from './scenarios/index.ts';
import { formatResult } from './summary-text.ts';
import { LoadUsageError, resolveLoadTarget } from './target.ts';

export const LOAD_EXIT = { passed: 0, failed: 1, error: 2 } as const;

export interface LoadCliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

interface Flags {
  target?: string;
  config?: string;
  duration?: string;
  rate?: string;
  ci?: boolean;
  out: string;
  reportDir?: string;
  list?: boolean;
  image?: string;
  imageEnv?: string[];
  imagePort?: string;
  imageReady?: string;
  imageNetwork?: string;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function number(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new LoadUsageError(`${flag} must be a number (got ${value})`);
  return parsed;
}

function listText(): string {
  return `${SCENARIOS.map(
    (s) =>
      `${s.id.padEnd(18)} ${s.title}\n${''.padEnd(18)} --rate: ${s.rateMeaning} (default ${s.defaults.rate}, CI ${s.ci.rate}); --duration default ${s.defaults.durationS} s`,
  ).join('\n')}\n`;
}

/** The target a run will measure, before it starts: the embedded reference, or the URL of --target or the config. */
function intendedTarget(flags: Flags): { embedded: boolean; baseUrl: string } {
  if (flags.target !== undefined && flags.target !== 'embedded') {
    return { embedded: false, baseUrl: flags.target.replace(/\/+$/, '') };
  }
  if (flags.target === undefined && flags.config !== undefined) {
    try {
      return { embedded: false, baseUrl: readTargetConfig(flags.config).config.baseUrl };
    } catch (error) {
      if (error instanceof HarnessConfigError) throw new LoadUsageError(`--config: ${error.message}`);
      throw error;
    }
  }
  return { embedded: true, baseUrl: 'embedded' };
}

/** The options naming the target and what the run sends it. */
function targetOptions(program: Command): Command {
  return program
    .option(
      '--target <url|embedded>',
      'embedded (default: a fresh reference implementation per scenario) or a base URL',
    )
    .option('--config <file>', 'target config (JSON: baseUrl, clients by role, control, owned); needed for a URL')
    .option('--duration <seconds>', 'length of the load phases')
    .option('--rate <n>', "the scenario's load knob (see --list)")
    .option('--ci', 'the short settings CI uses');
}

/** The options saying where results go, and --list. */
function outputOptions(program: Command): Command {
  return program
    .option('--out <dir>', 'where results go', 'reports/load')
    .option(
      '--report-dir <dir>',
      'also add the results to the certification report in this directory (every format there; a report of the same target only)',
    )
    .option('--list', 'list the scenarios');
}

/** The options of a container image as the target. */
function imageOptions(program: Command): Command {
  return program
    .option('--image <name[:tag]>', 'a container image, started per scenario with testcontainers (host network)')
    .option('--image-env <K=V>', "the container's environment, repeatable (K alone: K's value here)", collect)
    .option('--image-port <port>', 'the port the image listens on (default 8080; 0: a free port, passed as PORT)')
    .option('--image-ready <path>', 'HTTP path answering 200 once ready (default: the image label, else the port)')
    .option('--image-network <mode>', 'host (default) or bridge');
}

function loadProgram(io: LoadCliIo): Command {
  const program = new Command('load')
    .description(
      `Runs a load scenario on the native engine against the embedded reference implementation or a target you own.\nExit code: 0 passed, 1 a check or threshold failed, 2 usage, safety or harness error.\nBounds: duration ≤ ${LOAD_BOUNDS.maxDurationS} s, rate ≤ ${LOAD_BOUNDS.maxRate}/s, ≤ ${LOAD_BOUNDS.maxVus} connections; a non-loopback target needs "owned": true in its config.`,
    )
    .argument('[scenario]', `${SCENARIOS.map((s) => s.id).join(' | ')} | all`);
  return imageOptions(outputOptions(targetOptions(program)))
    .version(packageInfo().version, '-V, --version', 'print the version and exit')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
}

/** The flags and scenario argument, or the exit code when commander answered already (help, version, bad usage). */
function parseArgs(argv: string[], io: LoadCliIo): { flags: Flags; scenarioArg: string | undefined } | number {
  const program = loadProgram(io);
  try {
    program.parse(argv, { from: 'user' });
    return { flags: program.opts<Flags>(), scenarioArg: program.args[0] };
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? LOAD_EXIT.passed : LOAD_EXIT.error;
    throw error;
  }
}

/** What a run needs settled before any load is sent. */
interface RunPlan {
  scenarios: AnyScenario[];
  image: ImageSpec | undefined;
  rate: number | undefined;
  duration: number | undefined;
}

/** The scenarios and settings of the command line; a bad name or combination is a LoadUsageError. */
function planRun(flags: Flags, scenarioArg: string | undefined): RunPlan {
  if (scenarioArg === undefined) throw new LoadUsageError(`name a scenario:\n${listText()}`);
  const scenarios: AnyScenario[] =
    scenarioArg === 'all' ? [...SCENARIOS] : [scenarioById(scenarioArg)].filter((s): s is AnyScenario => !!s);
  if (scenarios.length === 0) throw new LoadUsageError(`unknown scenario ${scenarioArg}:\n${listText()}`);
  const image = imageSpec(flags);
  if (image && flags.target !== undefined) throw new LoadUsageError('--image and --target name two targets: pass one');
  const rate = number('--rate', flags.rate);
  const duration = number('--duration', flags.duration);
  // The report to merge into is checked before any load is sent: it exists and judged the target to be measured.
  if (flags.reportDir) assertSameTarget(readReportForMerge(flags.reportDir), intendedTarget(flags));
  return { scenarios, image, rate, duration };
}

/** The results so far, and the scrubber of the last target resolved (the one an error message may name). */
interface RunState {
  results: LoadScenarioResult[];
  scrub: (text: string) => string;
}

/** Starts the scenario's target, runs it and prints its result; the target is stopped whatever happens. */
async function runScenario(
  scenario: AnyScenario,
  plan: RunPlan,
  flags: Flags,
  io: LoadCliIo,
  signal: AbortSignal | undefined,
  state: RunState,
): Promise<void> {
  const base = flags.ci ? scenario.ci : scenario.defaults;
  const options: LoadOptions = { rate: plan.rate ?? base.rate, durationS: plan.duration ?? base.durationS };
  // Refuse out-of-bounds settings before starting anything (the engine checks again).
  assertOptionsBounded(options);
  assertPhasesBounded(scenario.phases(options));
  const warn = (message: string) => io.stderr(`warning: ${message}\n`);
  const resolved = plan.image
    ? await resolveLoadImageTarget(plan.image, flags.config, scenario.embeddedEnv, warn, signal)
    : await resolveLoadTarget(flags.target, flags.config, scenario.embeddedEnv, warn);
  state.scrub = scrubber(resolved.target);
  const onAbort = () => void resolved.stop();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    io.stderr(`${scenario.id}: ${scenario.title} against ${resolved.target.baseUrl}\n`);
    const result = await runNative(scenario, {
      target: resolved.target,
      embedded: resolved.embedded,
      options,
      log: (message) => io.stderr(`  ${message}\n`),
    });
    state.results.push(result);
    io.stdout(`${state.scrub(formatResult(result))}\n\n`);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await resolved.stop();
  }
}

/** The answer to an error of the run: usage and safety errors briefly, anything else with its (scrubbed) stack. */
function reportError(error: unknown, io: LoadCliIo, scrub: (text: string) => string): number {
  if (error instanceof LoadUsageError || error instanceof LoadSafetyError) {
    io.stderr(`error: ${error.message}\n`);
    return LOAD_EXIT.error;
  }
  io.stderr(`harness error: ${scrub((error as Error).stack ?? String(error))}\n`);
  return LOAD_EXIT.error;
}

/** `npm run load -- <scenario|all> …`; resolves to the exit code. */
export async function runLoadCli(argv: string[], io: LoadCliIo, signal?: AbortSignal): Promise<number> {
  const parsed = parseArgs(argv, io);
  if (typeof parsed === 'number') return parsed;
  const { flags, scenarioArg } = parsed;
  if (flags.list) {
    io.stdout(listText());
    return LOAD_EXIT.passed;
  }

  const state: RunState = { results: [], scrub: (text: string) => text };
  try {
    const plan = planRun(flags, scenarioArg);
    for (const scenario of plan.scenarios) {
      if (signal?.aborted) break;
      await runScenario(scenario, plan, flags, io, signal, state);
    }
    const written = writeLoadResults(state.results, flags.out, state.scrub);
    if (flags.reportDir) written.push(...mergeIntoReport(state.results, flags.reportDir, state.scrub));
    io.stdout(`written: ${written.join(', ')}\n`);
  } catch (error) {
    return reportError(error, io, state.scrub);
  }
  return state.results.every((result) => result.passed) ? LOAD_EXIT.passed : LOAD_EXIT.failed;
}

function imageSpec(flags: Flags): ImageSpec | undefined {
  try {
    return parseImageFlags(
      Object.fromEntries(
        (['image', 'imageEnv', 'imagePort', 'imageReady', 'imageNetwork'] as const)
          .filter((key) => flags[key] !== undefined)
          .map((key) => [key, flags[key]]),
      ),
      process.env,
    );
  } catch (error) {
    if (error instanceof ImageOptionError) throw new LoadUsageError(error.message);
    throw error;
  }
}
