import { describe, expect, it } from 'vitest';
import { clauseById } from '../../contract/clauses/index.ts';
import { REPO_ROOT } from '../../contract/test-support/source-files.ts';
import { ambiguityRows, checksIn, filingsIn, formatWhere, where } from './where.ts';

const SOURCE = `
describe('4.8', () => {
  check('4.8.2')({ ...booking, name: 'Newest first' }, async (t) => {
    claim('4.8.2', ok, 'ordered');
  });
  check('4.8.3')({ name: \`Own \${role} only\` }, async (t) => {
    requireStep('4.8.2', ok, 'listed');
  });
  check('4.8.2')(
    { ...booking },
    async (t) => {},
  );
});
`;

describe('npm run where', () => {
  it('finds each check of the clause with the name its options give, and only those', () => {
    expect(checksIn(SOURCE, 'suites/x.test.ts', '4.8.2').map(({ line, name }) => ({ line, name }))).toEqual([
      { line: 3, name: 'Newest first' },
      { line: 9, name: '(the clause title)' },
    ]);
    // A template literal's name as written, placeholder and all.
    expect(checksIn(SOURCE, 'suites/x.test.ts', '4.8.3').map((c) => c.name)).toEqual([`Own ${'$'}{role} only`]);
  });

  it('finds the observations filed under the clause outside its own declarations', () => {
    expect(filingsIn(SOURCE, 'suites/x.test.ts', '4.8.2').map((p) => p.line)).toEqual([4, 7]);
    expect(filingsIn("claim('4.8.21', ok)", 'f.ts', '4.8.2')).toEqual([]);
  });

  it('reads the ambiguity rows that name the clause or its own section, not a section above it', () => {
    const clause = clauseById('4.8.2');
    if (!clause) throw new Error('4.8.2 is in the clause catalogue');
    const markdown = [
      '| # | spec | point | suite accepts | reference implementation does |',
      '|---|---|---|---|---|',
      '| R8 | 4.8 | Newest first by what | ties either way | by creation |',
      '| R11 | 4.8.2, 8.5 | Ties | any of them | newest |',
      '| 40 | 4 | X-Request-Id | everywhere | everywhere |',
      '| R12 | 4.8.21 | another | x | y |',
    ].join('\n');
    expect(ambiguityRows(markdown, clause).map((r) => [r.id, r.match])).toEqual([
      ['R8', 'section'],
      ['R11', 'clause'],
    ]);
  });

  it('answers for a clause of this repository: its sentence, its checks, its ambiguity rows', () => {
    const registry = [
      { name: 'list-oldest-first', kind: 'fault' as const, clause: '4.8.2', description: 'oldest first' },
    ];
    const answer = where(REPO_ROOT, '4.8.2', registry);
    expect(answer?.checks.length).toBeGreaterThan(0);
    expect(answer?.faults.map((f) => f.name)).toEqual(['list-oldest-first']);
    expect(answer?.ambiguities.map((a) => a.id)).toContain('R8');
    const text = formatWhere(answer as NonNullable<typeof answer>);
    expect(text).toContain('spec: "Newest first."');
    expect(text).toContain('suites/04.08-reservations-list.test.ts:');
    expect(where(REPO_ROOT, '99.9', registry)).toBeUndefined();
  });
});
