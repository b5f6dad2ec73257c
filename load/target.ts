import { HarnessConfigError, readTargetConfig } from '../harness/config/target-config.ts';
import { type EmbeddedTarget, startEmbeddedTarget } from '../harness/target/embedded.ts';
import type { LoadTarget } from './engine-neutral/model.ts';

/** A usage or configuration problem: the CLI prints it and exits 2. */
export class LoadUsageError extends Error {
  override readonly name = 'LoadUsageError';
}

export interface ResolvedLoadTarget {
  target: LoadTarget;
  embedded: boolean;
  /** Stops the embedded server; a no-op for a URL target. */
  stop(): Promise<void>;
}

/**
 * The load target of a reference implementation the harness started itself. Its operator API (its clock,
 * /control/v1) shares the hooks' secret, so a scenario may use it for fresh rate-limit windows; without it a run
 * starts mid-window and may straddle two.
 */
export function embeddedLoadTarget(config: EmbeddedTarget['config']): LoadTarget {
  const token = config.hooks?.token;
  return token ? { ...config, control: { baseUrl: config.baseUrl, token } } : config;
}

/**
 * `--target embedded` (default): a fresh reference implementation for this scenario, started with the scenario's
 * server environment. `--target URL --config FILE` (or `--config FILE` alone): the file's credentials, the URL (or
 * the file's baseUrl) as the target.
 */
export async function resolveLoadTarget(
  targetOption: string | undefined,
  configFile: string | undefined,
  embeddedEnv: Record<string, string> | undefined,
  warn: (message: string) => void,
): Promise<ResolvedLoadTarget> {
  if (targetOption === undefined || targetOption === 'embedded') {
    if (configFile !== undefined && targetOption === 'embedded') {
      throw new LoadUsageError('--config applies to a URL target; the embedded target brings its own credentials');
    }
    if (configFile === undefined) {
      // Plain HTTP: a load run measures the service, and k6 has no way to trust the embedded target's own CA.
      const started = await startEmbeddedTarget({ transport: 'http', ...(embeddedEnv ? { env: embeddedEnv } : {}) });
      return { target: embeddedLoadTarget(started.config), embedded: true, stop: () => started.stop() };
    }
  }
  if (configFile === undefined) {
    throw new LoadUsageError(`--target ${targetOption} needs --config FILE with the target's client credentials`);
  }
  let target: LoadTarget;
  try {
    const read = readTargetConfig(configFile);
    for (const warning of read.warnings) warn(warning);
    target = read.config;
  } catch (error) {
    if (error instanceof HarnessConfigError) throw new LoadUsageError(`--config: ${error.message}`);
    throw error;
  }
  if (targetOption !== undefined && targetOption !== 'embedded') {
    if (!/^https?:\/\//i.test(targetOption)) throw new LoadUsageError(`--target must be embedded or an http(s) URL`);
    target = { ...target, baseUrl: targetOption.replace(/\/+$/, '') };
  }
  if (embeddedEnv) {
    warn(
      `this scenario is tuned for the embedded target (${Object.entries(embeddedEnv)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}); on another target set --rate from its limits`,
    );
  }
  return { target, embedded: false, stop: async () => {} };
}
