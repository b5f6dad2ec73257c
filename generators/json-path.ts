/** Paths into JSON-shaped values, written as contract/validation.ts names fields: `driver.email`, `vehicleCodes[3]`. */
import type { JsonValue } from '../contract/types.ts';

export type Segment = string | number;

/** The field name validate() reports for a path; the whole body is `body`. */
export function fieldName(path: readonly Segment[]): string {
  let out = '';
  for (const segment of path)
    out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out === '' ? 'body' : out;
}

export const REMOVE: unique symbol = Symbol('remove');

/**
 * A copy of `root` with the node at `path` set (or removed with REMOVE). Missing containers on the way are
 * created: an array before a numeric segment, an object otherwise (a fault inside an absent optional object).
 */
export function setAt(root: JsonValue, path: readonly Segment[], next: JsonValue | typeof REMOVE): JsonValue {
  if (path.length === 0) {
    if (next === REMOVE) throw new Error('setAt: cannot remove the root');
    return next;
  }
  const copy = structuredClone(root);
  let node: JsonValue = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i] as Segment;
    const container = node as Record<string | number, JsonValue>;
    if (container[segment] === undefined) container[segment] = typeof path[i + 1] === 'number' ? [] : {};
    node = container[segment] as JsonValue;
  }
  const last = path[path.length - 1] as Segment;
  const parent = node as Record<string | number, JsonValue>;
  if (next === REMOVE) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    parent[last] = next;
  }
  return copy;
}

/** The value at `path`, or undefined when absent. */
export function getAt(root: JsonValue | undefined, path: readonly Segment[]): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string | number, JsonValue>)[segment];
  }
  return node;
}

/** Paths where two JSON values differ: a changed scalar, an added or removed key, an array of another length. */
export function differences(a: JsonValue | undefined, b: JsonValue | undefined, path: Segment[] = []): Segment[][] {
  const isObject = (v: unknown): v is Record<string, JsonValue> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [path];
    return a.flatMap((item, i) => differences(item, b[i], [...path, i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => differences(a[k], b[k], [...path, k]));
  }
  return Object.is(a, b) ? [] : [path];
}
