import { connect } from 'node:net';
import { type Dispatcher, Pool, request as undiciRequest } from 'undici';
import type { EvidenceExchange, Profile } from '../check/outcome-and-evidence.ts';
import type { TargetTls } from '../config/target-config.ts';
import { trustedSecureContext } from '../config/trusted-ca.ts';
import { curlCommand } from './curl.ts';
import { Pacer } from './pacing.ts';
import { assertProfileAllows, type GuardTarget } from './profile-guard.ts';
import {
  bucketsOf,
  CHECK_LIMIT_WAIT_BUDGET_MS,
  currentTraffic,
  isProvoking,
  MAX_LIMIT_RETRIES,
  RateLimitedError,
  RateLimitModel,
} from './rate-limits.ts';
import { record } from './recorder.ts';
import { redactBody, redactHeaders, redactText } from './redact.ts';
import { rolePlaceholder, type SecretRegistry, secrets } from './secrets.ts';
import { TargetUnreachableError } from './unreachable.ts';

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

/**
 * One keep-alive connection pool per origin for the whole process, as a real client would hold. Not undici's Agent
 * (7.30): it closes an origin's pool when its count of that origin's connected sockets reaches zero, and a socket of
 * an already closed pool that disconnects later counts down the pool that replaced it, which it then closes under
 * live sockets. In a certification that went on from the first idle timeout to the end: the reference saw 711 TLS
 * connections (a handshake on both sides each), 72 with a pool per origin.
 */
const pools = new Map<string, Pool>();
let pacer = new Pacer({ maxRps: null, honourRetryAfter: false });
/** The run's clients' buckets as the target described them (rate-limits.ts). */
let limits = new RateLimitModel();
let registry: SecretRegistry = secrets;
/** The target's private CA (target config tls.caFile), trusted beside the public roots. */
let caFile: string | undefined;
/** What the run's profile lets the client send (absent: no limit, e.g. the harness's own unit tests). */
let guard: { profile: Profile; target: GuardTarget } | undefined;

/**
 * A target that stopped answering: after UNREACHABLE_AFTER transport failures in a row, requests fail at once with
 * one message instead of each waiting for its own timeout, and one request every REPROBE_MS finds out whether the
 * target is back.
 */
const UNREACHABLE_AFTER = 3;
const REPROBE_MS = 5_000;
let transportFailures = 0;
let down: { cause: string; probedAt: number } | undefined;

/** Errors of the connection itself: nothing was answered (TLS refusals are configuration, see preflight). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TRANSPORT_CODES = new Set([
  ...CONNECTION_CODES,
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

function errorCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string') return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

function transportCause(error: unknown, url: string): string {
  const code = errorCode(error) ?? 'error';
  let where = url;
  try {
    where = new URL(url).host;
  } catch {
    // keep the URL
  }
  return `${code} ${where}`;
}

/** The process's connection pool for the origin of `url` (also for harness calls that are not checks' exchanges). */
export function httpDispatcher(url: string): Dispatcher {
  const origin = new URL(url).origin;
  let pool = pools.get(origin);
  if (!pool) {
    pool = new Pool(origin, {
      keepAliveTimeout: 10_000,
      connections: 32,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
      ...(caFile ? { connect: { secureContext: trustedSecureContext(caFile) } } : {}),
    });
    pools.set(origin, pool);
  }
  return pool;
}

function closePools(): Promise<unknown> {
  const closing = [...pools.values()].map((pool) => pool.close());
  pools.clear();
  return Promise.all(closing);
}

/**
 * Sets the process's pacing (the run's --max-rps; Retry-After against non-loopback targets) and, with `tls`, the
 * target's TLS trust (its CA file; `tls: undefined` goes back to the public roots alone).
 */
export function configureHttp(options: {
  pacer?: Pacer;
  limits?: RateLimitModel;
  registry?: SecretRegistry;
  tls?: TargetTls | undefined;
  /** The run's profile and target: requests the profile does not allow are refused (null: no limit). */
  profile?: { profile: Profile; target: GuardTarget } | null;
}): void {
  if (options.pacer) pacer = options.pacer;
  if (options.limits) limits = options.limits;
  if (options.profile !== undefined) guard = options.profile ?? undefined;
  if (options.registry) registry = options.registry;
  if ('tls' in options && options.tls?.caFile !== caFile) {
    caFile = options.tls?.caFile;
    // Pooled connections were verified against the old trust: the next request opens new pools.
    void closePools().catch(() => {});
  }
}

/** The target emptied its rate-limit windows (test hook rateLimits.reset): every bucket is taken as full again. */
export function forgetRateLimits(): void {
  limits.forget();
}

const lossyUtf8 = new TextDecoder('utf-8');

/**
 * Sends one request within the target's rate limits and the run's pace, records it (redacted, with a curl line) and
 * returns the raw response. A request whose client's bucket the target said is empty waits for it to refill first;
 * a 429 the check did not provoke (rate-limits.ts provokingLimits) is waited out and the identical request (same
 * bytes, same Idempotency-Key) sent again, each attempt recorded, so a check never judges a 429 it did not ask
 * for. When the target keeps refusing, the check is "not judged" (RateLimitedError), never failed.
 */
export async function send(req: HttpRequest, options: SendOptions = {}): Promise<HttpResponse> {
  if (guard) assertProfileAllows(guard.profile, req.method, req.url, guard.target);
  const keys = bucketsOf(req.url, options.role);
  const provoking = isProvoking();
  const traffic = currentTraffic();
  const role = options.role ?? 'anonymous';
  for (let retry = 0; ; retry++) {
    if (!provoking) {
      const delay = limits.delayFor(keys);
      if (delay > 0 && traffic.waitedMs + delay > CHECK_LIMIT_WAIT_BUDGET_MS) throw heldBack(traffic.waitedMs, delay);
      traffic.waitedMs += await limits.acquire(keys);
    }
    traffic.requests[role] = (traffic.requests[role] ?? 0) + 1;
    const response = await sendOnce(req, options, keys);
    if (response.status !== 429) return response;
    if (provoking) {
      traffic.provoked429 += 1;
      return response;
    }
    traffic.unprovoked429 += 1;
    const wait = limits.waitAfter429(response.headers, retry);
    if (retry >= MAX_LIMIT_RETRIES) {
      throw new RateLimitedError(
        `${req.method} ${pathOf(req.url)} was refused with 429 ${retry + 1} times although the check did not ` +
          `provoke it (waited ${Math.round(traffic.waitedMs / 1000)} s for the target's rate limits): nothing could be judged`,
      );
    }
    if (traffic.waitedMs + wait > CHECK_LIMIT_WAIT_BUDGET_MS) throw heldBack(traffic.waitedMs, wait);
    await limits.sleep(wait);
    traffic.waitedMs += wait;
  }
}

function heldBack(waitedMs: number, nextMs: number): RateLimitedError {
  return new RateLimitedError(
    `the target's rate limits held this check back ${Math.round(waitedMs / 1000)} s and asked for ` +
      `${Math.round(nextMs / 1000)} s more (at most ${CHECK_LIMIT_WAIT_BUDGET_MS / 1000} s a check): nothing could be judged`,
  );
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** One attempt: through the pacer, recorded as evidence, seen by the rate-limit model. */
async function sendOnce(req: HttpRequest, options: SendOptions, keys: readonly string[]): Promise<HttpResponse> {
  const headers = req.headers ?? {};
  if (down && Date.now() - down.probedAt < REPROBE_MS) throw new TargetUnreachableError(down.cause);
  if (down) down.probedAt = Date.now();
  await pacer.acquire();
  const started = performance.now();
  let response: HttpResponse | undefined;
  limits.sent(keys);
  try {
    let res: Awaited<ReturnType<typeof undiciRequest>>;
    let body: Uint8Array;
    try {
      res = await undiciRequest(req.url, {
        method: req.method as 'GET',
        headers,
        body: req.body,
        dispatcher: httpDispatcher(req.url),
      });
      body = new Uint8Array(await res.body.arrayBuffer());
    } catch (error) {
      throw await transportFailure(error, req.url);
    }
    transportFailures = 0;
    down = undefined;
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
    limits.answered(keys, response);
    if (options.record !== false) {
      const durationMs = Math.round(performance.now() - started);
      const answered = response;
      // Made into evidence when read (recorder.ts); a large body (the limit checks' oversize ones) at once, so a
      // check holds no more than evidence's truncated copy of it.
      if ((req.body?.length ?? 0) + (answered?.body.length ?? 0) > LAZY_EVIDENCE_MAX_BYTES)
        record(toEvidence(req, answered, durationMs));
      else record(() => toEvidence(req, answered, durationMs));
    }
  }
}

/**
 * A request that got no answer. A refused or unresolvable connection is the target not being there (after
 * UNREACHABLE_AFTER in a row it is taken as down); a reset or a timeout may be the target's answer to this one
 * request (a hostile body, say), so it passes as it is unless the target no longer accepts connections at all.
 */
async function transportFailure(error: unknown, url: string): Promise<unknown> {
  const code = errorCode(error);
  if (code === undefined || !TRANSPORT_CODES.has(code)) return error;
  const cause = transportCause(error, url);
  if (CONNECTION_CODES.has(code)) {
    transportFailures += 1;
    if (transportFailures >= UNREACHABLE_AFTER) down ??= { cause, probedAt: Date.now() };
    return new TargetUnreachableError(down?.cause ?? cause);
  }
  if (await acceptsConnections(url)) return error;
  down ??= { cause, probedAt: Date.now() };
  return new TargetUnreachableError(down.cause);
}

/** Whether the target's host still accepts a TCP connection (two seconds at most). */
function acceptsConnections(url: string): Promise<boolean> {
  let host: string;
  let port: number;
  try {
    const parsed = new URL(url);
    host = parsed.hostname.replace(/^\[|\]$/g, '');
    port = Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80);
  } catch {
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Forgets that the target stopped answering (a new run, or the harness's own tests). */
export function resetReachability(): void {
  transportFailures = 0;
  down = undefined;
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

/** Exchanges with bodies up to this size are kept as they are until their evidence is read. */
const LAZY_EVIDENCE_MAX_BYTES = 65_536;

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
