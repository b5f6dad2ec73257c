import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from './time-ordered-id.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID whose first 48 bits are the milliseconds', () => {
    const id = timeOrderedUuid(Date.UTC(2026, 10, 28, 12, 0, 0));
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 28, 12, 0, 0));
  });

  test.prop([fc.integer({ min: 0, max: 2 ** 47 }), fc.integer({ min: 1, max: 2 ** 20 })])(
    'an id of a later millisecond sorts after one of an earlier one',
    (earlier, gap) => {
      expect(timeOrderedUuid(earlier) < timeOrderedUuid(earlier + gap)).toBe(true);
    },
  );

  it('ids of one millisecond differ', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => timeOrderedUuid(1_764_000_000_000)));
    expect(ids.size).toBe(1000);
  });
});
