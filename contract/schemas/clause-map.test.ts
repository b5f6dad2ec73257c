import { describe, expect, it } from 'vitest';
import { clauseById } from '../clauses/index.ts';
import { schemaViolations } from '../validation.ts';
import { CLOSED_OBJECTS_CLAUSE, SCHEMA_CLAUSES } from './clause-map.ts';
import { validExample } from './examples.ts';
import { SCHEMA_BUNDLE, SCHEMA_NAMES } from './index.ts';

type Node = { readonly [keyword: string]: unknown };
// biome-ignore lint/suspicious/noExplicitAny: an example body taken apart field by field
type Loose = Record<string, any>;

/** Every `<Def>.<property>` path of the bundle (nested closed objects included, references not followed). */
function propertyPaths(name: string, node: Node, prefix = name): string[] {
  const out: string[] = [];
  const properties = node.properties as Record<string, Node> | undefined;
  for (const [key, child] of Object.entries(properties ?? {})) {
    const path = `${prefix}.${key}`;
    out.push(path);
    if (child.properties) out.push(...propertyPaths(name, child, path));
  }
  return out;
}

/** The deepest listed prefix of a path: the clause a violation there is filed under. */
function clauseOf(path: string): string | undefined {
  const parts = path.split('.');
  for (let i = parts.length; i > 0; i--) {
    const clause = SCHEMA_CLAUSES[parts.slice(0, i).join('.')];
    if (clause) return clause;
  }
  return undefined;
}

describe('schema clause map', () => {
  it('names only clauses of the clause catalogue', () => {
    for (const [key, clauseId] of Object.entries(SCHEMA_CLAUSES)) expect(clauseById(clauseId), key).toBeDefined();
    expect(clauseById(CLOSED_OBJECTS_CLAUSE)).toBeDefined();
  });

  it('files every field of every schema under some clause', () => {
    const defs = SCHEMA_BUNDLE.$defs as unknown as Record<string, Node>;
    for (const name of SCHEMA_NAMES) {
      expect(SCHEMA_CLAUSES[name], name).toBeDefined();
      for (const path of propertyPaths(name, defs[name] as Node)) expect(clauseOf(path), path).toBeDefined();
    }
  });

  it('files a violation under the violated field, wherever it sits (no cascade into the clauses of its container)', () => {
    const quote = validExample('Quote') as Loose;
    quote.charges.total.currency = 'vnd';
    quote.vehicle.doors = 7;
    quote.rate.rateType = 'wholesale';
    delete quote.payment.dueAtPickup;
    quote.extraKey = 1;
    const clauses = schemaViolations('Quote', quote).map((v) => v.clauseId);
    expect(new Set(clauses)).toEqual(new Set(['2.1.2', '2.5.10', '2.9.7', '2.9.10', '2.0.2']));
  });

  it("files an echoed partnerReference over its length under the limits table's 8.8, any other wrong value under 2.11.3", () => {
    const reservation = validExample('Reservation') as Loose;
    reservation.partnerReference = 'R'.repeat(65);
    expect(schemaViolations('Reservation', reservation).map((v) => v.clauseId)).toEqual(['8.8']);
    reservation.partnerReference = 42;
    expect(schemaViolations('Reservation', reservation).map((v) => v.clauseId)).toEqual(['2.11.3']);
  });

  it("files a list's limit out of 1 to 100 under the limits table's 8.5, a limit that is no integer under 2.12.6d", () => {
    const list = validExample('ReservationList') as Loose;
    for (const limit of [0, 101]) {
      list.limit = limit;
      expect(
        schemaViolations('ReservationList', list).map((v) => v.clauseId),
        `limit ${limit}`,
      ).toEqual(['8.5']);
    }
    list.limit = '25';
    expect(schemaViolations('ReservationList', list).map((v) => v.clauseId)).toEqual(['2.12.6d']);
  });

  it('files a Money position holding a bare number under 1.2 and a missing Money field under its required list', () => {
    const vehicle = validExample('FleetVehicle') as Loose;
    vehicle.securityDeposit = 5_000_000.5;
    delete vehicle.images;
    expect(new Set(schemaViolations('FleetVehicle', vehicle).map((v) => v.clauseId))).toEqual(
      new Set(['1.2', '2.5.1']),
    );
  });

  it('files envelope violations under 7.2.x', () => {
    const clauses = (error: Record<string, unknown>) =>
      schemaViolations('ErrorEnvelope', { error }).map((v) => v.clauseId);
    const base = { code: 'NOT_FOUND', message: 'm', requestId: 'r', retryable: false };
    expect(clauses({ ...base, details: [] })).toEqual(['7.2.1']);
    expect(clauses({ ...base, code: 404 })).toEqual(['7.2.2']);
    expect(clauses({ ...base, retryable: 'false' })).toEqual(['7.2.5']);
    expect(clauses({ ...base, fields: [{ field: 'x' }] })).toEqual(['7.2.6']);
  });
});
