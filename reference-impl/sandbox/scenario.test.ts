import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../contract/client-clauses/exchange.ts';
import { DEFAULT_MESSAGES } from '../domain/failure.ts';
import { newIdempotencyKey, quoteRequest, reservationBody } from '../testing/booking-helpers.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { loadSandboxScenario, parseSandboxScenario } from './scenario.ts';

const valid = { name: 'mine', seed: 1, steps: [] as unknown[] };

describe('sandbox scenarios as written (SANDBOX_SCENARIO)', () => {
  it('loads the bundled scenarios by name, each step an action of the player', () => {
    expect(loadSandboxScenario('happy-path')).toMatchObject({ name: 'happy-path', rewordMessages: false, steps: [] });
    const resilience = loadSandboxScenario('resilience');
    expect(resilience.rewordMessages).toBe(true);
    expect(resilience.steps.map((step) => step.do).sort()).toEqual([
      'decline',
      'expire-quote',
      'expire-token',
      'lose-answer',
      'rate-limit',
      'replay-in-flight',
      'stale-quote',
    ]);
    expect(resilience.steps.find((step) => step.do === 'rate-limit')).toMatchObject({ on: 'business', nth: 5 });
    expect(resilience.steps.find((step) => step.do === 'rate-limit')?.retryAfterS).toBe(2);
    // limits: the token endpoint's slow_down first, then a run of business windows of 1 to 3 s.
    const limits = loadSandboxScenario('limits');
    expect(limits.steps.map((step) => `${step.on} ${step.nth} ${step.do} ${step.retryAfterS}`)).toEqual([
      'token 1 rate-limit 1',
      'business 3 rate-limit 1',
      'business 4 rate-limit 2',
      'business 5 rate-limit 3',
    ]);
  });

  it('refuses a scenario it could not play as written, naming the mistake', () => {
    expect(() => loadSandboxScenario('no-such-scenario')).toThrow(/no bundled scenario "no-such-scenario"/);
    expect(() => loadSandboxScenario('./no/such/file.json')).toThrow(/no such file/);
    const step = (s: Record<string, unknown>) => ({ ...valid, steps: [{ id: 'a', on: 'booking', nth: 1, ...s }] });
    expect(() => parseSandboxScenario(step({ do: 'explode' }))).toThrow(/steps\[0\]\.do must be one of/);
    expect(() => parseSandboxScenario(step({ do: 'decline', on: 'business' }))).toThrow(/acts on a booking/);
    expect(() => parseSandboxScenario(step({ do: 'rate-limit' }))).toThrow(/retryAfterS must be whole seconds/);
    expect(() => parseSandboxScenario(step({ do: 'decline', nth: 0 }))).toThrow(/nth must be an integer from 1/);
    expect(() => parseSandboxScenario(step({ do: 'expire-token', on: 'token' }))).toThrow(
      /on "token" only "rate-limit"/,
    );
    expect(() => parseSandboxScenario(step({ do: 'decline', on: 'token' }))).toThrow(/acts on a booking/);
    expect(() => parseSandboxScenario(step({ do: 'rate-limit', on: 'everything', retryAfterS: 1 }))).toThrow(
      /on must be "business", "booking" or "token"/,
    );
    expect(() => parseSandboxScenario({ ...valid, extra: true })).toThrow(/unknown property "extra"/);
    expect(() =>
      parseSandboxScenario({
        ...valid,
        steps: [
          { id: 'a', on: 'booking', nth: 2, do: 'decline' },
          { id: 'b', on: 'booking', nth: 2, do: 'lose-answer' },
        ],
      }),
    ).toThrow(/already acts on booking 2/);
  });
});

/**
 * The player on a real server, from a scenario file of its own (short counts, a 1 s Retry-After), driven by a
 * scripted client: each step's answer, what holds after it, and the recorder's marks.
 */
describe('the scenario player', () => {
  let dir: string;
  let file: string;
  let api: TestServer;
  const scenario = {
    name: 'player-test',
    seed: 7,
    rewordMessages: true,
    steps: [
      { id: 'limit', on: 'business', nth: 3, do: 'rate-limit', retryAfterS: 1 },
      { id: 'token', on: 'business', nth: 6, do: 'expire-token' },
      { id: 'lost', on: 'booking', nth: 1, do: 'lose-answer' },
      { id: 'in-flight', on: 'booking', nth: 3, do: 'replay-in-flight' },
      { id: 'expired', on: 'booking', nth: 5, do: 'expire-quote' },
      { id: 'stale', on: 'booking', nth: 7, do: 'stale-quote' },
      { id: 'declined', on: 'booking', nth: 9, do: 'decline' },
    ],
  };
  const lines = () =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RecordedExchange);
  const newToken = async (role: string) => {
    const { clientId, clientSecret } = api.target.clients[role] ?? { clientId: '', clientSecret: '' };
    const answer = await fetch(`${api.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    return ((await answer.json()) as { access_token: string }).access_token;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-scenario-'));
    file = join(dir, 'exchanges.jsonl');
    const scenarioFile = join(dir, 'player-test.json');
    writeFileSync(scenarioFile, JSON.stringify(scenario));
    api = await startTestServer({ config: { sandboxRecord: file, sandboxScenario: scenarioFile } });
  });

  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plays each step once per client, in the service order, and keeps what a step did', async () => {
    let token = await newToken('partnerA');
    const book = (quoteId: string, key: string, partnerReference?: string) =>
      api.call('POST', '/reservations', {
        token,
        headers: { 'idempotency-key': key },
        json: reservationBody(quoteId, partnerReference ? { partnerReference } : {}),
      });
    const quote = async () => (await api.call('POST', '/quotes', { token, json: quoteRequest() })).json.quoteId;

    expect((await api.call('GET', '/locations', { token })).status).toBe(200); // business 1
    const q1 = await quote(); // business 2
    const key1 = newIdempotencyKey();
    // Business 3: the scenario's 429, and its window holds every business call of the client.
    const limited = await book(q1, key1, 'PLAYER-1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.json.error).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
    const held = await api.call('GET', '/locations', { token });
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1_050));

    // Booking 1: made, its answer lost; the identical retry gets the 200 replay of that one reservation.
    const lost = await book(q1, key1, 'PLAYER-1'); // business 4
    expect(lost.status).toBe(503);
    expect(lost.json.error).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', retryable: true });
    expect(lost.headers.get('location')).toBeNull();
    const replay = await book(q1, key1, 'PLAYER-1'); // business 5, booking 2
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    const reservationId = replay.json.reservationId as string;

    // Business 6: the token is expired early, and stays refused; a new one is served.
    const refused = await api.call('GET', `/reservations/${reservationId}`, { token });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe('INVALID_TOKEN');
    expect(refused.headers.get('www-authenticate')).toContain('invalid_token');
    expect((await api.call('GET', '/locations', { token })).status).toBe(401);
    token = await newToken('partnerA');
    const listed = await api.call('GET', '/reservations?limit=50', { token });
    expect(
      listed.json.reservations.filter((r: { partnerReference: string }) => r.partnerReference === 'PLAYER-1'),
    ).toHaveLength(1);

    // Booking 3: in flight; the retry is served (booking 4).
    const q2 = await quote();
    const key2 = newIdempotencyKey();
    const inFlight = await book(q2, key2);
    expect(inFlight.status).toBe(409);
    expect(inFlight.json.error).toMatchObject({ code: 'IDEMPOTENT_REPLAY_IN_FLIGHT', retryable: true });
    expect((await book(q2, key2)).status).toBe(201);

    // Booking 5: the quote expires, and stays expired under any key; a new quote books (booking 6).
    const q3 = await quote();
    expect((await book(q3, newIdempotencyKey())).json.error.code).toBe('QUOTE_EXPIRED');
    expect((await book(q3, newIdempotencyKey())).json.error.code).toBe('QUOTE_EXPIRED');
    expect((await book(await quote(), newIdempotencyKey())).status).toBe(201);
    // Booking 7: stale; booking 8 books; booking 9 is declined.
    const q5 = await quote();
    expect((await book(q5, newIdempotencyKey())).json.error.code).toBe('QUOTE_STALE');
    expect((await book(q5, newIdempotencyKey())).json.error.code).toBe('QUOTE_STALE');
    expect((await book(await quote(), newIdempotencyKey())).status).toBe(201);
    const declined = await book(await quote(), newIdempotencyKey());
    expect(declined.status).toBe(422);
    expect(declined.json.error.code).toBe('RESERVATION_REJECTED');
    expect((await book(await quote(), newIdempotencyKey())).status).toBe(201);

    // Another client has counts of its own: its third business call is its 429.
    const other = await newToken('partnerB');
    expect((await api.call('GET', '/locations', { token: other })).status).toBe(200);
    expect((await api.call('GET', '/fleet', { token: other })).status).toBe(200);
    expect((await api.call('GET', '/rates', { token: other })).status).toBe(429);

    const recorded = lines();
    const provoked = recorded.filter((line) => line.provoked).map((line) => `${line.provoked} ${line.scenarioStep}`);
    expect(provoked).toEqual([
      '429 limit',
      '429 limit',
      'lost-answer lost',
      'token-expired token',
      'token-expired token',
      'in-flight in-flight',
      'quote-expired expired',
      'quote-expired expired',
      'quote-stale stale',
      'quote-stale stale',
      'declined declined',
      '429 limit',
    ]);
    const lostLine = recorded.find((line) => line.provoked === 'lost-answer');
    expect(lostLine).toMatchObject({ status: 503, errorCode: 'DEPENDENCY_UNAVAILABLE', retryable: true });
    expect(lostLine?.withheld).toEqual({ status: 201, reservationId });
    expect(lostLine?.booking?.reservationId).toBeNull();
    const replayLine = recorded.find((line) => line.idempotentReplay);
    expect(replayLine?.booking?.reservationId).toBe(reservationId);
    expect(replayLine?.provoked).toBeUndefined();
  });

  it('rewords every error message, in JSON, XML and the token endpoint alike, and keeps every code', async () => {
    const answers = [
      await api.call('GET', '/locations', { token: 'not.a.token' }),
      await api.call('GET', '/locations', { token: 'not.a.token' }),
      await api.call('GET', '/no-such-thing', {}),
    ];
    const messages = answers.map((answer) => answer.json.error.message as string);
    expect(answers.map((answer) => answer.json.error.code)).toEqual(['INVALID_TOKEN', 'INVALID_TOKEN', 'NOT_FOUND']);
    expect(new Set(messages).size).toBe(3);
    for (const message of messages) {
      expect(Object.values(DEFAULT_MESSAGES)).not.toContain(message);
      expect(message).not.toMatch(/token|expired|found|retry/i);
    }
    const xml = await api.call('GET', '/locations', {
      token: 'not.a.token',
      headers: { accept: 'application/xml' },
    });
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(xml.text).toContain('<property name="code"><string>INVALID_TOKEN</string></property>');
    expect(xml.text).toContain('(wording ');
    const oauth = await fetch(`${api.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=nobody&client_secret=wrong',
    });
    const failure = (await oauth.json()) as { error: string; error_description: string };
    expect(failure.error).toBe('invalid_client');
    expect(failure.error_description).toContain('(wording ');
    const marked = lines().filter((line) => line.status >= 400);
    expect(marked.every((line) => line.messageReworded === true)).toBe(true);
  });
});

/**
 * A "token" step: the token endpoint's own bucket (spec 8.16a), answered in the OAuth shape (4.1, 7.1) with Retry-After,
 * counted per client on the requests the service granted.
 */
describe('the scenario player at the token endpoint', () => {
  let dir: string;
  let file: string;
  let api: TestServer;
  const lines = () =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RecordedExchange);
  const client = (role: string) => api.target.clients[role] ?? { clientId: '', clientSecret: '' };
  const basic = (role: string, secret = client(role).clientSecret) =>
    fetch(`${api.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client(role).clientId}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-scenario-token-'));
    file = join(dir, 'exchanges.jsonl');
    const scenarioFile = join(dir, 'token-test.json');
    writeFileSync(
      scenarioFile,
      JSON.stringify({
        name: 'token-test',
        seed: 3,
        steps: [
          { id: 'slow-down', on: 'token', nth: 2, do: 'rate-limit', retryAfterS: 1 },
          { id: 'business-limit', on: 'business', nth: 2, do: 'rate-limit', retryAfterS: 1 },
        ],
      }),
    );
    api = await startTestServer({ config: { sandboxRecord: file, sandboxScenario: scenarioFile } });
  });

  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the nth granted token request 429 slow_down, holds the window, and leaves other clients alone', async () => {
    const first = await basic('partnerA');
    expect(first.status).toBe(200);
    const token = ((await first.json()) as { access_token: string }).access_token;

    const limited = await basic('partnerA');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('content-type')).toMatch(/^application\/json/);
    expect(limited.headers.get('cache-control')).toBe('no-store');
    expect([...limited.headers.keys()].filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
    expect(await limited.json()).toEqual({
      error: 'slow_down',
      error_description: 'Too many token requests; retry after the number of seconds in Retry-After.',
    });
    const windowOpenedAt = Date.now();

    // The window holds every token request of the client, client_secret_post as well; wrong credentials keep their
    // 401 (the service's bucket counts authenticated requests only); business calls are another bucket.
    const posted = await fetch(`${api.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client('partnerA').clientId,
        client_secret: client('partnerA').clientSecret,
      }).toString(),
    });
    expect(posted.status).toBe(429);
    expect((await basic('partnerA', 'wrong-secret')).status).toBe(401);
    expect((await api.call('GET', '/locations', { token })).status).toBe(200);
    const business = await api.call('GET', '/fleet', { token });
    expect(business.status).toBe(429);
    expect(business.json.error.code).toBe('RATE_LIMITED');
    // Another client has counts of its own.
    expect((await basic('partnerB')).status).toBe(200);

    // Once Retry-After has passed, the client is served again.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, windowOpenedAt + 1_050 - Date.now())));
    expect((await basic('partnerA')).status).toBe(200);

    const tokenLines = lines().filter((line) => line.tokenRequest);
    expect(
      tokenLines.map(
        (line) => `${line.clientId} ${line.status} ${line.errorCode} ${line.retryAfterS} ${line.scenarioStep}`,
      ),
    ).toEqual([
      `${client('partnerA').clientId} 200 null null undefined`,
      `${client('partnerA').clientId} 429 slow_down 1 slow-down`,
      `${client('partnerA').clientId} 429 slow_down 1 slow-down`,
      `${client('partnerA').clientId} 401 invalid_client null undefined`,
      `${client('partnerB').clientId} 200 null null undefined`,
      `${client('partnerA').clientId} 200 null null undefined`,
    ]);
    expect(tokenLines.filter((line) => line.provoked === '429')).toHaveLength(2);
    // The token made for a refused request was never sent: no line shows one issued.
    expect(tokenLines.filter((line) => line.issuedToken)).toHaveLength(3);
  });
});
