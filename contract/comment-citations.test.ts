/**
 * Comments cite what a reader of this repository can open: a spec section ("spec 4.7.5"), a docs/ file and section, a
 * README section, or no source at all. An issue number points at a tracker the repository does not hold, so no
 * comment of a .ts file may cite one. Only comments are read: test names and other strings are left alone.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tsFilesUnder } from './test-support/source-files.ts';

const ROOT = REPO_ROOT;
/** The word issue (or issues) and a number, with or without "#", in either case. */
const ISSUE_CITATION = /\bissues?\s+#?\d+/i;

/** Every comment of a TypeScript text with the line it starts on (1-based), found by the parser, not by a regex. */
function commentsOf(fileName: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const ranges = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node): void => {
    // JSDoc nodes sit inside a comment already found as the leading comment of the node they document.
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const leading = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
    const trailing = ts.getTrailingCommentRanges(text, node.end) ?? [];
    for (const range of [...leading, ...trailing]) ranges.set(range.pos, range);
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...ranges.values()]
    .sort((a, b) => a.pos - b.pos)
    .map((range) => ({
      line: source.getLineAndCharacterOfPosition(range.pos).line + 1,
      text: text.slice(range.pos, range.end),
    }));
}

describe('comment citations', () => {
  it('finds comments anywhere, and never inside strings, templates or regular expressions', () => {
    const sample = [
      '/** a file comment (issue #1) */',
      "it('a test name (Issues 2)', () => {",
      // A placeholder written in two halves, so that this string is not mistaken for a template.
      '  const s = `a template $' + '{1 /* in a template (issue #3) */} (Issues 4)`;',
      '  const r = /\\/\\/ (issue #5)/;',
      '  return [s, r]; // trailing (Issues 6)',
      '  // alone before a closing brace (issue #7)',
      '});',
      '// at the end of the file (Issues 8)',
    ].join('\n');
    const cited = commentsOf('sample.ts', sample)
      .filter((comment) => ISSUE_CITATION.test(comment.text))
      .map((comment) => comment.line);
    expect(cited).toEqual([1, 3, 5, 6, 8]);
  });

  it('no comment of a .ts file cites an issue number', () => {
    const found = tsFilesUnder(ROOT).flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      // Parsed only when the words occur at all: most files never say them.
      if (!ISSUE_CITATION.test(text)) return [];
      return commentsOf(path, text)
        .filter((comment) => ISSUE_CITATION.test(comment.text))
        .map((comment) => `${relative(ROOT, path)}:${comment.line}: ${comment.text.match(ISSUE_CITATION)?.[0]}`);
    });
    expect(found).toEqual([]);
  });
});
