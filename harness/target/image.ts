import { createServer } from 'node:net';
import {
  DEFAULT_HOOKS_PATH,
  HarnessConfigError,
  readTargetConfig,
  type TargetConfig,
} from '../config/target-config.ts';
import { guardContainer } from './container-exit-guard.ts';
import { EMBEDDED_RATE_LIMIT_PER_MINUTE, referenceFixtureConfig } from './embedded.ts';
import { IMAGE_LABELS, type ImageSpec } from './image-options.ts';
import { NotReadyError, waitUntilReady } from './readiness.ts';

/**
 * `--image NAME[:TAG]`: a container image started for this run through testcontainers, judged like any URL target,
 * and removed at the end whatever happens (a failed start, a failed run, Ctrl-C; a second Ctrl-C too, through the
 * exit guard). The run owns the container, so profile full is allowed, as for the embedded target.
 */
export interface ImageTarget {
  config: TargetConfig;
  containerId: string;
  /** One line for the run's header: image, container, address. */
  description: string;
  /** Stops and removes the container and its anonymous volumes (idempotent). */
  stop(): Promise<void>;
}

export interface ImageTargetOptions {
  /** --config: credentials for the image's server; without it, only the reference image (its fixtures) can run. */
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
  /** Ctrl-C while the container starts: it is removed and the start fails. */
  signal?: AbortSignal;
  /** Progress lines (image start, readiness). */
  log?: (message: string) => void;
}

/** A problem the user can act on (engine missing, image missing, not ready); the message names no secret. */
export class ImageTargetError extends Error {
  override readonly name = 'ImageTargetError';
}

/** Labels set on every container a run starts, so a leftover can be found: `docker ps -a --filter label=…`. */
export const RUN_CONTAINER_LABEL = 'io.partner-api.certification-run';

export async function startImageTarget(spec: ImageSpec, options: ImageTargetOptions = {}): Promise<ImageTarget> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  // Loaded on demand: runs without --image never pay for the container client.
  const { GenericContainer, getContainerRuntimeClient, ImageName } = await import('testcontainers');
  const client = await connectEngine(getContainerRuntimeClient, spec);
  const labels = await imageLabels(client, ImageName.fromString(spec.image), spec.image);
  const reference = labels[IMAGE_LABELS.reference] === 'true';
  const baseConfig = targetConfigFor(spec, reference, options.configFile, env, options.warn);
  const readyPath = spec.readyPath ?? labels[IMAGE_LABELS.readyPath];
  const { containerEnv, port } = await containerEnvironment(spec, reference);
  const { started, id, disarm } = await startContainer(GenericContainer, spec, containerEnv, log);
  const stop = containerStopper(started, client, id, disarm);
  const { baseUrl, mappedPort } = containerAddress(spec, started, port, baseConfig);
  await waitForContainer(client, spec, { id, baseUrl, mappedPort, readyPath, stop }, options.signal, log);
  const config: TargetConfig = baseConfig
    ? { ...baseConfig, baseUrl, owned: true }
    : // The reference image's fixtures: its clients, probes and test-hooks token (the image's defaults).
      withHooksAt(referenceFixtureConfig(), baseUrl);
  return {
    config,
    containerId: id,
    description: `image ${spec.image}, container ${id.slice(0, 12)} (${spec.network} network) at ${baseUrl}`,
    stop,
  };
}

type Testcontainers = typeof import('testcontainers');
type EngineClient = Awaited<ReturnType<Testcontainers['getContainerRuntimeClient']>>;
type StartedContainer = Awaited<ReturnType<InstanceType<Testcontainers['GenericContainer']>['start']>>;

async function connectEngine(
  getContainerRuntimeClient: Testcontainers['getContainerRuntimeClient'],
  spec: ImageSpec,
): Promise<EngineClient> {
  // testcontainers looks up the address containers are reached at when it finds itself inside a container (a
  // gateway of the engine's bridge network, which an engine without one lacks). A host-networked container is
  // reached on loopback, so that lookup is moot: answer it.
  if (spec.network === 'host') process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
  try {
    return await getContainerRuntimeClient();
  } catch (error) {
    throw new ImageTargetError(
      `no container engine answers (${firstLine(error)}). Start Docker or Podman, or point DOCKER_HOST at one (README "Certifying a container image")`,
    );
  }
}

async function containerEnvironment(
  spec: ImageSpec,
  reference: boolean,
): Promise<{ containerEnv: Record<string, string>; port: number }> {
  const containerEnv: Record<string, string> = {};
  let port = spec.port;
  if (spec.network === 'host') {
    if (port === 0) port = await freePort();
    else await assertPortFree(port);
    // With host networking the container's port is this machine's: the server must listen where we look.
    containerEnv.PORT = String(port);
    // The reference image listens on 0.0.0.0 for published ports; sharing this machine's network, loopback is enough.
    if (reference) containerEnv.HOST = '127.0.0.1';
  }
  // The reference image limits its ordinary clients as a real service does (600 calls a minute); a run of the suite
  // against it gets the embedded target's raised ceiling, as `--target embedded` does (--image-env overrides it).
  if (reference) containerEnv.RATE_LIMIT_PER_MINUTE = String(EMBEDDED_RATE_LIMIT_PER_MINUTE);
  Object.assign(containerEnv, spec.env);
  return { containerEnv, port };
}

/** `disarm` lifts the exit guard that removes the container should the process end before `stop` does. */
async function startContainer(
  GenericContainer: Testcontainers['GenericContainer'],
  spec: ImageSpec,
  containerEnv: Record<string, string>,
  log: (message: string) => void,
): Promise<{ started: StartedContainer; id: string; disarm: () => void }> {
  let containerId: string | undefined;
  let disarm = () => {};
  // containerCreated is testcontainers' hook between create and start: from here on the container is ours to remove.
  class RunContainer extends GenericContainer {
    protected override async containerCreated(id: string): Promise<void> {
      containerId = id;
      disarm = guardContainer(id);
    }
  }
  const container = new RunContainer(spec.image)
    .withEnvironment(containerEnv)
    .withLabels({ [RUN_CONTAINER_LABEL]: String(process.pid) })
    // Never reused: each run judges a fresh container (and a fresh /data volume).
    .withAutoRemove(true);
  if (spec.network === 'host') container.withNetworkMode('host');
  else container.withExposedPorts(spec.port);

  log(`image: starting ${spec.image} (${spec.network} network)`);
  let started: StartedContainer;
  try {
    started = await container.start();
  } catch (error) {
    disarm();
    throw new ImageTargetError(`the container of ${spec.image} did not start: ${firstLine(error)}`);
  }
  return { started, id: containerId ?? started.getId(), disarm };
}

/** Stops and removes the container and its anonymous volumes, once however often it is called. */
function containerStopper(
  started: StartedContainer,
  client: EngineClient,
  id: string,
  disarm: () => void,
): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= started
      .stop({ remove: true, removeVolumes: true, timeout: 5_000 })
      .then(
        () => undefined,
        async (error) => {
          // Already gone (exited and removed) is fine; anything else: one more try without the graceful stop.
          if (/no such container|404/i.test(String(error))) return;
          await client.container.remove(client.container.getById(id), { removeVolumes: true });
        },
      )
      .finally(disarm);
    return stopping;
  };
}

function containerAddress(
  spec: ImageSpec,
  started: StartedContainer,
  port: number,
  baseConfig: TargetConfig | undefined,
): { baseUrl: string; mappedPort: number } {
  const host = spec.network === 'host' ? '127.0.0.1' : started.getHost();
  const mappedPort = spec.network === 'host' ? port : started.getMappedPort(spec.port);
  const scheme = baseConfig?.baseUrl.startsWith('https:') ? 'https' : 'http';
  return { baseUrl: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${mappedPort}`, mappedPort };
}

async function waitForContainer(
  client: EngineClient,
  spec: ImageSpec,
  container: { id: string; baseUrl: string; mappedPort: number; readyPath: string | undefined; stop(): Promise<void> },
  signal: AbortSignal | undefined,
  log: (message: string) => void,
): Promise<void> {
  const { id, baseUrl, mappedPort, readyPath, stop } = container;
  try {
    log(`image: container ${id.slice(0, 12)} waiting for ${readyPath ? `GET ${readyPath}` : `port ${mappedPort}`}`);
    await waitUntilReady({
      baseUrl,
      ...(readyPath ? { path: readyPath } : {}),
      timeoutMs: spec.startTimeoutMs,
      ...(signal ? { signal } : {}),
      gone: async () => {
        const state = (await client.container.inspect(client.container.getById(id)).catch(() => undefined))?.State;
        return state && !state.Running ? `the container exited (${state.ExitCode})` : undefined;
      },
    });
  } catch (error) {
    if (signal?.aborted) {
      await stop().catch(() => {});
      throw new ImageTargetError(`interrupted while ${spec.image} started; its container was removed`);
    }
    const logs = await containerLogTail(client, id, Object.values(spec.env));
    await stop().catch(() => {});
    const why = error instanceof NotReadyError ? error.message : firstLine(error);
    throw new ImageTargetError(
      `${spec.image} did not become ready: ${why}${logs ? `\ncontainer log (last lines):\n${logs}` : ''}`,
    );
  }
}

function withHooksAt(fixture: TargetConfig, baseUrl: string): TargetConfig {
  const { tls: _tls, ...rest } = fixture;
  const hooks = fixture.hooks ? { hooks: { ...fixture.hooks, baseUrl: `${baseUrl}${DEFAULT_HOOKS_PATH}` } } : {};
  return { ...rest, baseUrl, owned: true, ...hooks };
}

/** --config when given; otherwise the reference image's fixtures; otherwise nothing could be judged. */
function targetConfigFor(
  spec: ImageSpec,
  reference: boolean,
  configFile: string | undefined,
  env: NodeJS.ProcessEnv,
  warn: ((message: string) => void) | undefined,
): TargetConfig | undefined {
  if (configFile !== undefined) {
    try {
      const read = readTargetConfig(configFile, env);
      for (const warning of read.warnings) warn?.(warning);
      return read.config;
    } catch (error) {
      if (error instanceof HarnessConfigError) throw new ImageTargetError(`--config: ${error.message}`);
      throw error;
    }
  }
  if (!reference) {
    throw new ImageTargetError(
      `--image ${spec.image} needs --config FILE with its clients' credentials (only the reference implementation's image, labelled ${IMAGE_LABELS.reference}=true, brings its own)`,
    );
  }
  return undefined;
}

async function imageLabels(
  client: EngineClient,
  name: import('testcontainers').ImageName,
  text: string,
): Promise<Record<string, string>> {
  try {
    if (!(await client.image.exists(name))) await client.image.pull(name);
    return (await client.image.inspect(name)).Config?.Labels ?? {};
  } catch (error) {
    throw new ImageTargetError(
      `image ${text} is not on this engine and could not be pulled (${firstLine(error)}); build or load it first`,
    );
  }
}

async function containerLogTail(client: EngineClient, id: string, secrets: string[]): Promise<string> {
  try {
    // testcontainers follows the log (the stream ends with the container): take what comes within a second.
    const stream = await client.container.logs(client.container.getById(id), { tail: 30 });
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1_000);
      stream.on('data', (chunk: Buffer | string) => chunks.push(Buffer.from(chunk)));
      stream.once('end', () => resolve());
      stream.once('error', () => resolve());
      stream.once('close', () => clearTimeout(timer));
    });
    stream.destroy();
    let text = Buffer.concat(chunks).toString('utf8');
    // The container's environment came from the user and may hold secrets; a log line could echo one.
    for (const secret of secrets.filter((s) => s.length >= 4)) text = text.replaceAll(secret, '[redacted]');
    return text.trim().split('\n').slice(-30).join('\n');
  } catch {
    return '';
  }
}

/** A port of this machine nothing listens on now (the container takes it right after). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Host networking: the container would fail to listen, or worse, the run would judge whatever holds the port. */
function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', () =>
      reject(
        new ImageTargetError(
          `port ${port} of this machine is taken, and a host-networked container listens on it: pass --image-port with a free port (0: any free port; the image must honour PORT)`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0] ?? '';
}
