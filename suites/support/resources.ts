/**
 * Helpers of the resource-level suites (spec 1, 2, 6, 9): the target's catalogue for the generators, a walk of a
 * response along the contract's schemas (every Money, every object and its declared keys), samples of every
 * response of every endpoint, and bookings made the way the runner can clean up after.
 */
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { expect } from 'vitest';
import { SCHEMA_BUNDLE, type SchemaName } from '../../contract/schemas/index.ts';
import type {
  Driver,
  FleetList,
  FleetVehicle,
  JsonValue,
  LocationList,
  Quote,
  QuoteRequest,
  RateList,
  RatePlan,
  Reservation,
  ReservationRequest,
} from '../../contract/types.ts';
import {
  availabilityRequest,
  daysBetween,
  driver,
  meetsRejection,
  quoteRequest,
  type SchemaFault,
  type ShoppingOptions,
  schemaFaults,
  type TargetCatalogue,
} from '../../generators/index.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { errorCodeOf, expectSchema, expectValue } from '../../harness/check/expect-api.ts';
import type { Role } from '../../harness/config/target-config.ts';

// ---------------------------------------------------------------------------------------------------------------
// What the target exposes

/** The role's locations, fleet and rate plans (JSON), anchored on the run's date: what the generators draw from. */
export async function targetCatalogue(t: CheckContext, role: Role = 'partnerA'): Promise<TargetCatalogue> {
  const client = t.client(role);
  const [locations, fleet, rates] = await Promise.all([
    client.get('/locations', { representation: 'json' }),
    client.get('/fleet', { representation: 'json' }),
    client.get('/rates', { representation: 'json' }),
  ]);
  for (const [path, res] of [
    ['/locations', locations],
    ['/fleet', fleet],
    ['/rates', rates],
  ] as const) {
    expect(res.status, `GET ${path} (needed to generate requests): ${res.text.slice(0, 300)}`).toBe(200);
  }
  return {
    locations: (locations.body as LocationList).locations,
    vehicles: (fleet.body as FleetList).vehicles,
    rates: (rates.body as RateList).rates,
    today: t.settings.date,
  };
}

/** The same catalogue with only these plans, so generated windows use one of them (or the public rate). */
export function withPlans(cat: TargetCatalogue, plans: RatePlan[]): TargetCatalogue {
  return { ...cat, rates: plans };
}

/** One value of an arbitrary, reproducible from the check's seed (`salt` tells several draws apart). */
export function sampleOf<T>(t: CheckContext, arbitrary: fc.Arbitrary<T>, salt = 0): T {
  const [value] = fc.sample(arbitrary, { seed: (t.seed + salt) | 0, numRuns: 1 });
  if (value === undefined) throw new Error('fast-check produced no sample');
  return value;
}

/**
 * Runs for properties of one quote each, or more than one request: the resource checks are many (one per field
 * rule) and share the suite's time budget, so each property draws a few values; --runs above 3 raises none.
 */
export function costlyRuns(t: CheckContext): number {
  return Math.min(t.settings.runs, 3);
}

/** Runs for properties of one availability request each (the largest responses of the API). */
export function cheapRuns(t: CheckContext): number {
  return Math.min(t.settings.runs, 5);
}

// ---------------------------------------------------------------------------------------------------------------
// A response walked along the contract's schemas

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string | number): string {
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
      if (sub) visit(sub, value[key], join(path, key), out, []);
    }
  }
  const items = schema.items as Schema | undefined;
  if (Array.isArray(value) && items) {
    for (const [i, item] of value.entries()) visit(items, item, join(path, i), out, []);
  }
}

/** Every value of `value` with the schema of `name` it sits under, root first. */
export function schemaNodes(name: SchemaName, value: unknown): SchemaNode[] {
  const out: SchemaNode[] = [];
  visit({ $ref: `#/$defs/${name}` }, value, '', out, []);
  return out;
}

/** Every position the contract types as Money (null ones left out), with its value. */
export function moneyNodes(name: SchemaName, value: unknown): SchemaNode[] {
  return schemaNodes(name, value).filter((n) => n.refs.includes('Money') && n.value !== null);
}

/** Keys of closed objects that their schema does not declare (spec 2 conventions: objects are closed). */
export function unknownKeys(name: SchemaName, value: unknown): string[] {
  const out: string[] = [];
  for (const node of schemaNodes(name, value)) {
    if (!isObject(node.value) || node.schema.additionalProperties !== false) continue;
    const declared = (node.schema.properties ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(node.value)) if (!(key in declared)) out.push(join(node.path, key));
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
 * schema declares as "T or null" (required or not).
 */
export function absentKeys(name: SchemaName, value: unknown, which: 'required' | 'nullable'): string[] {
  const out: string[] = [];
  for (const node of schemaNodes(name, value)) {
    if (!isObject(node.value)) continue;
    const properties = (node.schema.properties ?? {}) as Record<string, Schema>;
    const keys =
      which === 'required'
        ? ((node.schema.required ?? []) as string[])
        : Object.keys(properties).filter((key) => allowsNull(properties[key] ?? {}));
    for (const key of keys) if (!Object.hasOwn(node.value, key)) out.push(join(node.path, key));
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
      if (allowsNull(properties[key] ?? {})) out.push(join(node.path, key));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Money, read from the wire

const MONEY_KEYS = ['amount', 'currency', 'display', 'exponent'];

/** An object with exactly the four keys of Money (spec 2.1). */
export function isMoneyShaped(value: unknown): boolean {
  return isObject(value) && Object.keys(value).sort().join(',') === MONEY_KEYS.join(',');
}

/** Names that hold an amount of money in this API; a bare number under such a key is a bare amount (spec 1.2). */
const AMOUNT_NAME = /amount|total|rate$|fee|deposit|price|commission|discount|prepayment|due|cost|charge/i;
/** The only non-integer numbers the contract has (spec 2.6 coordinates). */
const FRACTIONAL_KEYS = new Set(['latitude', 'longitude']);

/**
 * Spec 1.2, judged without the schema: every number that is not the amount or exponent of a Money-shaped object,
 * under a money-like key or not an integer (coordinates apart), is a bare amount. Returns their paths.
 */
export function bareAmounts(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => bareAmounts(item, join(path, i)));
  if (!isObject(value)) return [];
  if (isMoneyShaped(value)) return [];
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const childPath = join(path, key);
    if (typeof child === 'number') {
      if (AMOUNT_NAME.test(key)) out.push(`${childPath} = ${child}`);
      else if (!Number.isInteger(child) && !FRACTIONAL_KEYS.has(key)) out.push(`${childPath} = ${child}`);
    } else if (typeof child === 'string' && AMOUNT_NAME.test(key) && /^-?\d+(\.\d+)?$/.test(child)) {
      out.push(`${childPath} = "${child}" (a number in a string)`);
    } else out.push(...bareAmounts(child, childPath));
  }
  return out;
}

/**
 * The literal text of every Money `amount` on the wire, so `1.0` or `1e3` (which parse to integers) are seen:
 * JSON `"amount": <number>` and typed XML `<property name="amount"><number>…</number>`.
 */
export function amountLexemes(res: ApiResult): string[] {
  const pattern =
    res.mediaType === 'application/json'
      ? /"amount"\s*:\s*([^,}\s]+)/g
      : /name\s*=\s*["']amount["']\s*>\s*<(?:[\w.-]+:)?number\s*>([^<]*)</g;
  return [...res.text.matchAll(pattern)].map((m) => m[1] ?? '');
}

// ---------------------------------------------------------------------------------------------------------------
// Samples of every response

/** One response and what it must be: its status and the contract's schema of its body. */
export interface Sample {
  label: string;
  res: ApiResult;
  status: number;
  schema: SchemaName;
}

/** The status and the schema of every sample (spec 2, 4): each failure names the call. */
export function expectSamples(samples: readonly Sample[]): void {
  for (const s of samples) {
    expect(s.res.status, `${s.label}: ${s.res.text.slice(0, 300)}`).toBe(s.status);
    expectSchema(s.res, s.schema);
  }
}

function firstOf<T>(list: readonly T[]): T[] {
  return list.slice(0, 1);
}

/** GET /fleet, a vehicle by code, GET /locations, a location by code, GET /rates. */
export async function catalogueSamples(t: CheckContext, role: Role = 'partnerA'): Promise<Sample[]> {
  const client = t.client(role);
  const fleet = await client.get('/fleet');
  const out: Sample[] = [{ label: 'GET /fleet', res: fleet, status: 200, schema: 'FleetList' }];
  const vehicles = (fleet.body as FleetList | undefined)?.vehicles ?? [];
  for (const v of firstOf(vehicles)) {
    const path = `/fleet/${encodeURIComponent(v.vehicleCode)}`;
    out.push({ label: `GET ${path}`, res: await client.get(path), status: 200, schema: 'FleetVehicle' });
  }
  const locations = await client.get('/locations');
  out.push({ label: 'GET /locations', res: locations, status: 200, schema: 'LocationList' });
  for (const l of firstOf((locations.body as LocationList | undefined)?.locations ?? [])) {
    const path = `/locations/${encodeURIComponent(l.locationCode)}`;
    out.push({ label: `GET ${path}`, res: await client.get(path), status: 200, schema: 'Location' });
  }
  out.push({ label: 'GET /rates', res: await client.get('/rates'), status: 200, schema: 'RateList' });
  return out;
}

/** POST /availability and POST /quotes (public rate and, when the partner has plans, a plan), generated. */
export async function shoppingSamples(t: CheckContext, role: Role = 'partnerA'): Promise<Sample[]> {
  const cat = await targetCatalogue(t, role);
  const client = t.client(role);
  const availability = sampleOf(t, availabilityRequest(cat, { rate: 'public' }));
  const out: Sample[] = [
    {
      label: 'POST /availability',
      res: await client.post('/availability', availability),
      status: 200,
      schema: 'AvailabilityResponse',
    },
  ];
  const rates: Array<'public' | 'plan'> = cat.rates.length > 0 ? ['public', 'plan'] : ['public'];
  for (const rate of rates) {
    const { res } = await issueQuote(t, role, cat, { rate });
    out.push({ label: `POST /quotes (${rate} rate)`, res, status: 201, schema: 'Quote' });
  }
  return out;
}

/** A booking and what follows it: POST /reservations, GET by id, GET the list, POST cancel. */
export async function bookingSamples(t: CheckContext, role: Role = 'partnerA'): Promise<Sample[]> {
  const { res, reservation } = await bookReservation(t, role);
  const client = t.client(role);
  const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
  return [
    { label: 'POST /reservations', res, status: 201, schema: 'Reservation' },
    { label: `GET ${path}`, res: await client.get(path), status: 200, schema: 'Reservation' },
    {
      label: 'GET /reservations?limit=5',
      res: await client.get('/reservations?limit=5'),
      status: 200,
      schema: 'ReservationList',
    },
    {
      label: `POST ${path}/cancel`,
      res: await client.post(`${path}/cancel`, { reason: 'Certification run: spec 2 response shapes' }),
      status: 200,
      schema: 'Reservation',
    },
  ];
}

export type SampleLevel = 'catalog' | 'shop' | 'book';

export const SAMPLE_LEVELS: readonly SampleLevel[] = ['catalog', 'shop', 'book'];

/** The samples of one profile level (catalogue reads; shopping; a booking's life). */
export function samplesOf(t: CheckContext, level: SampleLevel, role: Role = 'partnerA'): Promise<Sample[]> {
  if (level === 'catalog') return catalogueSamples(t, role);
  if (level === 'shop') return shoppingSamples(t, role);
  return bookingSamples(t, role);
}

/** Check options of a sample level: its profile, and bookings for the booking samples. */
export function levelOptions(level: SampleLevel): { profile: SampleLevel; bookings?: boolean } {
  return level === 'book' ? { profile: 'book', bookings: true } : { profile: level };
}

// ---------------------------------------------------------------------------------------------------------------
// Quotes and bookings

export interface IssuedQuote {
  request: QuoteRequest;
  res: ApiResult;
  quote: Quote;
}

/**
 * POST /quotes for a generated request (spec 2.12 QuoteRequest): the first of up to five draws the target answers
 * with 201. A target may find nothing offerable for a window (409 NO_AVAILABILITY): the next draw is tried, and the
 * check is not applicable when all five are.
 */
export async function issueQuote(
  t: CheckContext,
  role: Role,
  cat: TargetCatalogue,
  options: ShoppingOptions = {},
): Promise<IssuedQuote> {
  const arbitrary = quoteRequest(cat, { rate: 'public', ...options });
  let last: ApiResult | undefined;
  for (let salt = 0; salt < 5; salt++) {
    const request = sampleOf(t, arbitrary, salt * 7919);
    const res = await t.client(role).post('/quotes', request);
    if (res.status === 201) return { request, res, quote: res.body as Quote };
    last = res;
    if (!(res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY')) break;
  }
  if (last?.status === 409) return t.notApplicable('the target offered nothing for five generated quote requests');
  expect(last?.status, `POST /quotes with a generated valid request: ${last?.text.slice(0, 300)}`).toBe(201);
  throw new Error('unreachable');
}

let sequence = 0;

/** A run-unique suffix: the check's seed and a counter (generated suffixes may repeat, 4.7.7 forbids reuse). */
function uniqueSuffix(t: CheckContext): string {
  sequence += 1;
  return `${(t.seed >>> 0).toString(36)}${sequence.toString(36)}`.toUpperCase();
}

/** A partnerReference the runner's cleanup recognises (design.md, profile `book`). */
export function partnerReference(t: CheckContext): string {
  return `${t.settings.bookingPrefix}${uniqueSuffix(t)}`;
}

/** An Idempotency-Key unique to this attempt (spec 4.7). */
export function idempotencyKey(t: CheckContext): string {
  return `${t.settings.bookingPrefix}key-${uniqueSuffix(t)}`;
}

/**
 * A driver well over 18 and over the vehicle's minimum age whatever day the target judges age on (#3): drawn on
 * the run's anchor date, with a year of margin for every year the anchor lies ahead of the local date (a --date
 * years ahead must not yield a driver under 18 today).
 */
export function driverFor(t: CheckContext, vehicle?: FleetVehicle, salt = 0): Driver {
  const ahead = Math.max(0, Math.ceil(daysBetween(new Date().toISOString().slice(0, 10), t.settings.date) / 365));
  const minAge = Math.max(21, (vehicle?.minDriverAge ?? 0) + 2) + ahead;
  return sampleOf(t, driver(t.settings.date, { minAge, maxAge: minAge + 50 }), salt);
}

/** A minimal valid ReservationRequest for a quote: the run's partnerReference and a generated driver. */
export function reservationBody(t: CheckContext, quoteId: string, vehicle?: FleetVehicle): ReservationRequest {
  return { quoteId, partnerReference: partnerReference(t), driver: driverFor(t, vehicle) };
}

/**
 * POST /reservations with a fresh Idempotency-Key (or `key`); any reservation the answer describes is recorded
 * for the end-of-run cleanup, whatever the status.
 */
export async function postReservation(
  t: CheckContext,
  role: Role,
  body: unknown,
  options: { key?: string } = {},
): Promise<ApiResult> {
  const res = await t
    .client(role)
    .post('/reservations', body, { headers: { 'idempotency-key': options.key ?? idempotencyKey(t) } });
  const id = (res.body as { reservationId?: unknown } | undefined)?.reservationId;
  if (typeof id === 'string') t.recordReservation(id);
  return res;
}

export interface Booked extends IssuedQuote {
  body: ReservationRequest;
  res: ApiResult;
  quoteRes: ApiResult;
  reservation: Reservation;
}

/** A quote (generated, `options` as for issueQuote) booked at once: 201 required. */
export async function bookReservation(
  t: CheckContext,
  role: Role = 'partnerA',
  options: ShoppingOptions & { catalogue?: TargetCatalogue } = {},
): Promise<Booked> {
  const cat = options.catalogue ?? (await targetCatalogue(t, role));
  const issued = await issueQuote(t, role, cat, options);
  const body = reservationBody(t, issued.quote.quoteId, issued.quote.vehicle);
  const res = await postReservation(t, role, body);
  expect(res.status, `POST /reservations from a fresh quote: ${res.text.slice(0, 300)}`).toBe(201);
  return { ...issued, quoteRes: issued.res, body, res, reservation: res.body as Reservation };
}

/** An id of the same length and character classes as `id` that differs in its last character. */
export function siblingId(id: string): string {
  const last = id.at(-1) ?? '0';
  const next = /[0-9]/.test(last)
    ? String((Number(last) + 1) % 10)
    : /[a-z]/.test(last)
      ? last === 'z'
        ? 'a'
        : String.fromCharCode(last.charCodeAt(0) + 1)
      : /[A-Z]/.test(last)
        ? last === 'Z'
          ? 'A'
          : String.fromCharCode(last.charCodeAt(0) + 1)
        : '0';
  return id.slice(0, -1) + next;
}

/** An error body with its requestId blanked: what "indistinguishable but for the requestId" compares. */
export function withoutRequestId(body: unknown): unknown {
  if (!isObject(body) || !isObject(body.error)) return body;
  const { requestId: _ignored, ...rest } = body.error;
  return { ...body, error: rest };
}

// ---------------------------------------------------------------------------------------------------------------
// The XML root as written on the wire

export interface XmlRoot {
  local: string;
  uri: string;
  version: string | undefined;
  /** Every namespace URI declared anywhere in the document. */
  namespaces: string[];
}

/** The root element of an XML body read by a namespace-aware parser; undefined when it is not well-formed XML. */
export function xmlRootOf(text: string): XmlRoot | undefined {
  const parser = new SaxesParser({ xmlns: true });
  let root: XmlRoot | undefined;
  const namespaces = new Set<string>();
  parser.on('opentag', (tag) => {
    for (const uri of Object.values(tag.ns ?? {})) namespaces.add(uri);
    if (root) return;
    root = { local: tag.local, uri: tag.uri, version: tag.attributes.version?.value, namespaces: [] };
  });
  try {
    parser.write(text).close();
  } catch {
    return undefined;
  }
  return root ? { ...root, namespaces: [...namespaces] } : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// SIPP (ACRISS) letters per position, spec 1.6 and 2.2

export const ACRISS_LETTERS = ['MNEHCDIJSRFGPULWOX', 'BCDWVLSTFJXPQZEMRHYNGK', 'MNCABD', 'RNDQHIECLSABMFVZUX'] as const;
/** Third letter: manual transmissions. */
export const SIPP_MANUAL = 'MNC';
/** Fourth letter: with air conditioning. */
export const SIPP_WITH_AIR = 'RDHELAMVU';

/** The positions (1 to 4) of a four-letter code whose letter is not an ACRISS letter of that position. */
export function invalidSippPositions(code: string): number[] {
  return ACRISS_LETTERS.flatMap((letters, i) => (letters.includes(code.charAt(i)) ? [] : [i + 1]));
}

// ---------------------------------------------------------------------------------------------------------------
// Schema faults of request bodies (generators/hostile-schema.ts) and what the target answered

/** Every one-fault variant of `valid` under `schema` that `keep` selects. */
export function faultsOf(schema: SchemaName, valid: unknown, keep: (fault: SchemaFault) => boolean): SchemaFault[] {
  return schemaFaults(schema, valid as JsonValue).filter(keep);
}

/** A fault the target did not refuse as the spec wants (status, code, closed envelope). */
export interface UnmetFault {
  fault: string;
  expected: string;
  got: string;
}

/**
 * Sends every fault and returns those not refused with one of their expected (status, code) answers in a valid
 * error envelope: an empty list is the pass. `send` posts one body (and records any reservation it creates).
 */
export async function unmetFaults(
  faults: readonly SchemaFault[],
  send: (body: JsonValue) => Promise<ApiResult>,
): Promise<UnmetFault[]> {
  const out: UnmetFault[] = [];
  for (const fault of faults) {
    const res = await send(fault.value);
    const code = errorCodeOf(res);
    // The envelope's shape is 7.2's: judged under its clauses, so one envelope deviation fails 7.2, not every field.
    if (res.status >= 400) expectValue(res.body, 'ErrorEnvelope', `the HTTP ${res.status} answer to ${fault.name}`);
    if (!meetsRejection(fault.expect, res.status, code)) {
      out.push({
        fault: fault.name,
        expected: fault.expect.reject.map((a) => `${a.status} ${a.codes.join('|')}`).join(' or '),
        got: `${res.status} ${code ?? res.text.slice(0, 120)}`,
      });
    }
  }
  return out;
}
