import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * The last line of defence for a container the run started: if the process exits before the run removed it (a
 * second Ctrl-C, an uncaught error, process.exit), remove it on the way out. Testcontainers' own reaper (Ryuk) is a
 * container from a registry, unavailable where none is reachable (TESTCONTAINERS_RYUK_DISABLED=true), so the run
 * cleans up after itself. An 'exit' listener may only do synchronous work, hence a short child process that asks the
 * engine through testcontainers' client (the same engine, Docker or Podman, the container was started on).
 */
const TESTCONTAINERS = createRequire(import.meta.url).resolve('testcontainers');

const REMOVE_SCRIPT = `
const { getContainerRuntimeClient } = require(process.env.PARTNER_CERT_TESTCONTAINERS);
getContainerRuntimeClient()
  .then(async (client) => {
    const container = client.container.getById(process.env.PARTNER_CERT_CONTAINER);
    await client.container.stop(container, { timeout: 0 }).catch(() => {});
    await client.container.remove(container, { removeVolumes: true });
  })
  .catch(() => process.exit(1));
`;

/** Removes the container synchronously (at most `timeoutMs`); true when the engine confirmed it. */
export function removeContainerNow(containerId: string, timeoutMs = 20_000): boolean {
  const result = spawnSync(process.execPath, ['-e', REMOVE_SCRIPT], {
    env: { ...process.env, PARTNER_CERT_TESTCONTAINERS: TESTCONTAINERS, PARTNER_CERT_CONTAINER: containerId },
    stdio: 'ignore',
    timeout: timeoutMs,
  });
  return result.status === 0;
}

/** Arms the guard for one container; the returned function disarms it once the container is gone. */
export function guardContainer(containerId: string): () => void {
  const onExit = () => {
    if (!removeContainerNow(containerId)) {
      process.stderr.write(`warning: container ${containerId.slice(0, 12)} could not be removed; remove it yourself\n`);
    }
  };
  process.once('exit', onExit);
  return () => process.off('exit', onExit);
}
