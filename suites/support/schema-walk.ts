/**
 * A response walked along the contract's schemas (contract/schemas/): every value with the schema it sits under,
 * so a spec 2 convention (closed objects, `T|null` keys present) or every Money of a response can be judged on
 * any body without naming its fields.
 */
import { SCHEMA_BUNDLE, type SchemaName } from '../../contract/schemas/index.ts';

type Schema = { readonly [keyword: string]: unknown };
const DEFS = SCHEMA_BUNDLE.$defs as unknown as Record<string, Schema>;

/** One value of a response and the schema it sits under (after $ref and nullable anyOf are resolved). */
export interface SchemaNode {
  /** validate()-style path: `offers[0].vehicle.securityDeposit`; '' for the root. */
  path: string;
  value: unknown;
  schema: Schema;
  /** The named schemas that lead here, e.g. ['Money']. */
  refs: string[];
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A validate()-style path one step down: `a.b`, `a[0]`. */
export function joinPath(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
}

function visit(schemaIn: Schema, value: unknown, path: string, out: SchemaNode[], inherited: string[]): void {
  let schema = schemaIn;
  const refs = [...inherited];
  while (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/$defs/', '');
    const target = DEFS[name];
    if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
    refs.push(name);
    schema = target;
  }
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as Schema[];
    const branch = value === null ? undefined : branches.find((b) => b.type !== 'null');
    if (branch) {
      visit(branch, value, path, out, refs);
      return;
    }
  }
  out.push({ path, value, schema, refs });
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (isObject(value) && properties) {
    for (const key of Object.keys(value)) {
      const sub = properties[key];
      if (sub) visit(sub, value[key], joinPath(path, key), out, []);
    }
  }
  const items = schema.items as Schema | undefined;
  if (Array.isArray(value) && items) {
    for (const [i, item] of value.entries()) visit(items, item, joinPath(path, i), out, []);
  }
}

/** Every value of `value` with the schema of `name` it sits under, root first. */
export function schemaNodes(name: SchemaName, value: unknown): SchemaNode[] {
  const out: SchemaNode[] = [];
  visit({ $ref: `#/$defs/${name}` }, value, '', out, []);
  return out;
}

/**
 * Every Money object at a position the contract types as Money, with its value. Null ones are left out, and so is
 * anything not an object there (a bare number): that breaks 1.2 ("every amount is a Money object"), judged there,
 * not each Money field rule of 2.1.
 */
export function moneyNodes(name: SchemaName, value: unknown): SchemaNode[] {
  return schemaNodes(name, value).filter((n) => n.refs.includes('Money') && isObject(n.value));
}

/** Keys of closed objects that their schema does not declare (spec 2 conventions: objects are closed). */
export function unknownKeys(name: SchemaName, value: unknown): string[] {
  const out: string[] = [];
  for (const node of schemaNodes(name, value)) {
    if (!isObject(node.value) || node.schema.additionalProperties !== false) continue;
    const declared = (node.schema.properties ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(node.value)) if (!(key in declared)) out.push(joinPath(node.path, key));
  }
  return out;
}

function allowsNull(schemaIn: Schema): boolean {
  let schema = schemaIn;
  while (typeof schema.$ref === 'string') schema = DEFS[schema.$ref.replace('#/$defs/', '')] ?? {};
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Schema[]).some(allowsNull);
  return Array.isArray(schema.enum) && schema.enum.includes(null);
}

/**
 * Keys absent from objects of the response: `required` lists keys the schema requires; `nullable` lists keys the
 * schema declares as "T or null" (required or not); `required-nullable` the required ones of those (spec 2.0.1).
 */
export function absentKeys(
  name: SchemaName,
  value: unknown,
  which: 'required' | 'nullable' | 'required-nullable',
): string[] {
  const out: string[] = [];
  for (const node of schemaNodes(name, value)) {
    if (!isObject(node.value)) continue;
    const properties = (node.schema.properties ?? {}) as Record<string, Schema>;
    const required = (node.schema.required ?? []) as string[];
    const keys =
      which === 'required'
        ? required
        : (which === 'nullable' ? Object.keys(properties) : required).filter((key) =>
            allowsNull(properties[key] ?? {}),
          );
    for (const key of keys) if (!Object.hasOwn(node.value, key)) out.push(joinPath(node.path, key));
  }
  return out;
}

/** Required keys (of the schema at the nodes) whose value is null, for the "T|null" convention (spec 2). */
export function nullableRequiredKeys(name: SchemaName, value: unknown): string[] {
  const out: string[] = [];
  for (const node of schemaNodes(name, value)) {
    if (!isObject(node.value)) continue;
    const properties = (node.schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (node.schema.required ?? []) as string[]) {
      if (allowsNull(properties[key] ?? {})) out.push(joinPath(node.path, key));
    }
  }
  return out;
}
