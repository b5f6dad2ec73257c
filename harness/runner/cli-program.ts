import { Command, CommanderError, Option } from 'commander';
import { packageInfo } from '../../contract/package-info.ts';
import { addAttestCommands } from '../attest/commands.ts';
import { addClientCommand } from '../client-certify/command.ts';
import { EMBEDDED_RATE_LIMIT_PER_MINUTE } from '../target/embedded.ts';
import { type ImageFlags, ImageOptionError, parseImageFlags } from '../target/image-options.ts';
import { CertifyError, EXIT } from './errors.ts';
import {
  DEFAULT_REMOTE_MAX_RPS,
  DEFAULT_RUNS,
  parseDuration,
  parseEmbeddedRateLimit,
  parseIntegerOption,
} from './options.ts';
import type { CertifyOptions } from './run.ts';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** stdout is a terminal: progress is one live line (unless CI is set). */
  isTTY?: boolean;
  columns?: number;
}

const defaultIo = (): CliIo => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  isTTY: process.stdout.isTTY === true,
  ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
});

/**
 * A subcommand (verify, countersign, client) chosen by the parse and run once parsing is over; each takes the parts of
 * the CLI's io it needs, and resolves to the exit code.
 */
type Subcommand = (io: CliIo) => Promise<number>;

/** Flags commander names as CertifyOptions does: they pass through unchanged (run.ts parses and checks them). */
type SameNamed =
  | 'target'
  | 'config'
  | 'profile'
  | 'allowBookings'
  | 'only'
  | 'seed'
  | 'runs'
  | 'xml'
  | 'reportDir'
  | 'maxRps'
  | 'strict'
  | 'expectedFailures'
  | 'date'
  | 'patient'
  | 'baseline'
  | 'failOn'
  | 'attest';

/** What commander parses: the same-named options, and the flags combined below into one option each. */
interface ParsedFlags extends Pick<CertifyOptions, SameNamed>, ImageFlags {
  format?: string;
  embeddedDatabase?: string;
  embeddedRedis?: string;
  embeddedFaults?: string;
  embeddedRateLimit?: string;
  fuzz?: boolean;
  duration?: string;
  maxFailures?: string;
  maxRequests?: string;
  replay?: string;
  from?: string;
  debug?: boolean;
  preflightOnly?: boolean;
}

/** Repeatable options (--image-env K=V --image-env K2=V2). */
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function buildProgram(io: CliIo, chooseCommand: (command: Subcommand) => void = () => {}): Command {
  const program = new Command('partner-api-certify').description(
    'Certify a server against the Partner Car Rental Distribution API v1: runs the conformance suites and writes a per-clause report.\nExit code: 0 judged and passed, 1 judged and failed, 2 could not judge (configuration, reachability, TLS, credentials, nothing applicable, harness error).',
  );
  // The order of the groups is the order --help lists the options in.
  addTargetOptions(program);
  addRunOptions(program);
  addEmbeddedOptions(program);
  addPatientAndFuzzOptions(program);
  addReplayOptions(program);
  addImageOptions(program);
  addVerdictOptions(program);
  configureParsing(program, io);
  addAttestCommands(program, chooseCommand);
  addClientCommand(program, chooseCommand);
  return program;
}

function addTargetOptions(program: Command): void {
  program
    .option(
      '--target <url|embedded>',
      'the server to judge: a base URL, or "embedded" (default: embedded, or the --config file\'s baseUrl)',
    )
    .option(
      '--config <file>',
      'target config (JSON: baseUrl, clients by role, optional control); required for a URL target',
    )
    .option('--profile <profile>', 'catalog | shop | book | full (default: full for embedded, catalog for a URL)')
    .option('--allow-bookings', 'let book/full checks create (and then cancel) reservations on a URL target')
    .option('--only <ids>', 'comma-separated clause ids or sections, e.g. 4.7,5.6');
}

function addRunOptions(program: Command): void {
  program
    .option('--seed <n>', 'seed of generated data (default: random, printed and recorded in the report)')
    .option('--runs <n>', `fast-check runs per property (default: ${DEFAULT_RUNS})`)
    .option(
      '--xml <coverage>',
      'mirror: clauses about representations judge XML, comparing every endpoint in both; every-check: every business check runs in XML as well (about twice the requests) (default: mirror)',
    )
    .option('--format <list>', 'report formats: json,junit,html,md (default: all)')
    .option('--report-dir <dir>', 'where reports go (default: reports/)')
    .option('--max-rps <n>', `request ceiling (default: none on loopback, ${DEFAULT_REMOTE_MAX_RPS} elsewhere)`)
    .option('--strict', 'SHOULD-level warnings fail the verdict too')
    .option(
      '--expected-failures <file>',
      'waivers: JSON [{ "clause": "4.7.3", "reason": "…", "expires": "YYYY-MM-DD" }]',
    );
}

function addEmbeddedOptions(program: Command): void {
  program
    .option(
      '--embedded-database <url>',
      'store of the embedded target: a postgres:// URL (e.g. to certify the PostgreSQL setup; default: a fresh SQLite file)',
    )
    .option('--embedded-redis <url>', "Redis for the embedded target's rate-limit buckets (default: in-process)")
    .option(
      '--embedded-faults <names>',
      'start the embedded target with these named faults or benign variants (comma-separated; npm run mutation)',
    )
    .option(
      '--embedded-rate-limit <n>',
      `business calls a minute for each ordinary client of the embedded target (default ${EMBEDDED_RATE_LIMIT_PER_MINUTE}: raised for speed, the suite's own traffic; a real service limits near 600)`,
    );
}

function addPatientAndFuzzOptions(program: Command): void {
  program
    .option(
      '--patient',
      'judge quote and token expiry by waiting for them (about 31 minutes) on a target without test hooks',
    )
    .option('--fuzz', 'a fuzz campaign instead of the suites: valid and hostile sequences judged by oracle-free rules')
    .option('--duration <time>', 'fuzz: how long, e.g. 90s, 10m, 1h (default 60s)')
    .option('--max-failures <n>', 'fuzz: stop after this many distinct failures (default 10)')
    .option('--max-requests <n>', 'fuzz: stop after this many requests');
}

function addReplayOptions(program: Command): void {
  program
    .option('--date <YYYY-MM-DD>', 'anchor of generated dates (default: 30 days from today, UTC)')
    .option('--replay <check-id>', 're-run one check of an earlier report (with its seed and date); needs --from')
    .option('--from <report.json>', 'the report --replay takes the check from');
}

function addImageOptions(program: Command): void {
  program
    .option(
      '--image <name[:tag]>',
      'certify a container image: started with testcontainers for this run (host network), removed at its end',
    )
    .option('--image-env <K=V>', "the container's environment, repeatable (K alone: K's value here)", collect)
    .option('--image-port <port>', 'the port the image listens on (default 8080; 0: a free port, passed as PORT)')
    .option('--image-ready <path>', 'HTTP path answering 200 once ready (default: the image label, else the port)')
    .option('--image-network <mode>', 'host (default: reached on 127.0.0.1) or bridge (a published port)');
}

function addVerdictOptions(program: Command): void {
  program
    .option('--preflight-only', 'only the pre-flight stage: reach the target, TLS, a token per role, scopes, hooks')
    .option('--baseline <report.json>', 'compare with an earlier report of the same target (new, fixed, unchanged)')
    .option('--fail-on <new|any>', 'new: only failures new since --baseline fail the exit code (default: any)')
    .option(
      '--attest <key.pem|env:NAME>',
      'sign a certification record beside the reports (certification.intoto.json: an in-toto statement in a DSSE envelope) with this Ed25519 or ECDSA P-256 private key (PEM file, or env:NAME: the PEM in a variable)',
    )
    .addOption(new Option('--debug', "show vitest's own output and stack traces of harness errors").hideHelp());
}

function configureParsing(program: Command, io: CliIo): void {
  program
    .version(packageInfo().version, '-V, --version', 'print the version and exit')
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      // Our own message follows; commander's would repeat it.
      outputError: () => {},
    })
    // The certification itself is the program's own action; verify, countersign and client are subcommands, whose
    // options (--image, --target, --key, --scenario) must not be taken for the run's: so options are positional.
    .enablePositionalOptions()
    .action(() => {});
}

/** Runs the CLI; resolves to the exit code (the entry point sets it). */
export async function main(argv: readonly string[], io: CliIo = defaultIo()): Promise<number> {
  let command: Subcommand | undefined;
  const program = buildProgram(io, (chosen) => {
    command = chosen;
  });
  let flags: ParsedFlags;
  try {
    program.parse(argv as string[], { from: 'user' });
    flags = program.opts<ParsedFlags>();
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.passed;
      io.stderr(`certify: ${error.message.replace(/^error: /, '')}\nRun with --help for the options.\n`);
      return EXIT.error;
    }
    throw error;
  }
  try {
    if (command) {
      if (Object.values(flags).some((value) => value !== undefined)) {
        throw new CertifyError('verify, countersign and client take their own options only, after the command name');
      }
      return await command(io);
    }
    const { preflightOnly, ...runFlags } = flags;
    if (preflightOnly && runFlags.attest !== undefined) {
      throw new CertifyError('--attest signs a certification; --preflight-only judges nothing');
    }
    const options = toOptions(runFlags, io);
    // Loaded here, not at the top: --help and option errors answer at once, without loading vitest.
    const { runCertification, runPreflightOnly } = await import('./run.ts');
    if (preflightOnly) return (await runPreflightOnly(options)).exitCode;
    const result = await runCertification(options);
    return result.exitCode;
  } catch (error) {
    if (error instanceof CertifyError) {
      io.stderr(`certify: ${error.message}\n`);
    } else {
      // A harness bug: say so plainly; the stack only on request (it helps us, not the person certifying).
      io.stderr(`certify: internal error: ${(error as Error)?.message ?? String(error)}\n`);
      if (flags.debug && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    }
    return EXIT.error;
  }
}

/** A live line on a terminal; whole lines in CI (CI set) and in pipes, where a redrawn line would be noise. */
export function progressMode(io: Pick<CliIo, 'isTTY' | 'env'>): 'live' | 'plain' {
  const ci = io.env.CI !== undefined && io.env.CI !== '' && io.env.CI !== 'false' && io.env.CI !== '0';
  return io.isTTY && !ci ? 'live' : 'plain';
}

function toOptions(flags: Omit<ParsedFlags, 'preflightOnly'>, io: CliIo): CertifyOptions {
  if (flags.replay !== undefined && flags.from === undefined) {
    throw new CertifyError('--replay needs --from <report.json>: the report the check id comes from');
  }
  if (flags.from !== undefined && flags.replay === undefined) {
    throw new CertifyError('--from is only used with --replay <check-id>');
  }
  if (flags.replay !== undefined && flags.only !== undefined) {
    throw new CertifyError('--replay runs one check; it cannot be combined with --only');
  }
  const {
    format,
    embeddedDatabase,
    embeddedRedis,
    embeddedFaults,
    embeddedRateLimit,
    fuzz,
    duration,
    maxFailures,
    maxRequests,
    replay,
    from,
    debug,
    image,
    imageEnv,
    imagePort,
    imageReady,
    imageNetwork,
    ...same
  } = flags;
  const options: CertifyOptions = {
    ...same,
    env: io.env,
    output: io.stdout,
    warn: (message) => io.stderr(`warning: ${message}\n`),
    verbose: debug ?? false,
    progress: progressMode(io),
  };
  if (io.signal) options.signal = io.signal;
  if (io.columns) options.columns = io.columns;
  if (format !== undefined) options.formats = format;
  if (fuzz) {
    options.fuzz = {
      durationMs: parseDuration(duration ?? '60s'),
      maxFailures: maxFailures === undefined ? 10 : parseIntegerOption('--max-failures', maxFailures, 1, 10_000),
      ...(maxRequests === undefined
        ? {}
        : { maxRequests: parseIntegerOption('--max-requests', maxRequests, 1, 1_000_000_000) }),
    };
  } else if (duration !== undefined || maxFailures !== undefined || maxRequests !== undefined) {
    throw new CertifyError('--duration, --max-failures and --max-requests apply to --fuzz');
  }
  if (
    embeddedDatabase !== undefined ||
    embeddedRedis !== undefined ||
    embeddedFaults !== undefined ||
    embeddedRateLimit !== undefined
  ) {
    options.embedded = {
      ...(embeddedDatabase !== undefined ? { databaseUrl: embeddedDatabase } : {}),
      ...(embeddedRedis !== undefined ? { redisUrl: embeddedRedis } : {}),
      ...(embeddedFaults !== undefined
        ? {
            faults: embeddedFaults
              .split(',')
              .map((name) => name.trim())
              .filter((name) => name !== ''),
          }
        : {}),
      ...(embeddedRateLimit !== undefined ? { rateLimitPerMinute: parseEmbeddedRateLimit(embeddedRateLimit) } : {}),
    };
  }
  if (replay !== undefined && from !== undefined) options.replay = { checkId: replay, from };
  const imageOptions = imageSpec({ image, imageEnv, imagePort, imageReady, imageNetwork }, io.env);
  if (imageOptions) options.image = imageOptions;
  return options;
}

function imageSpec(flags: ImageFlags, env: NodeJS.ProcessEnv): CertifyOptions['image'] {
  try {
    return parseImageFlags(flags, env);
  } catch (error) {
    if (error instanceof ImageOptionError) throw new CertifyError(error.message);
    throw error;
  }
}
