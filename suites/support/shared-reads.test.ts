// sharedRead (shared-reads.ts) and judgeSharedCases (shared-cases.ts), which sends its cases through it.
import { describe, expect, it } from 'vitest';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { inCheckScope } from '../../harness/check/scope.ts';
import type { RunSettings } from '../../harness/run-settings.ts';
import { type CaseFamily, judgeSharedCases } from './shared-cases.ts';
import { freshRead, sharedRead } from './shared-reads.ts';

/** A run in miniature: checks whose clients log what they send (role, path, options) and answer 401. */
function fakeRun() {
  const sent: string[] = [];
  const settings = { target: { baseUrl: 'https://target.example' }, seed: 20261130 } as unknown as RunSettings;
  const answer = (line: string) => {
    sent.push(line);
    return { status: 401, headers: {}, body: { error: { code: 'INVALID_TOKEN' } }, text: '' } as unknown as ApiResult;
  };
  const contextOf = (clauseId: string) =>
    ({
      clause: { id: clauseId },
      settings,
      representation: 'json',
      client: (role: string) => ({
        get: async (path: string, opts: unknown) => answer(`${role} ${path} ${JSON.stringify(opts)}`),
      }),
      anonymous: { get: async (path: string, opts: unknown) => answer(`anonymous ${path} ${JSON.stringify(opts)}`) },
    }) as unknown as CheckContext;
  return { sent, contextOf };
}

describe('sharedRead: one question asked once for the run', () => {
  it('answers the same question from any check with one request, each a copy', async () => {
    const run = fakeRun();
    const a = await inCheckScope('7.1.2', () => sharedRead(run.contextOf('7.1.2'), '/fleet', { token: null }));
    const b = await inCheckScope('4.13.5a', () => sharedRead(run.contextOf('4.13.5a'), '/fleet', { token: null }));
    expect(run.sent).toHaveLength(1);
    expect(b.result).toEqual(a.result);
    expect(b.result).not.toBe(a.result);
  });

  it('tells questions apart by path, Accept and credentials (scopes in any order are one set)', async () => {
    const run = fakeRun();
    const t = run.contextOf('4.0.9');
    await inCheckScope('4.0.9', async () => {
      await sharedRead(t, '/rates', { scopes: ['fleet:read', 'locations:read'] });
      await sharedRead(t, '/rates', { scopes: ['locations:read', 'fleet:read'] });
      await sharedRead(t, '/rates', { scopes: ['fleet:read'] });
      await sharedRead(t, '/rates', { token: 'not-issued' });
      await sharedRead(t, '/rates', { accept: 'text/html' });
      await sharedRead(t, '/rates', { representation: 'xml' });
      await sharedRead(t, '/fleet', { scopes: ['fleet:read'] });
    });
    expect(run.sent).toHaveLength(6);
  });

  it('sends the question again when asked fresh (a check of a repeat)', async () => {
    const run = fakeRun();
    const t = run.contextOf('7.2.7');
    await inCheckScope('7.2.7', async () => {
      await sharedRead(t, '/fleet', { token: null });
      await freshRead(t, '/fleet', { token: null });
    });
    expect(run.sent).toEqual(['anonymous /fleet {}', 'anonymous /fleet {}']);
  });
});

describe('judgeSharedCases: generated cases several checks judge', () => {
  const family: CaseFamily<number, ApiResult> = {
    name: 'test family',
    draw: async () => (await import('fast-check')).default.integer({ min: 0, max: 1_000_000 }),
    send: (t, n) => sharedRead(t, `/fleet/ZZ-${n}`),
  };

  it('draws each case from the run, so a later check judges the same answers without a request', async () => {
    const run = fakeRun();
    const seen: string[][] = [[], []];
    for (const [i, clauseId] of ['4.0.17', '4.2.5'].entries()) {
      await inCheckScope(clauseId, () =>
        judgeSharedCases(run.contextOf(clauseId), family, 3, ({ input }) => {
          seen[i]?.push(String(input));
        }),
      );
    }
    expect(run.sent).toHaveLength(3);
    expect(seen[1]).toEqual(seen[0]);
    expect(new Set(seen[0]).size).toBe(3);
  });

  it('counts every judged case as a property case, and a failing one too', async () => {
    const run = fakeRun();
    const passed = await inCheckScope('4.2.5', () => judgeSharedCases(run.contextOf('4.2.5'), family, 2, () => {}));
    expect(passed.cases).toEqual({ runs: 2, judged: 2 });
    const failed = await inCheckScope('4.3.1', () =>
      judgeSharedCases(run.contextOf('4.3.1'), family, 2, () => {
        throw new Error('wrong answer');
      }),
    );
    expect(failed.error).toBeInstanceOf(Error);
    expect(failed.cases).toEqual({ runs: 1, judged: 1 });
  });
});
