import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { CLIENT_CLAUSES } from '../../contract/client-clauses/index.ts';
import { PROJECT_ROOT } from '../runner/paths.ts';
import type { ClientOutcome } from './judge.ts';
import type { ClientReport } from './report.ts';
import { runClientCertification } from './run.ts';
import type { ClientScenario } from './scenarios.ts';

/**
 * The client-side mutation proof (docs/client-clauses.md "Which client fault proves each clause"): the named client
 * faults of examples/faulty-client.ts, each run under the scenario that exposes it and expected caught on its own
 * clause. The table is the example's own (`--list`): examples/ imports nothing of the project, and nothing imports
 * examples/, so it is read from the program's output.
 */
export interface ClientFaultEntry {
  name: string;
  /** The client clause the fault breaks. */
  clause: string;
  scenario: ClientScenario;
  description: string;
}

export const FAULTY_CLIENT = join(PROJECT_ROOT, 'examples', 'faulty-client.ts');
export const GOOD_CLIENT = join(PROJECT_ROOT, 'examples', 'good-client.ts');

/** The clauses no client fault can prove, and why (docs/client-clauses.md says the same). */
export const NO_CLIENT_FAULT: Readonly<Record<string, string>> = {
  'C2.1a': 'outside the traffic: what a client computes with a Money value never reaches the wire',
  'C2.1b': 'outside the traffic: how a client reads Money.display never reaches the wire',
  'C5.7':
    'the sandbox serves one protocol on its port: a plain-HTTP request to the HTTPS sandbox fails its handshake and is never an exchange',
  'C7.2a':
    'the bundled scenarios provoke each code once per client: a client that reads the message (and so recovers from no reworded message) is "not judged", and a breach needs the same code met twice under two wordings',
};

/**
 * The client run as `node --import tsx <file>`: one process, where `npx tsx` starts three (npx, tsx's CLI, then the
 * program), which counts when four sandboxes and their clients share two cores.
 */
const TSX = ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];

export async function listClientFaults(): Promise<ClientFaultEntry[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [...TSX, FAULTY_CLIENT, '--list'], {
    cwd: PROJECT_ROOT,
  });
  return JSON.parse(stdout) as ClientFaultEntry[];
}

/** One client's session judged: each clause's outcome, the command's exit code and how long the run took. */
export interface ClientRun {
  exitCode: 0 | 1 | 2;
  commandExitCode: number | null;
  outcomes: Record<string, ClientOutcome>;
  exchanges: number;
  seconds: number;
  output: string;
}

/** Runs the good client (fault undefined) or the faulty client with one fault under a scenario, over plain HTTP. */
export async function runClient(scenario: ClientScenario, fault?: string): Promise<ClientRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'client-fault-'));
  const started = Date.now();
  try {
    const env = { ...process.env };
    if (fault === undefined) delete env.CLIENT_FAULT;
    else env.CLIENT_FAULT = fault;
    const result = await runClientCertification({
      env,
      output: () => {},
      stdio: 'pipe',
      scenario,
      transport: 'http',
      formats: 'json',
      reportDir,
      command: [process.execPath, ...TSX, fault === undefined ? GOOD_CLIENT : FAULTY_CLIENT],
    });
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ClientReport;
    return {
      exitCode: result.exitCode,
      commandExitCode: report.command?.exitCode ?? null,
      outcomes: Object.fromEntries(report.clauses.map((clause) => [clause.id, clause.outcome])),
      exchanges: report.exchanges,
      seconds: (Date.now() - started) / 1000,
      output: result.commandOutput,
    };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/** What a fault's run shows: whether its own clause was caught, and the other clauses that failed or warned. */
export function verdictOnFault(
  fault: ClientFaultEntry,
  run: ClientRun,
): { expected: ClientOutcome; own: ClientOutcome | undefined; otherFails: string[]; otherWarns: string[] } {
  const level = CLIENT_CLAUSES.find((clause) => clause.id === fault.clause)?.level;
  const others = Object.entries(run.outcomes).filter(([id]) => id !== fault.clause);
  return {
    expected: level === 'SHOULD' ? 'warn' : 'fail',
    own: run.outcomes[fault.clause],
    otherFails: others.filter(([, outcome]) => outcome === 'fail').map(([id]) => id),
    otherWarns: others.filter(([, outcome]) => outcome === 'warn').map(([id]) => id),
  };
}

/** `work` over `items`, at most `width` at a time (each sandbox run is a child process and a server of its own). */
export async function inParallel<T, R>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}
