import {
  API_PREFIX,
  CONTRACT_INFO_VERSION,
  MEDIA_TYPES,
  OPENAPI_VERSION,
  SPEC_RELEASE,
  XML_NAMESPACE,
  XML_VERSION,
} from '../constants.ts';
import { allErrorStatuses, ENDPOINTS, type Endpoint } from '../endpoints.ts';
import { OAUTH_ERRORS } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { PATTERNS, SCHEMA_BUNDLE, type SchemaName } from '../schemas/index.ts';
import { SCOPES, type Scope } from '../scopes.ts';
import { envelopeExamples, oauthExamples, RECORDED, recordedOperation, xmlExample, xmlExamples } from './examples.ts';

type Json = { [key: string]: unknown };

/** The parts of the generated document that callers navigate; everything else is plain JSON. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string; contact: Json; license: Json };
  jsonSchemaDialect: string;
  servers: Json[];
  tags: Json[];
  paths: Record<string, Record<string, Json>>;
  components: {
    schemas: Record<SchemaName, Json>;
    securitySchemes: Record<string, Json>;
    parameters: Record<string, Json>;
    headers: Record<string, Json>;
    responses: Record<string, Json>;
  };
}

const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const OAUTH_SCHEME = 'partnerOAuth';
const CLIENT_BASIC_SCHEME = 'clientBasic';

const schemaRef = (name: SchemaName): Json => ({ $ref: `#/components/schemas/${name}` });
const componentRef = (kind: 'parameters' | 'headers' | 'responses', name: string): Json => ({
  $ref: `#/components/${kind}/${name}`,
});

/** Copies a bundle schema with its `#/$defs/X` references pointed at `#/components/schemas/X`. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
        ? `#/components/schemas/${inner.slice('#/$defs/'.length)}`
        : rewriteRefs(inner);
  }
  return out;
}

/**
 * XML bodies are described as opaque strings on purpose: OpenAPI's XML Object maps element names onto the JSON
 * schema, which cannot express the typed elements (object/property/array/item/...) of spec 4.14.
 */
function xmlSchema(root: 'request' | 'response', name: SchemaName): Json {
  return {
    type: 'string',
    description: `${name} as typed XML (spec 4.14): root \`${root}\` version="${XML_VERSION}" in namespace ${XML_NAMESPACE}.`,
  };
}

/** One example (a recorded body) or named examples (one per error code), in JSON and in the typed XML. */
type BodyExamples = { example: Json } | { examples: Record<string, { value: Json }> };

function businessContent(
  name: SchemaName,
  root: 'request' | 'response',
  jsonOnly = false,
  examples?: BodyExamples,
): Json {
  const json = examples ?? {};
  const xml =
    examples === undefined
      ? {}
      : 'example' in examples
        ? { example: xmlExample(examples.example, root) }
        : { examples: xmlExamples(examples.examples) };
  const content: Json = { [MEDIA_TYPES.json]: { schema: schemaRef(name), ...json } };
  if (!jsonOnly) {
    content[MEDIA_TYPES.xml] = { schema: xmlSchema(root, name), ...xml };
    content[MEDIA_TYPES.textXml] = { schema: xmlSchema(root, name), ...xml };
  }
  return content;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

function statusText(status: number): string {
  return STATUS_TEXT[status] ?? `HTTP ${status}`;
}

function responseHeaders(endpoint: Endpoint, status: number): Json {
  const headers: Json = {};
  if (endpoint.representations === 'json-and-xml') headers['X-Request-Id'] = componentRef('headers', 'XRequestId');
  if (endpoint.rateLimited) {
    headers['X-RateLimit-Limit'] = componentRef('headers', 'XRateLimitLimit');
    headers['X-RateLimit-Remaining'] = componentRef('headers', 'XRateLimitRemaining');
    headers['X-RateLimit-Reset'] = componentRef('headers', 'XRateLimitReset');
  }
  if (status === 429) headers['Retry-After'] = componentRef('headers', 'RetryAfter');
  return headers;
}

function withHeaders(response: Json, headers: Json): Json {
  return Object.keys(headers).length > 0 ? { ...response, headers } : response;
}

function errorResponse(endpoint: Endpoint, status: number): Json {
  if (endpoint.representations === 'form-in-json-out') {
    const codes = Object.entries(OAUTH_ERRORS)
      .filter(([, e]) => e.status === status)
      .map(([code]) => code);
    return withHeaders(
      {
        description: `${statusText(status)}: OAuth error (spec 7.1)${codes.length > 0 ? `; error is one of ${codes.join(', ')}` : ''}.`,
        content: { [MEDIA_TYPES.json]: { schema: schemaRef('OAuthError'), examples: oauthExamples(status) } },
      },
      responseHeaders(endpoint, status),
    );
  }
  return withHeaders(
    {
      description:
        status === 406
          ? `${statusText(status)}: error envelope (spec 7.2), always JSON (4.13).`
          : `${statusText(status)}: error envelope (spec 7.2) in the negotiated representation; clients switch on error.code (7.3).`,
      content: businessContent('ErrorEnvelope', 'response', status === 406, { examples: envelopeExamples(status) }),
    },
    responseHeaders(endpoint, status),
  );
}

function successResponses(endpoint: Endpoint): Json {
  const headers = responseHeaders(endpoint, endpoint.successStatus);
  if (endpoint.representations === 'form-in-json-out') {
    return {
      [endpoint.successStatus]: {
        description: `${statusText(endpoint.successStatus)}: a bearer token; always JSON (4.1).`,
        headers: { ...headers, 'Cache-Control': componentRef('headers', 'CacheControlNoStore') },
        content: {
          [MEDIA_TYPES.json]: {
            schema: schemaRef(endpoint.responseSchema),
            example: recordedOperation(endpoint.operationId).response,
          },
        },
      },
    };
  }
  const content = businessContent(endpoint.responseSchema, 'response', false, {
    example: recordedOperation(endpoint.operationId).response,
  });
  const responses: Json = {
    [endpoint.successStatus]: withHeaders(
      {
        description:
          endpoint.method === 'PATCH'
            ? `${statusText(endpoint.successStatus)}: always, MODIFICATION_NOT_SUPPORTED (4.10); cancel and re-book instead.`
            : `${statusText(endpoint.successStatus)}: ${endpoint.responseSchema} (spec ${endpoint.section}).`,
        content,
      },
      headers,
    ),
  };
  if (endpoint.idempotencyKey) {
    responses[200] = {
      description: 'OK: replay of the original response for the same key and body within 24 hours (4.7.3).',
      headers: { ...headers, 'Idempotent-Replay': componentRef('headers', 'IdempotentReplay') },
      content,
    };
  }
  return responses;
}

const PATH_PARAMETERS: Record<string, string> = {
  vehicleCode: 'VehicleCode',
  locationCode: 'LocationCode',
  reservationId: 'ReservationId',
};

function parameters(endpoint: Endpoint): Json[] {
  const out: Json[] = [];
  for (const match of endpoint.path.matchAll(/\{([A-Za-z]+)\}/g)) {
    const component = PATH_PARAMETERS[match[1] ?? ''];
    if (!component) throw new Error(`no parameter component for ${match[0]} in ${endpoint.path}`);
    out.push(componentRef('parameters', component));
  }
  if (endpoint.operationId === 'listReservations') out.push(componentRef('parameters', 'Limit'));
  if (endpoint.idempotencyKey) out.push(componentRef('parameters', 'IdempotencyKey'));
  if (endpoint.representations === 'json-and-xml') out.push(componentRef('parameters', 'Accept'));
  return out;
}

function requestBody(endpoint: Endpoint): Json | undefined {
  const example = recordedOperation(endpoint.operationId).request;
  if (endpoint.method === 'PATCH') return patchBody(example);
  if (endpoint.requestSchema === null) return undefined;
  if (endpoint.representations === 'form-in-json-out') {
    return {
      required: true,
      content: { [MEDIA_TYPES.form]: { schema: schemaRef(endpoint.requestSchema), ...(example ? { example } : {}) } },
    };
  }
  return {
    required: true,
    description: `${endpoint.requestSchema} as application/json, or as typed XML (4.14) with application/xml or text/xml.`,
    content: businessContent(endpoint.requestSchema, 'request', false, example ? { example } : undefined),
  };
}

/**
 * PATCH defines no body (spec 4.10), yet a partner may send one, and the answer is 501 whatever it holds. Declared
 * optional and unconstrained, so validators and proxies (Prism, Dredd) let such a request through to that 501.
 */
function patchBody(example: Json | undefined): Json {
  const any = (media: string) => ({
    schema: media === MEDIA_TYPES.json ? {} : { type: 'string' },
    ...(example ? { example: media === MEDIA_TYPES.json ? example : xmlExample(example, 'request') } : {}),
  });
  return {
    required: false,
    description:
      'Not defined by the spec: modification is unsupported in v1 (4.10), so any body, or none, gets 501 MODIFICATION_NOT_SUPPORTED.',
    content: Object.fromEntries([MEDIA_TYPES.json, MEDIA_TYPES.xml, MEDIA_TYPES.textXml].map((m) => [m, any(m)])),
  };
}

/**
 * Answers the reference implementation gives beyond the statuses its section lists, declared so that validators
 * accept them; each is a spec gap recorded in docs/ambiguities.md.
 */
const OBSERVED_BEYOND_SPEC: Record<string, Record<number, string>> = {
  listReservations: {
    400: 'Bad Request: limit outside 1 to 100, or not an integer: VALIDATION_ERROR with the field limit. Spec 4.8 bounds limit but lists no 400; the reference implementation answers so (docs/ambiguities.md).',
  },
};

const TAGS = [
  { name: 'Authentication', description: 'OAuth 2.0 client credentials (spec 5).' },
  { name: 'Listings', description: 'Fleet, locations and rate codes (spec 4.2 to 4.4).' },
  { name: 'Shopping', description: 'Availability and quotes (spec 4.5, 4.6).' },
  {
    name: 'Reservations',
    description: 'Create, list, read, modify (never) and cancel reservations (spec 4.7 to 4.11).',
  },
] as const;

const TAG_BY_SECTION: Record<string, (typeof TAGS)[number]['name']> = {
  '4.1': 'Authentication',
  '4.2': 'Listings',
  '4.3': 'Listings',
  '4.4': 'Listings',
  '4.5': 'Shopping',
  '4.6': 'Shopping',
  '4.7': 'Reservations',
  '4.8': 'Reservations',
  '4.9': 'Reservations',
  '4.10': 'Reservations',
  '4.11': 'Reservations',
};

function tagOf(section: string): string {
  const tag = TAG_BY_SECTION[section];
  if (!tag) throw new Error(`no tag for spec section ${section}`);
  return tag;
}

/** Business errors are alike on every rate-limited business endpoint, so they are shared components. */
function sharesErrorComponents(endpoint: Endpoint): boolean {
  return endpoint.representations === 'json-and-xml' && endpoint.rateLimited;
}

const errorComponentName = (status: number): string => `Error${status}`;

function errorComponents(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const endpoint of ENDPOINTS.filter(sharesErrorComponents)) {
    for (const status of allErrorStatuses(endpoint)) out[errorComponentName(status)] = errorResponse(endpoint, status);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function operation(endpoint: Endpoint): Json {
  const responses: Json = successResponses(endpoint);
  for (const status of allErrorStatuses(endpoint)) {
    responses[status] = sharesErrorComponents(endpoint)
      ? componentRef('responses', errorComponentName(status))
      : errorResponse(endpoint, status);
  }
  for (const [status, description] of Object.entries(OBSERVED_BEYOND_SPEC[endpoint.operationId] ?? {})) {
    responses[status] = { ...errorResponse(endpoint, Number(status)), description };
  }
  const body = requestBody(endpoint);
  const params = parameters(endpoint);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: `Spec ${endpoint.section}. ${
      endpoint.scope === null
        ? 'Client authentication: HTTP Basic (client_secret_basic, preferred) or client_id and client_secret in the form (client_secret_post).'
        : `Requires a bearer token with scope ${endpoint.scope}.`
    }`,
    tags: [tagOf(endpoint.section)],
    'x-spec-section': endpoint.section,
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
    security: endpoint.scope === null ? [{ [CLIENT_BASIC_SCHEME]: [] }, {}] : [{ [OAUTH_SCHEME]: [endpoint.scope] }],
  };
}

function scopeDescription(scope: Scope): string {
  const uses = ENDPOINTS.filter((e) => e.scope === scope).map((e) => `${e.method} ${e.path.slice(API_PREFIX.length)}`);
  return uses.join(', ');
}

export function buildOpenApiDocument(): OpenApiDocument {
  const paths: Record<string, Record<string, Json>> = {};
  for (const endpoint of ENDPOINTS) {
    const item = paths[endpoint.path] ?? {};
    item[endpoint.method.toLowerCase()] = operation(endpoint);
    paths[endpoint.path] = item;
  }

  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Partner Car Rental Distribution API',
      version: CONTRACT_INFO_VERSION,
      description:
        `Machine-readable contract of the Partner Car Rental Distribution API v1, published contract release ${SPEC_RELEASE} (spec 9.2). ` +
        'Generated from contract/endpoints.ts and contract/schemas/; do not edit by hand. ' +
        'Availability is model-level; reservations are created confirmed with no online payment. ' +
        'Every business operation is available as JSON and as the typed XML of spec 4.14. ' +
        'Examples were recorded from the reference implementation with its fixtures.',
      contact: {
        name: 'Partner integration support of the operator (contact details come with the distribution agreement)',
      },
      license: {
        name: 'Proprietary: use is governed by the distribution agreement (spec 1.7)',
        identifier: 'LicenseRef-Proprietary',
      },
    },
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    servers: [
      {
        url: '{base_url}',
        description: 'The service address; HTTPS only, TLS 1.2 minimum (5.7).',
        variables: { base_url: { default: 'https://partner-api.invalid' } },
      },
    ],
    tags: [...TAGS],
    paths,
    components: {
      schemas: referencedSchemas(rewriteRefs(SCHEMA_BUNDLE.$defs) as Record<SchemaName, Json>, paths),
      securitySchemes: {
        [OAUTH_SCHEME]: {
          type: 'oauth2',
          description: `Bearer token from the client credentials flow (spec 5); valid ${LIMITS.accessTokenLifetimeSeconds} seconds, no refresh token.`,
          flows: {
            clientCredentials: {
              tokenUrl: `${API_PREFIX}/oauth/token`,
              scopes: Object.fromEntries(SCOPES.map((s) => [s, scopeDescription(s)])),
            },
          },
        },
        [CLIENT_BASIC_SCHEME]: {
          type: 'http',
          scheme: 'basic',
          description: 'client_secret_basic at the token endpoint: base64(client_id:client_secret) (spec 5.2).',
        },
      },
      parameters: {
        VehicleCode: {
          name: 'vehicleCode',
          in: 'path',
          required: true,
          schema: { type: 'string', pattern: PATTERNS.vehicleCode },
          example: RECORDED.parameters.vehicleCode,
        },
        LocationCode: {
          name: 'locationCode',
          in: 'path',
          required: true,
          schema: { type: 'string', pattern: PATTERNS.locationCode },
          example: RECORDED.parameters.locationCode,
        },
        ReservationId: {
          name: 'reservationId',
          in: 'path',
          required: true,
          description: 'Opaque; format not specified (spec 2.2).',
          schema: { type: 'string' },
          example: RECORDED.parameters.reservationId,
        },
        Limit: {
          name: 'limit',
          in: 'query',
          required: false,
          schema: {
            type: 'integer',
            minimum: LIMITS.reservationListLimit.min,
            maximum: LIMITS.reservationListLimit.max,
            default: LIMITS.reservationListLimit.default,
          },
          example: RECORDED.parameters.limit,
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description:
            'Unique per attempt; remembered 24 hours. Missing: 400 IDEMPOTENCY_KEY_REQUIRED; reused with a different body: 409 IDEMPOTENCY_CONFLICT (4.7).',
          schema: {
            type: 'string',
            minLength: LIMITS.idempotencyKeyLength.min,
            maxLength: LIMITS.idempotencyKeyLength.max,
          },
          example: RECORDED.parameters.idempotencyKey,
        },
        Accept: {
          name: 'Accept',
          in: 'header',
          required: false,
          description:
            'Response representation (4.13): application/json (default when absent), application/xml or text/xml; the higher q wins, ties choose JSON; anything else is 406. Listed for readers: OpenAPI tools ignore an Accept parameter.',
          schema: { type: 'string', default: MEDIA_TYPES.json },
        },
      },
      headers: {
        XRequestId: {
          description: 'Correlation id of the request; equals error.requestId (7.2). On every business response (4).',
          required: true,
          schema: { type: 'string' },
        },
        XRateLimitLimit: {
          description: 'Requests allowed per one-minute window for this API client (8.14).',
          schema: { type: 'integer', minimum: 0 },
        },
        XRateLimitRemaining: {
          description: 'Requests left in the current one-minute window (8.14).',
          schema: { type: 'integer', minimum: 0 },
        },
        XRateLimitReset: {
          description: 'When the window resets: an ISO 8601 timestamp, not epoch seconds (8.14).',
          schema: { type: 'string', format: 'date-time' },
        },
        RetryAfter: {
          description: 'Whole seconds to wait before retrying (8.15).',
          schema: { type: 'integer', minimum: 0 },
        },
        IdempotentReplay: {
          description: 'Present on a replayed response (4.7.3).',
          schema: { const: 'true' },
        },
        CacheControlNoStore: {
          description: 'Token responses are never cached (4.1).',
          schema: { const: 'no-store' },
        },
      },
      responses: errorComponents(),
    },
  };
}

/** The document as committed: pretty JSON with a trailing newline. */
export function renderOpenApiJson(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

/**
 * The bundle's schemas that the paths reach, directly or through other schemas. RentalWindow (spec 2.4) is the one
 * left out: a building block of the availability and quote requests, which carry its fields themselves, and never a
 * body of its own, so the document would hold it unused.
 */
function referencedSchemas(schemas: Record<SchemaName, Json>, paths: unknown): Record<SchemaName, Json> {
  const prefix = '#/components/schemas/';
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$ref' && typeof inner === 'string' && inner.startsWith(prefix)) {
          const name = inner.slice(prefix.length);
          if (!reached.has(name)) {
            reached.add(name);
            visit(schemas[name as SchemaName]);
          }
        } else visit(inner);
      }
    }
  };
  visit(paths);
  visit(errorComponents());
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name))) as Record<SchemaName, Json>;
}
