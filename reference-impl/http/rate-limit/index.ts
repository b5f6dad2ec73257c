export { RateLimitStoreUnavailableError } from './errors.ts';
export { rateLimitHeaders, retryAfterHeaders } from './headers.ts';
export { createMemoryRateLimiter } from './memory.ts';
export { createRedisRateLimiter } from './redis.ts';
export type { RateLimiter } from './types.ts';
export { bucketOf } from './window.ts';
