import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Store } from '../store/types.ts';
import { IDEMPOTENCY_RETENTION_MS } from './reservations.ts';

/**
 * Records stay this long past the 24 h memory (spec 4.7.6) before the purge deletes them. A request reads its clock
 * when it arrives and claims its key a little later: without the margin, a purge between the two could delete a
 * record that request still counts as remembered (a replay would become a second booking).
 */
export const PURGE_GRACE_MS = 60_000;

export interface IdempotencyPurgeOptions {
  /** Pause between the end of one purge and the start of the next. */
  intervalMs: number;
  /** Rows per DELETE statement. */
  batchSize: number;
  /** Called when a purge fails (the store is away, say); the next one runs on schedule. */
  onError?: (error: unknown) => void;
}

/**
 * The background purge of idempotency records: every `intervalMs`, deletes done records created more than the memory
 * window (plus a grace) ago by the service clock, `batchSize` rows a statement, giving way to requests between
 * batches. In-flight records are never deleted (Store.purgeIdempotencyKeys). Claims already treat such records as
 * absent; the purge only stops the table growing without end.
 */
export class IdempotencyPurge {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private started = false;
  /** Set by stop(): a purge in progress ends after its current batch. */
  private stopping = false;

  constructor(
    private readonly store: Store,
    private readonly options: IdempotencyPurgeOptions,
  ) {
    if (!Number.isInteger(options.batchSize) || options.batchSize < 1) {
      throw new Error('the idempotency purge batch size must be a positive integer');
    }
  }

  /** The service clock (app.ts: wall clock plus the operator's offset), as requests see it. */
  private async serviceNowMs(): Promise<number> {
    const control = await this.store.getControlState();
    return Date.now() + control.clockOffsetMs;
  }

  /** Oldest creation time a record may have and still be kept. */
  async cutoffMs(): Promise<number> {
    return (await this.serviceNowMs()) - IDEMPOTENCY_RETENTION_MS - PURGE_GRACE_MS;
  }

  /** One purge to the end of the backlog (or until stopped); returns how many records it deleted. */
  async runOnce(): Promise<number> {
    const cutoff = await this.cutoffMs();
    const { batchSize } = this.options;
    let total = 0;
    for (;;) {
      const deleted = await this.store.purgeIdempotencyKeys(cutoff, batchSize);
      total += deleted;
      if (deleted < batchSize || this.stopping) return total;
      await yieldToRequests();
    }
  }

  /** Runs a purge every `intervalMs` (the first one an interval after start); the timer never holds the process. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a purge in progress to finish its batch (so the store can be closed after). */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
