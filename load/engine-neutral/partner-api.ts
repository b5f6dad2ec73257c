/**
 * Partner API calls for scenarios, on the engine-neutral LoadHttp. Runs on Node and on k6 alike, so it uses
 * neither Buffer, URL, TextEncoder nor Intl.
 */
import { API_PREFIX } from '../../contract/constants.ts';
import { isoInstantMs } from '../../contract/iso-instant.ts';
import type { Role } from '../../contract/vocabulary.ts';
import type { HttpRequestSpec, HttpResponseData, RunContext } from './model.ts';

export function apiUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${API_PREFIX}${path}`;
}

export function controlUrl(ctx: RunContext, path: string): string | undefined {
  const control = ctx.target.control;
  if (!control) return undefined;
  return `${(control.baseUrl ?? ctx.target.baseUrl).replace(/\/+$/, '')}/control/v1${path}`;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** UTF-8 bytes of a string (k6 has no TextEncoder). */
function utf8(text: string): number[] {
  const bytes: number[] = [];
  const encoded = unescape(encodeURIComponent(text));
  for (let i = 0; i < encoded.length; i++) bytes.push(encoded.charCodeAt(i));
  return bytes;
}

/** Base64 of a string's UTF-8 bytes: neither Buffer nor btoa exists on both engines. */
export function base64(text: string): string {
  const bytes = utf8(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | (b << 8) | c;
    out += B64[(n >> 18) & 63];
    out += B64[(n >> 12) & 63];
    out += i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? B64[n & 63] : '=';
  }
  return out;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The envelope's error object (spec 7.2), when the body is one. */
export function envelopeOf(res: HttpResponseData): Record<string, unknown> | undefined {
  return record(record(parseJson(res.body))?.error);
}

/**
 * The code a non-2xx response is counted under: the envelope code (7.2), the OAuth error (7.1), NETWORK when no
 * response arrived, else HTTP_<status>.
 */
export function errorCodeOf(res: HttpResponseData): string {
  if (res.status === 0) return 'NETWORK';
  const body = record(parseJson(res.body));
  const error = body?.error;
  if (typeof error === 'string' && error !== '') return error;
  const code = record(error)?.code;
  if (typeof code === 'string' && code !== '') return code;
  return `HTTP_${res.status}`;
}

export const isSuccess = (res: HttpResponseData): boolean => res.status >= 200 && res.status < 300;

const DIGITS = /^\d+$/;

export interface RateLimitHeaders {
  limit: number;
  remaining: number;
  /** Window end, epoch ms. */
  resetMs: number;
  reset: string;
}

/** Spec 8.14: the three headers, or what is wrong with them. */
export function rateLimitHeadersOf(res: HttpResponseData): RateLimitHeaders | { problem: string } {
  const limit = res.headers['x-ratelimit-limit'];
  const remaining = res.headers['x-ratelimit-remaining'];
  const reset = res.headers['x-ratelimit-reset'];
  if (limit === undefined || remaining === undefined || reset === undefined) {
    const missing = [
      limit === undefined ? 'X-RateLimit-Limit' : '',
      remaining === undefined ? 'X-RateLimit-Remaining' : '',
      reset === undefined ? 'X-RateLimit-Reset' : '',
    ].filter(Boolean);
    return { problem: `HTTP ${res.status} without ${missing.join(', ')}` };
  }
  if (!DIGITS.test(limit) || !DIGITS.test(remaining)) {
    return { problem: `HTTP ${res.status}: Limit ${limit} / Remaining ${remaining} are not whole numbers` };
  }
  const resetMs = isoInstantMs(reset);
  if (resetMs === undefined) {
    return { problem: `HTTP ${res.status}: X-RateLimit-Reset ${reset} is not an ISO 8601 timestamp` };
  }
  const parsed = { limit: Number(limit), remaining: Number(remaining), resetMs, reset };
  if (parsed.remaining > parsed.limit) {
    return { problem: `HTTP ${res.status}: Remaining ${remaining} exceeds Limit ${limit}` };
  }
  return parsed;
}

export function hasRateLimitHeaders(res: HttpResponseData): string[] {
  return Object.keys(res.headers).filter((name) => name.startsWith('x-ratelimit-'));
}

/** Spec 8.15: Retry-After in whole seconds; undefined when absent or not whole seconds. */
export function retryAfterOf(res: HttpResponseData): number | undefined {
  const value = res.headers['retry-after'];
  return value !== undefined && DIGITS.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** Spec 7.3 RATE_LIMITED: 429, retryable, requestId equal to X-Request-Id. Returns the problem, if any. */
export function rateLimitedEnvelopeProblem(res: HttpResponseData): string | undefined {
  const error = envelopeOf(res);
  if (!error) return 'the body is not the error envelope';
  if (error.code !== 'RATE_LIMITED') return `code ${String(error.code)}, expected RATE_LIMITED`;
  if (error.retryable !== true) return 'retryable is not true';
  if (typeof error.message !== 'string') return 'message is not a string';
  const requestId = res.headers['x-request-id'];
  if (requestId === undefined || error.requestId !== requestId) return 'requestId differs from X-Request-Id';
  return undefined;
}

export function credentialsOf(ctx: RunContext, role: Role): { clientId: string; clientSecret: string } {
  const credentials = ctx.target.clients[role];
  if (!credentials) throw new Error(`the target config has no ${role} client`);
  return credentials;
}

/** A token-endpoint request (client_secret_basic, spec 5.2), not sent. */
export function tokenRequest(ctx: RunContext, role: Role, extra: Partial<HttpRequestSpec> = {}): HttpRequestSpec {
  const { clientId, clientSecret } = credentialsOf(ctx, role);
  return {
    method: 'POST',
    url: apiUrl(ctx.target.baseUrl, '/oauth/token'),
    headers: {
      authorization: `Basic ${base64(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`)}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: 'grant_type=client_credentials',
    ...extra,
  };
}

/** A bearer token for a role (spec 5.3: reused until expiry; scenarios fetch one per run). */
export async function fetchToken(ctx: RunContext, role: Role): Promise<string> {
  const res = await ctx.http.request(tokenRequest(ctx, role));
  const token = record(parseJson(res.body))?.access_token;
  if (res.status !== 200 || typeof token !== 'string') {
    throw new Error(`token for ${role}: HTTP ${res.status} ${errorCodeOf(res)}`);
  }
  return token;
}

export interface ApiCall {
  method: 'GET' | 'POST';
  path: string;
  token: string;
  json?: unknown;
  headers?: Record<string, string>;
  step?: string;
  client?: string;
}

export function apiRequest(ctx: RunContext, call: ApiCall): HttpRequestSpec {
  const headers: Record<string, string> = {
    authorization: `Bearer ${call.token}`,
    accept: 'application/json',
    ...call.headers,
  };
  const spec: HttpRequestSpec = { method: call.method, url: apiUrl(ctx.target.baseUrl, call.path), headers };
  if (call.json !== undefined) {
    headers['content-type'] = 'application/json';
    spec.body = JSON.stringify(call.json);
  }
  if (call.step !== undefined) spec.step = call.step;
  if (call.client !== undefined) spec.client = call.client;
  return spec;
}

export function jsonOf(res: HttpResponseData): Record<string, unknown> | undefined {
  return record(parseJson(res.body));
}

async function control(ctx: RunContext, method: string, path: string, json?: unknown): Promise<HttpResponseData> {
  const url = controlUrl(ctx, path);
  const token = ctx.target.control?.token;
  if (!url || !token) throw new Error('the target has no control API');
  const spec: HttpRequestSpec = {
    method,
    url,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  };
  if (json !== undefined) {
    spec.headers = { ...spec.headers, 'content-type': 'application/json' };
    spec.body = JSON.stringify(json);
  }
  const res = await ctx.http.request(spec);
  if (res.status < 200 || res.status >= 300) throw new Error(`control ${method} ${path}: HTTP ${res.status}`);
  return res;
}

/** The service clock (reference control API), epoch ms. */
export async function serviceNowMs(ctx: RunContext): Promise<number> {
  const now = jsonOf(await control(ctx, 'GET', '/state'))?.now;
  if (typeof now !== 'string') throw new Error('control /state has no now');
  return Date.parse(now);
}

export async function advanceClock(ctx: RunContext, seconds: number): Promise<void> {
  await control(ctx, 'POST', '/clock/advance', { seconds });
}

/**
 * With a control API, moves the service clock just past the start of the next one-minute window, so a run starts
 * on a fresh window (the reference implementation's windows are aligned minutes). Returns whether it could.
 */
export async function startFreshWindow(ctx: RunContext): Promise<boolean> {
  if (!ctx.target.control) return false;
  const now = await serviceNowMs(ctx);
  await advanceClock(ctx, (60_000 - (now % 60_000) + 250) / 1000);
  return true;
}

/**
 * The one-minute windows (spec 8.14) a run of `durationS` may span: from a fresh window (startFreshWindow) as many as
 * its minutes, else one more. A stated ceiling is certain to refuse only past its limit times these.
 */
export function windowsSpanned(durationS: number, aligned: boolean): number {
  return Math.ceil(durationS / 60) + (aligned ? 0 : 1);
}

/** Vietnam has no daylight saving time: local dates are UTC+7 (no Intl on k6). */
const VIETNAM_OFFSET_MS = 7 * 3_600_000;
const DAY_MS = 86_400_000;

export function vietnamDate(epochMs: number): string {
  return new Date(epochMs + VIETNAM_OFFSET_MS).toISOString().slice(0, 10);
}

/**
 * A round-trip rental window at `location` (a code the target lists: listings.ts), `startDays` from now for `days`
 * days, far from any clock advance. Dates are Vietnam's (no Intl on k6); 60 days ahead, a location in another zone
 * is at most a day off, which no window here depends on.
 */
export function rentalWindow(nowMs: number, location: string, startDays = 60, days = 3) {
  return {
    pickupLocation: location,
    dropoffLocation: location,
    pickupDate: vietnamDate(nowMs + startDays * DAY_MS),
    pickupTime: '10:00',
    dropoffDate: vietnamDate(nowMs + (startDays + days) * DAY_MS),
    dropoffTime: '10:00',
  };
}

export function driver() {
  return {
    firstName: 'Load',
    lastName: 'Tester',
    email: 'load.tester@example.com',
    phone: '+84901234567',
    dateOfBirth: '1985-06-15',
  };
}

/** Random hex (Math.random: ids only need to be distinct, not secret). */
export function randomHex(length: number): string {
  let out = '';
  while (out.length < length)
    out += Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, length);
}
