import type { Command } from 'commander';
import { CertifyError } from '../runner/errors.ts';
import { CLIENT_SCENARIOS, DEFAULT_CLIENT_REPORT_DIR } from './scenarios.ts';

export interface ClientCommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** The subcommand chosen by the parse, run once parsing is over (as verify and countersign are); resolves to the exit code. */
export type ClientCommand = (io: ClientCommandIo) => Promise<number>;

/** The sandbox's options, the same for `partner-api-certify client` and `partner-api-sandbox`. */
export interface SandboxFlags {
  scenario?: string;
  reportDir?: string;
  format?: string;
  http?: boolean;
  port?: string;
}

/** Declares SandboxFlags on a command: one wording and one default for both commands. */
export function addSandboxOptions(command: Command): Command {
  return command
    .option(
      '--scenario <name>',
      `what the sandbox does during the session: ${CLIENT_SCENARIOS.join(', ')}, or a scenario file (.json)`,
      'happy-path',
    )
    .option('--report-dir <dir>', `where reports go (default: ${DEFAULT_CLIENT_REPORT_DIR}/)`)
    .option('--format <list>', 'report formats: json,junit,html,md (default: all)')
    .option('--http', 'serve plain HTTP instead of HTTPS (C5.7 is then not judged)')
    .option('--port <n>', 'the loopback port the sandbox listens on (default: a free one)');
}

/** SandboxFlags as the session's options (run.ts checks each value before the sandbox starts). */
export function sandboxOptions(flags: SandboxFlags) {
  return {
    ...(flags.scenario !== undefined ? { scenario: flags.scenario } : {}),
    ...(flags.reportDir !== undefined ? { reportDir: flags.reportDir } : {}),
    ...(flags.format !== undefined ? { formats: flags.format } : {}),
    ...(flags.port !== undefined ? { port: flags.port } : {}),
    transport: flags.http ? ('http' as const) : ('https' as const),
  };
}

/**
 * `partner-api-certify client [options] -- <command…>`. Options after the first word of the command are the
 * command's own (passThroughOptions), so `--` is only needed when the command's first word starts with a dash.
 */
export function addClientCommand(program: Command, choose: (command: ClientCommand) => void): void {
  const client = program
    .command('client')
    .description(
      "certify a partner's client: starts the reference as a recording sandbox, runs the command with PARTNER_API_BASE_URL, PARTNER_API_CLIENT_ID and PARTNER_API_CLIENT_SECRET (and _2 for a second client) in its environment, then judges the traffic against the client clause catalogue.\nExit code: 0 passed, 1 failed, 2 could not judge (the command never called the sandbox, or could not start).",
    )
    .argument('<command...>', 'the command to run, e.g. -- npx tsx my-client.ts');
  addSandboxOptions(client)
    .passThroughOptions()
    .action((command: string[], flags: SandboxFlags) => {
      choose((io) => runClient(command, flags, io));
    });
}

async function runClient(command: string[], flags: SandboxFlags, io: ClientCommandIo): Promise<number> {
  // Loaded here: --help answers without loading the judge and the sandbox's start.
  const { runClientCertification } = await import('./run.ts');
  if (command.length === 0) throw new CertifyError('client: no command given');
  const result = await runClientCertification({
    command,
    ...sandboxOptions(flags),
    env: io.env,
    output: io.stdout,
    ...(io.signal ? { signal: io.signal } : {}),
  });
  return result.exitCode;
}
