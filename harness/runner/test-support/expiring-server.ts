import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_PREFIX } from '../../../contract/constants.ts';

/**
 * A small Partner API made for the patient path's test (certify.patient.test.ts): tokens and quotes that live seconds,
 * not minutes, so the patient checks run unchanged with their waits shortened (PARTNER_CERT_PATIENT_WAITS). Only what
 * those checks call: the token endpoint, GET /locations and /fleet, POST /quotes, POST and GET /reservations.
 * `honoursExpiry: false` makes a server whose tokens and quotes never expire: the checks must fail it.
 */
export interface ExpiringServer {
  baseUrl: string;
  close(): Promise<void>;
}

const LOCATION = {
  locationCode: 'SGN-APT-01',
  capabilities: { pickup: true, dropoff: true, oneWay: true, delivery: false },
};
const VEHICLE = { vehicleCode: 'TOYOTA-VIOS-AT', locationCodes: ['SGN-APT-01'] };

export async function startExpiringServer(options: {
  tokenSeconds: number;
  quoteSeconds: number;
  honoursExpiry: boolean;
}): Promise<ExpiringServer> {
  const tokens = new Map<string, number>();
  const quotes = new Map<string, number>();
  const reservations: Record<string, unknown>[] = [];
  const alive = (issued: number | undefined, seconds: number) =>
    issued !== undefined && (!options.honoursExpiry || Date.now() < issued + seconds * 1000);

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => answer(request, Buffer.concat(chunks).toString('utf8'), response));
  });

  function answer(request: IncomingMessage, body: string, response: ServerResponse): unknown {
    const requestId = randomUUID();
    const path = (request.url ?? '').split('?')[0] ?? '';
    const send = (status: number, value: unknown) => {
      response.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': requestId,
        'cache-control': 'no-store',
        'x-ratelimit-limit': '1000',
        'x-ratelimit-remaining': '999',
        'x-ratelimit-reset': new Date(Date.now() + 60_000).toISOString(),
      });
      response.end(JSON.stringify(value));
    };
    const error = (status: number, code: string, retryable = false) =>
      send(status, { error: { code, message: code.toLowerCase().replace(/_/g, ' '), requestId, retryable } });

    if (request.method === 'POST' && path === `${API_PREFIX}/oauth/token`) {
      const token = randomUUID().replace(/-/g, '');
      tokens.set(token, Date.now());
      const scope =
        'fleet:read locations:read rates:read availability:read quotes:write reservations:read reservations:write reservations:cancel';
      send(200, { access_token: token, token_type: 'Bearer', expires_in: options.tokenSeconds, scope });
      return;
    }
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer) return error(401, 'UNAUTHORIZED');
    if (!alive(tokens.get(bearer), options.tokenSeconds)) return error(401, 'INVALID_TOKEN');

    if (request.method === 'GET' && path === `${API_PREFIX}/locations`)
      return send(200, { locations: [LOCATION], count: 1 });
    if (request.method === 'GET' && path === `${API_PREFIX}/fleet`) return send(200, { vehicles: [VEHICLE], count: 1 });
    if (request.method === 'POST' && path === `${API_PREFIX}/quotes`) {
      const quoteId = `quote-${randomUUID()}`;
      quotes.set(quoteId, Date.now());
      return send(201, { quoteId, expiresAt: new Date(Date.now() + options.quoteSeconds * 1000).toISOString() });
    }
    if (request.method === 'POST' && path === `${API_PREFIX}/reservations`) {
      const { quoteId, partnerReference } = JSON.parse(body || '{}') as { quoteId?: string; partnerReference?: string };
      if (!quotes.has(quoteId ?? '')) return error(400, 'QUOTE_INVALID');
      if (!alive(quotes.get(quoteId ?? ''), options.quoteSeconds)) return error(409, 'QUOTE_EXPIRED');
      const reservation = { reservationId: `R-${randomUUID()}`, partnerReference: partnerReference ?? null };
      reservations.unshift(reservation);
      return send(201, reservation);
    }
    if (request.method === 'GET' && path === `${API_PREFIX}/reservations`) {
      return send(200, { reservations, count: reservations.length, limit: 100 });
    }
    return error(404, 'NOT_FOUND');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
