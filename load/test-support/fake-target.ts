import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_PREFIX } from '../../contract/constants.ts';
import type { LoadTarget } from '../engine-neutral/model.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface FakeTarget {
  target: LoadTarget;
  url: string;
  close(): Promise<void>;
}

/** A tiny HTTP server with hand-written behaviour, for engine tests (a target the harness has never seen). */
export async function startFakeTarget(handler: Handler, host = '127.0.0.1'): Promise<FakeTarget> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    target: {
      baseUrl: url,
      clients: {
        rateLimit: { clientId: 'rl-client', clientSecret: 'rl-secret-value' },
        partnerA: { clientId: 'pa-client', clientSecret: 'pa-secret-value' },
      },
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Answers the token endpoint with a token and everything else with `business`. */
export function withToken(business: Handler): Handler {
  return (req, res, body) => {
    if (req.url === `${API_PREFIX}/oauth/token`) {
      json(
        res,
        200,
        { access_token: 'token', token_type: 'Bearer', expires_in: 600, scope: '' },
        { 'cache-control': 'no-store' },
      );
      return;
    }
    business(req, res, body);
  };
}
