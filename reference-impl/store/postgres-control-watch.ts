import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { ControlState } from './types.ts';

/** The channel every control change is announced on, with its new version as the payload. */
export const CONTROL_CHANNEL = 'partner_api_control';

export interface ControlWatchTiming {
  /** How long a granted lease lasts, on the database's clock. */
  leaseMs: number;
  /** How often the lease is renewed. */
  renewEveryMs: number;
  /** This side stops trusting its copy this long before the lease it was granted ends. */
  marginMs: number;
  /** The wait before connecting again once the listening connection failed. */
  retryMs: number;
}

export const DEFAULT_WATCH_TIMING: Readonly<ControlWatchTiming> = Object.freeze({
  leaseMs: 2_000,
  renewEveryMs: 400,
  marginMs: 500,
  retryMs: 250,
});

const RENEW: { name: string; text: string } = {
  name: 'renew_control_lease',
  text: 'SELECT current_version, current_state FROM renew_control_lease($1, $2, $3)',
};

/**
 * An instance's copy of the control state, trusted without a read per request for as long as a lease says no
 * change can have been answered that this copy lacks (migration 5, `renew_control_lease`):
 *
 * - A change bumps the row's version and notifies CONTROL_CHANNEL; the writer answers its caller only once no
 *   unexpired lease has seen an older version (PostgresStore.untilSeen).
 * - This side renews its lease on a connection of its own, listening on the channel, with the version it holds.
 *   The database grants (or extends) the lease only when that version is the current one, checked under a share
 *   lock on the row, so no change commits between the check and the grant; otherwise it answers the current row,
 *   which this side applies and then renews again: that renewal is the acknowledgement a writer waits for.
 * - The copy is trusted until the renewal's send time plus the lease less a margin, on this process's monotonic
 *   clock, so it stops before the database lets the lease lapse. A notification, a failed query or a lost
 *   connection makes this side renew at once, or stop trusting the copy and connect again.
 *
 * Whenever the copy is not trusted the store reads the row per request, as it would without the watch.
 *
 * What is guaranteed is the answer, not the number of reads: a copy is read only while trusted, and a trusted copy
 * holds every change already answered. When the copy is trusted is the scheduler's business. A change untrusts it
 * from the refusal until this side has handled the renewal that acknowledges it, and the writer may answer inside
 * that gap (it sees the acknowledgement in the database, on a connection of its own), so the next calls here read
 * the row; a renewal that comes late (a busy machine, a slow database) ends the trust too. An applied copy whose
 * acknowledging renewal is still in flight is not trusted early: its old lease may have lapsed, and a later change
 * may then already be answered without waiting for this side.
 */
export class ControlWatch {
  readonly instanceId = randomUUID();
  private client: pg.Client | undefined;
  private applied: { version: number; state: ControlState } | undefined;
  private trustedUntil = 0;
  private renewal: Promise<void> | undefined;
  private renewAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly parse: (text: string | undefined) => ControlState,
    private readonly timing: Readonly<ControlWatchTiming> = DEFAULT_WATCH_TIMING,
  ) {}

  /** The copy, while it may be trusted; undefined when the caller must read the row itself. */
  current(): ControlState | undefined {
    return this.applied !== undefined && performance.now() < this.trustedUntil ? this.applied.state : undefined;
  }

  /** Connects and starts renewing; returns at once (until the first lease, callers read per request). */
  start(): void {
    if (this.stopped || this.client !== undefined) return;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.trustedUntil = 0;
    clearInterval(this.timer);
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    await this.renewal;
    // Writers stop waiting for this instance at once instead of when its lease lapses.
    await client.query('DELETE FROM control_listeners WHERE instance_id = $1', [this.instanceId]).catch(() => {});
    await endClient(client, this.timing.leaseMs);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...this.config, query_timeout: this.timing.leaseMs });
    this.client = client;
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    client.on('notification', (message) => {
      if (Number(message.payload) !== this.applied?.version) this.renew();
    });
    try {
      await client.connect();
      // Listening before the first renewal: a change committed after that renewal's check is always announced.
      await client.query(`LISTEN ${CONTROL_CHANNEL}`);
      await client.query("DELETE FROM control_listeners WHERE lease_until < clock_timestamp() - interval '1 hour'");
    } catch {
      this.drop(client);
      return;
    }
    if (this.client !== client) return;
    this.timer = setInterval(() => this.renew(), this.timing.renewEveryMs);
    this.timer.unref();
    this.renew();
  }

  /** The listening connection failed: the copy is no longer trusted; connect again a little later. */
  private drop(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.trustedUntil = 0;
    clearInterval(this.timer);
    void endClient(client, this.timing.leaseMs);
    if (this.stopped) return;
    this.retry = setTimeout(() => this.start(), this.timing.retryMs);
    this.retry.unref();
  }

  /** One renewal at a time; a request for one while it runs makes it run once more. */
  private renew(): void {
    if (this.renewal !== undefined) {
      this.renewAgain = true;
      return;
    }
    this.renewal = this.renewWhileAsked().finally(() => {
      this.renewal = undefined;
    });
  }

  private async renewWhileAsked(): Promise<void> {
    do {
      this.renewAgain = false;
      const client = this.client;
      if (client === undefined || this.stopped) return;
      try {
        await this.renewOnce(client);
      } catch {
        this.drop(client);
        return;
      }
    } while (this.renewAgain);
  }

  /** Renews until granted: each refusal brings the current row, applied before asking again. */
  private async renewOnce(client: pg.Client): Promise<void> {
    for (;;) {
      const seen = this.applied?.version ?? -1;
      const sentAt = performance.now();
      const { rows } = await client.query<{ current_version: string | null; current_state: string | null }>({
        ...RENEW,
        values: [this.instanceId, seen, this.timing.leaseMs],
      });
      if (this.client !== client) return;
      const row = rows[0];
      if (row === undefined || row.current_version === null) {
        // No control row (deleted by hand): nothing to hold a lease on; the store reads, and recreates, the row.
        this.trustedUntil = 0;
        return;
      }
      const current = Number(row.current_version);
      if (current === seen) {
        this.trustedUntil = sentAt + this.timing.leaseMs - this.timing.marginMs;
        return;
      }
      this.trustedUntil = 0;
      this.applied = { version: current, state: this.parse(row.current_state ?? undefined) };
    }
  }
}

/** Ends a client; one whose server never answers (frozen, partitioned) has its socket dropped after `graceMs`. */
async function endClient(client: pg.Client, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  const ended = client.end().then(
    () => 'ended' as const,
    () => 'ended' as const,
  );
  if ((await Promise.race([ended, late])) === 'late') {
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
  clearTimeout(timer);
}
