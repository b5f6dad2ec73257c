import { readdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** Suite files a glob list names: `dir/**\/*.test.ts`-style globs are listed under their directory; files as they are. */
export function suiteFiles(root: string, globs: readonly string[]): string[] {
  const files = new Set<string>();
  for (const glob of globs) {
    const path = isAbsolute(glob) ? glob : join(root, glob);
    const star = path.indexOf('*');
    if (star < 0) {
      files.add(path);
      continue;
    }
    const dir = path.slice(0, path.lastIndexOf('/', star));
    const suffix = path.slice(path.lastIndexOf('*') + 1);
    // Only `**` descends into folders: `suites/*.test.ts` must not take suites/support's unit tests for checks.
    const recursive = path.includes('**');
    const walk = (at: string) => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = readdirSync(at, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = join(at, entry.name);
        if (entry.isDirectory()) {
          if (recursive) walk(full);
        } else if (full.endsWith(suffix)) files.add(full);
      }
    };
    walk(dir);
  }
  return [...files].sort();
}
