export { RateLimitStoreUnavailableError } from './errors.ts';
export { rateLimitHeaders, retryAfterHeaders } from './headers.ts';
export { createMemoryRateLimiter, type MemoryRateLimiter } from './memory.ts';
export { createRedisRateLimiter, type RedisRateLimiterOptions } from './redis.ts';
export { DEFAULT_WINDOW_MS, type RateLimitDecision, type RateLimiter } from './types.ts';
export { bucketOf } from './window.ts';
