import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** An in-toto DigestSet with the one algorithm this tool writes. */
export interface Sha256Digest {
  sha256: string;
}

export function sha256Hex(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The digest of a set of files, as `sha256sum` lists them: one line `<hex>  <path>` per file, paths relative to
 * `root` with forward slashes, in byte order. Anyone can recompute it without this tool:
 * `find <dirs> -type f ! -name '*.test.*' | LC_ALL=C sort | xargs sha256sum | sha256sum` from `root`.
 */
export function manifestDigest(root: string, files: readonly string[]): { sha256: string; files: number } {
  const lines = files
    .map((file) => relative(root, file).split(sep).join('/'))
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    .map((path) => `${sha256Hex(readFileSync(join(root, path)))}  ${path}\n`);
  return { sha256: sha256Hex(lines.join('')), files: lines.length };
}

/** Every file under the folders (a folder that does not exist adds nothing), unit tests left out: they never run. */
export function sourceFilesUnder(root: string, folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (entry.isFile() && !/\.test\./.test(entry.name)) out.push(full);
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return out;
}
