import { Redis } from 'ioredis';
import { RateLimitStoreUnavailableError } from './errors.ts';
import { DEFAULT_WINDOW_MS, type RateLimiter } from './types.ts';
import { assertHitArguments, decide, windowStartOf } from './window.ts';

export interface RedisRateLimiterOptions {
  url: string;
  /** Default 'partner-api:rl:'. */
  keyPrefix?: string;
}

const START_TIMEOUT_MS = 3_000;
const COMMAND_TIMEOUT_MS = 1_000;

/**
 * INCR and the first PEXPIRE in one atomic script: counts are exact across processes, and a key never lives
 * without an expiry. The TTL is in real milliseconds (the virtual clock may run ahead of real time, so no
 * absolute expiry): one window plus one window of margin for callers whose nowMs lags slightly.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`;

interface RateLimitRedis extends Redis {
  /** Added by defineCommand (EVALSHA, falling back to EVAL on NOSCRIPT). */
  rateLimitHit(key: string, ttlMs: number): Promise<number>;
}

export async function createRedisRateLimiter(options: RedisRateLimiterOptions): Promise<RateLimiter> {
  const keyPrefix = options.keyPrefix ?? 'partner-api:rl:';
  const client = new Redis(options.url, {
    lazyConnect: true,
    // Fail fast instead of queueing while disconnected: the caller answers 503 rather than hanging.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: START_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  // Errors surface through rejected hits; without a listener ioredis would log every reconnect attempt.
  client.on('error', () => {});
  client.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const redis = client as RateLimitRedis;

  await connectWithin(redis, START_TIMEOUT_MS, options.url);

  return {
    kind: 'redis',
    async hit(bucket, limit, nowMs, windowMs = DEFAULT_WINDOW_MS) {
      assertHitArguments(bucket, limit, nowMs, windowMs);
      const windowStart = windowStartOf(nowMs, windowMs);
      let count: number;
      try {
        count = await redis.rateLimitHit(`${keyPrefix}${bucket}:${windowStart}`, 2 * windowMs);
      } catch (cause) {
        throw new RateLimitStoreUnavailableError(`rate-limit store unavailable: ${describe(cause)}`, { cause });
      }
      return decide(count, limit, nowMs, windowStart, windowMs);
    },
    async close() {
      try {
        await redis.quit();
      } catch {
        redis.disconnect(); // quit fails when the connection is already gone; just stop reconnecting
      }
    },
  };
}

async function connectWithin(redis: Redis, timeoutMs: number, url: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const connecting = redis.connect();
  connecting.catch(() => {}); // when the timeout wins, the later rejection is expected and already handled
  try {
    await Promise.race([connecting, timeout]);
  } catch (cause) {
    redis.disconnect(); // stops the retry loop so nothing is left running
    throw new RateLimitStoreUnavailableError(`cannot reach Redis at ${redactUrl(url)}: ${describe(cause)}`, {
      cause,
    });
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Error messages may reach logs: never print a password from the URL. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<invalid url>';
  }
}
