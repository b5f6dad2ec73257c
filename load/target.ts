import { readFileSync } from 'node:fs';
import { resolveEnvReferences } from '../contract/target-env.ts';
import { HarnessConfigError, readTargetConfig } from '../harness/config/target-config.ts';
import { type EmbeddedTarget, startEmbeddedTarget } from '../harness/target/embedded.ts';
import type { LoadTarget, TargetCeilings } from './engine-neutral/model.ts';
import { parseTargetCeilings } from './engine-neutral/target-ceilings.ts';

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
export function embeddedLoadTarget(config: EmbeddedTarget['config'], env: Record<string, string> = {}): LoadTarget {
  const token = config.hooks?.token;
  const target: LoadTarget = token ? { ...config, control: { baseUrl: config.baseUrl, token } } : { ...config };
  const ceilings = embeddedCeilings(env);
  if (ceilings) target.ceilings = ceilings;
  return target;
}

/** The token ceilings the load run itself starts the reference with (its TOKEN_LIMIT_* a minute), if it sets them. */
function embeddedCeilings(env: Record<string, string>): TargetCeilings | undefined {
  const ceilings: TargetCeilings = {};
  const perClient = Number(env.TOKEN_LIMIT_PER_CLIENT);
  const perAddress = Number(env.TOKEN_LIMIT_PER_ADDRESS);
  if (Number.isInteger(perClient) && perClient > 0) ceilings.tokenPerClientPerMinute = perClient;
  if (Number.isInteger(perAddress) && perAddress > 0) ceilings.tokenPerAddressPerMinute = perAddress;
  return Object.keys(ceilings).length > 0 ? ceilings : undefined;
}

/**
 * The `ceilings` of a target config file (engine-neutral/target-ceilings.ts), a key the load room reads on its own:
 * the certify runner's config reader does not know it (it warns "unknown key ceilings ignored", which the load run
 * leaves out).
 */
export function readConfigCeilings(file: string, env: NodeJS.ProcessEnv = process.env): TargetCeilings | undefined {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
    const fail = (message: string): never => {
      throw new Error(message);
    };
    return parseTargetCeilings(resolveEnvReferences(raw?.ceilings, env, fail, 'ceilings'));
  } catch (error) {
    throw new LoadUsageError(`--config: ${file}: ${(error as Error).message}`);
  }
}

/** The certify config reader's warning about that key (harness/config/target-config.ts), left out by load runs. */
export const CEILINGS_WARNING = /: unknown key ceilings ignored$/;

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
      return { target: embeddedLoadTarget(started.config, embeddedEnv), embedded: true, stop: () => started.stop() };
    }
  }
  if (configFile === undefined) {
    throw new LoadUsageError(`--target ${targetOption} needs --config FILE with the target's client credentials`);
  }
  let target: LoadTarget;
  try {
    const read = readTargetConfig(configFile);
    for (const warning of read.warnings) if (!CEILINGS_WARNING.test(warning)) warn(warning);
    target = read.config;
  } catch (error) {
    if (error instanceof HarnessConfigError) throw new LoadUsageError(`--config: ${error.message}`);
    throw error;
  }
  const ceilings = readConfigCeilings(configFile);
  if (ceilings) target = { ...target, ceilings };
  if (targetOption !== undefined && targetOption !== 'embedded') {
    if (!/^https?:\/\//i.test(targetOption)) throw new LoadUsageError(`--target must be embedded or an http(s) URL`);
    target = { ...target, baseUrl: targetOption.replace(/\/+$/, '') };
  }
  if (embeddedEnv) {
    warn(
      `this scenario is tuned for the embedded target (${Object.entries(embeddedEnv)
        .map(([k, v]) => `${k}=${v}`)
        .join(
          ', ',
        )}); on another target set --rate from its limits and state them in the config's "ceilings" (a ceiling the run does not reach is not judged)`,
    );
  }
  return { target, embedded: false, stop: async () => {} };
}
