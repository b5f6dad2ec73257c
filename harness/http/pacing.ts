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
 * The harness's request pacing (--max-rps, Retry-After). Requests are spaced at least 1/maxRps seconds apart
 * (a bucket of one token: never a burst above the ceiling). One pacer per process; the runner runs one suite
 * file at a time, so it is the run's global pace.
 */
export class Pacer {
  private nextSlot = 0;
  private blockedUntil = 0;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: PacerOptions) {
    if (options.maxRps !== null && !(options.maxRps > 0)) throw new Error('maxRps must be a positive number');
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Resolves when the next request may go. Concurrent callers get successive slots. */
  async acquire(): Promise<void> {
    const now = this.now();
    let at = Math.max(now, this.blockedUntil);
    if (this.options.maxRps !== null) {
      at = Math.max(at, this.nextSlot);
      this.nextSlot = at + 1000 / this.options.maxRps;
    }
    if (at > now) await this.sleep(at - now);
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
