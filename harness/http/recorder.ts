import { AsyncLocalStorage } from 'node:async_hooks';
import type { EvidenceExchange } from '../check/outcome-and-evidence.ts';

/** A check keeps its last exchanges only: the failing request is almost always among the last. */
export const MAX_RECORDED_EXCHANGES = 40;

interface Recording {
  exchanges: EvidenceExchange[];
  dropped: number;
}

const storage = new AsyncLocalStorage<Recording>();

/** Runs fn with a fresh recording; every exchange the HTTP client makes inside it (at any depth) is kept. */
export async function recording<T>(fn: () => Promise<T>): Promise<{ exchanges: EvidenceExchange[]; result: T }> {
  const rec: Recording = { exchanges: [], dropped: 0 };
  try {
    const result = await storage.run(rec, fn);
    return { exchanges: rec.exchanges, result };
  } catch (error) {
    throw new RecordedError(error, rec.exchanges, rec.dropped);
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

/** Adds an exchange (already redacted) to the current recording, if any. */
export function record(exchange: EvidenceExchange): void {
  const rec = storage.getStore();
  if (!rec) return;
  rec.exchanges.push(exchange);
  if (rec.exchanges.length > MAX_RECORDED_EXCHANGES) {
    rec.exchanges.shift();
    rec.dropped += 1;
  }
}

/** The last exchange of the current recording (the one a claim about a response is about). */
export function lastRecordedExchange(): EvidenceExchange | undefined {
  const rec = storage.getStore();
  return rec?.exchanges[rec.exchanges.length - 1];
}

export function isRecording(): boolean {
  return storage.getStore() !== undefined;
}
