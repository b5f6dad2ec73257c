import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../endpoints.ts';
import { SCHEMA_NAMES, type SchemaName } from '../schemas/index.ts';
import { validate } from '../validation.ts';
import { parseTypedXml } from '../xml/index.ts';
import { buildOpenApiDocument } from './build.ts';

type Json = Record<string, unknown>;
const doc = buildOpenApiDocument();

function deref(value: unknown): Json {
  let node = value as Json;
  while (typeof node?.$ref === 'string') {
    node = (node.$ref as string)
      .slice(2)
      .split('/')
      .reduce<Json>((at, key) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, doc as unknown as Json);
  }
  return node;
}

interface MediaExample {
  where: string;
  schemaName?: SchemaName;
  media: string;
  values: unknown[];
}

/** Every media type of every request and response body, with its example values. */
function mediaExamples(): MediaExample[] {
  const out: MediaExample[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const bodies: [string, Json | undefined][] = [[`${method} ${path} request`, deref(op.requestBody)]];
      for (const [status, response] of Object.entries(op.responses as Json)) {
        bodies.push([`${method} ${path} ${status}`, deref(response)]);
      }
      for (const [where, body] of bodies) {
        for (const [media, content] of Object.entries((body?.content as Record<string, Json>) ?? {})) {
          const ref = (content.schema as Json | undefined)?.$ref;
          const schemaName = typeof ref === 'string' ? (ref.split('/').pop() as SchemaName) : undefined;
          const values =
            'example' in content
              ? [content.example]
              : Object.values((content.examples as Record<string, { value: unknown }>) ?? {}).map((e) => e.value);
          out.push({ where: `${where} ${media}`, media, values, ...(schemaName ? { schemaName } : {}) });
        }
      }
    }
  }
  return out;
}

describe('OpenAPI examples (recorded from the reference implementation, error bodies from spec 7)', () => {
  const all = mediaExamples();

  it('every request and response body has an example in every media type', () => {
    expect(all.length).toBeGreaterThan(ENDPOINTS.length * 3);
    expect(all.filter((m) => m.values.length === 0).map((m) => m.where)).toEqual([]);
  });

  it('every JSON example is valid against its schema', () => {
    const invalid: string[] = [];
    for (const { where, schemaName, media, values } of all) {
      if (media !== 'application/json' || !schemaName || !SCHEMA_NAMES.includes(schemaName)) continue;
      for (const value of values) {
        const result = validate(schemaName, value);
        if (!result.valid) invalid.push(`${where}: ${JSON.stringify(result.fields)}`);
      }
    }
    expect(invalid).toEqual([]);
  });

  it('every XML example is typed XML (4.14) of the same value as its JSON twin', () => {
    for (const { where, media, values } of all) {
      if (!media.endsWith('/xml') || where.startsWith('patch')) continue;
      const twin = all.find((m) => m.where === where.replace(media, 'application/json'));
      values.forEach((xml, i) => {
        const root = where.endsWith(`request ${media}`) ? 'request' : 'response';
        const parsed = parseTypedXml(new TextEncoder().encode(String(xml)), root);
        expect(parsed.ok, where).toBe(true);
        if (parsed.ok) expect(parsed.value, where).toEqual(twin?.values[i]);
      });
    }
  });

  it('every path parameter has an example', () => {
    for (const name of ['VehicleCode', 'LocationCode', 'ReservationId', 'Limit', 'IdempotencyKey']) {
      expect(doc.components.parameters[name]?.example, name).toBeDefined();
    }
  });
});

describe('OpenAPI polish: examples, required headers, declared statuses', () => {
  it('X-Request-Id is required on responses', () => {
    expect(doc.components.headers.XRequestId?.required).toBe(true);
  });

  it('GET /reservations declares the 400 the reference answers for an out-of-range limit', () => {
    const list = doc.paths['/api/partner/v1/reservations']?.get as Json;
    expect(String(deref((list.responses as Json)['400']).description)).toMatch(/limit outside 1 to 100/);
  });

  it('names a contact and a license', () => {
    expect(doc.info.contact).toMatchObject({ name: expect.any(String) });
    expect(doc.info.license).toMatchObject({ name: expect.any(String), identifier: expect.any(String) });
  });
});
