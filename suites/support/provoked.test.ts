import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../harness/check/check.ts';
import { inCheckScope } from '../../harness/check/scope.ts';
import { refusedOnly } from './provoked.ts';

const answer = (status: number) => ({ status, text: '', headers: {}, body: undefined }) as unknown as ApiResult;
const provocations = () => [
  { name: 'scope lacking', clauseId: '4.0.9', res: answer(200) },
  { name: 'no token', clauseId: '5.6a', res: answer(401) },
];

describe('refusedOnly: a provocation served instead of refused is filed once, under its clause', () => {
  it('in JSON, files it under the clause of the condition and keeps only the refusals', async () => {
    const { result, observations } = await inCheckScope('7.2.1', async () => refusedOnly(provocations()));
    expect(result?.map((p) => p.name)).toEqual(['no token']);
    expect(observations.map((o) => o.clauseId)).toEqual(['4.0.9']);
  });

  it('in XML, leaves it unfiled: 4.13.5a judges XML against JSON, and the JSON run files a condition served in both', async () => {
    const { result, observations } = await inCheckScope('7.2.1', async () => refusedOnly(provocations(), 'xml'));
    expect(result?.map((p) => p.name)).toEqual(['no token']);
    expect(observations).toEqual([]);
  });
});
