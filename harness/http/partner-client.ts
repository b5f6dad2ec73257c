import { API_PREFIX, MEDIA_TYPES } from '../../contract/constants.ts';
import type { JsonValue } from '../../contract/types.ts';
import { FRAME_REASONS, parseTypedXml, serializeTypedXml, XML_REJECTION_REASONS } from '../../contract/xml/index.ts';
import type { ClientAuthentication, TokenCache } from '../auth/token-cache.ts';
import type { Role } from '../config/target-config.ts';
import type { HttpRequest, HttpResponse, SendOptions } from './client.ts';
import { caughtUpList, listKey, noteWrite } from './list-lag.ts';
import type { Representation } from './representation.ts';

export interface CallOptions {
  /** Merged over the defaults (Accept, Content-Type, Authorization), names compared case-insensitively. */
  headers?: Record<string, string>;
  /** Overrides the check's representation for this call. */
  representation?: Representation;
  /** A token limited to these scopes (from the cache). */
  scopes?: string[];
  /** An explicit token, or null for no Authorization header; bypasses the cache and its 401 retry. */
  token?: string | null;
}

export interface RawRequest {
  method: string;
  /** Relative to API_PREFIX (e.g. '/oauth/token'), or an absolute http(s) URL. */
  path: string;
  /** Exactly these headers: nothing is added (undici adds only host, connection and content-length). */
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface ApiResult {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON, or the typed XML as its JSON-shaped value; undefined when the body cannot be parsed. */
  body: unknown;
  /** The body decoded as UTF-8 (invalid sequences replaced). */
  text: string;
  /** Its first EXCERPT_CHARS characters: what a failure message shows of the body. */
  excerpt: string;
  /** The body's bytes as received. */
  bytes: Uint8Array;
  /** Content-Type without parameters, lower-case; null when absent. */
  mediaType: string | null;
  /** The X-Request-Id header, or null. */
  requestId: string | null;
  /** Why `body` is undefined when the response had a body of a JSON or XML media type. */
  parseError?: string;
  /** The same, as the representation that failed and the parser's fixed reason (an XML reason of contract/xml). */
  parseFailure?: { representation: 'json' | 'xml'; reason: string };
  /**
   * The body was read although its XML deviates in a way with one clear reading (the frame's namespace, root name
   * or version, contract/xml FRAME_REASONS; a boolean written 1 or 0; a property repeated with the same value; field
   * names in snake_case): the reason, and the clause when it is not the reason's own (xmlReasonClause), so the
   * deviation is judged under its clause while the content is judged as usual.
   */
  readDespite?: ReadDespite;
}

export interface ReadDespite {
  representation: 'xml';
  reason: string;
  clauseId?: string;
}

export interface PartnerClient {
  /** `path` is relative to API_PREFIX, e.g. '/fleet'. */
  get(path: string, opts?: CallOptions): Promise<ApiResult>;
  /** The body is serialized per representation: JSON, or typed XML with a `request` root (spec 4.14). */
  post(path: string, body: unknown, opts?: CallOptions): Promise<ApiResult>;
  patch(path: string, body: unknown, opts?: CallOptions): Promise<ApiResult>;
  raw(req: RawRequest): Promise<ApiResult>;
  token(scopes?: string[]): Promise<string>;
  /** How the role's client authenticates at the token endpoint (the token cache's finding, spec 5.2). */
  clientAuthentication(): Promise<ClientAuthentication>;
}

type SendFn = (req: HttpRequest, options?: SendOptions) => Promise<HttpResponse>;

export interface PartnerClientOptions {
  baseUrl: string;
  /** null: the anonymous client (no Authorization header, no token). */
  role: Role | null;
  representation: Representation;
  tokens: TokenCache;
  send: SendFn;
}

export const ACCEPT_OF: Record<Representation, string> = { json: MEDIA_TYPES.json, xml: MEDIA_TYPES.xml };

/** Responses may be larger than the spec's request limits (8); these only guard the harness. */
const RESPONSE_XML_LIMITS = { maxBytes: 10_000_000, maxDepth: 64, maxNodes: 1_000_000 };
/** What an XML 1.0 reader reads past in a response, where 4.14 has a request rejected (a codec option for clients). */
const RESPONSE_MARKUP = { responseMarkup: true } as const;

export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const { baseUrl, role, tokens, send } = options;
  const urlOf = (path: string) => (/^https?:\/\//.test(path) ? path : `${baseUrl}${API_PREFIX}${path}`);

  async function call(method: string, path: string, body: unknown, opts: CallOptions = {}): Promise<ApiResult> {
    const representation = opts.representation ?? options.representation;
    const headers: Record<string, string> = { accept: ACCEPT_OF[representation] };
    let payload: string | Uint8Array | undefined;
    if (body !== undefined) {
      headers['content-type'] = ACCEPT_OF[representation];
      payload = serializeBody(body, representation);
    }
    const explicitToken = opts.token !== undefined;
    let token: string | null = null;
    if (explicitToken) token = opts.token ?? null;
    else if (role !== null) token = await tokens.token(role, opts.scopes);
    const build = (bearer: string | null): HttpRequest => {
      const all = { ...headers };
      if (bearer !== null) all.authorization = `Bearer ${bearer}`;
      return { method, url: urlOf(path), headers: mergeHeaders(all, opts.headers), body: payload };
    };
    let res = await send(build(token), role ? { role } : {});
    // A cached token the service no longer accepts (expired during a long run, or a moved clock): fetch a
    // new one once and repeat, so token lifetime never decides a check. Any 401 counts, whatever its error.code:
    // a code that is not INVALID_TOKEN (or not a string) is 5.6a's or 7.2.2's to judge, not a reason to keep
    // sending a dead token to every later check.
    if (!explicitToken && role !== null && token !== null && res.status === 401) {
      tokens.invalidate(role, opts.scopes, token);
      token = await tokens.token(role, opts.scopes);
      res = await send(build(token), { role });
    }
    const result = toApiResult(res);
    if (role === null || /^https?:\/\//.test(path)) return result;
    // The role's list is read until it shows the role's own recent bookings and cancels (list-lag.ts).
    const key = listKey(baseUrl, role);
    noteWrite(key, method, path, result);
    if (method !== 'GET') return result;
    return caughtUpList(key, path, result, async () => toApiResult(await send(build(token), { role })));
  }

  return {
    get: (path, opts) => call('GET', path, undefined, opts),
    post: (path, body, opts) => call('POST', path, body, opts),
    patch: (path, body, opts) => call('PATCH', path, body, opts),
    async raw(req) {
      const res = await send(
        { method: req.method, url: urlOf(req.path), headers: { ...(req.headers ?? {}) }, body: req.body },
        role ? { role } : {},
      );
      return toApiResult(res);
    },
    async token(scopes) {
      if (role === null) throw new Error('the anonymous client has no token');
      return tokens.token(role, scopes);
    },
    clientAuthentication() {
      if (role === null) throw new Error('the anonymous client has no client authentication');
      return tokens.clientAuthentication(role);
    },
  };
}

/**
 * Bytes go as they are; any other value is serialized in the representation. XML goes without the optional
 * declaration (spec 4.14.16): only the check of 4.14.16 sends one, so a target refusing it fails that clause alone.
 */
export function serializeBody(body: unknown, representation: Representation): string | Uint8Array {
  if (body instanceof Uint8Array) return body;
  return representation === 'xml'
    ? serializeTypedXml(body as JsonValue, 'request', { declaration: false })
    : JSON.stringify(body);
}

/** Later headers replace earlier ones of the same name in any letter case. */
export function mergeHeaders(base: Record<string, string>, extra: Record<string, string> | undefined) {
  if (!extra) return base;
  const out = { ...base };
  for (const [name, value] of Object.entries(extra)) {
    for (const existing of Object.keys(out)) if (existing.toLowerCase() === name.toLowerCase()) delete out[existing];
    out[name] = value;
  }
  return out;
}

function mediaTypeOf(headers: Record<string, string>): string | null {
  const value = headers['content-type'];
  if (value === undefined) return null;
  return value.split(';')[0]?.trim().toLowerCase() || null;
}

const lossyUtf8 = new TextDecoder('utf-8');

type Parsed = {
  value: unknown;
  failure?: { representation: 'json' | 'xml'; reason: string };
  readDespite?: ReadDespite;
};

/**
 * Deviations read past: each has one clear reading, so only its own clause is judged (readableBody files it). A
 * property written twice with the same value (4.14.6) reads as that property; twice with two values it has no one
 * reading, and the body stays unreadable (filed under 4.14.6, blocking what needed it).
 */
const READ_PAST: readonly string[] = [
  ...FRAME_REASONS,
  XML_REJECTION_REASONS.invalidBoolean,
  XML_REJECTION_REASONS.duplicatePropertyName,
];

/**
 * Spec 9.3b: field names are as in the spec (camelCase, spec 2), in XML as in JSON: a snake_case name breaks it
 * whichever representation carries it. Whether XML and JSON agree stays 4.14.18a's, judged by its own checks.
 */
export const SNAKE_CASE_REASON = 'XML property names are spelled in snake_case, not as the JSON field names';
const SNAKE_CASE_CLAUSE = '9.3b';

function parseBody(bytes: Uint8Array, mediaType: string | null): Parsed {
  if (bytes.byteLength === 0) return { value: undefined };
  if (mediaType === MEDIA_TYPES.json || mediaType?.endsWith('+json')) {
    try {
      return { value: JSON.parse(lossyUtf8.decode(bytes)) };
    } catch (error) {
      return { value: undefined, failure: { representation: 'json', reason: (error as Error).message.slice(0, 200) } };
    }
  }
  if (mediaType === MEDIA_TYPES.xml || mediaType === MEDIA_TYPES.textXml) {
    // Comments, processing instructions, a DTD, CDATA and whitespace around a number are not deviations in a response:
    // 4.14 lists them as what a server rejects in a request (docs/ambiguities.md S30).
    const parsed = parseTypedXml(bytes, 'response', RESPONSE_XML_LIMITS, RESPONSE_MARKUP);
    if (parsed.ok) return withJsonNames({ value: parsed.value });
    if (READ_PAST.includes(parsed.reason)) {
      // A frame deviation (say a v2 namespace), a boolean written 1 or a property repeated with its value is one
      // clause's: the content is still read for every other check.
      const options = { ...RESPONSE_MARKUP, lenientFrame: true, lenientBoolean: true, lenientDuplicates: true };
      const lenient = parseTypedXml(bytes, 'response', RESPONSE_XML_LIMITS, options);
      if (lenient.ok)
        return withJsonNames({ value: lenient.value, readDespite: { representation: 'xml', reason: parsed.reason } });
    }
    return { value: undefined, failure: { representation: 'xml', reason: parsed.reason } };
  }
  return { value: undefined };
}

/**
 * An XML value whose property names are snake_case (vehicle_code) read with the JSON names (vehicleCode): the
 * naming is 9.3b's deviation, filed there by readableBody, and every other check judges the content. Field
 * names of the business responses are camelCase (spec 2); only a name with an underscore before a lower-case
 * letter or digit is renamed, and only when no sibling already has the camelCase name.
 */
function withJsonNames(parsed: Parsed): Parsed {
  let renamed = false;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    const source = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(source)) {
      const camel = key.replace(/(?<=[a-z0-9])_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
      const name = camel !== key && !Object.hasOwn(source, camel) ? camel : key;
      if (name !== key) renamed = true;
      Object.defineProperty(out, name, { value: walk(child), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const value = walk(parsed.value);
  if (!renamed) return parsed;
  return {
    value,
    readDespite: parsed.readDespite ?? {
      representation: 'xml',
      reason: SNAKE_CASE_REASON,
      clauseId: SNAKE_CASE_CLAUSE,
    },
  };
}

/** How much of a body a failure message shows (ApiResult.excerpt): enough for an error envelope, never a page. */
export const EXCERPT_CHARS = 300;

export function toApiResult(res: HttpResponse): ApiResult {
  const mediaType = mediaTypeOf(res.headers);
  const parsed = parseBody(res.body, mediaType);
  const text = lossyUtf8.decode(res.body);
  const result: ApiResult = {
    status: res.status,
    headers: res.headers,
    body: parsed.value,
    text,
    excerpt: text.slice(0, EXCERPT_CHARS),
    bytes: res.body,
    mediaType,
    requestId: res.headers['x-request-id'] ?? null,
  };
  if (parsed.readDespite) result.readDespite = parsed.readDespite;
  if (parsed.failure) {
    result.parseFailure = parsed.failure;
    result.parseError =
      parsed.failure.representation === 'json'
        ? `not valid JSON: ${parsed.failure.reason}`
        : `not valid typed XML: ${parsed.failure.reason}`;
  }
  return result;
}
