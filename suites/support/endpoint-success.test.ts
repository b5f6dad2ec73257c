import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../harness/check/check.ts';
import { inCheckScope } from '../../harness/check/scope.ts';
import { signalOf } from '../../harness/check/signal.ts';
import { quoteAnswered, succeeded } from './endpoint-success.ts';

const quote = { quoteId: 'q-1', vehicle: {}, rental: {}, charges: {}, payment: {} };
const answer = (status: number, body: object = quote) =>
  ({ status, text: JSON.stringify(body), headers: {}, body }) as unknown as ApiResult;

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
    expect(String(error)).toMatch(/POST \/quotes answers 201; got HTTP 200 \(spec 4\.0\.11\)/);
  });

  it('blocks on a success whose body cannot be read, filed under the clause the body breaks', async () => {
    const broken = {
      ...answer(201),
      body: undefined,
      text: '<response/>',
      mediaType: 'application/xml',
      parseFailure: { representation: 'xml', reason: 'duplicate property name within one object' },
      parseError: 'not valid typed XML: duplicate property name within one object',
    } as unknown as ApiResult;
    const { error, observations } = await inCheckScope('1.1b', async () => quoteAnswered(broken));
    expect(signalOf(error, 'blocked')?.clauseId).toBe('4.14.6');
    expect(observations.map((o) => o.clauseId)).toEqual(['4.14.6']);
  });

  it('blocks on a quote lacking a part the suite reads on, filed under that part’s clause', async () => {
    const { charges: _charges, ...uncharged } = quote;
    const { error, observations } = await inCheckScope('1.1b', async () => quoteAnswered(answer(201, uncharged)));
    expect(signalOf(error, 'blocked')?.clauseId).toBe('2.9.8a');
    expect(observations.map((o) => o.clauseId)).toEqual(['2.9.8a']);
  });

  it('is false for anything but a 2xx, filing nothing', async () => {
    const { result, observations } = await inCheckScope('2.9.1', async () =>
      [199, 300, 400, 500].map((s) => succeeded(answer(s), 200, '4.0.10', 'POST /availability')),
    );
    expect(result).toEqual([false, false, false, false]);
    expect(observations).toEqual([]);
  });
});
