/**
 * The suites' check declarations, read from the sources: every check names its clause literally on the line of
 * `check(` (so `grep -rn "check('<id>'" suites` finds all checks of a clause), and quotes above that line the spec
 * sentence it judges, exactly as the clause catalogue has it (so the two cannot drift). scripts/check-declarations.ts
 * writes both; these tests fail on a suite written or merged without it.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUSES, clauseById } from '../../contract/clauses/index.ts';
import { REPO_ROOT, tsFilesUnder } from '../../contract/test-support/source-files.ts';
import {
  checkAliases,
  checkCalls,
  parse,
  quotedAbove,
  specPointer,
  specSentence,
} from './test-support/check-declarations.ts';

const SUITE_FILES = tsFilesUnder(join(REPO_ROOT, 'suites'));

const sources = SUITE_FILES.map((path) => {
  const text = readFileSync(path, 'utf8');
  const file = parse(path, text);
  return { where: relative(REPO_ROOT, path), text, lines: text.split('\n'), file, calls: checkCalls(file) };
});

/** What `grep -rn "check('<id>'" suites` would print a line for, by id. */
function grepped(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { text } of sources) {
    for (const match of text.matchAll(/\bcheck\('([^']+)'/g)) {
      const id = match[1] ?? '';
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  return counts;
}

describe('check declarations in suites/', () => {
  it('reads the suites (a walker finding nothing would pass every rule below)', () => {
    expect(SUITE_FILES.length).toBeGreaterThan(30);
    expect(sources.reduce((n, s) => n + s.calls.length, 0)).toBeGreaterThan(500);
  });

  it("declares every check as check('<id>') with a literal id of the clause catalogue, one per line", () => {
    const wrong: string[] = [];
    for (const { where, calls } of sources) {
      const perLine = new Map<number, number>();
      for (const call of calls) {
        perLine.set(call.line, (perLine.get(call.line) ?? 0) + 1);
        const at = `${where}:${call.line + 1}`;
        if (call.clauseId === undefined || call.node.arguments.length !== 1) {
          wrong.push(`${at}: check(${call.argumentsText.slice(0, 60)}) is not check('<id>')`);
        } else if (!clauseById(call.clauseId)) {
          wrong.push(`${at}: check('${call.clauseId}') names no clause of the clause catalogue`);
        }
      }
      for (const [line, n] of perLine) if (n > 1) wrong.push(`${where}:${line + 1}: ${n} check() calls on one line`);
    }
    expect(wrong).toEqual([]);
  });

  it('never uses check other than by calling it (an alias would hide a clause id from the grep)', () => {
    const aliases = sources.flatMap(({ where, file }) => checkAliases(file).map((line) => `${where}:${line + 1}`));
    expect(aliases).toEqual([]);
  });

  it("finds every clause of the clause catalogue by grep for check('<id>', as often as the calls name it", () => {
    const declared = new Map<string, number>();
    for (const { calls } of sources) {
      for (const { clauseId } of calls) if (clauseId) declared.set(clauseId, (declared.get(clauseId) ?? 0) + 1);
    }
    // Every clause is judged by a check of its own: a clause without one would be judged by none (361/361).
    expect(CLAUSES.filter((clause) => !declared.has(clause.id)).map((clause) => clause.id)).toEqual([]);
    expect(Object.fromEntries(grepped())).toEqual(Object.fromEntries(declared));
  });

  it("quotes the spec sentence, as the clause catalogue has it, above a clause's first check in a file; points at it above the others", () => {
    const wrong: string[] = [];
    for (const { where, lines, calls } of sources) {
      const seen = new Set<string>();
      for (const { line, clauseId } of [...calls].sort((a, b) => a.line - b.line)) {
        const clause = clauseId === undefined ? undefined : clauseById(clauseId);
        if (!clause) continue;
        const quoted = quotedAbove(lines, line);
        const expected = seen.has(clause.id) ? specPointer(clause.id) : specSentence(clause);
        seen.add(clause.id);
        if (quoted !== expected) {
          wrong.push(`${where}:${line + 1}: above check('${clause.id}') ${quoted ? `"${quoted}"` : 'no // Spec line'}`);
        }
      }
    }
    expect(wrong, 'run `npx tsx scripts/check-declarations.ts` to write them').toEqual([]);
  });
});

describe('quotedAbove', () => {
  const lines = [
    '  // Why this check draws what it draws.',
    '  // Spec 4.7.1: "Missing header: 400',
    '  // IDEMPOTENCY_KEY_REQUIRED."',
    "  check('4.7.1')(",
  ];

  it('joins the wrapped spec paragraph directly above the line, leaving the comment above it out', () => {
    expect(quotedAbove(lines, 3)).toBe('Spec 4.7.1: "Missing header: 400 IDEMPOTENCY_KEY_REQUIRED."');
  });

  it("reads a later check's pointer to the sentence as its paragraph", () => {
    expect(quotedAbove(['  // Why.', `  // ${specPointer('4.7.1')}`, "  check('4.7.1')("], 2)).toBe(
      'Spec 4.7.1 (quoted above)',
    );
  });

  it('finds none when a code line separates the sentence from the check', () => {
    expect(quotedAbove([...lines.slice(0, 3), '  const x = 1;', lines[3] ?? ''], 4)).toBeUndefined();
  });
});
