import { describe, expect, it } from 'vitest';
import { describeRateLimiterBehaviour } from './behaviour.suite.ts';
import { createMemoryRateLimiter } from './memory.ts';

describeRateLimiterBehaviour('memory', {
  open: async () => createMemoryRateLimiter(),
  sharedAcrossInstances: false,
  propertyRuns: 200,
});

describe('memory rate limiter', () => {
  it('sweeps counters of past windows so memory stays bounded', async () => {
    const rl = createMemoryRateLimiter();
    const t0 = Date.UTC(2031, 0, 15, 10, 0, 0);
    for (let i = 0; i < 100; i++) await rl.hit(`client:${i}`, 5, t0);
    expect(rl.size).toBe(100);
    await rl.hit('client:late', 5, t0 + 3 * 60_000);
    expect(rl.size).toBe(1);
    await rl.close();
  });

  it('keeps the previous window for a caller whose clock lags slightly', async () => {
    const rl = createMemoryRateLimiter();
    const t0 = Date.UTC(2031, 0, 15, 10, 0, 0);
    await rl.hit('client:a', 1, t0);
    await rl.hit('client:b', 1, t0 + 60_000); // triggers a sweep inside the next window
    expect((await rl.hit('client:a', 1, t0 + 59_999)).allowed).toBe(false);
    await rl.close();
  });
});
