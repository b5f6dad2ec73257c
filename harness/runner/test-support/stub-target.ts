import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_PREFIX } from '../../../contract/constants.ts';

/**
 * A small Partner API stand-in for the runner's exit-code tests: a token endpoint that knows its clients' secrets
 * and scopes, GET lists, a log of what arrived, and a switch that makes it stop answering after N requests.
 */
export interface StubOptions {
  https?: boolean;
  /** clientId → secret and the scopes its token carries. */
  clients: Record<string, { secret: string; scope: string }>;
  /** After this many requests every connection is refused (the server closes). */
  answerRequests?: number;
}

export interface StubTarget {
  baseUrl: string;
  /** The certificate (https), for a config's tls.caFile. */
  certFile?: string;
  log: { method: string; url: string }[];
  close(): Promise<void>;
}

function selfSigned(dir: string): { cert: string; key: string; certFile: string } {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  // biome-ignore format: the openssl command line as one reads it
  const result = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore', timeout: 30_000 });
  if (result.status !== 0) throw new Error('openssl could not make a test certificate');
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
}

export async function startStubTarget(options: StubOptions): Promise<StubTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'stub-target-'));
  const log: StubTarget['log'] = [];
  const sockets = new Set<Socket>();
  let server: Server;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      log.push({ method: req.method ?? '', url: req.url ?? '' });
      if (options.answerRequests !== undefined && log.length >= options.answerRequests) {
        // Stop answering: this request and every later one find nobody.
        for (const socket of sockets) socket.destroy();
        server.close();
        return;
      }
      answer(req, body, res, options);
    });
  };
  let certFile: string | undefined;
  if (options.https) {
    const tls = selfSigned(dir);
    certFile = tls.certFile;
    server = createHttpsServer({ cert: tls.cert, key: tls.key }, handler);
  } else {
    server = createHttpServer(handler);
  }
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `${options.https ? 'https' : 'http'}://127.0.0.1:${port}`,
    ...(certFile ? { certFile } : {}),
    log,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function answer(req: IncomingMessage, body: string, res: ServerResponse, options: StubOptions): void {
  const json = (status: number, value: unknown) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': 'stub-1',
      'cache-control': 'no-store',
    });
    res.end(JSON.stringify(value));
  };
  const path = (req.url ?? '').split('?')[0] ?? '';
  if (req.method === 'POST' && path === `${API_PREFIX}/oauth/token`) {
    const form = new URLSearchParams(body);
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const [user = '', pass = ''] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      id = decodeURIComponent(user);
      secret = decodeURIComponent(pass);
    }
    const client = options.clients[id];
    if (!client || client.secret !== secret) {
      json(401, { error: 'invalid_client', error_description: 'Client authentication failed.' });
      return;
    }
    json(200, { access_token: `stub-token-${id}`, token_type: 'Bearer', expires_in: 600, scope: client.scope });
    return;
  }
  if (req.method === 'GET' && path.startsWith(API_PREFIX)) {
    json(200, { vehicles: [], locations: [], rates: [], count: 0 });
    return;
  }
  json(404, { error: { code: 'NOT_FOUND', message: 'nothing here', requestId: 'stub-1', retryable: false } });
}

/** A target config for the stub in `dir`, with the given roles (clientId = role). */
export function stubConfig(
  dir: string,
  baseUrl: string,
  roles: Record<string, string>,
  extra: Record<string, unknown> = {},
): string {
  const file = join(dir, `target-${Math.random().toString(36).slice(2)}.json`);
  const clients = Object.fromEntries(
    Object.entries(roles).map(([role, secret]) => [role, { clientId: role, clientSecret: secret }]),
  );
  writeFileSync(file, JSON.stringify({ baseUrl, clients, ...extra }));
  return file;
}
