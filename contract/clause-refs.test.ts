import { describe, expect, it } from 'vitest';
import {
  ENDPOINT_CLAUSE,
  ERROR_CODE_CLAUSE,
  isRepresentationClause,
  RESPONSE_CLAUSES,
  RESTATED_RULES,
  XML_REASON_CLAUSE,
  xmlOnlyClauseOf,
} from './clause-refs.ts';
import { clauseById } from './clauses/index.ts';
import { ENDPOINTS } from './endpoints.ts';
import { ERROR_CODES } from './errors.ts';
import { REASONS } from './xml/reasons.ts';

describe('clause references', () => {
  it('each code of the 7.3 table names its own row', () => {
    expect(Object.keys(ERROR_CODE_CLAUSE).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const [code, clauseId] of Object.entries(ERROR_CODE_CLAUSE)) {
      expect(clauseById(clauseId)?.title, code).toMatch(new RegExp(`^${code}:`));
    }
  });

  it('each operation names its row of the endpoint table', () => {
    for (const endpoint of ENDPOINTS) {
      const clause = clauseById(ENDPOINT_CLAUSE[endpoint.operationId as keyof typeof ENDPOINT_CLAUSE]);
      expect(clause?.text, endpoint.operationId).toContain(`${endpoint.method} | ${endpoint.path}`);
    }
  });

  it('every XML reason and response rule names a clause of the clause catalogue', () => {
    for (const reason of Object.values(REASONS))
      expect(clauseById(XML_REASON_CLAUSE[reason] ?? ''), reason).toBeDefined();
    for (const clauseId of Object.values(RESPONSE_CLAUSES)) expect(clauseById(clauseId), clauseId).toBeDefined();
  });

  it('a restated rule names clauses of the clause catalogue whose texts all state it, never two owning each other', () => {
    const restates = (later: string, owner: string) =>
      RESTATED_RULES.some((rule) => rule.owner === owner && rule.restatedBy.includes(later));
    for (const rule of RESTATED_RULES) {
      const clauses = [rule.owner, ...rule.restatedBy];
      if (typeof rule.words !== 'string')
        expect(Object.keys(rule.words).sort(), rule.owner).toEqual([...clauses].sort());
      for (const clauseId of clauses) {
        const words = typeof rule.words === 'string' ? rule.words : (rule.words[clauseId] ?? '');
        expect(clauseById(clauseId)?.text.toLowerCase(), `${clauseId} states "${words}"`).toContain(
          words.toLowerCase(),
        );
      }
      // Two clauses restating each other's rules would each be listed before the other.
      for (const later of rule.restatedBy)
        expect(restates(rule.owner, later), `${rule.owner} and ${later}`).toBe(false);
      expect(rule.why.length, rule.owner).toBeGreaterThan(20);
    }
  });

  it('files a clause broken in XML only under a representation clause: access under 4.13.5a, the rest under 4.14.18a', () => {
    for (const clauseId of ['1.7', '4.0.9', '5.6b', '8.3']) expect(xmlOnlyClauseOf(clauseId), clauseId).toBe('4.13.5a');
    for (const clauseId of ['1.7a', '2.6.3', '4.7.3']) expect(xmlOnlyClauseOf(clauseId), clauseId).toBe('4.14.18a');
    for (const target of ['4.13.5a', '4.14.18a']) {
      expect(clauseById(target), target).toBeDefined();
      expect(isRepresentationClause(target), target).toBe(true);
    }
    expect(clauseById('4.13.5a')?.text).toContain('XML grants no extra access');
    expect(clauseById('4.14.18a')?.text).toContain('the same field names and values');
    for (const clauseId of ['4.1.8', '4.13', '4.140.1', '2.6.3'])
      expect(isRepresentationClause(clauseId), clauseId).toBe(false);
  });
});
