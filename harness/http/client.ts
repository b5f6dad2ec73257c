import { Agent, type Dispatcher, request as undiciRequest } from 'undici';
import type { EvidenceExchange } from '../check/meta.ts';
import type { TargetTls } from '../config/target-config.ts';
import { trustedCertificates } from '../config/trusted-ca.ts';
import { curlCommand } from './curl.ts';
import { Pacer } from './pacing.ts';
import { record } from './recorder.ts';
import { redactBody, redactHeaders, redactText } from './redact.ts';
import { rolePlaceholder, type SecretRegistry, secrets } from './secrets.ts';

export interface HttpRequest {
  method: string;
  url: string;
  /** Sent exactly as given (undici adds only host, connection and content-length). */
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: Uint8Array;
  durationMs: number;
}

export interface SendOptions {
  /** Record the exchange as evidence of the current check (default true). */
  record?: boolean;
  /** Whose credentials the request carries: names the placeholder of a token the response issues. */
  role?: string;
}

/** Bodies longer than this are cut in evidence (the curl line keeps the whole request). */
const MAX_EVIDENCE_BODY_CHARS = 20_000;
const TIMEOUT_MS = 30_000;

// One keep-alive connection pool for the whole process, as a real client would hold.
let agent: Agent | undefined;
let pacer = new Pacer({ maxRps: null, honourRetryAfter: false });
let registry: SecretRegistry = secrets;
/** The target's private CA (target config tls.caFile), trusted beside the public roots. */
let caFile: string | undefined;

/** The process's one connection pool (for the few harness calls that are not checks' exchanges, e.g. cleanup). */
export function httpDispatcher(): Dispatcher {
  agent ??= new Agent({
    keepAliveTimeout: 10_000,
    connections: 32,
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
    ...(caFile ? { connect: { ca: trustedCertificates(caFile) } } : {}),
  });
  return agent;
}

/**
 * Sets the process's pacing (the run's --max-rps; Retry-After against non-loopback targets) and, with `tls`, the
 * target's TLS trust (its CA file; `tls: undefined` goes back to the public roots alone).
 */
export function configureHttp(options: {
  pacer?: Pacer;
  registry?: SecretRegistry;
  tls?: TargetTls | undefined;
}): void {
  if (options.pacer) pacer = options.pacer;
  if (options.registry) registry = options.registry;
  if ('tls' in options && options.tls?.caFile !== caFile) {
    caFile = options.tls?.caFile;
    // Pooled connections were verified against the old trust: the next request opens a new pool.
    const previous = agent;
    agent = undefined;
    if (previous) void previous.close().catch(() => {});
  }
}

export async function closeHttp(): Promise<void> {
  const current = agent;
  agent = undefined;
  await current?.close();
}

const lossyUtf8 = new TextDecoder('utf-8');

/** Sends one request through the pacer, records it (redacted, with a curl line) and returns the raw response. */
export async function send(req: HttpRequest, options: SendOptions = {}): Promise<HttpResponse> {
  const headers = req.headers ?? {};
  await pacer.acquire();
  const started = performance.now();
  let response: HttpResponse | undefined;
  try {
    const res = await undiciRequest(req.url, {
      method: req.method as 'GET',
      headers,
      body: req.body,
      dispatcher: httpDispatcher(),
    });
    const body = new Uint8Array(await res.body.arrayBuffer());
    response = {
      status: res.statusCode,
      headers: flattenHeaders(res.headers),
      body,
      durationMs: Math.round(performance.now() - started),
    };
    pacer.observe(response.status, response.headers);
    registerIssuedToken(req, response, options.role);
    return response;
  } finally {
    if (options.record !== false) record(toEvidence(req, response, Math.round(performance.now() - started)));
  }
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Any access token a token endpoint hands out becomes a secret at once, before evidence is written. */
function registerIssuedToken(req: HttpRequest, res: HttpResponse, role: string | undefined): void {
  if (!/\/oauth\/token(?:\?|$)/.test(req.url)) return;
  const text = lossyUtf8.decode(res.body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof parsed !== 'object' || parsed === null) return;
  for (const key of ['access_token', 'refresh_token', 'id_token']) {
    const value = (parsed as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') {
      const placeholder = key === 'access_token' && role ? rolePlaceholder('TOKEN', role) : key.toUpperCase();
      registry.add(value, placeholder);
    }
  }
}

function bodyForEvidence(body: string | Uint8Array | undefined): string | undefined {
  if (body === undefined) return undefined;
  const text = typeof body === 'string' ? body : lossyUtf8.decode(body);
  if (text === '') return undefined;
  const redacted = redactBody(text, registry);
  return redacted.length > MAX_EVIDENCE_BODY_CHARS
    ? `${redacted.slice(0, MAX_EVIDENCE_BODY_CHARS)}… [${redacted.length - MAX_EVIDENCE_BODY_CHARS} more characters]`
    : redacted;
}

export function toEvidence(req: HttpRequest, res: HttpResponse | undefined, durationMs: number): EvidenceExchange {
  const headers = req.headers ?? {};
  const exchange: EvidenceExchange = {
    request: { method: req.method, url: redactText(req.url, registry), headers: redactHeaders(headers, registry) },
    curl: curlCommand({ method: req.method, url: req.url, headers, body: req.body }, registry),
    durationMs,
  };
  const requestBody = bodyForEvidence(req.body);
  if (requestBody !== undefined) exchange.request.body = requestBody;
  if (res) {
    exchange.response = { status: res.status, headers: redactHeaders(res.headers, registry) };
    const responseBody = bodyForEvidence(res.body);
    if (responseBody !== undefined) exchange.response.body = responseBody;
  }
  return exchange;
}
