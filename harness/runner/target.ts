import { randomBytes } from 'node:crypto';
import { HarnessConfigError, readTargetConfig, type TargetConfig } from '../config/target-config.ts';
import { startEmbeddedTarget } from '../target/embedded.ts';
import type { ImageSpec } from '../target/image-options.ts';
import { CertifyError } from './errors.ts';
import { parseEmbeddedRateLimit, type TargetSpec } from './options.ts';

export interface ResolvedTarget {
  config: TargetConfig;
  embedded: boolean;
  /** The run started the target (embedded server or --image container): profile full and bookings by default. */
  runOwned?: boolean;
  /** What the run started, for its header (e.g. the image and container). */
  description?: string;
  /** Stops what the runner started (the embedded server, the container); a no-op for a URL target. */
  stop(): Promise<void>;
}

/**
 * The target config of a URL target: the --config file, with --target's URL as the base URL. Without --target the
 * file's baseUrl is the target. A URL target without a config has no credentials, so nothing could be judged.
 */
export function loadUrlTarget(
  spec: Extract<TargetSpec, { kind: 'url' }> | undefined,
  configFile: string | undefined,
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): TargetConfig {
  if (configFile === undefined) {
    throw new CertifyError(
      `--target ${spec?.baseUrl ?? ''} needs --config FILE: the target config with its base URL and client credentials (shape: fixtures/reference-target.json; "$ENV_NAME" values are read from the environment)`,
    );
  }
  let config: TargetConfig;
  try {
    const read = readTargetConfig(configFile, env);
    for (const warning of read.warnings) warn(warning);
    config = read.config;
  } catch (error) {
    if (error instanceof HarnessConfigError) throw new CertifyError(`--config: ${error.message}`);
    throw error;
  }
  if (spec && spec.baseUrl !== config.baseUrl) {
    warn(`--target ${spec.baseUrl} is used; the config file's baseUrl ${config.baseUrl} is ignored`);
    config = { ...config, baseUrl: spec.baseUrl };
  }
  if (Object.keys(config.clients).length === 0) {
    warn('the target config names no clients: only anonymous checks can run; the others are not-applicable');
  }
  return config;
}

/** Stores and settings of the embedded target (--embedded-database, -redis, -faults, -rate-limit). */
export interface EmbeddedStores {
  databaseUrl?: string;
  redisUrl?: string;
  /** Named faults or benign variants the embedded reference starts with (its FAULTS; the mutation harness). */
  faults?: string[];
  /**
   * Business calls a minute for each ordinary client (its RATE_LIMIT_PER_MINUTE). Default: the embedded target's
   * EMBEDDED_RATE_LIMIT_PER_MINUTE (60,000, raised for speed: the suite's own traffic; a real service limits near 600).
   */
  rateLimitPerMinute?: number;
}

/** Validates the store URLs without echoing them (they may carry passwords). */
export function parseEmbeddedStores(stores: EmbeddedStores): EmbeddedStores {
  const out: EmbeddedStores = {};
  if (stores.databaseUrl !== undefined) {
    if (!/^(postgres(ql)?:\/\/|sqlite:)/.test(stores.databaseUrl)) {
      throw new CertifyError('--embedded-database must be a postgres:// (or postgresql://) or sqlite: URL');
    }
    out.databaseUrl = stores.databaseUrl;
  }
  if (stores.redisUrl !== undefined) {
    if (!/^rediss?:\/\//.test(stores.redisUrl)) throw new CertifyError('--embedded-redis must be a redis:// URL');
    out.redisUrl = stores.redisUrl;
  }
  if (stores.faults !== undefined) {
    const bad = stores.faults.filter((name) => !/^[a-z0-9][A-Za-z0-9-]{1,80}$/.test(name));
    if (bad.length > 0) throw new CertifyError(`--embedded-faults: not fault names: ${bad.join(', ')}`);
    if (stores.faults.length > 0) out.faults = [...stores.faults];
  }
  if (stores.rateLimitPerMinute !== undefined) {
    out.rateLimitPerMinute = parseEmbeddedRateLimit(stores.rateLimitPerMinute);
  }
  return out;
}

export async function resolveTarget(
  spec: TargetSpec | undefined,
  configFile: string | undefined,
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void,
  stores?: EmbeddedStores,
  image?: ImageSpec,
  signal?: AbortSignal,
): Promise<ResolvedTarget> {
  if (image) return resolveImageTarget(image, spec, configFile, env, warn, stores, signal);
  if (spec?.kind === 'embedded' || (spec === undefined && configFile === undefined)) {
    if (configFile !== undefined) {
      throw new CertifyError(
        '--config applies to a URL target; the embedded target brings its own credentials (pass --target URL)',
      );
    }
    let started: Awaited<ReturnType<typeof startEmbeddedTarget>>;
    try {
      const storeEnv: Record<string, string> = {};
      if (stores?.databaseUrl) storeEnv.DATABASE_URL = stores.databaseUrl;
      if (stores?.redisUrl) {
        storeEnv.REDIS_URL = stores.redisUrl;
        // A prefix of this run's own: its rate-limit windows never meet another run's.
        storeEnv.REDIS_KEY_PREFIX = `partner-cert:${randomBytes(6).toString('hex')}:`;
      }
      if (stores?.faults) storeEnv.FAULTS = stores.faults.join(',');
      started = await startEmbeddedTarget({
        env: storeEnv,
        ...(stores?.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: stores.rateLimitPerMinute } : {}),
      });
    } catch (error) {
      throw new CertifyError(`the embedded reference implementation did not start: ${(error as Error).message}`);
    }
    return { config: started.config, embedded: true, runOwned: true, stop: () => started.stop() };
  }
  if (stores?.databaseUrl || stores?.redisUrl || stores?.faults || stores?.rateLimitPerMinute !== undefined) {
    throw new CertifyError(
      '--embedded-database, --embedded-redis, --embedded-faults and --embedded-rate-limit apply to the embedded target only',
    );
  }
  const config = loadUrlTarget(spec?.kind === 'url' ? spec : undefined, configFile, env, warn);
  return { config, embedded: false, stop: async () => {} };
}

/** --image: the container is started here and removed by stop(); --target and the embedded stores do not apply. */
async function resolveImageTarget(
  image: ImageSpec,
  spec: TargetSpec | undefined,
  configFile: string | undefined,
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void,
  stores: EmbeddedStores | undefined,
  signal: AbortSignal | undefined,
): Promise<ResolvedTarget> {
  if (spec) throw new CertifyError('--image and --target name two targets: pass one');
  if (stores?.databaseUrl || stores?.redisUrl) {
    throw new CertifyError('--embedded-database and --embedded-redis apply to the embedded target only');
  }
  if (stores?.rateLimitPerMinute !== undefined) {
    throw new CertifyError(
      '--embedded-rate-limit applies to the embedded target only; give an image its limit with --image-env RATE_LIMIT_PER_MINUTE=N',
    );
  }
  const { ImageTargetError, startImageTarget } = await import('../target/image.ts');
  try {
    const started = await startImageTarget(image, {
      env,
      warn,
      ...(configFile !== undefined ? { configFile } : {}),
      ...(signal ? { signal } : {}),
    });
    return {
      config: started.config,
      embedded: false,
      runOwned: true,
      description: started.description,
      stop: () => started.stop(),
    };
  } catch (error) {
    if (error instanceof ImageTargetError) throw new CertifyError(error.message);
    throw error;
  }
}
