/**
 * The --image options of partner-api-certify and partner-api-load, checked before any engine is asked: a container
 * image to start (through testcontainers), its environment, the port it listens on and how to know it is ready.
 */

export type ImageNetwork = 'host' | 'bridge';

export interface ImageSpec {
  /** NAME[:TAG] or NAME@sha256:…, as the engine knows it. */
  image: string;
  /** Environment of the container (never printed: values may be secrets). */
  env: Record<string, string>;
  /**
   * The port the server in the container listens on (default 8080). With host networking it is a port of this
   * machine, so the harness passes it as PORT; 0 lets the harness pick a free one.
   */
  port: number;
  /** An HTTP path answering 200 when the server is ready; default: the image's io.partner-api.ready-path label. */
  readyPath?: string;
  /**
   * host (default): the container shares this machine's network and is reached on 127.0.0.1, no address of a
   * container network is ever a target. bridge: the port is published and reached where the engine maps it.
   */
  network: ImageNetwork;
  /** How long the container may take to be ready. */
  startTimeoutMs: number;
}

/** The raw flags, as commander hands them over. */
export interface ImageFlags {
  image?: string;
  imageEnv?: string[];
  imagePort?: string;
  imageReady?: string;
  imageNetwork?: string;
}

export class ImageOptionError extends Error {
  override readonly name = 'ImageOptionError';
}

export const DEFAULT_IMAGE_PORT = 8080;
export const DEFAULT_IMAGE_START_TIMEOUT_MS = 120_000;

/** Labels of the reference implementation's image (Dockerfile), read when --config and --image-ready are absent. */
export const IMAGE_LABELS = {
  reference: 'io.partner-api.reference',
  readyPath: 'io.partner-api.ready-path',
} as const;

// A Docker image reference: [registry[:port]/]path[:tag][@digest]. Loose on purpose (the engine has the last word);
// it only keeps out what could never be one (spaces, options, shell syntax).
const IMAGE_REFERENCE =
  /^[A-Za-z0-9][A-Za-z0-9._-]*(?::[0-9]+)?(?:\/[A-Za-z0-9._-]+)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Options that only make sense with --image. */
const IMAGE_ONLY_FLAGS: [keyof ImageFlags, string][] = [
  ['imageEnv', '--image-env'],
  ['imagePort', '--image-port'],
  ['imageReady', '--image-ready'],
  ['imageNetwork', '--image-network'],
];

/**
 * Checks the --image flags; undefined without --image. `--image-env NAME` (no `=`) passes NAME's value from this
 * process's environment, so a secret need not appear on the command line.
 */
export function parseImageFlags(flags: ImageFlags, env: NodeJS.ProcessEnv): ImageSpec | undefined {
  if (flags.image === undefined) {
    const stray = IMAGE_ONLY_FLAGS.find(([key]) => flags[key] !== undefined);
    if (stray) throw new ImageOptionError(`${stray[1]} applies to --image only`);
    return undefined;
  }
  const image = flags.image.trim();
  if (!IMAGE_REFERENCE.test(image) || image.length > 255) {
    throw new ImageOptionError(`--image: "${image}" is not an image reference (expected NAME[:TAG] or NAME@sha256:…)`);
  }
  const spec: ImageSpec = {
    image,
    env: parseImageEnv(flags.imageEnv ?? [], env),
    port: flags.imagePort === undefined ? DEFAULT_IMAGE_PORT : parsePort(flags.imagePort),
    network: parseNetwork(flags.imageNetwork ?? 'host'),
    startTimeoutMs: DEFAULT_IMAGE_START_TIMEOUT_MS,
  };
  if (flags.imageReady !== undefined) spec.readyPath = parseReadyPath(flags.imageReady);
  if (spec.network === 'bridge' && spec.port === 0) {
    throw new ImageOptionError('--image-port 0 (a free port of this machine) needs --image-network host');
  }
  return spec;
}

function parseImageEnv(items: readonly string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    const name = eq === -1 ? item : item.slice(0, eq);
    // Only the name is ever echoed: the value may be a secret.
    if (!ENV_NAME.test(name)) throw new ImageOptionError(`--image-env: "${name}" is not a variable name (K=V or K)`);
    if (eq === -1) {
      const inherited = env[name];
      if (inherited === undefined) {
        throw new ImageOptionError(
          `--image-env ${name}: ${name} is not set in this environment (or pass ${name}=VALUE)`,
        );
      }
      out[name] = inherited;
    } else {
      out[name] = item.slice(eq + 1);
    }
  }
  return out;
}

function parsePort(value: string): number {
  const text = value.trim();
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65_535)) {
    throw new ImageOptionError(`--image-port: expected a port from 1 to 65535 (or 0: a free one), got "${text}"`);
  }
  return port;
}

function parseNetwork(value: string): ImageNetwork {
  if (value === 'host' || value === 'bridge') return value;
  throw new ImageOptionError(`--image-network: expected host or bridge, got "${value}"`);
}

function parseReadyPath(value: string): string {
  const text = value.trim();
  if (!/^\/[\x21-\x7e]*$/.test(text)) {
    throw new ImageOptionError(`--image-ready: expected an HTTP path starting with /, got "${text}"`);
  }
  return text;
}
