/**
 * Living inside the target's rate limits (spec 8): a model of each client's buckets, learned from the target's own
 * answers, that holds a request back while its bucket is known to be empty, and the policy for a 429 the check did
 * not set out to provoke: wait it out and send the identical request again, a bounded number of times.
 *
 * Spec 8: limits are per API client (8.13); every answer of a rate-limited endpoint carries X-RateLimit-Limit,
 * -Remaining ("requests left in the current one-minute window") and -Reset (8.14); a 429 carries Retry-After in whole
 * seconds (8.15); the token endpoint has two buckets, per client and per source address, and sends only Retry-After
 * (8.16a, 8.16b); ceilings are not shown (spec 8). So nothing here assumes a ceiling, a window shape or an algorithm: a bucket
 * is "empty until T" only when the target said so (Remaining 0 with its Reset, or a 429 with Retry-After).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { isoInstantMs } from '../../contract/iso-instant.ts';
import { retryAfterSeconds } from './pacing.ts';
import { emptyTraffic, type Traffic } from './traffic.ts';

/** Longest single wait honoured; a larger Retry-After or Reset (or a broken one) must not stall a run for hours. */
export const MAX_LIMIT_WAIT_MS = 120_000;
/** How often an unprovoked 429 is waited out and the request sent again before the check is "not judged". */
export const MAX_LIMIT_RETRIES = 4;
/**
 * A 429 asking to come back within this long, while the minute window still had room, tells of a per-second limit
 * (spec 8 leaves the algorithm open: a burst ceiling is allowed): the bucket is paced to what that second served.
 */
const BURST_RETRY_MS = 2_000;
/** The span a burst ceiling counts requests over. */
const SECOND_MS = 1_000;
/** A 429 with neither Retry-After nor a readable Reset: waited this long, doubled at each retry. */
const FALLBACK_WAIT_MS = 1_000;
/**
 * The server's clock is read from its Date header (whole seconds): a Reset converted to our clock is kept this much
 * later, so the request does not arrive a moment before the window turns.
 */
const CLOCK_MARGIN_MS = 1_100;
/** Waiting a check may spend on rate limits before it is "not judged" rather than held up without end. */
export const CHECK_LIMIT_WAIT_BUDGET_MS = 240_000;

/** A request the target kept refusing with 429 although the check did not provoke it: nothing could be judged. */
export class RateLimitedError extends Error {
  override readonly name = 'RateLimitedError';
}

/** The token endpoint's per-address bucket (8.16a): one for every client of this process. */
const ADDRESS = 'token-address';

/**
 * Which buckets of the target a request draws on: the client's business bucket, or the token endpoint's two (spec
 * 8.13, 8.16a). Keyed by origin as well: one process may talk to several servers (the harness's own tests do).
 */
export function bucketsOf(url: string, role: string | undefined): string[] {
  const client = role ?? 'anonymous';
  let origin = '';
  try {
    origin = new URL(url).origin;
  } catch {
    // keyed by role alone
  }
  if (/\/oauth\/token(?:\?|$)/.test(url)) return [`token ${client} ${origin}`, `${ADDRESS} ${origin}`];
  return [`business ${client} ${origin}`];
}

interface Bucket {
  /** Requests the target said are left in the window, less those sent since (undefined: not known). */
  left: number | undefined;
  /** On our clock: when the window turns (Reset) or a 429's Retry-After has passed. */
  until: number;
  /** The last X-RateLimit-Limit seen: what a turned window is assumed to hold again. */
  limit: number | undefined;
  /** Requests sent and not yet answered. */
  inFlight: number;
  /** When the requests of the last second were sent (kept only while a per-second ceiling may be learned). */
  sentAt: number[];
  /**
   * Requests a second the target served before a short 429 (a burst limit beside the minute window): the pace the
   * bucket is then held to, so the run does not meet that 429 again and again (each one a request spent and a wait).
   */
  perSecond: number | undefined;
}

export interface RateLimitModelOptions {
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The buckets of the run's clients as the target has described them. One per process (like the pacer): every
 * check of a run shares it, so a bucket one check emptied holds the next user of that client until it refills.
 */
export class RateLimitModel {
  private readonly buckets = new Map<string, Bucket>();
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;

  constructor(options: RateLimitModelOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
  }

  private bucket(key: string): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { left: undefined, until: 0, limit: undefined, inFlight: 0, sentAt: [], perSecond: undefined };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /** Forgets every bucket (the target reset its windows): nothing is held back until answers say otherwise. */
  forget(): void {
    for (const bucket of this.buckets.values()) {
      bucket.left = undefined;
      bucket.until = 0;
    }
  }

  /** How long a request on `keys` must wait before it is sent (0: it may go now). */
  delayFor(keys: readonly string[]): number {
    const now = this.now();
    let delay = 0;
    for (const key of keys) {
      const bucket = this.buckets.get(key);
      if (bucket?.perSecond !== undefined) {
        const recent = lastSecond(bucket, now);
        if (recent.length >= bucket.perSecond) delay = Math.max(delay, (recent[0] ?? now) + SECOND_MS - now);
      }
      if (!bucket || bucket.until <= now) continue;
      // Before the window turns: wait when nothing is left (a 429's Retry-After sets left to 0).
      if (bucket.left !== undefined && bucket.left - bucket.inFlight <= 0) delay = Math.max(delay, bucket.until - now);
    }
    return Math.min(delay, MAX_LIMIT_WAIT_MS);
  }

  /** Holds the caller until its buckets have room; returns the milliseconds waited. */
  async acquire(keys: readonly string[]): Promise<number> {
    let waited = 0;
    for (let delay = this.delayFor(keys); delay > 0 && waited < MAX_LIMIT_WAIT_MS; delay = this.delayFor(keys)) {
      const started = this.now();
      await this.sleep(delay);
      waited += Math.max(0, this.now() - started);
      this.turnWindows(keys);
    }
    return waited;
  }

  /** A window whose Reset passed holds its limit again (as far as we know until the next answer says). */
  private turnWindows(keys: readonly string[]): void {
    const now = this.now();
    for (const key of keys) {
      const bucket = this.buckets.get(key);
      if (bucket && bucket.until <= now) bucket.left = bucket.limit;
    }
  }

  /** A request on `keys` is on its way. */
  sent(keys: readonly string[]): void {
    this.turnWindows(keys);
    const now = this.now();
    for (const key of keys) {
      const bucket = this.bucket(key);
      bucket.inFlight += 1;
      bucket.sentAt = [...lastSecond(bucket, now), now];
    }
  }

  /**
   * The answer to a request on `keys` (undefined: none came). Its X-RateLimit-* replace what the business bucket
   * knew; a 429 empties the buckets until its Retry-After (or Reset) has passed.
   */
  answered(keys: readonly string[], answer: { status: number; headers: Record<string, string> } | undefined): void {
    const now = this.now();
    for (const key of keys) {
      const bucket = this.bucket(key);
      bucket.inFlight = Math.max(0, bucket.inFlight - 1);
      if (!answer) continue;
      const reading = readingOf(answer.headers, now);
      if (reading && key.startsWith('business ')) {
        bucket.limit = reading.limit;
        bucket.left = reading.remaining;
        bucket.until = reading.resetAt;
      } else if (bucket.left !== undefined) {
        bucket.left -= 1;
      }
      if (answer.status === 429 && !(key.startsWith(ADDRESS) && keys.length > 1 && !keys[0]?.includes(' anonymous '))) {
        // The 429's own Retry-After is the target's word on when to come back (a per-second burst limit says 1
        // while the minute window's Reset is far off); Reset only when it gives none. A token 429 does not say
        // which of its two buckets refused: it is taken as the client's, so one client's limit holds no other
        // client back (8.16a); a request without a client (or a refusal of another client, met and waited out
        // then) tells of the address's.
        const wait = this.waitAfter429(answer.headers, 0);
        // The minute window had room (or says nothing): a short Retry-After is a ceiling per second. Paced to the
        // requests that second served, one fewer than were sent in it (the refused one among them).
        const windowHadRoom = reading !== undefined && reading.remaining > 0 && key.startsWith('business ');
        // One request alone in its second tells nothing of a ceiling a second.
        const served = lastSecond(bucket, now).length - 1;
        if (wait <= BURST_RETRY_MS && windowHadRoom && served >= 1) {
          bucket.perSecond = Math.min(bucket.perSecond ?? served, served);
        }
        bucket.left = 0;
        bucket.until = now + wait;
      }
    }
  }

  /**
   * How long to wait before sending a request again that was answered 429: its Retry-After (8.15), else its Reset,
   * else a second doubled at each retry.
   */
  waitAfter429(headers: Record<string, string>, retry: number): number {
    const now = this.now();
    const after = retryAfterSeconds(headers['retry-after'], now);
    if (after !== undefined) return Math.min(after * 1000 + (after === 0 ? 200 : 0), MAX_LIMIT_WAIT_MS);
    const reading = readingOf(headers, now);
    if (reading && reading.resetAt > now) return Math.min(reading.resetAt - now, MAX_LIMIT_WAIT_MS);
    return Math.min(FALLBACK_WAIT_MS * 2 ** retry, MAX_LIMIT_WAIT_MS);
  }
}

/** The bucket's sends within the last second, oldest first. */
function lastSecond(bucket: Bucket, now: number): number[] {
  return bucket.sentAt.filter((at) => at > now - SECOND_MS);
}

/**
 * X-RateLimit-* as numbers, Reset moved onto our clock through the answer's Date header (the two clocks may
 * differ), or undefined when one is absent or unreadable (what they must look like is 8.14's to judge, not ours).
 */
function readingOf(
  headers: Record<string, string>,
  now: number,
): { limit: number; remaining: number; resetAt: number } | undefined {
  const limit = headers['x-ratelimit-limit']?.trim();
  const remaining = headers['x-ratelimit-remaining']?.trim();
  const reset = headers['x-ratelimit-reset']?.trim();
  if (!limit || !remaining || !reset || !/^\d+$/.test(limit) || !/^\d+$/.test(remaining)) return undefined;
  const resetMs = isoInstantMs(reset) ?? Number.NaN;
  if (Number.isNaN(resetMs)) return undefined;
  const date = headers.date === undefined ? Number.NaN : Date.parse(headers.date);
  const skew = Number.isNaN(date) ? 0 : now - date;
  // A one-minute window turns within a minute (8.14): a Reset further off (epoch seconds read as a year, a broken
  // clock) is that clause's to judge, and must not hold every later request of the client back for longer.
  const resetAt = Math.min(resetMs + skew + CLOCK_MARGIN_MS, now + ONE_WINDOW_MS + CLOCK_MARGIN_MS);
  return { limit: Number(limit), remaining: Number(remaining), resetAt };
}

/** Spec 8.14's window: X-RateLimit-Remaining counts "the current one-minute window". */
const ONE_WINDOW_MS = 60_000;

// ---------------------------------------------------------------------------------------------------------------
// Provoking a limit on purpose, and what a check spent on limits

interface LimitScope {
  /** The check exhausts buckets on purpose: its 429s reach it and nothing is held back. */
  provoking: boolean;
  traffic: Traffic;
}

const scopes = new AsyncLocalStorage<LimitScope>();
/** Traffic outside any check (pre-flight, cleanup, the harness's own tests). */
const processTraffic = emptyTraffic();

/** Runs fn counting its traffic into `traffic` (one check); provoking passes through from an enclosing scope. */
export function withTraffic<T>(traffic: Traffic, fn: () => Promise<T>): Promise<T> {
  return scopes.run({ provoking: scopes.getStore()?.provoking ?? false, traffic }, fn);
}

/**
 * Runs fn as one that exhausts rate limits on purpose (a check of spec 8, 4.5.4, 5.4c, 7.3.33): its 429s reach it
 * as they come, and no request of it is held back for an empty bucket. What it empties, the model still learns, so
 * the next request of that client elsewhere waits for the refill.
 */
export function provokingLimits<T>(fn: () => Promise<T>): Promise<T> {
  const traffic = scopes.getStore()?.traffic ?? processTraffic;
  return scopes.run({ provoking: true, traffic }, fn);
}

export function isProvoking(): boolean {
  return scopes.getStore()?.provoking ?? false;
}

/** The traffic of the current check, or of the process outside checks. */
export function currentTraffic(): Traffic {
  return scopes.getStore()?.traffic ?? processTraffic;
}
