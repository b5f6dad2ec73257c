import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_PREFIX } from '../../../contract/constants.ts';

/** One request as the broken server received it (no headers: tokens differ between runs). */
export interface LoggedRequest {
  method: string;
  url: string;
  contentType: string | null;
  body: string;
}

export interface BrokenServer {
  baseUrl: string;
  /** Every request received since the last clearLog(), in arrival order. */
  log: LoggedRequest[];
  clearLog(): void;
  close(): Promise<void>;
}

/**
 * A deliberately non-conforming Partner API for the runner's tests. It issues tokens to anyone (correct-ish token
 * responses), then violates clauses the first suites judge:
 * - no X-Request-Id on any business response (4.0.2);
 * - error envelopes without requestId (7.2.1, 7.2.4);
 * - Accept ignored: always JSON, never 406 (4.13.1c) and never XML;
 * - no authentication on business calls at all.
 */
export async function startBrokenServer(): Promise<BrokenServer> {
  const log: LoggedRequest[] = [];
  let tokens = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      log.push({
        method: request.method ?? '',
        url: request.url ?? '',
        contentType: request.headers['content-type'] ?? null,
        body,
      });
      answer(request, body, response, () => ++tokens);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    log,
    clearLog: () => {
      log.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(request: IncomingMessage, body: string, response: ServerResponse, nextToken: () => number): void {
  const path = (request.url ?? '').split('?')[0] ?? '';
  const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(value));
  };
  if (request.method === 'POST' && path === `${API_PREFIX}/oauth/token`) {
    const scope = new URLSearchParams(body).get('scope') ?? 'fleet:read locations:read rates:read';
    json(
      200,
      { access_token: `broken-token-${nextToken()}`, token_type: 'Bearer', expires_in: 600, scope },
      { 'cache-control': 'no-store' },
    );
    return;
  }
  const lists: Record<string, unknown> = {
    [`${API_PREFIX}/fleet`]: { vehicles: [], count: 0 },
    [`${API_PREFIX}/locations`]: { locations: [], count: 0 },
    [`${API_PREFIX}/rates`]: { rates: [], count: 0 },
  };
  const list = request.method === 'GET' ? lists[path] : undefined;
  if (list) json(200, list);
  else json(404, { error: { code: 'NOT_FOUND', message: 'nothing here', retryable: false } });
}
