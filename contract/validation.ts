// The named export: the default export's typings do not resolve to a constructor under NodeNext.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { CLOSED_OBJECTS_CLAUSE, SCHEMA_CLAUSES } from './schemas/clause-map.ts';
import { SCHEMA_BUNDLE, type SchemaName, schemaId } from './schemas/index.ts';
import type { FieldError } from './types.ts';

export type { FieldError } from './types.ts';

export type ValidationResult = { valid: true } | { valid: false; fields: FieldError[] };

/** Spec 7.2 keeps `fields` short; more than this many adds nothing a client can act on. */
const MAX_FIELDS = 20;
const ROOT_FIELD = 'body';

// ajv-formats is CommonJS; its `default` property is the plugin both at run time and in its typings.
const addFormats = addFormatsModule.default;

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

function validatorFor(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (fn) return fn;
  if (!ajv) {
    ajv = new Ajv2020({
      strict: true,
      allErrors: true,
      // Only own keys count, so an inherited property can never satisfy `required` (input may come from the XML codec).
      ownProperties: true,
      // The failing keyword's schema is needed to word `not` and nullable `anyOf` errors; data is never reported.
      verbose: true,
    });
    addFormats(ajv, { mode: 'full' });
    ajv.addSchema(SCHEMA_BUNDLE);
  }
  fn = ajv.getSchema(schemaId(name));
  if (!fn) throw new Error(`schema ${name} is missing from the bundle`);
  compiled.set(name, fn);
  return fn;
}

/** Validates a parsed body against one schema of the bundle; never throws and never echoes a value. */
export function validate(name: SchemaName, value: unknown): ValidationResult {
  const fn = validatorFor(name);
  try {
    if (fn(value)) return { valid: true };
    return { valid: false, fields: toFieldErrors(fn.errors ?? [], value) };
  } catch {
    // Ajv does not throw on data; this guards exotic non-JSON input (e.g. a throwing getter).
    return { valid: false, fields: [{ field: ROOT_FIELD, message: 'could not be validated' }] };
  }
}

/** A violation of a schema, filed under the clause that states the violated rule (schemas/clause-map.ts). */
export interface ClauseViolation extends FieldError {
  clauseId: string;
}

/**
 * Validates like validate() and files every violation under its clause; an empty list means valid. One entry per
 * clause and field, at most MAX_FIELDS.
 */
export function schemaViolations(name: SchemaName, value: unknown): ClauseViolation[] {
  const fn = validatorFor(name);
  let errors: readonly ErrorObject[];
  try {
    if (fn(value)) return [];
    errors = fn.errors ?? [];
  } catch {
    return [
      { clauseId: SCHEMA_CLAUSES[name] ?? CLOSED_OBJECTS_CLAUSE, field: ROOT_FIELD, message: 'could not be validated' },
    ];
  }
  const nullableAnyOfPaths = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'anyOf' && isNullableAnyOf(error.schema)) nullableAnyOfPaths.add(error.instancePath);
  }
  const out: ClauseViolation[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const mapped = toFieldError(error, value, nullableAnyOfPaths);
    if (!mapped) continue;
    const clauseId = clauseOfError(name, error);
    const key = `${clauseId}\u0000${mapped.field}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ clauseId, ...mapped });
    if (out.length === MAX_FIELDS) break;
  }
  if (out.length === 0)
    out.push({ clauseId: SCHEMA_CLAUSES[name] ?? CLOSED_OBJECTS_CLAUSE, field: ROOT_FIELD, message: 'is invalid' });
  return out;
}

type SchemaNode = { readonly [keyword: string]: unknown };
const DEFS = SCHEMA_BUNDLE.$defs as unknown as Record<string, SchemaNode>;

/**
 * Follows `$ref`s and the non-null branch of a nullable `anyOf`, recording each definition entered: the keys of
 * SCHEMA_CLAUSES are written relative to definitions.
 */
function resolve(node: SchemaNode, keys: string[]): { node: SchemaNode; key: string } | undefined {
  let current = node;
  let key: string | undefined;
  for (let hops = 0; hops < 8; hops++) {
    const ref = current.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
      const defName = ref.slice('#/$defs/'.length);
      const def = DEFS[defName];
      if (!def) return undefined;
      key = defName;
      keys.push(defName);
      current = def;
      continue;
    }
    const anyOf = current.anyOf;
    if (Array.isArray(anyOf)) {
      const branch = (anyOf as SchemaNode[]).find((b) => b.type !== 'null');
      if (!branch) break;
      current = branch;
      continue;
    }
    break;
  }
  return { node: current, key: key ?? '' };
}

/** The clause of one Ajv error: the deepest listed key on its instance path (see SCHEMA_CLAUSES). */
function clauseOfError(name: SchemaName, error: ErrorObject): string {
  const keys: string[] = [name];
  let prefix: string = name;
  let node: SchemaNode | undefined = DEFS[name];
  for (const segment of pointerSegments(error.instancePath)) {
    if (!node) break;
    const resolved = resolve(node, keys);
    if (!resolved) break;
    if (resolved.key) prefix = resolved.key;
    node = resolved.node;
    const properties = node.properties as Record<string, SchemaNode> | undefined;
    if (properties && Object.hasOwn(properties, segment)) {
      prefix = `${prefix}.${segment}`;
      keys.push(prefix);
      node = properties[segment];
      continue;
    }
    const items = node.items as SchemaNode | undefined;
    if (items && /^(0|[1-9][0-9]*)$/.test(segment)) {
      node = items;
      continue;
    }
    node = undefined;
  }
  if (node) {
    const resolved = resolve(node, keys);
    if (resolved?.key) prefix = resolved.key;
  }
  const suffix =
    error.keyword === 'required'
      ? '#required'
      : error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties'
        ? '#closed'
        : error.keyword === 'maxLength' || error.keyword === 'maximum' || error.keyword === 'minimum'
          ? `#${error.keyword}`
          : undefined;
  if (suffix) {
    const own = SCHEMA_CLAUSES[`${prefix}${suffix}`];
    if (own) return own;
    if (suffix === '#closed') return CLOSED_OBJECTS_CLAUSE;
  }
  for (let i = keys.length - 1; i >= 0; i--) {
    const clauseId = SCHEMA_CLAUSES[keys[i] as string];
    if (clauseId) return clauseId;
  }
  return CLOSED_OBJECTS_CLAUSE;
}

function toFieldErrors(errors: readonly ErrorObject[], value: unknown): FieldError[] {
  const nullableAnyOfPaths = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'anyOf' && isNullableAnyOf(error.schema)) nullableAnyOfPaths.add(error.instancePath);
  }

  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const mapped = toFieldError(error, value, nullableAnyOfPaths);
    if (!mapped) continue;
    const key = `${mapped.field}\u0000${mapped.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(mapped);
    if (out.length === MAX_FIELDS) break;
  }
  if (out.length === 0) out.push({ field: ROOT_FIELD, message: 'is invalid' });
  return out;
}

function toFieldError(error: ErrorObject, value: unknown, nullableAnyOfPaths: Set<string>): FieldError | undefined {
  const path = pointerSegments(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: fieldPath(value, [...path, String(params.missingProperty)]), message: 'is required' };
    case 'additionalProperties':
      return {
        field: fieldPath(value, [...path, String(params.additionalProperty)]),
        message: 'is not an allowed property',
      };
    case 'unevaluatedProperties':
      return {
        field: fieldPath(value, [...path, String(params.unevaluatedProperty)]),
        message: 'is not an allowed property',
      };
    // The branch errors of if/then/else say what is wrong; the summary adds nothing.
    case 'if':
      return undefined;
    case 'anyOf':
      if (nullableAnyOfPaths.has(error.instancePath)) return undefined;
      return { field: fieldPath(value, path), message: 'does not match any allowed shape' };
    case 'type': {
      if (nullableAnyOfPaths.has(error.instancePath)) {
        // Of `X|null`, report the X branch only, and say null would also do.
        if (params.type === 'null') return undefined;
        return { field: fieldPath(value, path), message: `${typeMessage(params.type)} or null` };
      }
      return { field: fieldPath(value, path), message: typeMessage(params.type) };
    }
    default:
      return { field: fieldPath(value, path), message: keywordMessage(error, params) };
  }
}

function keywordMessage(error: ErrorObject, params: Record<string, unknown>): string {
  switch (error.keyword) {
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters`;
    case 'maxLength':
      return `must be at most ${params.limit} characters`;
    case 'pattern':
      return `must match the pattern ${params.pattern}`;
    case 'format':
      return formatMessage(String(params.format));
    case 'minimum':
      return `must be at least ${params.limit}`;
    case 'maximum':
      return `must be at most ${params.limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${params.limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${params.limit}`;
    case 'minItems':
      return `must have at least ${params.limit} items`;
    case 'maxItems':
      return `must have at most ${params.limit} items`;
    case 'enum':
      return `must be one of: ${listOf(params.allowedValues)}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'not': {
      const required = requiredOfNot(error.schema);
      return required ? `must not contain both ${required.join(' and ')}` : 'is not allowed';
    }
    default:
      return 'is invalid';
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function typeMessage(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',');
  return `must be ${types.map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(' or ')}`;
}

const FORMAT_NAMES: Record<string, string> = {
  date: 'a valid date (YYYY-MM-DD)',
  'date-time': 'a valid date-time with offset (RFC 3339)',
  email: 'a valid email address',
  uri: 'a valid absolute URI',
};

function formatMessage(format: string): string {
  return `must be ${FORMAT_NAMES[format] ?? `in ${format} format`}`;
}

function listOf(values: unknown): string {
  if (!Array.isArray(values)) return '';
  return values.map((v) => (v === null ? 'null' : String(v))).join(', ');
}

function isNullableAnyOf(schema: unknown): boolean {
  return (
    Array.isArray(schema) &&
    schema.some((branch) => typeof branch === 'object' && branch !== null && branch.type === 'null')
  );
}

function requiredOfNot(schema: unknown): string[] | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const required = (schema as { required?: unknown }).required;
  return Array.isArray(required) && required.length > 0 ? required.map(String) : undefined;
}

/** Splits a JSON Pointer (RFC 6901) into unescaped segments. */
function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const MAX_KEY_LENGTH = 64;

/**
 * `driver.email`, `vehicleCodes[3]`; the body itself is `body`. Array indexes are told apart from keys by
 * walking the value, since a pointer segment alone cannot say which it is.
 */
function fieldPath(value: unknown, segments: readonly string[]): string {
  let out = '';
  let current: unknown = value;
  for (const segment of segments) {
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(segment)) {
      out += `[${segment}]`;
      current = current[Number(segment)];
      continue;
    }
    // Unknown keys come from the client: keep them short and unambiguous.
    const key = segment.length > MAX_KEY_LENGTH ? `${segment.slice(0, MAX_KEY_LENGTH)}…` : segment;
    out += PLAIN_KEY.test(key) ? (out === '' ? key : `.${key}`) : `[${JSON.stringify(key)}]`;
    current =
      typeof current === 'object' && current !== null && Object.hasOwn(current, segment)
        ? (current as Record<string, unknown>)[segment]
        : undefined;
  }
  return out === '' ? ROOT_FIELD : out;
}
