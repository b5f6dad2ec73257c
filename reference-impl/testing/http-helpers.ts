/**
 * Helpers for the tests that drive the reference implementation over HTTP (http/**, domain/** tests):
 * asserting the spec's error shapes, reading both representations, building rental windows on the
 * service clock, and making sure no response ever carries a secret.
 */
import { Agent, fetch as undiciFetch } from 'undici';
import { expect } from 'vitest';
import { API_PREFIX } from '../../contract/constants.ts';
import { ERROR_CODES, type ErrorCode, OAUTH_ERRORS, type OAuthErrorCode } from '../../contract/errors.ts';
import type { SchemaName } from '../../contract/schemas/index.ts';
import type { ErrorEnvelope, JsonValue, OAuthError, RentalWindow } from '../../contract/types.ts';
import { validate } from '../../contract/validation.ts';
import { parseTypedXml, serializeTypedXml } from '../../contract/xml/index.ts';
import { loadReferenceTarget } from '../../fixtures/index.ts';
import { localPartsOf } from '../domain/local-time.ts';
import { type ApiResponse, type TestServer, toApiResponse } from './test-server.ts';

export const OPERATOR_ZONE = 'Asia/Ho_Chi_Minh';

/** Every plaintext secret the fixtures know: client secrets and the control token. */
export function knownSecrets(): string[] {
  const target = loadReferenceTarget();
  const secrets = Object.values(target.clients).map((c) => c.clientSecret);
  if (target.hooks?.token) secrets.push(target.hooks.token);
  return secrets;
}

const SECRETS = knownSecrets();

/** No response, body or header, may carry a client secret or the control token. */
export function expectNoSecrets(res: ApiResponse): void {
  const headerText = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
  for (const secret of SECRETS) {
    expect(res.text.includes(secret), 'a secret appears in the response body').toBe(false);
    expect(headerText.includes(secret), 'a secret appears in a response header').toBe(false);
    // Base64 forms too (a Basic header echoed back would carry it this way).
    expect(headerText.includes(Buffer.from(secret).toString('base64')), 'a secret appears base64-encoded').toBe(false);
  }
}

export function basicAuth(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
}

export function credentialsOf(server: TestServer, role: string): { clientId: string; clientSecret: string } {
  const creds = server.target.clients[role];
  if (!creds) throw new Error(`no fixture client ${role}`);
  return creds;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Source address of the connection (loopback only), e.g. 127.0.0.2. */
  localAddress?: string;
}

const agents = new Map<string, Agent>();

/**
 * An undici agent bound to a local source address; closed by closeAgents(). The option is the agent's own
 * `localAddress`: undici 7 ignores `connect.localAddress`.
 */
function agentFor(localAddress: string): Agent {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new Agent({ localAddress });
    agents.set(localAddress, agent);
  }
  return agent;
}

export async function closeAgents(): Promise<void> {
  await Promise.all([...agents.values()].map((a) => a.close()));
  agents.clear();
}

/** Any request to the server, by absolute path; every response is checked for secrets. */
export async function rawRequest(server: TestServer, path: string, init: RawRequest = {}): Promise<ApiResponse> {
  const url = `${server.baseUrl}${path}`;
  const options = { method: init.method ?? 'GET', headers: init.headers ?? {}, body: init.body };
  const res = init.localAddress
    ? await toApiResponse(
        (await undiciFetch(url, { ...options, dispatcher: agentFor(init.localAddress) })) as unknown as Response,
      )
    : await toApiResponse(await fetch(url, options));
  expectNoSecrets(res);
  return res;
}

export const TOKEN_PATH = `${API_PREFIX}/oauth/token`;

/** POST /oauth/token with a form (object or raw string) and extra headers. */
export function postToken(
  server: TestServer,
  form: Record<string, string> | string,
  init: { headers?: Record<string, string>; localAddress?: string; contentType?: string | null } = {},
): Promise<ApiResponse> {
  const body = typeof form === 'string' ? form : new URLSearchParams(form).toString();
  const headers: Record<string, string> = { ...init.headers };
  if (init.contentType !== null) headers['content-type'] = init.contentType ?? 'application/x-www-form-urlencoded';
  return rawRequest(server, TOKEN_PATH, {
    method: 'POST',
    headers,
    body: new TextEncoder().encode(body),
    localAddress: init.localAddress,
  });
}

/** A token endpoint failure (spec 4.1, 5.4, 7.1): status, exact {error, error_description}, JSON, no-store. */
export function expectOAuthError(res: ApiResponse, error: OAuthErrorCode): OAuthError {
  expect(res.status, `${error}: ${res.text}`).toBe(OAUTH_ERRORS[error].status);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json\b/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const result = validate('OAuthError', res.json);
  expect(result, res.text).toEqual({ valid: true });
  expect(Object.keys(res.json as object).sort()).toEqual(['error', 'error_description']);
  expect(res.json.error).toBe(error);
  for (const name of res.headers.keys()) expect(name.toLowerCase().startsWith('x-ratelimit-')).toBe(false);
  expectNoSecrets(res);
  return res.json as OAuthError;
}

export type Kind = 'json' | 'xml';

/** The typed XML of a request value (spec 4.14). */
export function toXml(value: unknown): string {
  return serializeTypedXml(value as JsonValue, 'request');
}

/** Parses an XML response body into the JSON-shaped value, with wide limits (spec 8 limits XML requests only). */
export function parseXmlResponse(text: string): unknown {
  const parsed = parseTypedXml(new TextEncoder().encode(text), 'response', {
    maxBytes: 64 * 1024 * 1024,
    maxDepth: 1000,
    maxNodes: 10_000_000,
  });
  if (!parsed.ok) throw new Error(`XML response does not parse: ${parsed.reason}`);
  return parsed.value;
}

/** The response body as a value, from JSON or XML by its Content-Type. */
export function bodyOf(res: ApiResponse): unknown {
  const type = res.headers.get('content-type') ?? '';
  if (/^application\/json\b/.test(type)) return JSON.parse(res.text);
  if (/^(application|text)\/xml\b/.test(type)) return parseXmlResponse(res.text);
  throw new Error(`unexpected content type ${type} (HTTP ${res.status})`);
}

/** Content-Type of a representation's response, charset included (XML responses are UTF-8, spec 4.13). */
export function expectRepresentation(
  res: ApiResponse,
  mediaType: 'application/json' | 'application/xml' | 'text/xml',
): void {
  const type = (res.headers.get('content-type') ?? '').toLowerCase();
  expect(type.split(';')[0]?.trim(), `Content-Type ${type}`).toBe(mediaType);
  if (mediaType !== 'application/json') expect(type).toMatch(/charset=utf-8/);
}

/**
 * A business error (spec 7.2, 7.3): status and retryable from the code table, the envelope schema, requestId
 * equal to X-Request-Id, and the representation asked for (JSON unless told).
 */
export function expectApiError(
  res: ApiResponse,
  code: ErrorCode,
  kind: Kind = 'json',
  mediaType?: string,
): ErrorEnvelope {
  expect(res.status, `${code}: ${res.text.slice(0, 500)}`).toBe(ERROR_CODES[code].status);
  expectRepresentation(res, (mediaType ?? (kind === 'json' ? 'application/json' : 'application/xml')) as never);
  const body = bodyOf(res);
  expect(validate('ErrorEnvelope', body), res.text).toEqual({ valid: true });
  const envelope = body as ErrorEnvelope;
  expect(envelope.error.code, res.text).toBe(code);
  expect(envelope.error.retryable).toBe(ERROR_CODES[code].retryable);
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toBeTruthy();
  expect(envelope.error.requestId).toBe(requestId);
  expectNoSecrets(res);
  return envelope;
}

/** A success body validated against its schema; returns the value. */
export function expectValid<T>(res: ApiResponse, schema: SchemaName, status = 200): T {
  expect(res.status, res.text.slice(0, 800)).toBe(status);
  const body = bodyOf(res);
  const result = validate(schema, body);
  expect(result, JSON.stringify(result)).toEqual({ valid: true });
  expect(res.headers.get('x-request-id')).toBeTruthy();
  expectNoSecrets(res);
  return body as T;
}

export const JSON_CT = { 'content-type': 'application/json' };
export const XML_CT = { 'content-type': 'application/xml', accept: 'application/xml' };

/** POSTs a value to a business path in the chosen representation (body and Accept alike). */
export async function postAs(
  server: TestServer,
  kind: Kind,
  path: string,
  token: string,
  value: unknown,
): Promise<ApiResponse> {
  const res =
    kind === 'json'
      ? await server.call('POST', path, { token, headers: JSON_CT, body: JSON.stringify(value) })
      : await server.call('POST', path, { token, headers: XML_CT, body: toXml(value) });
  expectNoSecrets(res);
  return res;
}

/** The service clock of the server (real time plus the control API's offset). */
export async function serviceNowMs(server: TestServer): Promise<number> {
  const res = await server.control('GET', '/state');
  if (res.status !== 200) throw new Error(`control /state: HTTP ${res.status}`);
  return Date.parse(res.json.now);
}

/** The local date `days` after the given instant, in the operator's zone. */
export function localDate(days: number, nowMs = Date.now()): string {
  return localPartsOf(nowMs + days * 86_400_000, OPERATOR_ZONE).date;
}

/** A valid rental window within one branch, starting `startDays` from now for `days` days. */
export function rentalWindow(
  overrides: Partial<RentalWindow> = {},
  startDays = 30,
  days = 3,
  nowMs = Date.now(),
): RentalWindow {
  return {
    pickupLocation: 'SGN-APT-01',
    dropoffLocation: 'SGN-APT-01',
    pickupDate: localDate(startDays, nowMs),
    pickupTime: '10:00',
    dropoffDate: localDate(startDays + days, nowMs),
    dropoffTime: '10:00',
    ...overrides,
  };
}

/** Replaces server-issued, per-call values (quote ids and their expiry) so two answers compare. */
export function withoutIssuedIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIssuedIds);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = ['quoteId', 'quoteExpiresAt', 'expiresAt'].includes(k) ? '<issued>' : withoutIssuedIds(v);
    }
    return out;
  }
  return value;
}

/** A new token on every call (TestServer.token caches, which a test that moves the clock cannot use). */
export async function freshToken(server: TestServer, role: string, scope?: string): Promise<string> {
  const creds = credentialsOf(server, role);
  const form: Record<string, string> = { grant_type: 'client_credentials' };
  if (scope !== undefined) form.scope = scope;
  const res = await postToken(server, form, {
    headers: { authorization: basicAuth(creds.clientId, creds.clientSecret) },
  });
  if (res.status !== 200) throw new Error(`token for ${role}: HTTP ${res.status} ${res.text}`);
  return res.json.access_token as string;
}

/** Moves the service clock forward through the control API. */
export async function advanceClock(server: TestServer, seconds: number): Promise<void> {
  const res = await server.control('POST', '/clock/advance', { seconds });
  if (res.status !== 200) throw new Error(`clock advance: HTTP ${res.status}`);
}
