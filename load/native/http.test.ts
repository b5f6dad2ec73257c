import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dispatchers, send } from './http.ts';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/chunks') {
      // A body in several writes, one multi-byte character cut between two of them, after a byte-order mark.
      const bytes = Buffer.from('\uFEFF{"name":"Đà Nẵng"}', 'utf8');
      res.writeHead(200, { 'content-type': 'application/json', 'X-Repeated': ['a', 'b'] });
      res.flushHeaders();
      res.write(bytes.subarray(0, 13));
      setTimeout(() => res.end(bytes.subarray(13)), 20);
      return;
    }
    res.writeHead(204, { 'X-Empty': '' }).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.close();
});

describe('send', () => {
  it('reads headers (lower-case, repeated ones joined) and a body in pieces as UTF-8 without its byte-order mark', async () => {
    const dispatchers = new Dispatchers({ connections: 1, timeoutMs: 5_000 });
    try {
      const res = await send(dispatchers.shared(undefined), { method: 'GET', url: `${base}/chunks` });
      expect(res.status).toBe(200);
      expect(res.body).toBe('{"name":"Đà Nẵng"}');
      expect(res.headers['x-repeated']).toBe('a, b');
      expect(res.headers['content-type']).toBe('application/json');
      // What a report or a log writes of a response holds what scenario code reads.
      expect(JSON.parse(JSON.stringify(res))).toMatchObject({ status: 200, body: '{"name":"Đà Nẵng"}' });
    } finally {
      await dispatchers.close();
    }
  });

  it('answers an empty body as the empty string', async () => {
    const dispatchers = new Dispatchers({ connections: 1, timeoutMs: 5_000 });
    try {
      const res = await send(dispatchers.shared(undefined), { method: 'GET', url: `${base}/empty` });
      expect(res).toMatchObject({ status: 204, body: '' });
      expect(res.headers['x-empty']).toBe('');
    } finally {
      await dispatchers.close();
    }
  });

  it('turns a refused connection into status 0 with the error, never an exception', async () => {
    const dispatchers = new Dispatchers({ connections: 1, timeoutMs: 5_000 });
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    try {
      const res = await send(dispatchers.shared(undefined), { method: 'GET', url: `http://127.0.0.1:${port}/` });
      expect(res.status).toBe(0);
      expect(res.body).toBe('');
      expect(res.error).toBeTruthy();
    } finally {
      await dispatchers.close();
    }
  });
});
