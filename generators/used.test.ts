import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * Every generator reaches a target: each file of generators/ is used by a suite or by the fuzz campaign,
 * directly (a name the suites import resolves to a declaration in it) or through another generator that is. Names
 * are followed through index.ts to the file that declares them, so a file re-exported by index.ts but used by no
 * suite is caught; only the generators' own unit tests using it does not count.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GENERATORS = join(ROOT, 'generators');
const SUITES = join(ROOT, 'suites');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Test files and the tests' own fixtures (`*.testkit.ts`) are not generators. */
const isGenerator = (file: string) =>
  file.startsWith(`${GENERATORS}/`) && !file.endsWith('.test.ts') && !file.endsWith('.testkit.ts');

function moduleFile(program: ts.Program, from: ts.SourceFile, specifier: string): string | undefined {
  const resolved = ts.resolveModuleName(specifier, from.fileName, program.getCompilerOptions(), ts.sys);
  return resolved.resolvedModule?.resolvedFileName;
}

/** The generator files that declare the names the suites import from generators/. */
function usedBySuites(program: ts.Program): Set<string> {
  const checker = program.getTypeChecker();
  const used = new Set<string>();
  for (const file of tsFiles(SUITES)) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const target = moduleFile(program, source, statement.moduleSpecifier.text);
      if (!target || !isGenerator(target)) continue;
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) {
        used.add(target); // a namespace or default import uses the file as a whole
        continue;
      }
      for (const element of bindings.elements) {
        let symbol = checker.getSymbolAtLocation(element.name);
        while (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
        for (const declaration of symbol?.declarations ?? []) {
          const declared = declaration.getSourceFile().fileName;
          if (isGenerator(declared)) used.add(declared);
        }
      }
    }
  }
  return used;
}

/** Adds the generator files the used ones import, transitively. */
function withImports(program: ts.Program, used: Set<string>): Set<string> {
  const queue = [...used];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const target = moduleFile(program, source, statement.moduleSpecifier.text);
      if (target && isGenerator(target) && !used.has(target)) {
        used.add(target);
        queue.push(target);
      }
    }
  }
  return used;
}

describe('generators/', () => {
  test('every generator file is used by a suite or the fuzz campaign', () => {
    const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
    const options = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
    const program = ts.createProgram(tsFiles(SUITES), { ...options, noEmit: true });
    const used = withImports(program, usedBySuites(program));
    const all = tsFiles(GENERATORS).filter((f) => isGenerator(f) && !f.endsWith('/index.ts'));
    const unused = all.filter((f) => !used.has(f)).map((f) => relative(ROOT, f));
    expect(unused, 'generator files no suite sends to a target').toEqual([]);
    expect(used.size).toBeGreaterThan(5);
  }, 60_000);
});
