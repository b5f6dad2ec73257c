/**
 * Comments cite what a reader of this repository can open: a spec section ("spec 4.7.5"), a docs/ file and section, a
 * README section, or no source at all. An issue number points at a tracker the repository does not hold, so no
 * comment of a .ts file may cite one. Only comments are read: test names and other strings are left alone.
 *
 * Section 8's clause ids (contract/clauses/s08-limits.ts): 8.1–8.12 are the limits table's rows, rate-limiting item n
 * is 8.(12+n) (8.13, 8.14, 8.15, 8.16a and 8.16b), and the ceilings are not shown ("spec 8: ceilings not shown"). A
 * comment that cites a table row and speaks of rate limiting cites the list by an old numbering, its items as 8.1 to 8.5.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tsFilesUnder } from './test-support/source-files.ts';

const ROOT = REPO_ROOT;
/** The word issue (or issues) and a number, with or without "#", in either case. */
const ISSUE_CITATION = /\bissues?\s+#?\d+/i;
/** A section-8 table row id, 8.1 to 8.12: not a part of 4.8.1 or C8.3, not 8.13 or 8.16a, not an RFC's section. */
const TABLE_ROW_ID = /(?<![\w.])(?<!RFC \d+ )8\.(?:1[0-2]|[1-9])(?!\d|\.\d|[a-z])/;
/** The words of spec 8's rate-limiting list. */
const RATE_LIMITING =
  /rate[- ]?limit|retry-after|\b429\b|\bbuckets?\b|\bceilings?\b|\bper (?:API )?client\b|source address|\bwindows?\b|\bRemaining\b|\bReset\b|slow_down/i;
/** A comment that states a numbering (an id scheme, "rate-limiting item n") rather than cites a clause by it. */
const STATES_NUMBERING = /\bid scheme\b|\brate[- ]limiting items? (?:n|\d)\b/i;

/** A comment's text as one line: the line breaks and their leading "*" or "//" go, so a wrapped phrase still reads. */
function flattened(comment: string): string {
  return comment.replace(/\s*\n\s*(?:\*(?!\/)\s*|\/\/\s*)?/g, ' ');
}

/** The table row a comment cites in the same breath as rate limiting (undefined when it does not). */
function oldRateLimitCitation(comment: string): string | undefined {
  const text = flattened(comment);
  if (STATES_NUMBERING.test(text) || !RATE_LIMITING.test(text)) return undefined;
  return text.match(TABLE_ROW_ID)?.[0];
}

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

  it('finds a table row id cited with rate limiting, also across a line break, and leaves the right ids alone', () => {
    const sample = [
      '/** X-RateLimit-* on every response (spec 8.2). */',
      '// Whole seconds (spec 8.15): the Retry-After of a 429.',
      '/**',
      ' * The token endpoint has two separate buckets (8.4); per API client (8.13).',
      ' */',
      '// Quote validity: 30 minutes (spec 8.2); the list limit (4.8.1, 8.5).',
      "const s = 'Retry-After (8.3)';",
      '// C8.3: the client waits out Retry-After; 4.8.1 answers 429 too.',
      '/** A ceiling too high to reach is not judged (spec 8: ceilings not shown; 8.16a, 8.16b). */',
      '/** The Retry-After of a 429 in whole seconds (RFC 9110 10.2.3), read as the rate',
      ' * limits of spec 8.3 say. */',
      '// Spec 8: table rows are 8.1–8.12; rate-limiting item n is 8.(12+n).',
    ].join('\n');
    const found = commentsOf('sample.ts', sample).flatMap((comment) => {
      const cited = oldRateLimitCitation(comment.text);
      return cited === undefined ? [] : [`${comment.line}: ${cited}`];
    });
    expect(found).toEqual(['1: 8.2', '3: 8.4', '10: 8.3']);
  });

  it('no comment of a .ts file cites a section-8 table row (8.1 to 8.12) for a rate-limiting rule', () => {
    const found = tsFilesUnder(ROOT).flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      // Parsed only when a table row id occurs at all.
      if (!TABLE_ROW_ID.test(text)) return [];
      return commentsOf(path, text).flatMap((comment) => {
        const cited = oldRateLimitCitation(comment.text);
        return cited === undefined ? [] : [`${relative(ROOT, path)}:${comment.line}: ${cited}`];
      });
    });
    expect(found).toEqual([]);
  });
});
