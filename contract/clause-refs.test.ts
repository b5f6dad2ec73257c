import { describe, expect, it } from 'vitest';
import { ENDPOINT_CLAUSE, ERROR_CODE_CLAUSE, RESPONSE_CLAUSES, XML_REASON_CLAUSE } from './clause-refs.ts';
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
});
