/** Longest Retry-After honoured; a larger value (or a broken one) must not stall a run for hours. */
const MAX_RETRY_AFTER_SECONDS = 120;

export interface PacerOptions {
  /** Requests per second at most; null = no ceiling. */
  maxRps: number | null;
  /** After a 429, wait its Retry-After before the next request (non-loopback targets). */
  honourRetryAfter: boolean;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A request arrives a little after the pacer lets it go (event loop, connection): kept clear of the ceiling. 20 ms
 * was not enough on a loaded machine (during `npm test`): the first request of a burst, opening the connection,
 * arrived that much later than the sixth, and the server saw six within a second at --max-rps 5.
 */
export const ARRIVAL_MARGIN_MS = 100;

/**
 * The harness's request pacing (--max-rps, Retry-After). A true ceiling over any sliding second: at most
 * floor(maxRps) requests are let go within any 1,000 ms (plus ARRIVAL_MARGIN_MS), below 1 a second one request per
 * 1/maxRps seconds; and they are spread at least 1/maxRps seconds apart, so the ceiling is never reached in a burst.
 * Callers are served in order. One pacer per process; the runner runs one suite file at a time, so it is the run's
 * global pace.
 */
export class Pacer {
  private blockedUntil = 0;
  /** When the last requests were let go (at most `capacity` of them). */
  private readonly granted: number[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: PacerOptions) {
    if (options.maxRps !== null && !(options.maxRps > 0)) throw new Error('maxRps must be a positive number');
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Resolves when the next request may go. Concurrent callers get successive slots. */
  acquire(): Promise<void> {
    const turn = this.queue.then(() => this.take());
    this.queue = turn.catch(() => {});
    return turn;
  }

  private async take(): Promise<void> {
    const maxRps = this.options.maxRps;
    const capacity = maxRps === null ? 0 : Math.max(1, Math.floor(maxRps));
    const window = maxRps === null ? 0 : (maxRps >= 1 ? 1000 : 1000 / maxRps) + ARRIVAL_MARGIN_MS;
    const spacing = maxRps === null ? 0 : 1000 / maxRps;
    for (;;) {
      const now = this.now();
      let at = Math.max(now, this.blockedUntil);
      if (maxRps !== null) {
        const last = this.granted.at(-1);
        if (last !== undefined) at = Math.max(at, last + spacing);
        const oldest = this.granted.length >= capacity ? this.granted[this.granted.length - capacity] : undefined;
        if (oldest !== undefined) at = Math.max(at, oldest + window);
      }
      // Sleep, then look again: a timer may fire early or a Retry-After may have arrived meanwhile.
      if (at > now) {
        await this.sleep(at - now);
        continue;
      }
      if (maxRps !== null) {
        this.granted.push(now);
        if (this.granted.length > capacity) this.granted.splice(0, this.granted.length - capacity);
      }
      return;
    }
  }

  /** Sees every response: a 429's Retry-After delays the next request (the check still sees the 429). */
  observe(status: number, headers: Record<string, string>): void {
    if (status !== 429 || !this.options.honourRetryAfter) return;
    const seconds = retryAfterSeconds(headers['retry-after'], this.now());
    if (seconds === undefined) return;
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + Math.min(seconds, MAX_RETRY_AFTER_SECONDS) * 1000);
  }
}

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** The harness is gentle with other people's servers only: loopback targets are the user's own. */
export function isLoopback(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
