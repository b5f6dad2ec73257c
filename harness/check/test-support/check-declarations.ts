/**
 * How suites/ declare their checks, read from the sources: each `check(…)` call, and the spec sentence quoted above
 * it. Shared by the codemod that writes that form (scripts/check-declarations.ts) and the test that holds every
 * suite to it (harness/check/check-declarations.test.ts), so the two can never disagree on what the form is.
 */
import ts from 'typescript';
import type { Clause } from '../../../contract/clauses/index.ts';

/** Biome's lineWidth (biome.json): a quoted sentence wraps before it. */
export const LINE_WIDTH = 120;

export interface CheckCall {
  /** 0-based line of `check(`. */
  line: number;
  /** The clause id when the first argument is a string literal in single quotes, else undefined. */
  clauseId: string | undefined;
  /** The source text of the call's arguments, for messages. */
  argumentsText: string;
  /** The call itself, for the codemod's edits. */
  node: ts.CallExpression;
}

export function parse(fileName: string, source: string): ts.SourceFile {
  return ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** Every call of an identifier `check` in the file, in source order. */
export function checkCalls(file: ts.SourceFile): CheckCall[] {
  const calls: CheckCall[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'check') {
      const first = node.arguments[0];
      const literal = first && ts.isStringLiteral(first) && first.getText(file).startsWith("'");
      calls.push({
        line: file.getLineAndCharacterOfPosition(node.getStart(file)).line,
        clauseId: literal ? first.text : undefined,
        argumentsText: node.arguments.map((a) => a.getText(file)).join(', '),
        node,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return calls;
}

/**
 * Uses of the name `check` other than a call of it (`const declare = check`): such an alias would declare checks no
 * `check('<id>'` grep finds. Property names (`{ check: … }`, `x.check`) are other names and do not count.
 */
export function checkAliases(file: ts.SourceFile): number[] {
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === 'check') {
      const parent = node.parent;
      const isCallee = ts.isCallExpression(parent) && parent.expression === node;
      const isPropertyName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertySignature(parent)) &&
          parent.name === node);
      const isImport = ts.isImportSpecifier(parent);
      if (!isCallee && !isPropertyName && !isImport) {
        lines.push(file.getLineAndCharacterOfPosition(node.getStart(file)).line);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return lines;
}

/** The sentence a check judges, as quoted above it: `Spec 4.7.1: "<the clause catalogue's text>"`. */
export function specSentence(clause: Pick<Clause, 'id' | 'text'>): string {
  return `Spec ${clause.id}: "${clause.text}"`;
}

/**
 * What a file's second and later checks of a clause say above them: the sentence is quoted once, above the clause's
 * first check in the file, so a clause judged by several checks does not repeat it (and `npm run where -- <id>`
 * prints it with every check).
 */
export function specPointer(clauseId: string): string {
  return `Spec ${clauseId} (quoted above)`;
}

/**
 * `specSentence` as `//` lines at `indent`, wrapped at spaces to LINE_WIDTH (a longer word keeps its own line); for
 * a check that is not its clause's first in the file, the one line of `specPointer`.
 */
export function specCommentLines(clause: Pick<Clause, 'id' | 'text'>, indent: string, first = true): string[] {
  const lead = `${indent}// `;
  if (!first) return [lead + specPointer(clause.id)];
  const lines: string[] = [];
  let current = '';
  for (const word of specSentence(clause).split(' ')) {
    if (current && lead.length + current.length + 1 + word.length > LINE_WIDTH) {
      lines.push(lead + current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  lines.push(lead + current);
  return lines;
}

const COMMENT_LINE = /^\s*\/\/(.*)$/;
const SPEC_START = /^\s*\/\/ Spec [\w.]+(?:: "| \(quoted above\)$)/;

/**
 * The `//` lines directly above `line` (0-based) as a range [start, end), and within it where the spec paragraph
 * (`// Spec <id>: "…`, to the end of the block, or the pointer `// Spec <id> (quoted above)`) starts, if there is one.
 */
export function commentBlockAbove(lines: readonly string[], line: number): { start: number; spec: number | undefined } {
  let start = line;
  while (start > 0 && COMMENT_LINE.test(lines[start - 1] ?? '')) start--;
  let spec: number | undefined;
  for (let i = line - 1; i >= start; i--) {
    if (SPEC_START.test(lines[i] ?? '')) {
      spec = i;
      break;
    }
  }
  return { start, spec };
}

/** The spec paragraph directly above `line`, its `//` lines joined by single spaces; undefined without one. */
export function quotedAbove(lines: readonly string[], line: number): string | undefined {
  const { spec } = commentBlockAbove(lines, line);
  if (spec === undefined) return undefined;
  return lines
    .slice(spec, line)
    .map((l) => (COMMENT_LINE.exec(l)?.[1] ?? '').trim())
    .join(' ');
}
