/**
 * No function of a suite file over 80 lines: a check body or helper that long does several things a reader would
 * rather find by name. Biome holds the rule for the rest of harness/, suites/, load/ and reference-impl/ (biome.json);
 * the suite files are vitest test files, which Biome's rule is not given, because their describe blocks hold every check
 * of a section and are no function anyone reads as one.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../contract/test-support/source-files.ts';
import { suiteFiles } from '../../harness/runner/suite-scan.ts';

const MAX_LINES = 80;

/** Functions of `source` whose body spans more than MAX_LINES lines, describe blocks aside. */
function longFunctions(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body && ts.isBlock(node.body)) {
      const first = file.getLineAndCharacterOfPosition(node.body.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.body.getEnd()).line;
      const callee = ts.isCallExpression(node.parent) ? node.parent.expression.getText(file) : '';
      if (last - first - 1 > MAX_LINES && !/^describe\b/.test(callee)) {
        found.push(`${fileName}:${first + 1}: ${last - first - 1} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('suite files', () => {
  it('finds a long function, and leaves a long describe block alone', () => {
    const body = Array.from({ length: MAX_LINES + 1 }, (_, i) => `  const x${i} = ${i};`).join('\n');
    expect(longFunctions('a.ts', `function long() {\n${body}\n}`)).toEqual(['a.ts:1: 81 lines']);
    expect(longFunctions('a.ts', `describe('4.7', () => {\n${body}\n});`)).toEqual([]);
    expect(longFunctions('a.ts', `test('a check', async (t) => {\n${body}\n});`)).toHaveLength(1);
  });

  it(`hold no function over ${MAX_LINES} lines`, () => {
    const files = suiteFiles(REPO_ROOT, ['suites/*.test.ts', 'suites/*.campaign.ts']);
    expect(files.length).toBeGreaterThan(30);
    const found = files.flatMap((path) => longFunctions(relative(REPO_ROOT, path), readFileSync(join(path), 'utf8')));
    expect(found).toEqual([]);
  });
});
