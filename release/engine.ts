/**
 * What the release tests need of a container engine: whether one answers, and the reference image built from this
 * checkout's Dockerfile. Builds go through the engine's CLI (CONTAINER_CLI, default docker; podman takes the same
 * arguments): testcontainers' image builder cannot give the build host networking, which npm needs where the engine
 * has no bridge network.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { getContainerRuntimeClient } from 'testcontainers';
import { RUN_CONTAINER_LABEL } from '../harness/target/image.ts';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const CLI = process.env.CONTAINER_CLI ?? 'docker';
export const REFERENCE_IMAGE = process.env.PARTNER_API_TEST_IMAGE ?? 'partner-api-reference:test';
/** Local bases of release/local-base.sh, used when present (no registry here); the Dockerfile's defaults otherwise. */
export const LOCAL_BASES = { runtime: 'partner-api-node:20-local', build: 'partner-api-node:20-local-build' } as const;

// As the harness does for host networking (harness/target/image.ts), and Ryuk is a registry image.
process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';

/** Undefined when an engine answers; otherwise why not, for the skip message. */
export async function engineUnavailable(): Promise<string | undefined> {
  try {
    const client = await getContainerRuntimeClient();
    await client.container.list();
    return undefined;
  } catch (error) {
    return `no container engine answers (${String((error as Error)?.message ?? error).split('\n')[0]}); start dockerd or Podman, or set DOCKER_HOST (.ci/run starts dockerd)`;
  }
}

/** When .ci/run asks for it, a missing engine fails the tests instead of skipping them. */
export const ENGINE_REQUIRED = process.env.PARTNER_API_REQUIRE_ENGINE === '1';

function imagePresent(name: string): boolean {
  return spawnSync(CLI, ['image', 'inspect', name], { stdio: 'ignore' }).status === 0;
}

/** Builds the reference image; the local bases when present (or PARTNER_API_BASE_IMAGE/…_BUILD_BASE_IMAGE). */
export function buildReferenceImage(version: string): { baseArgs: string[]; output: string } {
  const runtime = process.env.PARTNER_API_BASE_IMAGE ?? (imagePresent(LOCAL_BASES.runtime) ? LOCAL_BASES.runtime : '');
  const build = process.env.PARTNER_API_BUILD_BASE_IMAGE ?? (imagePresent(LOCAL_BASES.build) ? LOCAL_BASES.build : '');
  const baseArgs = [
    ...(runtime ? ['--build-arg', `BASE_IMAGE=${runtime}`] : []),
    ...(build ? ['--build-arg', `BUILD_BASE_IMAGE=${build}`] : []),
  ];
  const output = execFileSync(
    CLI,
    ['build', '--network', 'host', ...baseArgs, '--build-arg', `VERSION=${version}`, '-t', REFERENCE_IMAGE, ROOT],
    // The classic builder: Debian's docker.io has no buildx plugin, and it takes --network host as it is.
    { encoding: 'utf8', env: { ...process.env, DOCKER_BUILDKIT: '0' }, maxBuffer: 64 * 1024 * 1024, timeout: 900_000 },
  );
  return { baseArgs, output };
}

/** Containers a certification run started (by the harness's label), running or not. */
export function runContainers(): string[] {
  return execFileSync(CLI, ['ps', '-a', '-q', '--filter', `label=${RUN_CONTAINER_LABEL}`], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}
