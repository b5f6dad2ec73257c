import { ImageTargetError, startImageTarget } from '../harness/target/image.ts';
import type { ImageSpec } from '../harness/target/image-options.ts';
import type { ResolvedLoadTarget } from './target.ts';
import { CEILINGS_WARNING, LoadUsageError, readConfigCeilings } from './target.ts';

/**
 * `partner-api-load <scenario> --image NAME`: a fresh container of the image per scenario, as the embedded target is
 * a fresh server per scenario. The scenario's server settings for the embedded reference (its embeddedEnv) go into
 * the container's environment, under the user's own --image-env.
 */
export async function resolveLoadImageTarget(
  image: ImageSpec,
  configFile: string | undefined,
  embeddedEnv: Record<string, string> | undefined,
  warn: (message: string) => void,
  signal?: AbortSignal,
): Promise<ResolvedLoadTarget> {
  // Read before the container starts: a malformed key is a usage error, with nothing to stop.
  const ceilings = configFile !== undefined ? readConfigCeilings(configFile) : undefined;
  const warnOthers = (message: string) => {
    if (!CEILINGS_WARNING.test(message)) warn(message);
  };
  try {
    const started = await startImageTarget(
      { ...image, env: { ...embeddedEnv, ...image.env } },
      { warn: warnOthers, ...(configFile !== undefined ? { configFile } : {}), ...(signal ? { signal } : {}) },
    );
    return {
      target: ceilings ? { ...started.config, ceilings } : started.config,
      embedded: false,
      stop: () => started.stop(),
    };
  } catch (error) {
    if (error instanceof ImageTargetError) throw new LoadUsageError(error.message);
    throw error;
  }
}
