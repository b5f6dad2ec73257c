import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { loadReferenceTarget, OPERATOR_DATA } from '../fixtures/index.ts';
import { buildApp } from './app.ts';
import type { ServerConfig } from './config.ts';
import { AccessTokens } from './domain/access-tokens.ts';
import { ClientRegistry, servedClients } from './domain/credentials.ts';
import { IdempotencyPurge } from './domain/idempotency-purge.ts';
import { OperatorData } from './domain/operator-data.ts';
import { QuoteTokens } from './domain/quote-tokens.ts';
import { Reservations } from './domain/reservations.ts';
import { Shopping } from './domain/shopping.ts';
import { FAULTS } from './faults/registry/index.ts';
import { FaultSwitch } from './faults/switch.ts';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './http/rate-limit/index.ts';
import { loadSandboxScenario } from './sandbox/scenario.ts';
import { openStore } from './store/index.ts';
import type { Store } from './store/types.ts';

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  rateLimiter: RateLimiter;
  /** http://host:port, or https://host:port with TLS, the server listens on. */
  url: string;
  close(): Promise<void>;
}

/** Client secrets: the fixture target config's, each overridable by CLIENT_SECRET_<ROLE> (e.g. CLIENT_SECRET_PARTNERA). */
function secretResolver(env: NodeJS.ProcessEnv) {
  const target = loadReferenceTarget();
  return (client: { role: string }) =>
    env[`CLIENT_SECRET_${client.role.toUpperCase()}`] || target.clients[client.role]?.clientSecret;
}

export function controlTokenFrom(config: ServerConfig): string | undefined {
  return config.controlToken ?? loadReferenceTarget().hooks?.token;
}

const newKey = () => randomBytes(32).toString('base64url');

/** Opens the store and buckets, builds the app and listens. The one way main.ts and the tests start a server. */
export async function startServer(
  config: ServerConfig,
  options: { env?: NodeJS.ProcessEnv; logger?: boolean } = {},
): Promise<RunningServer> {
  const env = options.env ?? process.env;
  // Read before anything opens: a scenario that cannot be played is a start-up error, not a session without it.
  const sandboxScenario = config.sandboxScenario ? loadSandboxScenario(config.sandboxScenario) : undefined;
  const store = await openStore(config.databaseUrl);
  let rateLimiter: RateLimiter | undefined;
  try {
    rateLimiter = config.redisUrl
      ? await createRedisRateLimiter({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix })
      : createMemoryRateLimiter();
    const operatorData = new OperatorData(OPERATOR_DATA);
    const faults = new FaultSwitch(FAULTS);
    faults.set(config.faults);
    const [clients, tokenKey, quoteKey] = await Promise.all([
      // Both setups alike (SQLite, PostgreSQL + Redis): the guard hands each client's ceiling to the limiter.
      ClientRegistry.create(servedClients(OPERATOR_DATA.clients, config.rateLimitPerMinute), secretResolver(env)),
      store.getOrCreateSecret('access-token-key', newKey),
      store.getOrCreateSecret('quote-key', newKey),
    ]);
    const quoteTokens = new QuoteTokens(quoteKey, faults);
    const shopping = new Shopping(operatorData, quoteTokens, faults);
    const app = await buildApp({
      store,
      rateLimiter,
      operatorData,
      clients,
      accessTokens: new AccessTokens(tokenKey),
      shopping,
      reservations: new Reservations(store, shopping, quoteTokens, faults),
      faults,
      apiDisabledAtStart: config.apiDisabled,
      controlToken: controlTokenFrom(config),
      tokenLimits: config.tokenLimits,
      logger: options.logger ? ({ level: config.logLevel } as never) : false,
      logRequests: config.logRequests,
      ...(config.sandboxRecord ? { sandboxRecord: config.sandboxRecord } : {}),
      ...(sandboxScenario ? { sandboxScenario } : {}),
      ...(config.tlsCertFile && config.tlsKeyFile
        ? {
            https: {
              cert: readFileSync(config.tlsCertFile),
              key: readFileSync(config.tlsKeyFile),
              // Spec 5.7: TLS 1.2 minimum; an older ClientHello gets a protocol_version alert.
              minVersion: 'TLSv1.2' as const,
            },
          }
        : {}),
    });
    const address = await app.listen({ host: config.host, port: config.port });
    const limiter = rateLimiter;
    // One purge per instance: on a shared PostgreSQL several run, each batch skipping rows another holds.
    const purge =
      config.idempotencyPurge.intervalMs > 0
        ? new IdempotencyPurge(store, {
            ...config.idempotencyPurge,
            onError: (error) => app.log.warn({ err: error }, 'idempotency purge failed; next one on schedule'),
          })
        : undefined;
    purge?.start();
    return {
      app,
      store,
      rateLimiter: limiter,
      url: address,
      async close() {
        await purge?.stop();
        await app.close();
        await limiter.close();
        await store.close();
      },
    };
  } catch (error) {
    await rateLimiter?.close();
    await store.close();
    throw error;
  }
}
