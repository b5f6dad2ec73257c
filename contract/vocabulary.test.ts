/** The shared words are declared once: a second `type Role =` anywhere else would drift from it. */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tsFilesUnder } from './test-support/source-files.ts';

const ROOT = REPO_ROOT;
const HOME = 'contract/vocabulary.ts';

/** A declaration of one of the shared words (exported or not); re-exports and imports do not match. */
const DECLARATION =
  /^\s*(?:export\s+)?(?:type\s+(Role|Profile|Representation|Level)\s*=|const\s+(ROLES|PROFILES|REPRESENTATIONS)\s*[:=])/m;

describe('contract/vocabulary.ts', () => {
  it('is the only place that declares Role, Profile, Representation, Level and their lists', () => {
    const elsewhere = tsFilesUnder(ROOT)
      .map((path) => relative(ROOT, path))
      .filter((path) => path !== HOME && DECLARATION.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(elsewhere).toEqual([]);
  });

  it('imports nothing from node: (k6 scripts use it too)', () => {
    expect(readFileSync(join(ROOT, HOME), 'utf8')).not.toMatch(/from\s+['"]node:/);
  });
});
