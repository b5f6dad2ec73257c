import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, for the tests that read its sources. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Folders no repository-wide test reads: installed packages, builds, reports. */
const SKIP = new Set(['node_modules', 'dist', '.git', 'reports', 'coverage']);

/** Every .ts file under `dir` (absolute paths), for the tests that hold a rule over all sources. */
export function tsFilesUnder(dir: string): string[] {
  return filesUnder(dir, ['.ts']);
}

/** Every file under `dir` whose name ends with one of `suffixes` (absolute paths). */
export function filesUnder(dir: string, suffixes: readonly string[]): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, suffixes);
    return suffixes.some((suffix) => entry.name.endsWith(suffix)) ? [path] : [];
  });
}
