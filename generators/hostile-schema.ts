/**
 * Schema violations of the request shapes (spec 2.12, 2.3, 2.4, 2.10), derived from the contract's own JSON
 * Schemas and from one valid value, so each case carries exactly one fault: a wrong type, a broken pattern or
 * format, a value out of range, a length one past a limit, an unknown property, a missing required property,
 * or cdwInsurance with fullProtection. 4.12 rule faults (unknown codes, dropoff before pickup, a driver under
 * 18) are not schema faults and are not made here.
 */
import fc from 'fast-check';
import type { ErrorCode } from '../contract/errors.ts';
import { PATTERNS, SCHEMA_BUNDLE, type SchemaName } from '../contract/schemas/index.ts';
import type { JsonValue } from '../contract/types.ts';
import { validate } from '../contract/validation.ts';
import { emailOfLength } from './driver.ts';
import { type Rejection, rejectWith } from './expectations.ts';
import { fieldName, getAt, REMOVE, type Segment, setAt } from './json-path.ts';

export type SchemaFaultKind =
  | 'type'
  | 'pattern'
  | 'format'
  | 'enum'
  | 'range'
  | 'length'
  | 'items'
  | 'unknown-property'
  | 'missing-required'
  | 'cdw-with-full-protection';

export interface SchemaFault {
  /** `driver.phone: pattern "0901234567"`; long values are described by length, never printed. */
  name: string;
  schema: SchemaName;
  /** The faulty field as validate() names it (`driver.email`, `vehicleCodes[0]`, `body`). */
  path: string;
  kind: SchemaFaultKind;
  /** The whole request body, the valid value with the one fault. */
  value: JsonValue;
  expect: Rejection;
}

/** The unknown property added at each object level: recognisable in a target's logs. */
export const UNKNOWN_PROPERTY = 'certificationProbe';

type Schema = { readonly [keyword: string]: unknown };

/** Per pattern of the contract: strings that break it, and valid ones to fill an array past maxItems. */
const PATTERN_SAMPLES: Record<string, { violating: readonly string[]; valid?: (i: number) => string }> = {
  // VehicleCode and LocationCode share one pattern (spec 2.2).
  [PATTERNS.locationCode]: {
    violating: ['lower-case', 'X', 'WITH SPACE', 'UNDER_SCORE', 'X'.repeat(33)],
    valid: (i) => `PROBE-${String(i).padStart(2, '0')}`,
  },
  [PATTERNS.commercialCode]: { violating: ['', 'acme', 'AC ME', 'C'.repeat(33)] },
  [PATTERNS.localTime]: { violating: ['24:00', '9:00', '09:60', '09:00:00', '0900'] },
  // Only clearly invalid numbers (ambiguity #2): "E.164 with country code, 5 to 20 chars" leaves spaces and 16 to 20
  // characters to a lenient reading, so `+84 90 123 4567` or 17 digits are never demanded refused.
  [PATTERNS.e164Phone]: {
    violating: ['0901234567', '+0901234567', '+84abc123456', `+84${'9'.repeat(19)}`],
  },
  [PATTERNS.nationality]: { violating: ['VNM', 'V', 'V1'] },
};

/**
 * Strings that break the VehicleCode / LocationCode pattern (spec 2.2): lower case, one character, a space, an
 * underscore, 33 characters. For path parameters as well as body fields.
 */
export function malformedCodes(): readonly string[] {
  return PATTERN_SAMPLES[PATTERNS.locationCode]?.violating ?? [];
}

const FORMAT_SAMPLES: Record<string, readonly string[]> = {
  date: ['2030-02-30', '01/03/2030', '2030-3-1', '2030-03-01T09:00'],
  email: ['lan.nguyen.example.com', 'lan@', 'lan nguyen@example.com'],
};

/** Wrong-type stand-ins per JSON Schema type; each is XML-representable, so the fault exists in both forms. */
const WRONG_TYPES: Record<string, readonly JsonValue[]> = {
  string: [42, true, null],
  integer: ['2', 1.5, null],
  number: ['2', null],
  boolean: ['true', 1, null],
  object: ['x', [], null],
  array: ['x', {}, null],
};

/**
 * Where 4.12 and 7.3 give a field its own code, a target may answer with it instead of VALIDATION_ERROR
 * (docs/design.md: the code of a minor violation is left open; both are accepted).
 */
const FIELD_CODES: Record<string, ErrorCode> = {
  pickupLocation: 'INVALID_LOCATION',
  dropoffLocation: 'INVALID_LOCATION',
  pickupDate: 'INVALID_RENTAL_WINDOW',
  pickupTime: 'INVALID_RENTAL_WINDOW',
  dropoffDate: 'INVALID_RENTAL_WINDOW',
  dropoffTime: 'INVALID_RENTAL_WINDOW',
  vehicleCode: 'INVALID_VEHICLE',
  vehicleCodes: 'INVALID_VEHICLE',
  accountCode: 'INVALID_ACCOUNT_CODE',
  rateCode: 'INVALID_RATE_CODE',
  quoteId: 'QUOTE_INVALID',
};

/** Free text for a length fault where the field has no valid value to stretch. */
const FILLER = 'Đặt xe cho khách đoàn, xin liên hệ trước. ';

interface RawFault {
  path: Segment[];
  kind: SchemaFaultKind;
  label: string;
  next: JsonValue | typeof REMOVE;
}

function resolve(schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/$defs/', '') as SchemaName;
  const target = SCHEMA_BUNDLE.$defs[name] as Schema | undefined;
  if (!target) throw new Error(`hostile-schema: unresolved $ref ${ref}`);
  return resolve(target);
}

function typesOf(schema: Schema): string[] {
  const t = schema.type;
  return Array.isArray(t) ? t.map(String) : typeof t === 'string' ? [t] : [];
}

function describe(v: JsonValue | typeof REMOVE): string {
  if (v === REMOVE) return 'missing';
  if (typeof v === 'string') return v.length > 40 ? `${v.length} characters` : JSON.stringify(v);
  if (Array.isArray(v)) return v.length > 3 ? `array of ${v.length}` : JSON.stringify(v);
  return JSON.stringify(v);
}

/** A string of exactly `length` characters that keeps the field's other rules where it can. */
function stringOfLength(schema: Schema, base: JsonValue | undefined, length: number): string {
  if (schema.format === 'email') return emailOfLength(length);
  if (schema.pattern === PATTERNS.e164Phone) return `+8${'4'.repeat(Math.max(0, length - 2))}`.slice(0, length);
  const seed = typeof base === 'string' && base.length > 0 ? base : FILLER;
  const chars = [...seed];
  let out = '';
  for (let i = 0; i < length; i++) out += chars[i % chars.length];
  return out;
}

function walk(schemaIn: Schema, value: JsonValue | undefined, path: Segment[], out: RawFault[]): void {
  const schema = resolve(schemaIn);
  const types = typesOf(schema);
  for (const type of types) {
    for (const wrong of WRONG_TYPES[type] ?? []) {
      const alsoAllowed =
        types.some((t) => t === (wrong === null ? 'null' : Array.isArray(wrong) ? 'array' : typeof wrong)) ||
        (typeof wrong === 'number' && Number.isInteger(wrong) && types.includes('integer'));
      if (!alsoAllowed) out.push({ path, kind: 'type', label: `wrong type ${describe(wrong)}`, next: wrong });
    }
  }
  if (types.includes('string')) stringFaults(schema, value, path, out);
  if (types.includes('integer') || types.includes('number')) {
    if (typeof schema.minimum === 'number')
      out.push({
        path,
        kind: 'range',
        label: `${schema.minimum - 1} (minimum ${schema.minimum})`,
        next: schema.minimum - 1,
      });
    if (typeof schema.maximum === 'number')
      out.push({
        path,
        kind: 'range',
        label: `${schema.maximum + 1} (maximum ${schema.maximum})`,
        next: schema.maximum + 1,
      });
  }
  if (types.includes('array')) arrayFaults(schema, value, path, out);
  if (types.includes('object')) objectFaults(schema, value, path, out);
}

function stringFaults(schema: Schema, value: JsonValue | undefined, path: Segment[], out: RawFault[]): void {
  if (typeof schema.pattern === 'string') {
    const samples = PATTERN_SAMPLES[schema.pattern];
    if (!samples)
      throw new Error(`hostile-schema: no violating samples for pattern ${schema.pattern} at ${fieldName(path)}`);
    for (const s of samples.violating) out.push({ path, kind: 'pattern', label: `pattern ${describe(s)}`, next: s });
  }
  if (typeof schema.format === 'string') {
    const samples = FORMAT_SAMPLES[schema.format];
    if (!samples) throw new Error(`hostile-schema: no violating samples for format ${schema.format}`);
    // The valid value in another layout (2027/03/10, 10.03.2027): a lenient date parser accepts these though they
    // are no full-date, where the fixed samples alone let it pass.
    const relaid =
      schema.format === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? [value.replaceAll('-', '/'), value.split('-').reverse().join('.')]
        : [];
    for (const s of [...samples, ...relaid])
      out.push({ path, kind: 'format', label: `${schema.format} format ${describe(s)}`, next: s });
  }
  if (Array.isArray(schema.enum)) {
    for (const s of ['sir', String(schema.enum[0]).toUpperCase()])
      if (!schema.enum.includes(s)) out.push({ path, kind: 'enum', label: `not in enum ${describe(s)}`, next: s });
  }
  if (typeof schema.minLength === 'number' && schema.minLength > 0) {
    const n = schema.minLength - 1;
    out.push({
      path,
      kind: 'length',
      label: `${n} characters (min ${schema.minLength})`,
      next: stringOfLength(schema, value, n),
    });
  }
  if (typeof schema.maxLength === 'number') {
    const n = schema.maxLength + 1;
    out.push({
      path,
      kind: 'length',
      label: `${n} characters (max ${schema.maxLength})`,
      next: stringOfLength(schema, value, n),
    });
  }
}

function arrayFaults(schema: Schema, value: JsonValue | undefined, path: Segment[], out: RawFault[]): void {
  const items = schema.items as Schema | undefined;
  if (!items) return;
  const itemSchema = resolve(items);
  const current = Array.isArray(value) ? value : [];
  // Faults of one item: the first, or a new single item when the array is absent or empty.
  walk(itemSchema, current[0], [...path, 0], out);
  if (typeof schema.maxItems === 'number') {
    const n = schema.maxItems + 1;
    const valid = typeof itemSchema.pattern === 'string' ? PATTERN_SAMPLES[itemSchema.pattern]?.valid : undefined;
    if (!valid) throw new Error(`hostile-schema: cannot fill ${fieldName(path)} past maxItems`);
    const list = Array.from({ length: n }, (_, i) => valid(i + 1));
    out.push({ path, kind: 'items', label: `${n} items (max ${schema.maxItems})`, next: list });
  }
}

function objectFaults(schema: Schema, value: JsonValue | undefined, path: Segment[], out: RawFault[]): void {
  const present = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const exclusive = exclusivePair(schema);
  if (present) {
    for (const key of required)
      if (key in present) out.push({ path: [...path, key], kind: 'missing-required', label: 'missing', next: REMOVE });
  }
  if (schema.additionalProperties === false) {
    out.push({ path: [...path, UNKNOWN_PROPERTY], kind: 'unknown-property', label: 'unknown property', next: true });
  }
  if (exclusive) {
    const both = { ...(present ?? {}), [exclusive[0]]: true, [exclusive[1]]: true };
    out.push({ path, kind: 'cdw-with-full-protection', label: `both ${exclusive.join(' and ')}`, next: both });
  }
  for (const [key, propertySchema] of Object.entries(properties)) {
    // Faulting one of two mutually exclusive keys while the other is present would make two faults.
    if (exclusive?.includes(key) && present && exclusive.some((k) => k !== key && k in present)) continue;
    walk(propertySchema, present?.[key], [...path, key], out);
  }
}

/** The two keys an object's `not: { required: [a, b] }` forbids together (Extras: cdwInsurance, fullProtection). */
function exclusivePair(schema: Schema): [string, string] | undefined {
  const not = schema.not as Schema | undefined;
  const required = not?.required;
  return Array.isArray(required) && required.length === 2 ? [String(required[0]), String(required[1])] : undefined;
}

function expectationFor(path: Segment[], kind: SchemaFaultKind): Rejection {
  const field = [...path].reverse().find((s): s is string => typeof s === 'string');
  const specific = kind === 'unknown-property' || field === undefined ? undefined : FIELD_CODES[field];
  const basis =
    kind === 'cdw-with-full-protection'
      ? 'spec 2.3, 4.12: both extras is a validation error'
      : `spec 2 (closed objects), 2.12, 7.3${specific ? `; ${specific} also accepted: 4.12 names that code for the field` : ''}`;
  // 7.3: "The specific code returned for violations such as a driver under 18 or an unknown-field rejection, beyond
  // the generic VALIDATION_ERROR, is not shown." "Such as" names examples, not a closed list: any schema fault may get
  // a 400 with a code of the server's own (DRIVER_TOO_YOUNG, CHILD_SEATS_OUT_OF_RANGE), besides VALIDATION_ERROR and
  // the field's 4.12 code; another code of the 7.3 table is still wrong (audit 7.3-R2, docs/ambiguities.md RS19;
  // benign-driver-too-young-code, benign-own-validation-codes).
  const own = "; any other 400 code of the server's own: 7.3 leaves the code of a validation fault open";
  const expectation = specific
    ? rejectWith('MUST', `${basis}${own}`, 'VALIDATION_ERROR', specific)
    : rejectWith('MUST', `${basis}${own}`, 'VALIDATION_ERROR');
  return {
    ...expectation,
    reject: expectation.reject.map((answer) =>
      answer.status === 400 ? { ...answer, otherCodes: true as const } : answer,
    ),
  };
}

/**
 * Every one-fault variant of `valid` under `schema` (a request schema of the bundle). Throws when `valid` is
 * not itself valid, or when the schema uses a pattern or format this module has no samples for.
 */
export function schemaFaults(schema: SchemaName, valid: JsonValue): SchemaFault[] {
  const check = validate(schema, valid);
  if (!check.valid)
    throw new Error(`schemaFaults: the base ${schema} value is invalid: ${JSON.stringify(check.fields)}`);
  const raw: RawFault[] = [];
  walk(SCHEMA_BUNDLE.$defs[schema] as Schema, valid, [], raw);
  const seen = new Set<string>();
  const faults: SchemaFault[] = [];
  for (const f of raw) {
    const name = `${fieldName(f.path)}: ${f.label}`;
    if (seen.has(name)) continue;
    seen.add(name);
    // A removal of something absent is no fault; neither is "setting" a value it already has.
    if (f.next === REMOVE && getAt(valid, f.path) === undefined) continue;
    faults.push({
      name,
      schema,
      path: fieldName(f.path),
      kind: f.kind,
      value: setAt(valid, f.path, f.next),
      expect: expectationFor(f.path, f.kind),
    });
  }
  return faults;
}

/** One schema fault of a generated valid value: for property runs over many bodies and faults. */
export function schemaFault(schema: SchemaName, valid: fc.Arbitrary<object>): fc.Arbitrary<SchemaFault> {
  return valid.chain((v) => fc.constantFrom(...schemaFaults(schema, v as JsonValue)));
}
