import { Command, CommanderError } from 'commander';
import { packageInfo } from '../../contract/package-info.ts';
import { CertifyError, EXIT } from '../runner/errors.ts';
import { addSandboxOptions, type SandboxFlags, sandboxOptions } from './command.ts';

export interface SandboxIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Aborted to stop serving (the bin: the first SIGINT or SIGTERM); the session is then judged. */
  signal: AbortSignal;
}

/**
 * `partner-api-sandbox [options]`: the program of the bin (harness/sandbox-cli.ts), apart from the process's signals
 * so a test runs it in-process and stops it by the same abort. Resolves to the exit code: 0 passed, 1 failed, 2
 * nothing recorded or could not judge (an option wrong, the sandbox not started).
 */
export async function sandboxMain(argv: readonly string[], io: SandboxIo): Promise<number> {
  let flags: SandboxFlags | undefined;
  const program = new Command('partner-api-sandbox')
    .description(
      "serve the reference implementation as a recording sandbox until Ctrl-C (SIGINT) or SIGTERM, for a partner's client run by hand: prints the base URL, the sandbox's own test clients and its certificate, then on stop judges the recorded traffic against the client clause catalogue and writes the reports, as `partner-api-certify client` does.\nExit code: 0 passed, 1 failed, 2 nothing recorded or could not judge.",
    )
    .version(packageInfo().version, '-V, --version', 'print the version and exit')
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      // Our own message follows; commander's would repeat it.
      outputError: () => {},
    });
  addSandboxOptions(program).action((parsed: SandboxFlags) => {
    flags = parsed;
  });
  try {
    program.parse(argv as string[], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.passed;
      io.stderr(`sandbox: ${error.message.replace(/^error: /, '')}\nRun with --help for the options.\n`);
      return EXIT.error;
    }
    throw error;
  }
  if (!flags) return EXIT.error;
  try {
    // Loaded here: --help and option errors answer without loading the judge and the sandbox's start.
    const { serveSandbox } = await import('./serve.ts');
    const judged = await serveSandbox({ ...sandboxOptions(flags), output: io.stdout, signal: io.signal });
    return judged.exitCode;
  } catch (error) {
    if (error instanceof CertifyError) io.stderr(`sandbox: ${error.message}\n`);
    else io.stderr(`sandbox: internal error: ${(error as Error)?.message ?? String(error)}\n`);
    return EXIT.error;
  }
}
