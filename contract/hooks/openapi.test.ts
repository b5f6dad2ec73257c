import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { clauseById } from '../clauses/index.ts';
import { HOOK_NAMES, HOOK_ROUTES } from './names.ts';
import { buildHooksOpenApi, renderHooksOpenApi } from './openapi.ts';

const COMMITTED = new URL('./test-hooks.openapi.json', import.meta.url);

describe('the test-hooks contract', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(buildHooksOpenApi());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is committed as generated (npm run openapi writes it)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(renderHooksOpenApi());
  });

  it('has one operation per hook, and each names clauses of the clause catalogue', () => {
    const paths = buildHooksOpenApi().paths as Record<string, Record<string, unknown>>;
    for (const name of HOOK_NAMES) {
      const route = HOOK_ROUTES[name];
      expect(paths[route.path]?.[route.method.toLowerCase()], name).toBeDefined();
      for (const clauseId of route.clauses) expect(clauseById(clauseId), `${name} ${clauseId}`).toBeDefined();
    }
  });
});
