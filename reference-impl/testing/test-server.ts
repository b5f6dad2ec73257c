import { randomBytes } from 'node:crypto';
import { API_PREFIX } from '../../contract/constants.ts';
import { loadReferenceTarget } from '../../fixtures/index.ts';
import { configFromEnv, type ServerConfig } from '../config.ts';
import { type RunningServer, startServer } from '../server.ts';
import { createPostgresDatabase, createSqliteDatabase, REDIS_URL, type TestDatabase } from './databases.ts';

export type StoreKind = 'sqlite' | 'postgres';

export interface TestServerOptions {
  store?: StoreKind;
  /** Shared Redis buckets (with a key prefix of the test's own) instead of in-process ones. */
  redis?: boolean;
  /** Instances given the same prefix share their Redis rate-limit buckets. */
  redisKeyPrefix?: string;
  /** Reuse a database (several instances on one store); the caller drops it. */
  databaseUrl?: string;
  /** The server's environment, read as main.ts reads it (configFromEnv); default: none, every default. */
  env?: NodeJS.ProcessEnv;
  config?: Partial<ServerConfig>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body when the response is JSON, else undefined. Loosely typed: tests assert on its shape. */
  // biome-ignore lint/suspicious/noExplicitAny: a test's view of an arbitrary server's answer
  json: any;
}

export interface TestServer {
  server: RunningServer;
  baseUrl: string;
  apiUrl: string;
  databaseUrl: string;
  /** Plain client secrets by role, from the fixture target config. */
  target: ReturnType<typeof loadReferenceTarget>;
  /** A bearer token for a fixture role, optionally limited to some scopes. */
  token(role: string, scope?: string): Promise<string>;
  /** Calls the partner API: path relative to /api/partner/v1. */
  call(
    method: string,
    path: string,
    init?: { token?: string; headers?: Record<string, string>; body?: string | Uint8Array; json?: unknown },
  ): Promise<ApiResponse>;
  /** Calls the operator control API. */
  control(method: string, path: string, body?: unknown): Promise<ApiResponse>;
  close(): Promise<void>;
}

export async function toApiResponse(res: Response): Promise<ApiResponse> {
  const text = await res.text();
  let json: unknown;
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Starts the reference implementation in this process on a free port with a fresh store. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const db: TestDatabase | undefined = options.databaseUrl
    ? undefined
    : options.store === 'postgres'
      ? await createPostgresDatabase()
      : createSqliteDatabase();
  const databaseUrl = options.databaseUrl ?? (db as TestDatabase).url;
  const redisKeyPrefix = options.redisKeyPrefix ?? `test:${randomBytes(6).toString('hex')}:`;
  const config: ServerConfig = {
    ...configFromEnv(options.env ?? {}),
    port: 0,
    databaseUrl,
    redisUrl: options.redis ? REDIS_URL : undefined,
    redisKeyPrefix,
    ...options.config,
  };
  const server = await startServer(config, { env: {} });
  const target = loadReferenceTarget();
  const baseUrl = server.url;
  const apiUrl = `${baseUrl}${API_PREFIX}`;

  const tokens = new Map<string, string>();
  const call: TestServer['call'] = async (method, path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] ??= 'application/json';
    }
    return toApiResponse(await fetch(`${apiUrl}${path}`, { method, headers, body }));
  };

  return {
    server,
    baseUrl,
    apiUrl,
    databaseUrl,
    target,
    async token(role, scope) {
      const cacheKey = `${role} ${scope ?? ''}`;
      const cached = tokens.get(cacheKey);
      if (cached) return cached;
      const creds = target.clients[role];
      if (!creds) throw new Error(`no fixture client ${role}`);
      const form = new URLSearchParams({ grant_type: 'client_credentials' });
      if (scope !== undefined) form.set('scope', scope);
      const res = await fetch(`${apiUrl}/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form.toString(),
      });
      const json = (await res.json()) as { access_token?: string };
      if (res.status !== 200 || !json.access_token) throw new Error(`token for ${role}: HTTP ${res.status}`);
      tokens.set(cacheKey, json.access_token);
      return json.access_token;
    },
    call,
    async control(method, path, body) {
      const res = await fetch(`${baseUrl}/control/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${target.hooks?.token ?? ''}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return toApiResponse(res);
    },
    async close() {
      await server.close();
      await db?.drop();
    },
  };
}
