import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/ambiguities.md and the checks agree: a point whose "suite accepts" cell says "Not asserted" is
 * cited by no MUST check. Checks cite rows by id in comments and messages: `#30` for the numbered rows, `S10`, `RS4`
 * and so on for the prefixed ones.
 */
const DOC = readFileSync(new URL('../../docs/ambiguities.md', import.meta.url), 'utf8');
const SUITES = new URL('../../suites/', import.meta.url);

/** Row ids whose "suite accepts" cell says the point is not asserted at all ("Not asserted beyond …" asserts some). */
function notAsserted(): string[] {
  const ids: string[] = [];
  for (const line of DOC.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    // | id | spec | point | suite accepts | reference does |
    const [, id, , , accepts] = cells;
    if (!id || !accepts || !/^(\d+|[A-Z]+\d+)$/.test(id)) continue;
    if (/^not asserted(?! beyond)/i.test(accepts)) ids.push(id);
  }
  return ids;
}

/** The text of each check() call of a suite file, from its start to the next check(. */
function checksOf(text: string): string[] {
  const starts = [...text.matchAll(/\bcheck\(\s*\n?\s*'/g)].map((m) => m.index ?? 0);
  return starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length));
}

function cites(block: string, id: string): boolean {
  return /^\d+$/.test(id)
    ? new RegExp(`(ambiguit(y|ies)[^#\\n]{0,20}|\\()#${id}\\b`).test(block)
    : new RegExp(`\\b(ambiguit(y|ies)|docs/ambiguities\\.md)[^\\n]{0,20}\\b${id}\\b`).test(block);
}

describe('docs/ambiguities.md and the checks', () => {
  it('lists the points that are not asserted', () => {
    expect(notAsserted().length).toBeGreaterThan(5);
  });

  it('no MUST check cites a point the document says is not asserted', () => {
    const ids = notAsserted();
    const offending: string[] = [];
    for (const file of readdirSync(SUITES).filter((f) => f.endsWith('.test.ts'))) {
      for (const block of checksOf(readFileSync(new URL(file, SUITES), 'utf8'))) {
        if (/level:\s*'SHOULD'/.test(block)) continue;
        const clause = /check\(\s*'([^']+)'/.exec(block)?.[1];
        for (const id of ids) if (cites(block, id)) offending.push(`${file} [${clause}] cites ${id}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
