import { resolve } from 'node:path';

/** Everything the server reads from its environment, with the embedded defaults (README "Configuration"). */
export interface ServerConfig {
  host: string;
  port: number;
  /** `sqlite:<file>` (default, embedded) or `postgres://…` (many instances). */
  databaseUrl: string;
  /** Redis for shared rate-limit buckets; in-process buckets when absent. */
  redisUrl: string | undefined;
  /** Key prefix of the rate-limit buckets in Redis: instances sharing it share the limits. */
  redisKeyPrefix: string;
  /** Bearer secret of the operator control API; the control API is off when absent. */
  controlToken: string | undefined;
  /** Spec 5.8: the whole partner API answers 503 API_DISABLED. */
  apiDisabled: boolean;
  tokenLimits: { perClientPerMinute: number; perAddressPerMinute: number };
  /**
   * Business calls a minute for every ordinary client (spec 8; `fixtures/clients.ts` marks which clients are
   * ordinary: a client with a ceiling of its own, the `rateLimit` role's 30, keeps it).
   */
  rateLimitPerMinute: number;
  logLevel: string;
  /** A log line per request (received, answered) at info; off (LOG_REQUESTS=0) leaves start-up lines and warnings. */
  logRequests: boolean;
  /** PEM files; when both are set the server listens with HTTPS only, TLS 1.2 minimum (spec 5.7). */
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  /** Named faults and benign variants switched on at start (FAULTS=name,name; README "Faults"). */
  faults: string[];
  /**
   * Background purge of idempotency records past the 24 h memory (spec 4.7.6): a pause between purges (0: off) and
   * the rows deleted per statement.
   */
  idempotencyPurge: { intervalMs: number; batchSize: number };
  /** Sandbox mode: every exchange appended as a JSON line to this file (SANDBOX_RECORD; docs/client-clauses.md). */
  sandboxRecord: string | undefined;
  /**
   * Sandbox scenario played during a client's session (SANDBOX_SCENARIO: a bundled name of
   * reference-impl/sandbox/scenarios/, or a scenario file's path); none when absent.
   */
  sandboxScenario: string | undefined;
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

function switchFrom(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new Error(`${name} must be 1, true, 0 or false`);
}

function positiveIntFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^[0-9]+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const tlsCertFile = env.TLS_CERT_FILE || undefined;
  const tlsKeyFile = env.TLS_KEY_FILE || undefined;
  // One without the other would silently serve plain HTTP where HTTPS was meant.
  if ((tlsCertFile === undefined) !== (tlsKeyFile === undefined)) {
    throw new Error('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  return {
    host: env.HOST ?? '127.0.0.1',
    port: intFrom(env, 'PORT', 8080),
    databaseUrl: env.DATABASE_URL ?? `sqlite:${resolve('data', 'reference.db')}`,
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'partner-api:rl:',
    controlToken: env.CONTROL_TOKEN || undefined,
    apiDisabled: env.API_DISABLED === '1' || env.API_DISABLED === 'true',
    tokenLimits: {
      perClientPerMinute: intFrom(env, 'TOKEN_LIMIT_PER_CLIENT', 120),
      perAddressPerMinute: intFrom(env, 'TOKEN_LIMIT_PER_ADDRESS', 600),
    },
    rateLimitPerMinute: positiveIntFrom(env, 'RATE_LIMIT_PER_MINUTE', 600),
    logLevel: env.LOG_LEVEL ?? 'info',
    logRequests: switchFrom(env, 'LOG_REQUESTS', true),
    tlsCertFile,
    tlsKeyFile,
    idempotencyPurge: {
      intervalMs: intFrom(env, 'IDEMPOTENCY_PURGE_INTERVAL_S', 60) * 1000,
      batchSize: positiveIntFrom(env, 'IDEMPOTENCY_PURGE_BATCH_SIZE', 500),
    },
    sandboxRecord: env.SANDBOX_RECORD ? resolve(env.SANDBOX_RECORD) : undefined,
    sandboxScenario: env.SANDBOX_SCENARIO || undefined,
    faults: (env.FAULTS ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  };
}
