import {
  CLIENT_ENV,
  printVerdict,
  type SandboxJudged,
  type SandboxSessionOptions,
  startSandboxSession,
} from './run.ts';

/**
 * `partner-api-sandbox`: the recording sandbox of `partner-api-certify client`, served until it is stopped, for a
 * developer who runs a client by hand (from an IDE, a debugger, a test suite of their own) rather than as one
 * command. Stopping it judges what it recorded, exactly as `client` does when its command exits.
 */
export interface ServeSandboxOptions extends SandboxSessionOptions {
  output: (text: string) => void;
  /** Aborted by SIGINT or SIGTERM (the bin): stop serving, judge the session, write the reports. */
  signal: AbortSignal;
}

/** Single quotes for a POSIX shell: the lines can be pasted, or eval'd, as printed. */
const shellQuoted = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The line a script waits for: everything above it has been printed and the sandbox answers. */
export const READY_LINE = 'Ready:';

/**
 * What a developer needs to point a client at the sandbox. The credentials printed are the sandbox's own test clients
 * (fixtures/reference-target.json), which exist nowhere else: printing them gives nothing away, and the reports still
 * name them only by their variables.
 */
export function handoutText(session: Awaited<ReturnType<typeof startSandboxSession>>): string {
  const { baseUrl, caFile, env } = session.handout;
  const order = [
    CLIENT_ENV.baseUrl,
    CLIENT_ENV.clientId,
    CLIENT_ENV.clientSecret,
    CLIENT_ENV.clientId2,
    CLIENT_ENV.clientSecret2,
    CLIENT_ENV.caFile,
    'NODE_EXTRA_CA_CERTS',
  ];
  const lines = [
    `Sandbox (scenario ${session.scenario}) serving at ${baseUrl}, recording every exchange.`,
    "Its own test clients (the reference's fixtures, not a real service's credentials), as your client's environment:",
    ...order.flatMap((name) => (env[name] === undefined ? [] : [`  export ${name}=${shellQuoted(env[name])}`])),
    caFile
      ? `TLS: the sandbox's certificate (PEM, made for this run) is ${caFile}: trust it in your client (Node's fetch reads NODE_EXTRA_CA_CERTS when it starts).`
      : 'Plain HTTP (--http): C5.7 is not judged.',
    `${READY_LINE} Ctrl-C (SIGINT) or SIGTERM stops the sandbox, judges the session against the client clause catalogue and writes the reports to ${session.reportDir}.`,
    '',
  ];
  return lines.join('\n');
}

export async function serveSandbox(options: ServeSandboxOptions): Promise<SandboxJudged> {
  const session = await startSandboxSession(options);
  options.output(handoutText(session));
  if (!options.signal.aborted) {
    await new Promise<void>((resolve) => options.signal.addEventListener('abort', () => resolve(), { once: true }));
  }
  options.output('Stopping the sandbox and judging the session…\n');
  const judged = await session.finish({ command: null, notes: [] });
  printVerdict(judged, options.output);
  return judged;
}
