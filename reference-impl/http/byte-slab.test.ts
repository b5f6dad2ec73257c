import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ByteSlab } from './byte-slab.ts';

describe('ByteSlab (answer bodies cut from one large buffer)', () => {
  test.prop([fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 60 })])(
    'gives each body a region of its own: writing one never changes another',
    (lengths) => {
      const slab = new ByteSlab(16_384);
      const bodies = lengths.map((length, i) => slab.take(length).fill(i % 256));
      bodies.forEach((body, i) => {
        expect(body.length).toBe(lengths[i]);
        expect(body.every((byte) => byte === i % 256)).toBe(true);
      });
    },
  );
});
