import { describe, expect, it } from 'vitest';
import { money, vnd } from './money.ts';

describe('vnd (spec 2.1): dong amounts with their display, remembered by amount', () => {
  it('gives what money() gives, first time and remembered', () => {
    for (const amount of [0, 1, 999, 1_200_000, -50_000, 2_100_000_000]) {
      expect(vnd(amount)).toEqual(money('VND', amount, 0));
      expect(vnd(amount)).toEqual(money('VND', amount, 0));
    }
    expect(vnd(1_200_000).display).toMatch(/^1\.200\.000\s₫$/);
  });

  it('is one frozen object per amount, so an answer reuses its JSON text (http/json-bytes.ts)', () => {
    const first = vnd(1_234_000);
    expect(vnd(1_234_000)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => {
      (first as { amount: number }).amount = 1;
    }).toThrow(TypeError);
  });

  it('renders -0 with its sign afresh and refuses amounts that are not integer minor units', () => {
    expect(vnd(-0)).toEqual(money('VND', -0, 0));
    expect(() => vnd(1.5)).toThrow(RangeError);
    expect(() => vnd(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
  });
});
