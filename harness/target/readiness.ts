import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';

/**
 * Waits until a started server answers: GET `path` returns 200, or (without a path) its port accepts a connection.
 * Hand-written rather than testcontainers' Wait.forHttp / forListeningPorts: those find the port through the
 * engine's port mapping, which a host-networked container has none of, and a Ctrl-C cannot cancel them.
 */
export interface ReadinessOptions {
  /** http(s)://host:port of the server. */
  baseUrl: string;
  path?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Why the server can no longer become ready (its container exited), or undefined while it may. */
  gone?: () => Promise<string | undefined>;
  intervalMs?: number;
}

export class NotReadyError extends Error {
  override readonly name = 'NotReadyError';
}

export async function waitUntilReady(options: ReadinessOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const url = new URL(options.baseUrl);
  let last = 'no answer yet';
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw new NotReadyError('interrupted while waiting for the server to be ready');
    last = options.path === undefined ? await probePort(url) : await probeHttp(url, options.path);
    if (last === 'ready') return;
    // Asking the engine costs more than a probe: every fourth attempt.
    if (options.gone && attempt % 4 === 0) {
      const reason = await options.gone();
      if (reason) throw new NotReadyError(reason);
    }
    if (Date.now() > deadline) {
      throw new NotReadyError(`not ready within ${Math.round(options.timeoutMs / 1000)} s (last probe: ${last})`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
  }
}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

function probePort(url: URL): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: defaultPort(url), timeout: 2_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve('ready');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(`connecting to port ${defaultPort(url)} timed out`);
    });
    socket.once('error', (error: NodeJS.ErrnoException) =>
      resolve(`port ${defaultPort(url)}: ${error.code ?? error.message}`),
    );
  });
}

function probeHttp(url: URL, path: string): Promise<string> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(
      // Certificate checks belong to the certification (spec 5.7); this probe only asks whether the server is up.
      { host: url.hostname, port: defaultPort(url), path, method: 'GET', timeout: 2_000, rejectUnauthorized: false },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200 ? 'ready' : `GET ${path}: ${res.statusCode}`);
      },
    );
    req.once('timeout', () => req.destroy(new Error('timed out')));
    req.once('error', (error: NodeJS.ErrnoException) => resolve(`GET ${path}: ${error.code ?? error.message}`));
    req.end();
  });
}
