import { describe, expect, it } from 'vitest';
import { configFromEnv } from './config.ts';

describe('configFromEnv: the idempotency purge', () => {
  it('defaults to a purge every 60 s, 500 rows a statement', () => {
    expect(configFromEnv({}).idempotencyPurge).toEqual({ intervalMs: 60_000, batchSize: 500 });
  });

  it('reads IDEMPOTENCY_PURGE_INTERVAL_S (0: off) and IDEMPOTENCY_PURGE_BATCH_SIZE', () => {
    const env = { IDEMPOTENCY_PURGE_INTERVAL_S: '0', IDEMPOTENCY_PURGE_BATCH_SIZE: '1000' };
    expect(configFromEnv(env).idempotencyPurge).toEqual({ intervalMs: 0, batchSize: 1000 });
  });

  it('refuses a batch size of 0 and values that are not whole numbers', () => {
    expect(() => configFromEnv({ IDEMPOTENCY_PURGE_BATCH_SIZE: '0' })).toThrow(/positive integer/);
    expect(() => configFromEnv({ IDEMPOTENCY_PURGE_INTERVAL_S: '1.5' })).toThrow(/non-negative integer/);
  });
});

describe('configFromEnv: LOG_REQUESTS', () => {
  it('is on unless set to 0 or false', () => {
    expect(configFromEnv({}).logRequests).toBe(true);
    expect(configFromEnv({ LOG_REQUESTS: '' }).logRequests).toBe(true);
    expect(configFromEnv({ LOG_REQUESTS: 'true' }).logRequests).toBe(true);
    expect(configFromEnv({ LOG_REQUESTS: '0' }).logRequests).toBe(false);
    expect(configFromEnv({ LOG_REQUESTS: 'false' }).logRequests).toBe(false);
  });

  it('refuses any other value rather than guess', () => {
    expect(() => configFromEnv({ LOG_REQUESTS: 'off' })).toThrow(/LOG_REQUESTS must be 1, true, 0 or false/);
  });
});

describe('configFromEnv: RATE_LIMIT_PER_MINUTE', () => {
  it('defaults to 600 business calls a minute for every ordinary client', () => {
    expect(configFromEnv({}).rateLimitPerMinute).toBe(600);
    expect(configFromEnv({ RATE_LIMIT_PER_MINUTE: '' }).rateLimitPerMinute).toBe(600);
  });

  it('reads a positive integer', () => {
    expect(configFromEnv({ RATE_LIMIT_PER_MINUTE: '60000' }).rateLimitPerMinute).toBe(60_000);
    expect(configFromEnv({ RATE_LIMIT_PER_MINUTE: '1' }).rateLimitPerMinute).toBe(1);
  });

  it.each(['0', '-5', '1.5', 'abc', '600/min', '1e3', ' ', '99999999999999999999'])(
    'refuses %j, naming the variable and the value',
    (raw) => {
      expect(() => configFromEnv({ RATE_LIMIT_PER_MINUTE: raw })).toThrow(
        `RATE_LIMIT_PER_MINUTE must be a positive integer, got "${raw}"`,
      );
    },
  );
});
