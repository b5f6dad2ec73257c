import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alteredIds } from './draws.ts';
import { unissuedId } from './ids.ts';

/** The number a sequential id carries (its longest digit run), for comparing ids of one sequence. */
const numberOf = (id: string) => Number(/[0-9]+/.exec(id.replace(/^\D*/, ''))?.[0] ?? Number.NaN);

describe('unissuedId: an id shaped like a real one that no sequence issued (audit 2.2-R5, 4.7-R12)', () => {
  it('raises the leading digit of the longest number to 9, beyond the id given', () => {
    expect(unissuedId('R-1043')).toBe('R-9043');
    expect(unissuedId('Q00012345')).toBe('Q90012345');
    // The sequence, not the year in front of it.
    expect(unissuedId('RSV-2026-000123')).toBe('RSV-2026-900123');
  });

  it('raises the first digit that is not a 9, and lengthens a number of nines only, as a sequence grows next', () => {
    expect(unissuedId('R-9043')).toBe('R-9943');
    expect(unissuedId('R-9999')).toBe('R-19999');
  });

  it('changes a random or time-ordered id (a UUID) in one character, and an id without digits in its middle', () => {
    const uuid = '01a22704-8a06-77ea-a218-92271694d4e2';
    const changed = unissuedId(uuid);
    expect(changed).toHaveLength(uuid.length);
    expect([...changed].filter((c, i) => c !== uuid[i])).toHaveLength(1);
    expect(unissuedId('ABCDEF')).not.toBe('ABCDEF');
  });

  it('alteredIds never gives back an id of the sequence issued so far', () => {
    for (const id of ['R-1043', 'R-000123', 'Q00012345', 'R-9043', 'R-9999']) {
      fc.assert(
        fc.property(alteredIds(id), (other) => {
          expect(other).not.toBe(id);
          // Same prefix: its number lies beyond the id's. Another prefix names another sequence altogether.
          if (other.slice(0, 2) === id.slice(0, 2)) expect(numberOf(other)).toBeGreaterThan(numberOf(id));
        }),
        { numRuns: 200 },
      );
    }
  });
});
