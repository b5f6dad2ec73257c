/**
 * The load scenarios against a server that is not the reference implementation: other locations, vehicles and rate
 * plans than the reference's operator data (fixtures/), a per-client token ceiling of 300 a minute, business limits of
 * 600 a minute in its X-RateLimit-* headers. A scenario takes its codes from what this target lists and its ceilings
 * from what it states; a ceiling its bounded requests do not reach is "not judged", never a failure (spec 8: ceilings not shown).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../contract/constants.ts';
import type { LoadScenarioResult } from '../../harness/report/model.ts';
import { LOAD_EXIT, runLoadCli } from '../cli-program.ts';
import type { LoadTarget } from '../engine-neutral/model.ts';
import { isNotJudged, NOT_JUDGED_PREFIX } from '../engine-neutral/results.ts';
import { RATE_LIMIT_CEILING } from '../engine-neutral/window-monitor.ts';
import { runNative } from '../native/engine.ts';
import { type FakeTarget, json, startFakeTarget } from '../test-support/fake-target.ts';
import { validateLoadResult } from '../test-support/load-result-schema.ts';
import { SCENARIOS } from './index.ts';
import { tokenBucketsScenario } from './token-buckets.ts';

// ---------------------------------------------------------------------------------------------------------------
// An independent implementation, small: its own operator data and its own ceilings

const LOCATIONS = [
  {
    locationCode: 'DLI-CENTRE',
    name: 'Da Lat Centre',
    locationType: 'city',
    countryCode: 'VN',
    city: 'Da Lat',
    timezone: 'Asia/Ho_Chi_Minh',
    iataCode: null,
    capabilities: { pickup: true, dropoff: true, oneWay: false, delivery: false },
    branchCode: 'DLI',
  },
  {
    // Pickups only: no round trip starts here.
    locationCode: 'VCL-PORT',
    name: 'Chu Lai Port',
    locationType: 'city',
    countryCode: 'VN',
    city: 'Chu Lai',
    timezone: 'Asia/Ho_Chi_Minh',
    iataCode: null,
    capabilities: { pickup: true, dropoff: false, oneWay: true, delivery: false },
    branchCode: 'VCL',
  },
];
const ROUND_TRIP = new Set(['DLI-CENTRE']);
const FLEET = [
  { vehicleCode: 'VINFAST-VF5-AT', sippCode: 'EDAE', locationCodes: ['DLI-CENTRE'] },
  { vehicleCode: 'KIA-MORNING-MT', sippCode: 'MBMR', locationCodes: ['DLI-CENTRE', 'VCL-PORT'] },
].map((v) => ({ ...v, status: 'available', dataQuality: { status: 'verified', missingFields: [] } }));
const PLANS: Record<string, { accountCode: string; rateCode: string }[]> = {
  'za-client': [{ accountCode: 'ZX-AGENCY', rateCode: 'ZX-NET-05' }],
};
const CLIENTS = {
  partnerA: { clientId: 'za-client', clientSecret: 'za-secret-0123456789' },
  partnerB: { clientId: 'zb-client', clientSecret: 'zb-secret-0123456789' },
  readOnly: { clientId: 'zr-client', clientSecret: 'zr-secret-0123456789' },
  rateLimit: { clientId: 'zl-client', clientSecret: 'zl-secret-0123456789' },
};
/** Token requests a minute per client id and per source address (spec 8.16a), business calls a minute per client. */
const TOKEN_PER_CLIENT = 300;
const TOKEN_PER_ADDRESS = 12;
const BUSINESS_PER_CLIENT = 600;

/** A fixed one-minute window per key, from its first request (the run is far shorter than a minute). */
class Buckets {
  private readonly windows = new Map<string, { start: number; used: number }>();
  constructor(private readonly limit: number) {}
  take(key: string): { ok: boolean; remaining: number; resetMs: number } {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || now >= window.start + 60_000) {
      window = { start: now, used: 0 };
      this.windows.set(key, window);
    }
    const ok = window.used < this.limit;
    if (ok) window.used += 1;
    return { ok, remaining: this.limit - window.used, resetMs: window.start + 60_000 };
  }
}

interface FakeReservation {
  reservationId: string;
  partnerReference: string | null;
  status: string;
  vehicleCode: string;
  pickupLocation: string;
  dropoffLocation: string;
}

/** What the server was asked for: the codes of every shopping request, and every code it refused. */
interface Seen {
  locations: Set<string>;
  vehicles: Set<string>;
  plans: Set<string>;
  refusals: string[];
}

function independentServer() {
  const tokenClient = new Buckets(TOKEN_PER_CLIENT);
  const tokenAddress = new Buckets(TOKEN_PER_ADDRESS);
  const business = new Buckets(BUSINESS_PER_CLIENT);
  const tokens = new Map<string, string>();
  const quotes = new Map<string, { client: string; vehicleCode: string; location: string }>();
  const reservations: (FakeReservation & { client: string })[] = [];
  const idempotency = new Map<string, { body: string; response: FakeReservation }>();
  const seen: Seen = { locations: new Set(), vehicles: new Set(), plans: new Set(), refusals: [] };
  let requests = 0;

  const error = (res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}) => {
    if (code.startsWith('INVALID_') || code === 'QUOTE_INVALID') seen.refusals.push(code);
    json(
      res,
      status,
      { error: { code, message: code, requestId: res.getHeader('x-request-id'), retryable: false } },
      headers,
    );
  };

  function token(req: IncomingMessage, res: ServerResponse, body: string) {
    const address = tokenAddress.take(String(req.socket.remoteAddress));
    const slowDown = (resetMs: number) =>
      json(
        res,
        429,
        { error: 'slow_down', error_description: 'too many token requests' },
        { 'retry-after': String(Math.max(1, Math.ceil((resetMs - Date.now()) / 1000))) },
      );
    if (!address.ok) return slowDown(address.resetMs);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const [id = '', secret = ''] = Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent);
    const client = Object.values(CLIENTS).find((c) => c.clientId === id && c.clientSecret === secret);
    if (!client || !body.includes('grant_type=client_credentials')) {
      return json(res, 401, { error: 'invalid_client', error_description: 'unknown client' });
    }
    const bucket = tokenClient.take(client.clientId);
    if (!bucket.ok) return slowDown(bucket.resetMs);
    const accessToken = `tok-${client.clientId}-${tokens.size}`;
    tokens.set(accessToken, client.clientId);
    json(
      res,
      200,
      { access_token: accessToken, token_type: 'Bearer', expires_in: 600, scope: 'fleet:read locations:read' },
      { 'cache-control': 'no-store' },
    );
  }

  /** The shopping rules of spec 4.12 this server enforces: its own codes only. */
  function shoppingError(client: string, window: Record<string, unknown>): [number, string] | undefined {
    for (const key of ['pickupLocation', 'dropoffLocation']) seen.locations.add(String(window[key]));
    if (!ROUND_TRIP.has(String(window.pickupLocation)) || !ROUND_TRIP.has(String(window.dropoffLocation))) {
      return [400, 'INVALID_LOCATION'];
    }
    if (window.accountCode !== undefined || window.rateCode !== undefined) {
      const plan = `${String(window.accountCode)}/${String(window.rateCode)}`;
      seen.plans.add(plan);
      if (!(PLANS[client] ?? []).some((p) => `${p.accountCode}/${p.rateCode}` === plan)) {
        return [400, 'INVALID_RATE_CODE'];
      }
    }
    return undefined;
  }

  function businessCall(client: string, req: IncomingMessage, res: ServerResponse, body: string) {
    const path = (req.url ?? '').slice(API_PREFIX.length);
    const input = (body ? JSON.parse(body) : {}) as Record<string, unknown>;
    const offered = (location: unknown) => FLEET.filter((v) => v.locationCodes.includes(String(location)));
    if (req.method === 'GET' && path === '/locations') return json(res, 200, { locations: LOCATIONS, count: 2 });
    if (req.method === 'GET' && path === '/fleet') return json(res, 200, { vehicles: FLEET, count: FLEET.length });
    if (req.method === 'GET' && path === '/rates') {
      const rates = (PLANS[client] ?? []).map((p) => ({
        ...p,
        rateType: 'net',
        currency: 'VND',
        validFrom: null,
        validTo: null,
        status: 'active',
      }));
      return json(res, 200, { rates, count: rates.length });
    }
    if (req.method === 'POST' && path === '/availability') {
      const refused = shoppingError(client, input);
      if (refused) return error(res, ...refused);
      const offers = offered(input.pickupLocation).map((vehicle) => {
        const quoteId = `q-${quotes.size}`;
        quotes.set(quoteId, { client, vehicleCode: vehicle.vehicleCode, location: String(input.pickupLocation) });
        return { quoteId, vehicle, rentalDays: 3, currency: 'VND' };
      });
      return json(res, 200, { availabilityModel: 'model_level_on_request', offers });
    }
    if (req.method === 'POST' && path === '/quotes') {
      const refused = shoppingError(client, input);
      if (refused) return error(res, ...refused);
      seen.vehicles.add(String(input.vehicleCode));
      if (!FLEET.some((v) => v.vehicleCode === input.vehicleCode)) return error(res, 400, 'INVALID_VEHICLE');
      if (!offered(input.pickupLocation).some((v) => v.vehicleCode === input.vehicleCode)) {
        return error(res, 409, 'NO_AVAILABILITY');
      }
      const quoteId = `q-${quotes.size}`;
      quotes.set(quoteId, { client, vehicleCode: String(input.vehicleCode), location: String(input.pickupLocation) });
      return json(res, 201, { quoteId, currency: 'VND' });
    }
    if (req.method === 'POST' && path === '/reservations') {
      const key = req.headers['idempotency-key'];
      if (typeof key !== 'string') return error(res, 400, 'IDEMPOTENCY_KEY_REQUIRED');
      const earlier = idempotency.get(`${client} ${key}`);
      if (earlier) {
        if (earlier.body !== body) return error(res, 409, 'IDEMPOTENCY_CONFLICT');
        return json(res, 200, earlier.response, { 'idempotent-replay': 'true' });
      }
      const quote = quotes.get(String(input.quoteId));
      if (!quote || quote.client !== client) return error(res, 400, 'QUOTE_INVALID');
      const partnerReference = typeof input.partnerReference === 'string' ? input.partnerReference : null;
      if (
        partnerReference &&
        reservations.some((r) => r.client === client && r.partnerReference === partnerReference)
      ) {
        return error(res, 409, 'DUPLICATE_PARTNER_REFERENCE');
      }
      const reservation: FakeReservation = {
        reservationId: `r-${reservations.length}`,
        partnerReference,
        status: 'confirmed',
        vehicleCode: quote.vehicleCode,
        pickupLocation: quote.location,
        dropoffLocation: quote.location,
      };
      reservations.push({ ...reservation, client });
      idempotency.set(`${client} ${key}`, { body, response: reservation });
      return json(res, 201, reservation);
    }
    const mine = (id: string) => reservations.find((r) => r.client === client && r.reservationId === id);
    const strip = ({ client: _client, ...reservation }: FakeReservation & { client: string }) => reservation;
    if (req.method === 'GET' && path.startsWith('/reservations?')) {
      const limit = Number(new URLSearchParams(path.split('?')[1]).get('limit') ?? 25);
      const list = reservations
        .filter((r) => r.client === client)
        .reverse()
        .slice(0, limit)
        .map(strip);
      return json(res, 200, { reservations: list, count: list.length, limit });
    }
    const one = /^\/reservations\/([^/]+)(\/cancel)?$/.exec(path);
    const found = one && mine(decodeURIComponent(one[1] ?? ''));
    if (!found) return error(res, 404, 'NOT_FOUND');
    if (req.method === 'POST' && one?.[2]) found.status = 'cancelled';
    return json(res, 200, strip(found));
  }

  function handle(req: IncomingMessage, res: ServerResponse, body: string) {
    requests += 1;
    res.setHeader('x-request-id', `zq-${requests}`);
    if (req.url === `${API_PREFIX}/oauth/token` && req.method === 'POST') return token(req, res, body);
    const client = tokens.get(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
    if (!client) return error(res, 401, 'UNAUTHORIZED');
    const bucket = business.take(client);
    res.setHeader('x-ratelimit-limit', String(BUSINESS_PER_CLIENT));
    res.setHeader('x-ratelimit-remaining', String(bucket.remaining));
    res.setHeader('x-ratelimit-reset', new Date(bucket.resetMs).toISOString());
    if (!bucket.ok) {
      const retryAfter = String(Math.max(1, Math.ceil((bucket.resetMs - Date.now()) / 1000)));
      return json(
        res,
        429,
        { error: { code: 'RATE_LIMITED', message: 'slow down', requestId: `zq-${requests}`, retryable: true } },
        { 'retry-after': retryAfter },
      );
    }
    businessCall(client, req, res, body);
  }

  return { handle, seen };
}

// ---------------------------------------------------------------------------------------------------------------

const validate = validateLoadResult;

let server: ReturnType<typeof independentServer>;
let fake: FakeTarget;
let target: LoadTarget;
let dir: string;

beforeAll(async () => {
  server = independentServer();
  fake = await startFakeTarget(server.handle);
  target = { baseUrl: fake.url, clients: CLIENTS };
  dir = mkdtempSync(join(tmpdir(), 'load-independent-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const checkOf = (result: LoadScenarioResult, name: string) => result.checks.find((c) => c.name === name);

describe('load scenarios against an independent implementation (its own codes and ceilings)', () => {
  it('npm run load -- all --ci: every scenario passes, shopping with the codes the target lists; exit 0', async () => {
    const config = join(dir, 'target.json');
    // The token ceilings as the config states them (the token endpoint shows none, spec 8.16b).
    const ceilings = { tokenPerClientPerMinute: TOKEN_PER_CLIENT, tokenPerAddressPerMinute: TOKEN_PER_ADDRESS };
    writeFileSync(config, JSON.stringify({ baseUrl: fake.url, clients: CLIENTS, ceilings }));
    const out = join(dir, 'out');
    const stdout: string[] = [];
    const stderr: string[] = [];
    // The CI settings, one second of load each: the rates of --ci, bounded as short as a unit test can afford.
    const code = await runLoadCli(['all', '--ci', '--duration', '1', '--config', config, '--out', out], {
      stdout: (text) => stdout.push(text),
      stderr: (text) => stderr.push(text),
    });
    const read = (id: string) => JSON.parse(readFileSync(join(out, `${id}.json`), 'utf8')) as LoadScenarioResult;
    const results = SCENARIOS.map((scenario) => read(scenario.id));
    for (const result of results) {
      expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
      expect([result.scenario, result.checks.filter((c) => c.outcome === 'fail')]).toEqual([result.scenario, []]);
      expect([result.scenario, result.thresholds.filter((t) => t.outcome === 'fail')]).toEqual([result.scenario, []]);
      expect([result.scenario, result.notes, result.passed]).toEqual([result.scenario, [], true]);
    }
    expect(stderr.join('')).not.toMatch(/harness error|unknown key ceilings/);
    expect(code).toBe(LOAD_EXIT.passed);

    // Shopping and booking used this target's codes only: never the reference's, never one it refused.
    expect(server.seen.refusals).toEqual([]);
    expect([...server.seen.locations]).toEqual(['DLI-CENTRE']);
    expect([...server.seen.vehicles].every((code) => FLEET.some((v) => v.vehicleCode === code))).toBe(true);
    expect([...server.seen.plans]).toEqual(['ZX-AGENCY/ZX-NET-05']);
    const [funnel, storm] = [read('booking-funnel'), read('idempotency-storm')];
    expect(funnel.steps.map((s) => [s.name, s.count, s.errors])).toEqual(
      ['availability', 'quote', 'reservation', 'get', 'cancel'].map((name) => [name, 4, {}]),
    );
    expect(funnel.checks.every((c) => c.outcome === 'pass')).toBe(true);
    expect(checkOf(storm, 'exactly one reservation per key afterwards')).toMatchObject({ outcome: 'pass', passes: 4 });
    expect(checkOf(storm, 'at most one 201 per key')).toMatchObject({ outcome: 'pass', passes: 4 });

    // rateLimit's X-RateLimit-Limit of 600 a minute is beyond 15 calls: stated, not reached, not judged.
    const rateLimit = read('rate-limit');
    const ceiling = checkOf(rateLimit, RATE_LIMIT_CEILING);
    expect(ceiling && isNotJudged(ceiling)).toBe(true);
    expect(ceiling?.detail).toContain('X-RateLimit-Limit states 600 a minute');
    expect(checkOf(rateLimit, 'calls succeed again after the reset')?.detail).toMatch(/^not judged: /);

    // Token buckets: the per-address ceiling (12) is reached and judged; the per-client one (300) is not judged.
    const tokens = read('token-buckets');
    const perClient = checkOf(tokens, 'per client: partnerA is refused (slow_down) within the run');
    expect(perClient?.detail).toBe(
      `${NOT_JUDGED_PREFIX}no slow_down within 16 requests of token_per_client: the target config states 300 a minute, more than this run's bounds reach (a refusal is certain only after 600)`,
    );
    expect(checkOf(tokens, 'per address: the shared address is refused (slow_down) within the run')?.outcome).toBe(
      'pass',
    );
    expect(checkOf(tokens, 'per address: the same clients are served from another address')?.outcome).toBe('pass');
    expect(tokens.checks.filter(isNotJudged).map((c) => c.name)).toEqual([
      'per client: partnerA is refused (slow_down) within the run',
      'per client: the limited client is refused from a fresh address too',
      'per client: another client is served meanwhile',
    ]);
    const text = stdout.join('');
    expect(text).toContain('token-buckets: Token endpoint buckets: PASSED, 3 checks not judged (native engine');
    expect(text).toMatch(/ {4}not judged {5}per client: partnerA is refused \(slow_down\) within the run\n/);
    expect(readFileSync(join(out, 'token-buckets.junit.xml'), 'utf8')).toContain(
      '<skipped message="not judged: no slow_down within 16 requests of token_per_client',
    );
  }, 60_000);

  it('token-buckets without stated ceilings: a per-client ceiling of 300 not reached by 16 requests is not judged, not failed', async () => {
    const result = await runNative(tokenBucketsScenario, {
      target,
      embedded: false,
      options: tokenBucketsScenario.ci,
    });
    expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
    const perClient = checkOf(result, 'per client: partnerA is refused (slow_down) within the run');
    expect(perClient).toMatchObject({ outcome: 'not-applicable', passes: 0, fails: 0 });
    expect(perClient?.detail).toBe(
      `${NOT_JUDGED_PREFIX}no slow_down within 16 requests of token_per_client: the ceiling is not shown (spec 8), and this run's bounds did not reach it`,
    );
    expect(result.thresholds.every((t) => t.outcome === 'pass')).toBe(true);
    expect(result.checks.filter((c) => c.outcome === 'fail')).toEqual([]);
    expect(result.passed).toBe(true);
  }, 30_000);
});
