/** The shared words are declared once: a second `type Role =` anywhere else would drift from it. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', '.git', 'reports', 'coverage']);
const HOME = 'contract/vocabulary.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A declaration of one of the shared words (exported or not); re-exports and imports do not match. */
const DECLARATION =
  /^\s*(?:export\s+)?(?:type\s+(Role|Profile|Representation|Level)\s*=|const\s+(ROLES|PROFILES|REPRESENTATIONS)\s*[:=])/m;

describe('contract/vocabulary.ts', () => {
  it('is the only place that declares Role, Profile, Representation, Level and their lists', () => {
    const elsewhere = sourceFiles(ROOT)
      .map((path) => relative(ROOT, path))
      .filter((path) => path !== HOME && DECLARATION.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(elsewhere).toEqual([]);
  });

  it('imports nothing from node: (k6 scripts use it too)', () => {
    expect(readFileSync(join(ROOT, HOME), 'utf8')).not.toMatch(/from\s+['"]node:/);
  });
});
