import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The npm package's own name and version, for `--version` of the three bins and the report's tool field. Found by
 * walking up from this module: the sources sit one folder below package.json, the compiled package (dist/) two.
 * In contract/ because it imports nothing of ours, so the harness, the load harness and the reference may all use it.
 */
export const PACKAGE_NAME = 'partner-api-certification';

let cached: { name: string; version: string } | undefined;

export function packageInfo(): { name: string; version: string } {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME) {
        cached = { name: pkg.name, version: pkg.version ?? '0.0.0' };
        return cached;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return { name: PACKAGE_NAME, version: '0.0.0' };
    dir = parent;
  }
}
