import { PostgresStore } from './postgres.ts';
import { SqliteStore } from './sqlite.ts';
import type { Store } from './types.ts';

export type * from './types.ts';

export type StoreLocation = { kind: 'postgres'; url: string } | { kind: 'sqlite'; path: string };

const ACCEPTED_FORMS =
  'postgres://… or postgresql://… (PostgreSQL), sqlite:/path/file.db, a plain file path, or :memory: (SQLite)';

/**
 * Reads a store location. `sqlite:` may be followed by a path (`sqlite:/abs/x.db`, `sqlite:rel/x.db`) or by
 * `//` and a path (`sqlite:///abs/x.db`). Any other `scheme:` is refused; the error names only the scheme,
 * never the rest of the URL, which may hold a password.
 */
export function parseStoreUrl(url: string): StoreLocation {
  const trimmed = url.trim();
  if (/^postgres(ql)?:\/\//i.test(trimmed)) return { kind: 'postgres', url: trimmed };
  if (trimmed === ':memory:') return { kind: 'sqlite', path: ':memory:' };
  if (/^sqlite:/i.test(trimmed)) {
    let path = trimmed.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    if (path === '') throw new Error(`Store URL "sqlite:" has no file path. Accepted: ${ACCEPTED_FORMS}.`);
    return { kind: 'sqlite', path };
  }
  // Two or more letters before a colon is a URL scheme, not a path (single letters are left for drive letters).
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(trimmed)?.[1];
  if (scheme !== undefined) {
    throw new Error(`Unsupported store URL scheme "${scheme}:". Accepted: ${ACCEPTED_FORMS}.`);
  }
  if (trimmed === '') throw new Error(`Store URL is empty. Accepted: ${ACCEPTED_FORMS}.`);
  return { kind: 'sqlite', path: trimmed };
}

/** Opens the store named by `url` and applies pending migrations before handing it out. */
export async function openStore(url: string): Promise<Store> {
  const location = parseStoreUrl(url);
  const store = location.kind === 'postgres' ? new PostgresStore(location.url) : new SqliteStore(location.path);
  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  return store;
}
