import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { API_PREFIX } from '../../contract/constants.ts';
import { RECORD_FILE } from '../attest/record-file.ts';
import type { ClientCredentials } from '../config/target-config.ts';
import { CertifyError } from '../runner/errors.ts';
import {
  parseFormats,
  parseIntegerOption,
  REPORT_FILES,
  REPORT_FORMATS,
  type ReportFormat,
} from '../runner/options.ts';
import { prepareReportDir } from '../runner/write-reports.ts';
import { type EmbeddedTarget, type EmbeddedTargetOptions, startEmbeddedTarget } from '../target/embedded.ts';
import { clientVerdict, judgeSession } from './judge.ts';
import { readRecording } from './recording.ts';
import { buildClientReport, CLIENT_RENDERERS, type ClientReport, renderClientTable } from './report.ts';
import { CLIENT_SCENARIOS, DEFAULT_CLIENT_REPORT_DIR } from './scenarios.ts';

/**
 * `partner-api-certify client -- <command…>`: the reference started as a sandbox that records every exchange
 * (SANDBOX_RECORD), the partner's command run against it with the sandbox's address and credentials in its
 * environment, then the recording judged against the client clause catalogue (docs/client-clauses.md).
 */

/** The environment variables the command is given (README "Certifying your client"). */
export const CLIENT_ENV = {
  baseUrl: 'PARTNER_API_BASE_URL',
  clientId: 'PARTNER_API_CLIENT_ID',
  clientSecret: 'PARTNER_API_CLIENT_SECRET',
  clientId2: 'PARTNER_API_CLIENT_ID_2',
  clientSecret2: 'PARTNER_API_CLIENT_SECRET_2',
  /** The sandbox's self-signed certificate (PEM), for a client that is not Node (Node reads NODE_EXTRA_CA_CERTS). */
  caFile: 'PARTNER_API_CA_FILE',
} as const;

/**
 * The sandbox's business limit a minute: the reference's own default, not the raised one of a server certification,
 * so a client meets the ceiling a real service would set (spec 8).
 */
export const SANDBOX_RATE_LIMIT_PER_MINUTE = 600;

/** The sandbox's side of a session, shared by `partner-api-certify client` and `partner-api-sandbox`. */
export interface SandboxSessionOptions {
  /** A bundled scenario's name (CLIENT_SCENARIOS) or the path of a scenario file (a `.json`); default happy-path. */
  scenario?: string;
  /** Default: reports/client, beside the server's reports/. */
  reportDir?: string;
  /** Comma-separated, as certify's --format (default: all four). */
  formats?: string;
  /** 'https' (default, the spec's 5.7; C5.7 is then judged) or 'http' for a client that cannot be given a CA. */
  transport?: 'https' | 'http';
  /** The loopback port to listen on (--port, checked: 0 to 65535); default 0, a free one. */
  port?: number | string;
  /** Tests: start the sandbox another way. */
  startSandbox?: (options: EmbeddedTargetOptions) => Promise<EmbeddedTarget>;
}

export interface ClientCertifyOptions extends SandboxSessionOptions {
  /** The partner's command and its arguments (no shell: the words as given). */
  command: readonly string[];
  /** The environment the command inherits (before the sandbox's variables are added). */
  env: NodeJS.ProcessEnv;
  output: (text: string) => void;
  /** 'inherit' (the CLI): the command's output is the user's; 'pipe' (tests): collected into `commandOutput`. */
  stdio?: 'inherit' | 'pipe';
  signal?: AbortSignal;
}

export interface ClientCertifyResult {
  exitCode: 0 | 1 | 2;
  report: ClientReport;
  written: string[];
  /** With stdio 'pipe': what the command wrote to stdout and stderr. */
  commandOutput: string;
}

/** The scenario as the report names it, and as SANDBOX_SCENARIO gives it to the sandbox (a name, or a full path). */
function parseScenario(value: string | undefined): { name: string; sandbox: string } {
  const scenario = value ?? 'happy-path';
  if ((CLIENT_SCENARIOS as readonly string[]).includes(scenario)) return { name: scenario, sandbox: scenario };
  if (scenario.endsWith('.json')) {
    const file = resolve(scenario);
    if (!existsSync(file)) throw new CertifyError(`--scenario: no such scenario file ${file}`);
    // The sandbox checks the file's content as it starts: a mistake in it is a start failure, exit 2.
    return { name: scenario, sandbox: file };
  }
  throw new CertifyError(
    `--scenario: unknown scenario "${scenario}" (available: ${CLIENT_SCENARIOS.join(', ')}, or a scenario file's path ending in .json)`,
  );
}

/** Removes an earlier run's client reports: a run that could not judge leaves no verdict behind. */
function clearClientReports(dir: string): void {
  for (const format of REPORT_FORMATS) rmSync(join(dir, REPORT_FILES[format]), { force: true });
  rmSync(join(dir, RECORD_FILE), { force: true });
  rmSync(join(dir, RECORDING_FILE), { force: true });
}

/** The session's recording, copied beside the reports: the evidence every finding's `#seq` points into. */
export const RECORDING_FILE = 'client-recording.jsonl';

/** What a client of the sandbox is handed: the sandbox's own fixture clients, never a real service's secrets. */
export interface SandboxHandout {
  baseUrl: string;
  /** The sandbox's certificate (PEM), or undefined when it serves plain HTTP. */
  caFile: string | undefined;
  /** CLIENT_ENV's variables (and NODE_EXTRA_CA_CERTS under HTTPS), as the client's environment holds them. */
  env: Record<string, string>;
}

export interface SandboxJudged {
  exitCode: 0 | 1 | 2;
  report: ClientReport;
  written: string[];
}

/**
 * A recording sandbox that is serving: `finish` stops it, judges what it recorded against the client clause catalogue
 * and writes the reports. The one path both commands take, so the two judge and report alike.
 */
export interface SandboxSession {
  scenario: string;
  handout: SandboxHandout;
  /** Where the reports will be written (absolute). */
  reportDir: string;
  /**
   * Stops the sandbox and judges the session. `command` is the partner's command and how it ended, or null when the
   * sandbox was served by hand; `notes` say what the verdict cannot (placed after "nothing called" and before the
   * transport's note).
   */
  finish(ended: { command: ClientReport['command']; notes: string[] }): Promise<SandboxJudged>;
  /** Stops the sandbox and removes the session's files without judging (the command could not be started). */
  abandon(): Promise<void>;
}

/**
 * Checks every option (exit 2, nothing touched), then starts the reference as a recording sandbox. A start that fails
 * removes an earlier run's reports: a run that could not judge leaves no verdict behind.
 */
export async function startSandboxSession(options: SandboxSessionOptions): Promise<SandboxSession> {
  const scenario = parseScenario(options.scenario);
  const formats = parseFormats(options.formats ?? REPORT_FORMATS.join(','));
  const port = options.port === undefined ? undefined : parseIntegerOption('--port', options.port, 0, 65_535);
  const reportDir = prepareReportDir(options.reportDir ?? DEFAULT_CLIENT_REPORT_DIR);
  const transport = options.transport ?? 'https';

  const work = mkdtempSync(join(tmpdir(), 'partner-cert-client-'));
  const files: SessionFiles = { work, recordingFile: join(work, 'recording.jsonl'), reportDir };
  const startedAt = new Date();
  const start = options.startSandbox ?? startEmbeddedTarget;
  const sandbox = await startRecordingSandbox(start, { scenario: scenario.sandbox, port, transport }, files);
  const partners = await partnersOf(sandbox, work);
  const handout = handoutOf(sandbox, partners);
  const session: SessionToJudge = { scenario: scenario.name, formats, startedAt, handout, partners, files };
  return {
    scenario: scenario.name,
    handout,
    reportDir,
    finish: (ended) => finishSession(sandbox, session, ended),
    abandon: async () => {
      await sandbox.stop();
      rmSync(work, { recursive: true, force: true });
      clearClientReports(reportDir);
    },
  };
}

/** The session's scratch directory (its recording) and where its reports go. */
interface SessionFiles {
  work: string;
  recordingFile: string;
  reportDir: string;
}

interface Partners {
  partnerA: ClientCredentials;
  partnerB: ClientCredentials;
}

/** What judging the session needs besides the recording. */
interface SessionToJudge {
  scenario: string;
  formats: ReportFormat[];
  startedAt: Date;
  handout: SandboxHandout;
  partners: Partners;
  files: SessionFiles;
}

type SessionEnd = Parameters<SandboxSession['finish']>[0];

async function startRecordingSandbox(
  start: (options: EmbeddedTargetOptions) => Promise<EmbeddedTarget>,
  { scenario, port, transport }: { scenario: string; port: number | undefined; transport: 'https' | 'http' },
  { work, recordingFile, reportDir }: SessionFiles,
): Promise<EmbeddedTarget> {
  try {
    return await start({
      // embedded.ts strips SANDBOX_RECORD from the inherited environment (a server certification must not record);
      // given here explicitly, it wins.
      env: {
        SANDBOX_RECORD: recordingFile,
        SANDBOX_SCENARIO: scenario,
        ...(port !== undefined ? { PORT: String(port) } : {}),
      },
      rateLimitPerMinute: SANDBOX_RATE_LIMIT_PER_MINUTE,
      transport,
    });
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    clearClientReports(reportDir);
    throw new CertifyError(`the sandbox could not be started: ${(error as Error).message}`);
  }
}

async function partnersOf(sandbox: EmbeddedTarget, work: string): Promise<Partners> {
  const partnerA = sandbox.config.clients.partnerA;
  const partnerB = sandbox.config.clients.partnerB;
  if (!partnerA || !partnerB) {
    await sandbox.stop();
    rmSync(work, { recursive: true, force: true });
    throw new CertifyError('the sandbox has no partnerA and partnerB clients to hand out');
  }
  return { partnerA, partnerB };
}

function handoutOf(sandbox: EmbeddedTarget, { partnerA, partnerB }: Partners): SandboxHandout {
  const baseUrl = `${sandbox.config.baseUrl}${API_PREFIX}`;
  const caFile = sandbox.config.tls?.caFile;
  const env: Record<string, string> = {
    [CLIENT_ENV.baseUrl]: baseUrl,
    [CLIENT_ENV.clientId]: partnerA.clientId,
    [CLIENT_ENV.clientSecret]: partnerA.clientSecret,
    [CLIENT_ENV.clientId2]: partnerB.clientId,
    [CLIENT_ENV.clientSecret2]: partnerB.clientSecret,
  };
  // The certificate is made for this sandbox: a Node client trusts it with no code of its own (fetch reads
  // NODE_EXTRA_CA_CERTS at start); any other client is told where it is.
  if (caFile) Object.assign(env, { [CLIENT_ENV.caFile]: caFile, NODE_EXTRA_CA_CERTS: caFile });
  return { baseUrl, caFile, env };
}

async function finishSession(
  sandbox: EmbeddedTarget,
  session: SessionToJudge,
  ended: SessionEnd,
): Promise<SandboxJudged> {
  await sandbox.stop();
  const finishedAt = new Date();
  const exchanges = keepRecording(session.files);
  const report = judgeRecording(session, exchanges, ended, finishedAt);
  const written = writeClientReports(report, session.formats, session.files.reportDir);
  return { exitCode: report.exitCode, report, written };
}

function keepRecording({ work, recordingFile, reportDir }: SessionFiles): ReturnType<typeof readRecording> {
  try {
    // No file: the sandbox was never called (the recorder appends on the first answer).
    const exchanges = existsSync(recordingFile) ? readRecording(recordingFile) : [];
    if (exchanges.length > 0) copyFileSync(recordingFile, join(reportDir, RECORDING_FILE));
    else rmSync(join(reportDir, RECORDING_FILE), { force: true });
    return exchanges;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function judgeRecording(
  session: SessionToJudge,
  exchanges: ReturnType<typeof readRecording>,
  ended: SessionEnd,
  finishedAt: Date,
): ClientReport {
  const judgements = judgeSession(exchanges);
  const verdict = clientVerdict(exchanges, judgements);
  const notes = sessionNotes(exchanges.length, ended, session.handout.caFile);
  const { partnerA, partnerB } = session.partners;
  return buildClientReport({
    scenario: session.scenario,
    startedAt: session.startedAt,
    finishedAt,
    baseUrl: session.handout.baseUrl,
    transport: session.handout.caFile ? 'https' : 'http',
    command: ended.command,
    credentials: [
      { ...partnerA, idEnv: CLIENT_ENV.clientId, secretEnv: CLIENT_ENV.clientSecret },
      { ...partnerB, idEnv: CLIENT_ENV.clientId2, secretEnv: CLIENT_ENV.clientSecret2 },
    ],
    exchanges,
    judgements,
    verdict,
    notes,
  });
}

function sessionNotes(exchangeCount: number, ended: SessionEnd, caFile: string | undefined): string[] {
  const notes: string[] = [];
  if (exchangeCount === 0) {
    notes.push(
      ended.command
        ? 'the command never called the sandbox: nothing to judge'
        : 'no client called the sandbox while it served: nothing to judge',
    );
  }
  notes.push(...ended.notes);
  if (!caFile) {
    notes.push('the sandbox served plain HTTP (--http, or no openssl to make a certificate): C5.7 is not judged');
  }
  return notes;
}

/** Formats not asked for are removed: the report directory holds this run's reports only. */
function writeClientReports(report: ClientReport, formats: readonly ReportFormat[], reportDir: string): string[] {
  rmSync(join(reportDir, RECORD_FILE), { force: true });
  const written: string[] = [];
  for (const format of REPORT_FORMATS) {
    const file = join(reportDir, REPORT_FILES[format]);
    if (!formats.includes(format)) {
      rmSync(file, { force: true });
      continue;
    }
    try {
      writeFileSync(file, CLIENT_RENDERERS[format](report));
    } catch (error) {
      throw new CertifyError(
        `--report-dir: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    written.push(file);
  }
  return written;
}

export async function runClientCertification(options: ClientCertifyOptions): Promise<ClientCertifyResult> {
  // Everything the user gave is checked before the sandbox starts (exit 2, nothing touched).
  if (options.command.length === 0 || options.command[0] === '') {
    throw new CertifyError('client: no command given: partner-api-certify client [options] -- <command…>');
  }
  const session = await startSandboxSession(options);
  const { baseUrl } = session.handout;
  const env: NodeJS.ProcessEnv = { ...options.env, ...session.handout.env };
  // A certificate path inherited from the caller's environment would name no certificate of this sandbox.
  if (!session.handout.caFile) delete env[CLIENT_ENV.caFile];

  options.output(`Sandbox (scenario ${session.scenario}) at ${baseUrl}; running: ${options.command.join(' ')}\n`);
  let ended: CommandEnd;
  try {
    ended = await runCommand(options.command, env, options.stdio ?? 'inherit', options.signal);
  } catch (error) {
    await session.abandon();
    throw error;
  }
  if (ended.startError) {
    await session.abandon();
    throw new CertifyError(`the command could not be started: ${ended.startError}`);
  }

  const notes: string[] = [];
  if (ended.signal !== null) notes.push(`the command was ended by ${ended.signal}: only what it sent is judged`);
  else if (ended.exitCode !== 0) {
    // The verdict is about the traffic; a failing command is said, not judged (its own tests may have failed).
    notes.push(`the command exited ${ended.exitCode}: only what it sent is judged`);
  }
  const judged = await session.finish({
    command: { argv: [...options.command], exitCode: ended.exitCode, signal: ended.signal },
    notes,
  });
  printVerdict(judged, options.output);
  return { ...judged, commandOutput: ended.output };
}

/** The per-clause table and where the reports went, as both commands print them. */
export function printVerdict(judged: SandboxJudged, output: (text: string) => void): void {
  output(`\n${renderClientTable(judged.report)}`);
  output(`Reports: ${judged.written.join(', ')}\n`);
}

interface CommandEnd {
  exitCode: number | null;
  signal: string | null;
  startError?: string;
  output: string;
}

/** Runs the command to its end; on abort (Ctrl-C of the CLI) it is asked to stop, then killed after 10 s. */
function runCommand(
  command: readonly string[],
  env: NodeJS.ProcessEnv,
  stdio: 'inherit' | 'pipe',
  signal: AbortSignal | undefined,
): Promise<CommandEnd> {
  return new Promise((resolve) => {
    const [file = '', ...args] = command;
    const child = spawn(file, args, { env, stdio: stdio === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = (end: CommandEnd) => {
      signal?.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      resolve(end);
    };
    child.once('error', (error) => done({ exitCode: null, signal: null, startError: error.message, output }));
    child.once('close', (code, killedBy) => done({ exitCode: code, signal: killedBy, output }));
  });
}
