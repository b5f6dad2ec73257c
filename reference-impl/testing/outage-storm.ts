import { expect } from 'vitest';
import { IN_FLIGHT_LEASE_MS } from '../domain/reservations.ts';
import { newIdempotencyKey, type PartnerApiClient, reservationBody } from './booking-helpers.ts';
import { expectApiError } from './http-helpers.ts';
import { sleep } from './own-services.ts';
import type { ApiResponse } from './test-server.ts';

/**
 * A booking storm for the outage tests, driven the way a well-behaved partner drives the API: each worker books
 * under a new Idempotency-Key (its partnerReference is the key, so the store tells which key made which
 * reservation); on a retryable 503 it waits a little and sends the same key and body again, until it has its 201 (or
 * the 200 replay of a booking whose first answer was lost). A key whose claim a failed request left in flight (409
 * IDEMPOTENT_REPLAY_IN_FLIGHT, spec 4.7.5) is put aside and settled after the storm, once the lease has lapsed.
 */

/** An answer slower than this is a hang (generous: the machine is shared and loaded). */
export const PROMPT_MS = 8_000;
/**
 * How long a fault may take to show as three refused bookings (waitForRefusals): a moment on a quiet machine; the
 * bound only ends a test whose server never refuses.
 */
export const FAULT_SEEN_MS = 20_000;
/** A client's pause before it retries a retryable answer. */
const RETRY_PAUSE_MS = 100;

export interface StormAnswer {
  key: string;
  status: number;
  code?: string;
  ms: number;
  /** Date.now() when the request was sent and when its answer came. */
  sentAt: number;
  answeredAt: number;
  /** The response of a refusal, to judge its envelope afterwards (kept for non-2xx only). */
  response?: ApiResponse;
  /** The transport error of a request that got no answer. */
  error?: string;
}

export interface StormOptions {
  workers?: number;
}

export class BookingStorm {
  readonly answers: StormAnswer[] = [];
  /** Key → the reservation acknowledged for it (the 201 body, or the 200 replay body). */
  readonly acknowledged = new Map<string, { reservationId: string; body: unknown; status: number }>();
  /** Keys whose claim a failed request left in flight: answered 409 IDEMPOTENT_REPLAY_IN_FLIGHT. */
  readonly inFlight = new Set<string>();
  /** Every key sent at least once. */
  readonly sent = new Set<string>();
  private stopping = false;
  private running: Promise<void> | undefined;

  constructor(
    private readonly client: PartnerApiClient,
    private readonly quoteId: string,
    private readonly options: StormOptions = {},
  ) {}

  bodyOf(key: string) {
    return reservationBody(this.quoteId, { partnerReference: key });
  }

  start(): void {
    this.running = Promise.all(Array.from({ length: this.options.workers ?? 4 }, () => this.worker())).then(() => {});
  }

  /** Stops sending new requests and waits for the ones in flight. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  /** 201s (and replays) answered after `sinceMs`. */
  acknowledgedSince(sinceMs: number): number {
    return this.answers.filter((a) => a.answeredAt >= sinceMs && (a.status === 201 || a.status === 200)).length;
  }

  /** Waits until `count` bookings were acknowledged after `sinceMs`; rejects after `timeoutMs`. */
  async waitForAcknowledged(count: number, sinceMs: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.acknowledgedSince(sinceMs) < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `only ${this.acknowledgedSince(sinceMs)} of ${count} bookings acknowledged within ${timeoutMs} ms; ` +
            `last answers: ${JSON.stringify(this.answers.slice(-5).map(({ response: _r, ...a }) => a))}`,
        );
      }
      await sleep(20);
    }
    return Date.now();
  }

  /**
   * Waits until at least `count` bookings sent at or after `sinceMs` were answered 503 DEPENDENCY_UNAVAILABLE: the
   * event the outage tests judge (a booking made during the fault, refused), not merely any refusal after it (a
   * request sent before the fault and refused after it, or a 409 of a claim left in flight), so the fault is never
   * repaired before the machine, however busy, has shown it.
   */
  async waitForRefusals(count: number, sinceMs: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const refused = () =>
      this.answers.filter((a) => a.sentAt >= sinceMs && a.status === 503 && a.code === 'DEPENDENCY_UNAVAILABLE');
    while (refused().length < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `${refused().length} of ${count} bookings sent after the fault refused 503 DEPENDENCY_UNAVAILABLE within ` +
            `${timeoutMs} ms; answers: ${this.summary()}`,
        );
      }
      await sleep(20);
    }
  }

  private async send(key: string): Promise<StormAnswer> {
    const sentAt = Date.now();
    let answer: StormAnswer;
    try {
      const res = await this.client.book('partnerA', this.bodyOf(key), key);
      answer = {
        key,
        status: res.status,
        code: res.json?.error?.code,
        ms: Date.now() - sentAt,
        sentAt,
        answeredAt: Date.now(),
        ...(res.status >= 300 ? { response: res } : {}),
      };
      if (res.status === 201 || (res.status === 200 && res.headers.get('idempotent-replay') === 'true')) {
        this.acknowledged.set(key, { reservationId: res.json.reservationId, body: res.json, status: res.status });
      }
    } catch (error) {
      answer = { key, status: 0, ms: Date.now() - sentAt, sentAt, answeredAt: Date.now(), error: String(error) };
    }
    this.answers.push(answer);
    return answer;
  }

  private async worker(): Promise<void> {
    while (!this.stopping) {
      const key = newIdempotencyKey();
      this.sent.add(key);
      for (;;) {
        const answer = await this.send(key);
        if (answer.code === 'IDEMPOTENT_REPLAY_IN_FLIGHT') this.inFlight.add(key);
        const retry = answer.status === 503 && answer.response?.json?.error?.retryable === true;
        if (!retry || this.stopping) break;
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }

  /**
   * After the storm, with the dependency back: every answer was prompt and either a success or a well-formed 503
   * DEPENDENCY_UNAVAILABLE (or the retryable 409 of a claim left in flight); then every key sent is settled (the
   * lease of claims left in flight is let lapse on the service clock, and each unacknowledged key is sent again),
   * and each must end with its one reservation.
   */
  async settle(): Promise<{ retried: number; created: number; replayed: number }> {
    expect(
      this.answers.filter((a) => a.status === 0 || a.status >= 500).filter((a) => a.status !== 503),
      'no 500 and no dropped connection',
    ).toEqual([]);
    expect(
      this.answers.filter((a) => a.ms > PROMPT_MS).map(({ response: _r, ...a }) => a),
      `no answer slower than ${PROMPT_MS} ms`,
    ).toEqual([]);
    for (const a of this.answers.filter((x) => x.status >= 300)) {
      const res = a.response as ApiResponse;
      expectApiError(
        res,
        a.code === 'IDEMPOTENT_REPLAY_IN_FLIGHT' ? 'IDEMPOTENT_REPLAY_IN_FLIGHT' : 'DEPENDENCY_UNAVAILABLE',
      );
    }

    const unsettled = [...this.sent].filter((k) => !this.acknowledged.has(k));
    const counts = { retried: unsettled.length, created: 0, replayed: 0 };
    if (unsettled.length === 0) return counts;
    await this.client.advanceClock(IN_FLIGHT_LEASE_MS / 1000 + 1);
    for (const key of unsettled) {
      const answer = await this.send(key);
      expect([200, 201], `${key} after recovery: ${answer.response?.text ?? answer.error ?? ''}`).toContain(
        answer.status,
      );
      if (answer.status === 201) counts.created++;
      else counts.replayed++;
    }
    return counts;
  }

  /**
   * Exactly once: the store holds one reservation per key sent, each the one acknowledged for it; every acknowledged
   * booking reads back unchanged, and the same key and body replay it (200, Idempotent-Replay: true, the same body).
   */
  async expectExactlyOnce(referencesInStore: readonly string[], client = this.client): Promise<void> {
    const sorted = [...referencesInStore].sort();
    expect(new Set(sorted).size, 'no partnerReference twice').toBe(sorted.length);
    expect(sorted, 'one reservation per key sent, none else').toEqual([...this.sent].sort());
    for (const [key, ack] of this.acknowledged) {
      const read = await client.call('GET', `/reservations/${ack.reservationId}`, { as: 'partnerA' });
      expect(read.status, `reservation of ${key}`).toBe(200);
      expect(read.json.partnerReference).toBe(key);
      const replay = await client.book('partnerA', this.bodyOf(key), key);
      expect(replay.status, `replay of ${key}: ${replay.text}`).toBe(200);
      expect(replay.headers.get('idempotent-replay')).toBe('true');
      expect(replay.json).toEqual(ack.body);
    }
  }

  /** Counts by status and code, for the log line of a test. */
  summary(): string {
    const counts = new Map<string, number>();
    for (const a of this.answers) {
      const label = `${a.status}${a.code ? ` ${a.code}` : ''}`;
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
    return [...counts].map(([label, n]) => `${n} × ${label}`).join(', ');
  }
}
