import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { CONTRACT_INFO_VERSION, OPENAPI_VERSION, SPEC_RELEASE } from '../constants.ts';
import { ENDPOINTS } from '../endpoints.ts';
import { SCHEMA_NAMES } from '../schemas/index.ts';
import { SCOPES } from '../scopes.ts';
import { buildOpenApiDocument, type OpenApiDocument, renderOpenApiJson } from './build.ts';

const COMMITTED = new URL('./partner-api-v1.openapi.json', import.meta.url);

type Json = Record<string, unknown>;

function resolvePointer(doc: unknown, ref: string): unknown {
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') out.push(inner);
      else collectRefs(inner, out);
    }
  }
  return out;
}

function deref(doc: OpenApiDocument, value: unknown): Json {
  const ref = (value as Json | undefined)?.$ref;
  return (typeof ref === 'string' ? resolvePointer(doc, ref) : value) as Json;
}

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument();

  it('validates against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('the validator is able to reject: a response without description fails', async () => {
    const broken = structuredClone(doc);
    const op = broken.paths[ENDPOINTS[1]?.path ?? '']?.get as Json;
    (op.responses as Json)['200'] = { content: {} };
    expect((await new Validator().validate(broken as unknown as Record<string, unknown>)).valid).toBe(false);
  });

  it('carries the versions of spec 9.2', () => {
    expect(doc.openapi).toBe(OPENAPI_VERSION);
    expect(doc.info.version).toBe(CONTRACT_INFO_VERSION);
    expect(doc.info.description).toContain(SPEC_RELEASE);
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('holds every schema of the bundle the operations reach (all but RentalWindow) with component references only', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(SCHEMA_NAMES.filter((name) => name !== 'RentalWindow'));
    const refs = collectRefs(doc);
    expect(refs.filter((r) => r.startsWith('#/$defs/'))).toEqual([]);
    for (const ref of refs) expect(resolvePointer(doc, ref), ref).toBeDefined();
  });

  it('declares the oauth2 client credentials scheme with all eight scopes', () => {
    const scheme = doc.components.securitySchemes.partnerOAuth as {
      type: string;
      flows: { clientCredentials: { tokenUrl: string; scopes: Json } };
    };
    expect(scheme.type).toBe('oauth2');
    expect(scheme.flows.clientCredentials.tokenUrl).toBe(ENDPOINTS[0]?.path);
    expect(Object.keys(scheme.flows.clientCredentials.scopes)).toEqual([...SCOPES]);
  });

  it.each(ENDPOINTS.map((e) => [e.operationId, e] as const))('%s appears as in ENDPOINTS', (_id, endpoint) => {
    const op = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()] as Json | undefined;
    expect(op).toBeDefined();
    if (!op) return;
    expect(op.operationId).toBe(endpoint.operationId);
    expect(op['x-spec-section']).toBe(endpoint.section);
    expect(op.security).toEqual(
      endpoint.scope === null ? [{ clientBasic: [] }, {}] : [{ partnerOAuth: [endpoint.scope] }],
    );

    const responses = op.responses as Json;
    const success = deref(doc, responses[String(endpoint.successStatus)]);
    const successContent = success.content as Record<string, { schema: Json }>;
    expect(successContent['application/json']?.schema).toEqual({
      $ref: `#/components/schemas/${endpoint.responseSchema}`,
    });
    for (const status of endpoint.errorStatuses) expect(responses[String(status)], String(status)).toBeDefined();

    const headers = Object.keys((success.headers as Json | undefined) ?? {});
    if (endpoint.representations === 'json-and-xml') {
      expect(headers).toContain('X-Request-Id');
      // XML is described as a string, never through OpenAPI's XML object mapping.
      expect(successContent['application/xml']?.schema.type).toBe('string');
      expect(successContent['text/xml']?.schema.type).toBe('string');
      expect(JSON.stringify(op)).not.toContain('"xml":');
    } else {
      expect(headers).toEqual(['Cache-Control']);
    }
    const rateHeaders = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
    for (const h of rateHeaders) expect(headers.includes(h)).toBe(endpoint.rateLimited);

    const tooMany = deref(doc, responses['429']);
    expect(Object.keys(tooMany.headers as Json)).toContain('Retry-After');
    const tooManySchema = (tooMany.content as Record<string, { schema: Json }>)['application/json']?.schema;
    expect(tooManySchema).toEqual({
      $ref: `#/components/schemas/${endpoint.scope === null ? 'OAuthError' : 'ErrorEnvelope'}`,
    });

    const body = op.requestBody as { required?: boolean; content: Record<string, { schema: Json }> } | undefined;
    if (endpoint.method === 'PATCH') {
      // Any body gets the 501 (4.10): optional and unconstrained, so validators let it through.
      expect(body?.required).toBe(false);
      expect(body?.content['application/json']?.schema).toEqual({});
    } else if (endpoint.requestSchema === null) expect(body).toBeUndefined();
    else {
      const mediaType =
        endpoint.representations === 'json-and-xml' ? 'application/json' : 'application/x-www-form-urlencoded';
      expect(body?.content[mediaType]?.schema).toEqual({ $ref: `#/components/schemas/${endpoint.requestSchema}` });
    }
  });

  it('has no operation beyond ENDPOINTS', () => {
    const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`));
    expect(ops.sort()).toEqual(ENDPOINTS.map((e) => `${e.method.toLowerCase()} ${e.path}`).sort());
  });

  it('documents the replay, the Idempotency-Key and the list limit', () => {
    const create = doc.paths['/api/partner/v1/reservations']?.post as Json;
    const replay = (create.responses as Json)['200'] as Json;
    expect(Object.keys(replay.headers as Json)).toContain('Idempotent-Replay');
    const params = (create.parameters as Json[]).map((p) => deref(doc, p));
    expect(params.find((p) => p.name === 'Idempotency-Key')).toMatchObject({
      in: 'header',
      required: true,
      schema: { minLength: 8, maxLength: 200 },
    });
    const list = doc.paths['/api/partner/v1/reservations']?.get as Json;
    const limit = (list.parameters as Json[]).map((p) => deref(doc, p)).find((p) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', schema: { minimum: 1, maximum: 100, default: 25 } });
    const vehicle = doc.paths['/api/partner/v1/fleet/{vehicleCode}']?.get as Json;
    const pathParam = deref(doc, (vehicle.parameters as Json[])[0]);
    expect(pathParam).toMatchObject({ name: 'vehicleCode', in: 'path', schema: { pattern: '^[A-Z0-9-]{2,32}$' } });
  });

  it('is committed as generated (run `npm run openapi` after changing the contract)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(renderOpenApiJson());
  });
});
