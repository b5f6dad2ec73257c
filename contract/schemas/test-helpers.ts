/** Helpers for the contract tests: edit one place of an example value by a dotted path. */

export const REMOVE = Symbol('remove');

/**
 * A copy of `value` with the node at `path` ('driver.email', 'vehicles.0.status') replaced, or removed with
 * REMOVE. An empty path replaces the whole value.
 */
export function withChange(value: unknown, path: string, next: unknown): unknown {
  if (path === '') return next;
  const copy = structuredClone(value);
  const segments = path.split('.');
  const last = segments.pop() as string;
  let node: unknown = copy;
  for (const segment of segments) {
    if (typeof node !== 'object' || node === null) throw new Error(`no ${segment} in ${path}`);
    node = (node as Record<string, unknown>)[segment];
  }
  if (typeof node !== 'object' || node === null) throw new Error(`no parent for ${path}`);
  const parent = node as Record<string, unknown>;
  if (next === REMOVE) {
    if (!Object.hasOwn(parent, last)) throw new Error(`nothing to remove at ${path}`);
    delete parent[last];
  } else {
    parent[last] = next;
  }
  return copy;
}
