import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureHttp, resetReachability, send } from './client.ts';
import { Pacer } from './pacing.ts';
import { assertProfileAllows, ProfileViolation, profileNeeded } from './profile-guard.ts';
import { TargetUnreachableError } from './unreachable.ts';

const target = { baseUrl: 'https://api.example.test', hooksBaseUrl: 'https://api.example.test/test-hooks/v1' };
const api = `${target.baseUrl}/api/partner/v1`;

describe('what each profile may send', () => {
  it('catalog: GET anywhere on the API and POST /oauth/token, nothing else', () => {
    expect(profileNeeded('GET', `${api}/fleet?page=2`, target)).toBe('catalog');
    expect(profileNeeded('GET', `${api}/reservations/R-1`, target)).toBe('catalog');
    expect(profileNeeded('POST', `${api}/oauth/token`, target)).toBe('catalog');
    expect(profileNeeded('HEAD', `${api}/fleet`, target)).toBe('full');
    expect(profileNeeded('POST', `${api}/webhooks`, target)).toBe('full');
    expect(profileNeeded('DELETE', `${api}/fleet`, target)).toBe('full');
  });

  it('shop adds availability and quotes; book the reservation writes; full the test hooks', () => {
    expect(profileNeeded('POST', `${api}/availability`, target)).toBe('shop');
    expect(profileNeeded('POST', `${api}/quotes`, target)).toBe('shop');
    expect(profileNeeded('POST', `${api}/reservations`, target)).toBe('book');
    expect(profileNeeded('PATCH', `${api}/reservations/R-1`, target)).toBe('book');
    expect(profileNeeded('POST', `${api}/reservations/R-1/cancel`, target)).toBe('book');
    expect(profileNeeded('GET', `${target.hooksBaseUrl}/`, target)).toBe('full');
    expect(profileNeeded('POST', `${target.hooksBaseUrl}/clock/advance`, target)).toBe('full');
  });

  it('refuses with a harness error that says which profile the request needs', () => {
    expect(() => assertProfileAllows('catalog', 'POST', `${api}/reservations`, target)).toThrow(ProfileViolation);
    expect(() => assertProfileAllows('catalog', 'POST', `${api}/quotes`, target)).toThrow(
      "harness: profile catalog does not send POST /api/partner/v1/quotes (profile shop does): the check must declare profile 'shop'",
    );
    expect(() => assertProfileAllows('book', 'POST', `${target.hooksBaseUrl}/clock/advance`, target)).toThrow(
      /profile book does not send POST \/test-hooks\/v1\/clock\/advance \(profile full does\)/,
    );
    expect(() => assertProfileAllows('shop', 'POST', `${api}/quotes`, target)).not.toThrow();
    expect(() => assertProfileAllows('full', 'DELETE', `${api}/fleet`, target)).not.toThrow();
  });
});

describe('the HTTP client', () => {
  let server: Server;
  let baseUrl: string;
  const arrivals: { method: string; url: string; at: number }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      arrivals.push({ method: req.method ?? '', url: req.url ?? '', at: Date.now() });
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(() => {
    configureHttp({ profile: null, pacer: new Pacer({ maxRps: null, honourRetryAfter: false }) });
    resetReachability();
    arrivals.length = 0;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses a request its profile forbids before anything is sent', async () => {
    configureHttp({ profile: { profile: 'catalog', target: { baseUrl } } });
    await expect(send({ method: 'POST', url: `${baseUrl}/api/partner/v1/quotes`, body: '{}' })).rejects.toThrow(
      ProfileViolation,
    );
    await send({ method: 'GET', url: `${baseUrl}/api/partner/v1/fleet` });
    expect(arrivals.map((a) => `${a.method} ${a.url}`)).toEqual(['GET /api/partner/v1/fleet']);
  });

  it('--max-rps 5: every request waits for the pacer, which lets at most 5 go within any second', async () => {
    // What the client controls is when a request leaves: the pacer's grants, on its clock. Arrivals at this server,
    // in the same process, bunch up behind an event loop a busy machine stalls, whatever the pacer did (six within a
    // second were seen so). The pacer reads its clock and then either sleeps and reads it again, or lets one request
    // go at that reading: the readings no sleep followed are the grants.
    const readings: { at: number; slept: boolean }[] = [];
    const pacer = new Pacer({
      maxRps: 5,
      honourRetryAfter: false,
      now: () => {
        const at = Date.now();
        readings.push({ at, slept: false });
        return at;
      },
      sleep: (ms) => {
        const last = readings.at(-1);
        if (last) last.slept = true;
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    configureHttp({ pacer });
    await Promise.all(Array.from({ length: 11 }, () => send({ method: 'GET', url: `${baseUrl}/x` })));
    const grants = readings.filter((r) => !r.slept).map((r) => r.at);
    expect(arrivals).toHaveLength(11);
    expect(grants).toHaveLength(11);
    for (const start of grants)
      expect(grants.filter((t) => t >= start && t <= start + 1000).length).toBeLessThanOrEqual(5);
    // And the server saw the pace: the eleventh request cannot arrive before two full windows after the first grant.
    expect(Math.max(...arrivals.map((a) => a.at)) - (grants[0] ?? 0)).toBeGreaterThanOrEqual(2_000);
  }, 30_000);

  it('a target that stopped answering: requests fail at once with one message, and work again when it is back', async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/api/partner/v1/fleet`;
    const messages: string[] = [];
    const started = Date.now();
    for (let i = 0; i < 6; i++) {
      const error = await send({ method: 'GET', url }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TargetUnreachableError);
      messages.push((error as Error).message);
    }
    expect(new Set(messages)).toEqual(new Set([`target unreachable: ECONNREFUSED 127.0.0.1:${port}`]));
    // At once: a refused connection takes milliseconds; what this excludes is each request waiting for a connect
    // timeout (undici's is 10 s). The bound leaves a loaded machine seconds of room.
    expect(Date.now() - started).toBeLessThan(5_000);
    resetReachability();
    await expect(send({ method: 'GET', url: `${baseUrl}/back` })).resolves.toMatchObject({ status: 200 });
  });
});
