/**
 * Codemod for the suites' check declarations, re-runnable after any merge (idempotent):
 *   1. `check('<id>', options, fn)` becomes `check('<id>')(options, fn)`: Biome breaks a long call after `check(`,
 *      taking the id off the line, but keeps `check('<id>')(` whole, so `grep -rn "check('4.7.1'" suites` finds it;
 *   2. drops what the old form needed or carried: `// biome-ignore format` lines that kept the id on that line, and
 *      `// <id> <title>` lines;
 *   3. formats the files it changed with Biome;
 *   4. writes the spec sentence of its clause above the first `check('<id>'` line of each clause in a file
 *      (`// Spec <id>: "<text>"`, from the clause catalogue), and `// Spec <id> (quoted above)` above the later
 *      ones, replacing what is already there.
 * Usage: `npx tsx scripts/check-declarations.ts [file or folder …]` (default: suites). A `check(…)` whose id is no
 * literal is listed and left alone: harness/check/check-declarations.test.ts fails on it until it names its clause.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { clauseById } from '../contract/clauses/index.ts';
import { REPO_ROOT, tsFilesUnder } from '../contract/test-support/source-files.ts';
import {
  checkCalls,
  commentBlockAbove,
  parse,
  specCommentLines,
} from '../harness/check/test-support/check-declarations.ts';

const IGNORE_FORMAT = /^\s*\/\/ biome-ignore format: the clause id stays on the call's first line/;
const TITLE_LINE = /^\s*\/\/ (\d[\w.]*) (.+)$/;

function curried(path: string, source: string): string {
  const file = parse(path, source);
  const edits: { start: number; end: number; text: string }[] = [];
  for (const call of checkCalls(file)) {
    const [id, second] = call.node.arguments;
    if (call.clauseId === undefined || !id || !second) continue;
    // From after the name `check` to the options: `(\n    '4.7.1',\n    ` → `('4.7.1')(`.
    const start = call.node.expression.end;
    const end = second.getStart(file);
    edits.push({ start, end, text: `(${id.getText(file)})(` });
    // A comment written between the id and the options moves above the call, where the spec sentence joins it.
    const comments = source.slice(start, end).match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? [];
    if (comments.length > 0) {
      const lineStart = source.lastIndexOf('\n', call.node.getStart(file)) + 1;
      const indent = /^[ \t]*/.exec(source.slice(lineStart))?.[0] ?? '';
      edits.push({ start: lineStart, end: lineStart, text: comments.map((c) => `${indent}${c}\n`).join('') });
    }
  }
  edits.sort((a, b) => a.start - b.start);
  let out = source;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** Lines the spec sentence replaces: the old keep-the-id-on-the-line markers and `// <id> <title>` comments. */
function withoutOldComments(source: string): string {
  return source
    .split('\n')
    .filter((line) => {
      if (IGNORE_FORMAT.test(line)) return false;
      const title = TITLE_LINE.exec(line);
      return !(title && clauseById(title[1] ?? '')?.title === title[2]);
    })
    .join('\n');
}

function withSpecComments(path: string, source: string, unnamed: string[]): string {
  const lines = source.split('\n');
  const calls = checkCalls(parse(path, source));
  for (const call of calls.filter((c) => c.clauseId === undefined)) {
    unnamed.push(`${relative(REPO_ROOT, path)}:${call.line + 1}: check(${call.argumentsText.slice(0, 60)})`);
  }
  const byLine = new Map<number, string>();
  const firstLine = new Map<string, number>();
  for (const call of calls) {
    if (call.clauseId === undefined) continue;
    byLine.set(call.line, call.clauseId);
    if (!firstLine.has(call.clauseId) || call.line < (firstLine.get(call.clauseId) ?? 0)) {
      firstLine.set(call.clauseId, call.line);
    }
  }
  // Bottom up, so the lines inserted or removed never move a call still to do.
  for (const [line, clauseId] of [...byLine].sort(([a], [b]) => b - a)) {
    const clause = clauseById(clauseId);
    if (!clause) throw new Error(`${relative(REPO_ROOT, path)}:${line + 1}: unknown clause id ${clauseId}`);
    const indent = /^\s*/.exec(lines[line] ?? '')?.[0] ?? '';
    const { spec } = commentBlockAbove(lines, line);
    const from = spec ?? line;
    lines.splice(from, line - from, ...specCommentLines(clause, indent, firstLine.get(clauseId) === line));
  }
  return lines.join('\n');
}

const args = process.argv.slice(2);
const files = (args.length > 0 ? args : ['suites']).flatMap((arg) => {
  const path = join(process.cwd(), arg);
  return statSync(path).isDirectory() ? tsFilesUnder(path) : [path];
});

const changed: string[] = [];
for (const path of files) {
  const before = readFileSync(path, 'utf8');
  const after = withoutOldComments(curried(path, before));
  if (after !== before) {
    writeFileSync(path, after);
    changed.push(path);
  }
}
if (changed.length > 0) {
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
  const formatted = spawnSync(process.execPath, [biome, 'format', '--write', ...changed], { stdio: 'inherit' });
  if (formatted.status !== 0) process.exit(formatted.status ?? 1);
}

const unnamed: string[] = [];
let commented = 0;
for (const path of files) {
  const before = readFileSync(path, 'utf8');
  const after = withSpecComments(path, before, unnamed);
  if (after !== before) {
    writeFileSync(path, after);
    commented++;
  }
}
process.stderr.write(
  `check-declarations: ${changed.length} file(s) curried or cleaned, ${commented} file(s) with spec comments written\n`,
);
if (unnamed.length > 0) {
  process.stderr.write(`check() calls whose clause id is no literal (name it at the call):\n${unnamed.join('\n')}\n`);
  process.exitCode = 1;
}
