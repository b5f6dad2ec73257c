import { describe, expect, it } from 'vitest';
import { isRepresentationClause, representationsToRun } from './representations.ts';

const BOTH = ['json', 'xml'] as const;

describe('representationsToRun', () => {
  it('runs a clause about the service in JSON alone under mirror, in both under every-check', () => {
    expect(representationsToRun('4.12.1a', BOTH, 'mirror')).toEqual(['json']);
    expect(representationsToRun('4.12.1a', BOTH, 'every-check')).toEqual(['json', 'xml']);
  });

  it('runs the clauses about representations in every representation they declare', () => {
    for (const id of ['4.13.5a', '4.14.18a', '9.4']) {
      expect(representationsToRun(id, BOTH, 'mirror'), id).toEqual(['json', 'xml']);
    }
  });

  it('keeps a check declared for XML alone, whatever its clause', () => {
    expect(representationsToRun('2.12.1', ['xml'], 'mirror')).toEqual(['xml']);
    expect(representationsToRun('2.12.1', ['json'], 'mirror')).toEqual(['json']);
  });

  it('names sections by their number, not a prefix of another (4.1 is not 4.13, 7.2 is not 7.3)', () => {
    expect(isRepresentationClause('4.1.4')).toBe(false);
    expect(isRepresentationClause('7.3.8')).toBe(false);
    expect(isRepresentationClause('4.13.1a')).toBe(true);
    expect(isRepresentationClause('7.2.1')).toBe(false);
    expect(isRepresentationClause('9.3b')).toBe(false);
  });
});
