import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../harness/check/check.ts';
import { inCheckScope } from '../../harness/check/scope.ts';
import { quoteAnswered, succeeded } from './endpoint-success.ts';

const answer = (status: number) => ({ status, text: '', headers: {}, body: undefined }) as unknown as ApiResult;

describe('succeeded: another 2xx is the endpoint row’s, not the check’s', () => {
  it('in a check of another clause, files a 200 quote under 4.0.11 and reads it as a success', async () => {
    const { result, error, observations } = await inCheckScope('4.13.2', async () => [
      quoteAnswered(answer(201)),
      quoteAnswered(answer(200)),
      quoteAnswered(answer(409)),
    ]);
    expect(error).toBeUndefined();
    expect(result).toEqual([true, true, false]);
    expect(observations.map((o) => o.clauseId)).toEqual(['4.0.11']);
  });

  it("fails the row's own check", async () => {
    const { error } = await inCheckScope('4.0.11', async () => quoteAnswered(answer(200)));
    expect(String(error)).toMatch(/POST \/quotes answers 201 \(spec 4\.0\.11\)/);
  });

  it('is false for anything but a 2xx, filing nothing', async () => {
    const { result, observations } = await inCheckScope('2.9.1', async () =>
      [199, 300, 400, 500].map((s) => succeeded(answer(s), 200, '4.0.10', 'POST /availability')),
    );
    expect(result).toEqual([false, false, false, false]);
    expect(observations).toEqual([]);
  });
});
