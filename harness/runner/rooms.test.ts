/**
 * The import rules of docs/architecture.md ("Rooms and what each may import"), checked on every .ts file: a relative
 * import that leaves its room must land in a room the table allows. The oracle boundary is the one that matters
 * most: the suite, the generators, the harness and the load engines never import the reference implementation, and
 * the reference never imports them (it is started as a child process, never imported).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsFilesUnder } from '../../contract/test-support/source-files.ts';
import { PROJECT_ROOT } from './paths.ts';

/** docs/architecture.md's table: the rooms each room may import from (besides itself). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  contract: [],
  fixtures: [],
  generators: ['contract'],
  harness: ['contract'],
  suites: ['contract', 'generators', 'harness'],
  load: ['contract', 'harness'],
  'reference-impl': ['contract', 'fixtures'],
  // The sample clients are what a partner copies: they stand alone, on Node's fetch.
  examples: [],
};
/** Test files may also reach for the spec's words: the fixtures' own tests read the contract. */
const TESTS_MAY_ALSO_IMPORT: Record<string, readonly string[]> = { fixtures: ['contract'] };

/** `import … from`, `export … from`, `import '…'` and `import('…')` of a relative path. */
const IMPORT =
  /(?:^|[\s;])(?:import|export)\b[^'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function crossings(): string[] {
  const found: string[] = [];
  for (const room of Object.keys(MAY_IMPORT)) {
    for (const file of tsFilesUnder(join(PROJECT_ROOT, room))) {
      const isTest = /\.test\.ts$/.test(file);
      const allowed = [...(MAY_IMPORT[room] ?? []), ...(isTest ? (TESTS_MAY_ALSO_IMPORT[room] ?? []) : [])];
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? '';
        const target = relative(PROJECT_ROOT, resolve(dirname(file), specifier)).split('/')[0] ?? '';
        if (target !== room && !allowed.includes(target)) {
          found.push(`${relative(PROJECT_ROOT, file)} imports ${specifier} (${room} may not import ${target})`);
        }
      }
    }
  }
  return found;
}

describe('rooms (docs/architecture.md)', () => {
  it('each room imports only what the table allows', () => {
    expect(crossings()).toEqual([]);
  });
});
