import { AsyncLocalStorage } from 'node:async_hooks';
import type { EvidenceExchange } from '../check/outcome-and-evidence.ts';

/** A check keeps its last exchanges only: the failing request is almost always among the last. */
export const MAX_RECORDED_EXCHANGES = 40;

/**
 * An exchange as recorded: made into evidence (redacted, with its curl line) only when something reads it. Checks
 * that pass never do, and making evidence of every exchange (redacting each text for every secret known, hundreds
 * of tokens by the end of a run) was a fifth of the suite worker's time.
 */
type Recorded = EvidenceExchange | (() => EvidenceExchange);

interface Recording {
  exchanges: Recorded[];
  dropped: number;
  /** The recording an exchange also goes to (capturing: the check's own). */
  forward?: Recording;
}

function evidenceOf(recorded: Recorded): EvidenceExchange {
  return typeof recorded === 'function' ? recorded() : recorded;
}

const storage = new AsyncLocalStorage<Recording>();

/** Runs fn with a fresh recording; every exchange the HTTP client makes inside it (at any depth) is kept. */
export async function recording<T>(fn: () => Promise<T>): Promise<{ exchanges: EvidenceExchange[]; result: T }> {
  const rec: Recording = { exchanges: [], dropped: 0 };
  try {
    const result = await storage.run(rec, fn);
    return {
      get exchanges() {
        return rec.exchanges.map(evidenceOf);
      },
      result,
    };
  } catch (error) {
    throw new RecordedError(error, rec.exchanges.map(evidenceOf), rec.dropped);
  }
}

/** The error fn threw, with the exchanges recorded before it. */
export class RecordedError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly exchanges: EvidenceExchange[],
    readonly dropped: number,
  ) {
    super('recorded failure');
  }
}

/**
 * Adds an exchange to the current recording, if any: evidence already redacted, or a function making it (called at
 * most once, when the recording is read; redaction then knows every secret registered meanwhile as well).
 */
export function record(exchange: EvidenceExchange | (() => EvidenceExchange)): void {
  for (let rec = storage.getStore(); rec; rec = rec.forward) {
    rec.exchanges.push(exchange);
    if (rec.exchanges.length > MAX_RECORDED_EXCHANGES) {
      rec.exchanges.shift();
      rec.dropped += 1;
    }
  }
}

/** Exchanges as captured: evidence, or what makes it when read. */
export type CapturedExchanges = readonly Recorded[];

/**
 * Runs fn, recording its exchanges as usual, and also returns them: a result the run reuses in later checks (a
 * listing read once for many) carries them, so each check that uses it shows them as its own evidence (recordAgain).
 */
export async function capturing<T>(fn: () => Promise<T>): Promise<{ result: T; captured: CapturedExchanges }> {
  const rec: Recording = { exchanges: [], dropped: 0 };
  const outer = storage.getStore();
  if (outer) rec.forward = outer;
  const result = await storage.run(rec, fn);
  return { result, captured: rec.exchanges };
}

/** Adds exchanges captured earlier (capturing) to the current recording, as if the check had made them. */
export function recordAgain(captured: CapturedExchanges): void {
  for (const exchange of captured) record(exchange);
}

/** The last exchange of the current recording (the one a claim about a response is about). */
export function lastRecordedExchange(): EvidenceExchange | undefined {
  const rec = storage.getStore();
  const last = rec?.exchanges.length ? rec.exchanges.length - 1 : -1;
  if (!rec || last < 0) return undefined;
  const evidence = evidenceOf(rec.exchanges[last] as Recorded);
  rec.exchanges[last] = evidence;
  return evidence;
}

/**
 * The latest exchange of the current recording that `match` accepts: the one a claim about a given response is about
 * (found by its X-Request-Id), when the check has made others since. Exchanges are made into evidence only as far back
 * as the search goes.
 */
export function findRecordedExchange(match: (exchange: EvidenceExchange) => boolean): EvidenceExchange | undefined {
  const rec = storage.getStore();
  if (!rec) return undefined;
  for (let index = rec.exchanges.length - 1; index >= 0; index--) {
    const evidence = evidenceOf(rec.exchanges[index] as Recorded);
    rec.exchanges[index] = evidence;
    if (match(evidence)) return evidence;
  }
  return undefined;
}

export function isRecording(): boolean {
  return storage.getStore() !== undefined;
}
