/**
 * The bench's baseline: a bare node:http server answering each route with fixed bytes (status, headers and body
 * captured from the reference implementation). Run as a child process: reads the routes as JSON from the file named
 * by BARE_ROUTES, listens on a free loopback port and prints `listening <port>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BareRoute {
  status: number;
  headers: Record<string, string>;
  /** base64 */
  body: string;
}

const routes = JSON.parse(readFileSync(process.env.BARE_ROUTES ?? '', 'utf8')) as Record<string, BareRoute>;
const prepared = new Map(
  Object.entries(routes).map(([key, route]) => [key, { ...route, bytes: Buffer.from(route.body, 'base64') }]),
);

const server = createServer((req, res) => {
  // Read the request body as a real server must, then answer the same bytes for every request of the route.
  req.resume();
  req.on('end', () => {
    const route = prepared.get(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(route.status, { ...route.headers, 'content-length': String(route.bytes.length) });
    res.end(route.bytes);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
