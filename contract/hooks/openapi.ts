import { RESERVATION_STATUSES } from '../types.ts';
import { HOOK_NAMES, HOOK_ROUTES, HOOKS_CONTRACT, HOOKS_CONTRACT_VERSION, type HookName } from './names.ts';

/**
 * The machine-readable test-hooks contract (OpenAPI 3.1): what docs/test-hooks.md describes, for implementers who
 * add the hooks to a test build of their server. Paths are relative to the hooks base URL the target config names.
 */

type Json = Record<string, unknown>;

const object = (properties: Json, required: string[] = Object.keys(properties)): Json => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const REQUESTS: Partial<Record<HookName, Json>> = {
  'quotes.expire': object({ quoteId: { type: 'string', minLength: 1, description: 'a quoteId the target issued' } }),
  'tokens.expire': object({ clientId: { type: 'string', minLength: 1, description: 'an API client of the target' } }),
  'idempotency.forget': object({
    olderThanSeconds: {
      type: 'number',
      minimum: 0,
      description: 'forget every completed Idempotency-Key first used at least this long ago (0: all of them)',
    },
  }),
  'prices.move': object({
    movePercent: {
      type: 'number',
      minimum: -99,
      maximum: 1000,
      description: 'percent on the public daily rate; 0 restores it',
    },
  }),
  'bookings.declineNext': object({ count: { type: 'integer', minimum: 0, maximum: 1000 } }),
  'bookings.hold': object({
    ms: {
      type: 'integer',
      minimum: 0,
      maximum: 2000,
      description: 'how long each booking holds its Idempotency-Key claim before it goes on (0: no hold)',
    },
  }),
  'reservations.money': object({ attached: { type: 'boolean', description: 'a rental payment or deposit exists' } }),
  'reservations.status': object({ status: { enum: [...RESERVATION_STATUSES] } }),
  'clients.partner': object({ enabled: { type: 'boolean', description: "the client's partner account is active" } }),
  'api.switch': object({ enabled: { type: 'boolean' } }),
  'rateLimits.tokenAddressCeiling': object({
    perMinute: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: 1_000_000,
      description:
        "token requests a minute from one source address (spec 8.16a's address bucket); null: the service's own",
    },
  }),
  failures: object(
    {
      dependencyUnavailable: { type: 'boolean', description: 'business calls answer 503 DEPENDENCY_UNAVAILABLE' },
      internalError: { type: 'boolean', description: 'business calls answer 500 INTERNAL_ERROR' },
    },
    [],
  ),
};

const SUMMARIES: Record<HookName, string> = {
  'quotes.expire': 'The quote is past its 30 minutes from now on: booking it answers 409 QUOTE_EXPIRED.',
  'tokens.expire': 'Every access token issued to the client so far is past its 600 seconds: 401 INVALID_TOKEN.',
  'idempotency.forget': 'Forgets completed Idempotency-Keys older than an age, as the 24-hour memory would.',
  'prices.move': "Moves the vehicle's public daily rate: quotes issued before are stale (409 QUOTE_STALE).",
  'bookings.declineNext': 'The operator declines the next bookings: 422 RESERVATION_REJECTED.',
  'bookings.hold':
    'Each booking holds its Idempotency-Key claim this long before it goes on, as a slower operator system would.',
  'reservations.money': 'Attaches (or detaches) a rental payment or deposit: cancel then needs staff.',
  'reservations.status': 'Puts a reservation in a state only the operator sets.',
  'clients.partner': "Disables (or enables) the client's partner account: 403 PARTNER_DISABLED.",
  'api.switch': 'Switches the partner API off (503 API_DISABLED) and on.',
  failures: 'Makes a dependency fail (503 DEPENDENCY_UNAVAILABLE) or every business call fail (500 INTERNAL_ERROR).',
  alerts: 'The staff alerts raised so far (cancellations that need staff).',
  'rateLimits.reset':
    'Every rate-limit window starts empty again (per client, per address, token endpoint), as after a minute.',
  'rateLimits.tokenAddressCeiling':
    "The token endpoint's per-address ceiling is this many a minute until set back (null), so a suite reaches it cheaply.",
  reset: 'Back to normal: API on, failures off, no pending declines, prices unmoved.',
};

const ERROR = { $ref: '#/components/responses/Error' };

function parametersOf(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string', minLength: 1 },
  }));
}

export function buildHooksOpenApi(): Json {
  const paths: Record<string, Json> = {
    '/': {
      get: {
        operationId: 'listHooks',
        summary: 'The contract and the hooks this target offers (a target may offer some only).',
        responses: {
          200: {
            description: 'The hooks offered',
            content: {
              'application/json': {
                schema: object({
                  contract: { const: HOOKS_CONTRACT },
                  version: { type: 'string' },
                  hooks: { type: 'array', items: { enum: [...HOOK_NAMES] }, uniqueItems: true },
                }),
              },
            },
          },
          401: ERROR,
        },
      },
    },
  };
  for (const name of HOOK_NAMES) {
    const route = HOOK_ROUTES[name];
    const request = REQUESTS[name];
    const operation: Json = {
      operationId: name.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase()),
      summary: SUMMARIES[name],
      description: `Hook \`${name}\`. Lets the suite judge spec clause(s) ${route.clauses.join(', ') || '(none: housekeeping)'}.`,
      ...(parametersOf(route.path).length > 0 ? { parameters: parametersOf(route.path) } : {}),
      ...(request ? { requestBody: { required: true, content: { 'application/json': { schema: request } } } } : {}),
      responses: {
        200: {
          description: 'Done; the body describes the new state (free form)',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        400: ERROR,
        401: ERROR,
        404: ERROR,
      },
    };
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.2',
    info: {
      title: 'Partner API test hooks',
      version: HOOKS_CONTRACT_VERSION,
      description:
        'What the Partner API v1 conformance suite asks of a test build of a server so every clause can be judged on it (docs/test-hooks.md). Never deploy the hooks on a production environment.',
      license: { name: 'UNLICENSED' },
    },
    servers: [
      { url: '{hooksBaseUrl}', variables: { hooksBaseUrl: { default: 'http://127.0.0.1:8080/test-hooks/v1' } } },
    ],
    security: [{ hooksBearer: [] }],
    paths,
    components: {
      securitySchemes: {
        hooksBearer: { type: 'http', scheme: 'bearer', description: 'the hooks secret of the target config' },
      },
      responses: {
        Error: {
          description: 'Refused (the error envelope of the partner API is recommended; any JSON body is accepted)',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };
}

export function renderHooksOpenApi(): string {
  return `${JSON.stringify(buildHooksOpenApi(), null, 2)}\n`;
}
