import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { describeRateLimiterBehaviour } from './behaviour.suite.ts';
import { RateLimitStoreUnavailableError } from './errors.ts';
import { createRedisRateLimiter } from './redis.ts';
import { startTcpProxy } from './tcp-proxy.testkit.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const keyPrefix = `partner-api:rl:test:${randomUUID()}:`;
const admin = new Redis(REDIS_URL);

afterAll(async () => {
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await admin.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await admin.quit();
});

describeRateLimiterBehaviour('redis', {
  open: () => createRedisRateLimiter({ url: REDIS_URL, keyPrefix }),
  sharedAcrossInstances: true,
  propertyRuns: 50,
});

describe('redis rate limiter', () => {
  const t0 = Date.UTC(2031, 0, 15, 10, 0, 0);

  it('stores one key per bucket and window, expiring in real time after two window lengths', async () => {
    const rl = await createRedisRateLimiter({ url: REDIS_URL, keyPrefix });
    try {
      await rl.hit('client:ttl', 5, t0 + 1234);
      await rl.hit('client:ttl', 5, t0 + 2345);
      const key = `${keyPrefix}client:ttl:${t0}`;
      expect(await admin.get(key)).toBe('2');
      const ttl = await admin.pttl(key);
      expect(ttl).toBeGreaterThan(60_000);
      expect(ttl).toBeLessThanOrEqual(120_000);
    } finally {
      await rl.close();
    }
  });

  it('rejects creation within 5 s when Redis is unreachable', async () => {
    const started = performance.now();
    await expect(createRedisRateLimiter({ url: 'redis://127.0.0.1:1', keyPrefix })).rejects.toBeInstanceOf(
      RateLimitStoreUnavailableError,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('rejects a hit promptly when the connection is dropped', async () => {
    const proxy = await startTcpProxy('127.0.0.1', 6379);
    const rl = await createRedisRateLimiter({ url: `redis://127.0.0.1:${proxy.port}`, keyPrefix });
    try {
      expect((await rl.hit('client:cut', 5, t0)).allowed).toBe(true);
      await proxy.cut();
      const started = performance.now();
      await expect(rl.hit('client:cut', 5, t0)).rejects.toBeInstanceOf(RateLimitStoreUnavailableError);
      // No offline queue: refused once the loss is seen, not held until a reconnection; milliseconds on a quiet
      // machine, the bound leaves a loaded one seconds of room.
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await rl.close();
    }
  });

  it('rejects a hit promptly when Redis stops answering', async () => {
    const proxy = await startTcpProxy('127.0.0.1', 6379);
    const rl = await createRedisRateLimiter({ url: `redis://127.0.0.1:${proxy.port}`, keyPrefix });
    try {
      proxy.freeze();
      const started = performance.now();
      await expect(rl.hit('client:frozen', 5, t0)).rejects.toBeInstanceOf(RateLimitStoreUnavailableError);
      // Bounded by the limiter's command timeout (1 s), not by TCP noticing the silence (minutes); the room above it
      // is for a loaded machine, where the timer itself fires late.
      expect(performance.now() - started).toBeLessThan(6_000);
    } finally {
      await rl.close();
      await proxy.cut();
    }
  });
});
