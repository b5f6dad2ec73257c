import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Provocation } from '../../contract/client-clauses/exchange.ts';
import { API_PREFIX } from '../../contract/constants.ts';
import type { JsonValue } from '../../contract/types.ts';
import { serializeTypedXml } from '../../contract/xml/index.ts';
import { apiError } from '../domain/failure.ts';
import { basicClientId, decodedBody, isXml } from './decode.ts';

/**
 * Sandbox scenarios (README "Configuration", SANDBOX_SCENARIO): a named, seeded, declarative script of what the
 * operator side does while a partner's client runs against the sandbox, so the client meets the answers a real
 * service gives on a bad day (a 429, a lost booking answer, an expired token, a stale quote, a declined booking) and
 * the client judge (harness/client-certify/) sees how it reacted. The scripts are JSON files a partner can read and
 * write (reference-impl/sandbox/scenarios/); the player keeps its state in memory, per client, and touches neither the
 * store nor another client's session.
 */
export const SCENARIO_ACTIONS = [
  'rate-limit',
  'expire-token',
  'lose-answer',
  'replay-in-flight',
  'expire-quote',
  'stale-quote',
  'decline',
] as const;
export type ScenarioAction = (typeof SCENARIO_ACTIONS)[number];

/** Actions that act on a booking: they may only be counted on bookings. */
const BOOKING_ACTIONS: ReadonlySet<ScenarioAction> = new Set([
  'lose-answer',
  'replay-in-flight',
  'expire-quote',
  'stale-quote',
  'decline',
]);

export interface ScenarioStep {
  /** Named in the recording (`scenarioStep`) and the client report. */
  id: string;
  /**
   * What is counted, per client: 'business' every business call that passed the service's own checks, 'booking' every
   * POST /reservations among them, 'token' every token request the service granted (only "rate-limit" acts on it: the
   * token endpoint's own bucket, spec 8.16a). Calls the scenario already refuses (inside a 429's window, with a token it
   * expired, with a quote it expired) are not counted.
   */
  on: 'business' | 'booking' | 'token';
  /** The count at which the step acts, from 1. */
  nth: number;
  do: ScenarioAction;
  /** rate-limit: the Retry-After in whole seconds (spec 8.15). */
  retryAfterS?: number;
}

export interface SandboxScenario {
  name: string;
  description: string;
  /** Seeds the rewording of messages, so two runs of one scenario answer alike. */
  seed: number;
  /** Every error message (and OAuth error_description) reworded, the codes kept (spec 7.2: clients switch on code). */
  rewordMessages: boolean;
  steps: ScenarioStep[];
}

const SCENARIO_DIR = fileURLToPath(new URL('./scenarios/', import.meta.url));
const NAME = /^[a-z][a-z0-9-]*$/;

/** SANDBOX_SCENARIO: a bundled scenario's name (a file of scenarios/), or the path of a scenario file. */
export function loadSandboxScenario(nameOrPath: string): SandboxScenario {
  const file = NAME.test(nameOrPath) ? resolve(SCENARIO_DIR, `${nameOrPath}.json`) : resolve(nameOrPath);
  if (!existsSync(file)) {
    throw new Error(
      NAME.test(nameOrPath)
        ? `SANDBOX_SCENARIO: no bundled scenario "${nameOrPath}" (${file})`
        : `SANDBOX_SCENARIO: no such file ${file}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`SANDBOX_SCENARIO: ${file} is not JSON (${(error as Error).message})`);
  }
  return parseSandboxScenario(value, file);
}

/** Checks a scenario as written; every mistake is named, since a step silently ignored would provoke nothing. */
export function parseSandboxScenario(value: unknown, source = 'scenario'): SandboxScenario {
  const fail = (what: string): never => {
    throw new Error(`SANDBOX_SCENARIO: ${source}: ${what}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('must be a JSON object');
  const v = value as Record<string, unknown>;
  const known = new Set(['name', 'description', 'seed', 'rewordMessages', 'steps']);
  for (const key of Object.keys(v)) if (!known.has(key)) fail(`unknown property "${key}"`);
  if (typeof v.name !== 'string' || !NAME.test(v.name)) fail('name must be lower-case words joined by "-"');
  if (v.description !== undefined && typeof v.description !== 'string') fail('description must be a string');
  if (!Number.isSafeInteger(v.seed)) fail('seed must be an integer');
  if (v.rewordMessages !== undefined && typeof v.rewordMessages !== 'boolean') fail('rewordMessages must be a boolean');
  if (!Array.isArray(v.steps)) return fail('steps must be an array');
  const written: unknown[] = v.steps;
  const ids = new Set<string>();
  const steps = written.map((raw, index): ScenarioStep => {
    const at = `steps[${index}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(`${at} must be an object`);
    const s = raw as Record<string, unknown>;
    for (const key of Object.keys(s)) {
      if (!['id', 'on', 'nth', 'do', 'retryAfterS'].includes(key)) fail(`${at}: unknown property "${key}"`);
    }
    if (typeof s.id !== 'string' || s.id === '') fail(`${at}.id must be a non-empty string`);
    if (ids.has(s.id as string)) fail(`${at}.id "${s.id}" is used twice`);
    ids.add(s.id as string);
    if (s.on !== 'business' && s.on !== 'booking' && s.on !== 'token') {
      fail(`${at}.on must be "business", "booking" or "token"`);
    }
    if (!Number.isSafeInteger(s.nth) || (s.nth as number) < 1) fail(`${at}.nth must be an integer from 1`);
    if (!(SCENARIO_ACTIONS as readonly unknown[]).includes(s.do)) {
      fail(`${at}.do must be one of ${SCENARIO_ACTIONS.join(', ')}`);
    }
    const action = s.do as ScenarioAction;
    if (BOOKING_ACTIONS.has(action) && s.on !== 'booking') fail(`${at}: "${action}" acts on a booking: on "booking"`);
    if (s.on === 'token' && action !== 'rate-limit') {
      fail(`${at}: on "token" only "rate-limit" acts (the token endpoint's 429 slow_down)`);
    }
    if (action === 'rate-limit') {
      if (!Number.isSafeInteger(s.retryAfterS) || (s.retryAfterS as number) < 1 || (s.retryAfterS as number) > 60) {
        fail(`${at}.retryAfterS must be whole seconds from 1 to 60`);
      }
    } else if (s.retryAfterS !== undefined) fail(`${at}.retryAfterS is only for "rate-limit"`);
    const on = s.on as ScenarioStep['on'];
    const twice = written
      .slice(0, index)
      .some((other) => (other as ScenarioStep).on === on && (other as ScenarioStep).nth === s.nth);
    if (twice) fail(`${at}: another step already acts on ${on} ${s.nth}`);
    return {
      id: s.id as string,
      on,
      nth: s.nth as number,
      do: action,
      ...(action === 'rate-limit' ? { retryAfterS: s.retryAfterS as number } : {}),
    };
  });
  return {
    name: v.name as string,
    description: (v.description as string | undefined) ?? '',
    seed: v.seed as number,
    rewordMessages: v.rewordMessages === true,
    steps,
  };
}

/** What the scenario did to one exchange, for the recorder (contract/client-clauses/exchange.ts). */
export interface ExchangeMark {
  provoked?: Provocation;
  step?: string;
  messageReworded?: boolean;
  withheld?: { status: number; reservationId: string | null };
  /** A lose-answer step waiting for the answer it replaces. */
  loseAnswer?: string;
}

interface ClientState {
  business: number;
  bookings: number;
  /** Token requests granted. */
  tokens: number;
  /** The scenario's 429 window: no business call of the client before this (epoch ms). */
  blockedUntilMs: number;
  blockedBy: string;
  /** The token endpoint's window, a bucket of its own (spec 8.16a): no token for the client before this (epoch ms). */
  tokenBlockedUntilMs: number;
  tokenBlockedBy: string;
}

const RESERVATIONS_PATH = `${API_PREFIX}/reservations`;
const TOKEN_PATH = `${API_PREFIX}/oauth/token`;
const BEARER = /^Bearer\s+(\S+)$/i;

/** mulberry32: small, seedable, and the same on every platform. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Wordings that share no word with the reference's own messages or the codes: a client that matches text ("expired",
 * "retry", "rate") finds nothing to match, one that switches on the code is not affected.
 */
const OPENINGS = ['Notice:', 'Please note:', 'Sandbox says:', 'Heads up:', 'For your information:', 'Status:'];
const SENTENCES = [
  'this call did not go through as sent.',
  'the operation could not be carried out.',
  'no result can be given for this call.',
  'something stood in the way of this request.',
  'the service declines to go on with this one.',
  'this attempt ended without an outcome.',
];

export class ScenarioPlayer {
  private readonly clients = new Map<string, ClientState>();
  /** Tokens the scenario expired early, and the step that did. */
  private readonly expiredTokens = new Map<string, string>();
  private readonly expiredQuotes = new Map<string, string>();
  private readonly staleQuotes = new Map<string, string>();
  private readonly marks = new WeakMap<FastifyRequest, ExchangeMark>();
  private readonly random: () => number;

  constructor(readonly scenario: SandboxScenario) {
    this.random = seeded(scenario.seed);
  }

  /** What the scenario did to this request's exchange (the recorder reads it when the answer has gone). */
  markOf(request: FastifyRequest): ExchangeMark | undefined {
    const mark = this.marks.get(request);
    if (!mark) return undefined;
    const { loseAnswer: _pending, ...recorded } = mark;
    return recorded;
  }

  /**
   * The player's hooks. Installed before the recorder, so its onSend runs first and the recorder keeps the answer
   * the client got. The preHandler runs after the business guard: the service's own refusals (406, 401, 429, 403)
   * come first, as they would on a real service, and only calls the service accepted are counted.
   */
  install(app: FastifyInstance): void {
    app.addHook('preHandler', async (request, reply) => {
      const caller = request.ctx?.caller;
      if (!request.routeOptions.config.business || !caller) return;
      this.play(request, reply, caller.client.clientId);
    });
    app.addHook('onSend', async (request, reply, payload) => this.answer(request, reply, payload));
  }

  private stateOf(clientId: string): ClientState {
    let state = this.clients.get(clientId);
    if (!state) {
      state = {
        business: 0,
        bookings: 0,
        tokens: 0,
        blockedUntilMs: 0,
        blockedBy: '',
        tokenBlockedUntilMs: 0,
        tokenBlockedBy: '',
      };
      this.clients.set(clientId, state);
    }
    return state;
  }

  private mark(request: FastifyRequest, mark: ExchangeMark): void {
    this.marks.set(request, { ...this.marks.get(request), ...mark });
  }

  private play(request: FastifyRequest, reply: FastifyReply, clientId: string): void {
    const state = this.stateOf(clientId);
    const now = Date.now();
    const token = BEARER.exec(String(request.headers.authorization ?? ''))?.[1];

    // What the scenario did earlier still holds, in the guard's order: the token, then the limit.
    const expiredBy = token ? this.expiredTokens.get(token) : undefined;
    if (expiredBy) {
      this.mark(request, { provoked: 'token-expired', step: expiredBy });
      throw invalidToken(reply);
    }
    if (now < state.blockedUntilMs) {
      this.mark(request, { provoked: '429', step: state.blockedBy });
      throw rateLimited(reply, state.blockedUntilMs, now);
    }

    state.business += 1;
    const businessStep = this.scenario.steps.find((s) => s.on === 'business' && s.nth === state.business);
    if (businessStep) this.act(businessStep, request, reply, state, token, undefined, now);

    if (!(request.method === 'POST' && request.routeOptions.url === RESERVATIONS_PATH)) return;
    const quoteId = quoteIdOf(request);
    const expiredQuote = quoteId ? this.expiredQuotes.get(quoteId) : undefined;
    if (expiredQuote) {
      this.mark(request, { provoked: 'quote-expired', step: expiredQuote });
      throw quoteExpired();
    }
    const staleQuote = quoteId ? this.staleQuotes.get(quoteId) : undefined;
    if (staleQuote) {
      this.mark(request, { provoked: 'quote-stale', step: staleQuote });
      throw quoteStale();
    }
    state.bookings += 1;
    const bookingStep = this.scenario.steps.find((s) => s.on === 'booking' && s.nth === state.bookings);
    if (bookingStep) this.act(bookingStep, request, reply, state, token, quoteId, now);
  }

  private act(
    step: ScenarioStep,
    request: FastifyRequest,
    reply: FastifyReply,
    state: ClientState,
    token: string | undefined,
    quoteId: string | undefined,
    now: number,
  ): void {
    const provoke = (provoked: Provocation) => this.mark(request, { provoked, step: step.id });
    switch (step.do) {
      case 'rate-limit':
        // As a real limiter: the window holds every business call of the client until Retry-After has passed.
        state.blockedUntilMs = now + (step.retryAfterS ?? 1) * 1000;
        state.blockedBy = step.id;
        provoke('429');
        throw rateLimited(reply, state.blockedUntilMs, now);
      case 'expire-token':
        if (!token) return;
        this.expiredTokens.set(token, step.id);
        provoke('token-expired');
        throw invalidToken(reply);
      case 'lose-answer':
        // The booking is made; its answer is replaced on the way out (onSend), once it is known to be a 201.
        this.mark(request, { loseAnswer: step.id });
        return;
      case 'replay-in-flight':
        provoke('in-flight');
        throw apiError(
          'IDEMPOTENT_REPLAY_IN_FLIGHT',
          'An identical request with this Idempotency-Key is still being processed.',
        );
      case 'expire-quote':
        if (!quoteId) return;
        this.expiredQuotes.set(quoteId, step.id);
        provoke('quote-expired');
        throw quoteExpired();
      case 'stale-quote':
        if (!quoteId) return;
        this.staleQuotes.set(quoteId, step.id);
        provoke('quote-stale');
        throw quoteStale();
      case 'decline':
        provoke('declined');
        throw apiError(
          'RESERVATION_REJECTED',
          'The operator declined this reservation; contact support with the requestId.',
        );
    }
  }

  /**
   * A token request the service granted, refused instead when a "token" step or its window says so. Decided on the
   * way out, once the answer is a 200: like the service's own per-client bucket, which counts authenticated requests
   * only, a request with wrong credentials keeps its 401, and the client is the one its credentials proved. The token
   * made is never sent, so nobody can use it.
   */
  private tokenAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    const clientId = tokenClientId(request);
    if (!clientId) return payload;
    const state = this.stateOf(clientId);
    const now = Date.now();
    if (now < state.tokenBlockedUntilMs) {
      this.mark(request, { provoked: '429', step: state.tokenBlockedBy });
      return slowDown(reply, state.tokenBlockedUntilMs, now);
    }
    state.tokens += 1;
    const step = this.scenario.steps.find((s) => s.on === 'token' && s.nth === state.tokens);
    if (!step) return payload;
    state.tokenBlockedUntilMs = now + (step.retryAfterS ?? 1) * 1000;
    state.tokenBlockedBy = step.id;
    this.mark(request, { provoked: '429', step: step.id });
    return slowDown(reply, state.tokenBlockedUntilMs, now);
  }

  private answer(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    let out = payload;
    if (request.method === 'POST' && request.routeOptions.url === TOKEN_PATH && reply.statusCode === 200) {
      out = this.tokenAnswer(request, reply, out);
    }
    const mark = this.marks.get(request);
    if (mark?.loseAnswer && reply.statusCode === 201) {
      const made = decodedAnswer(out, reply);
      const reservationId = typeof made?.reservationId === 'string' ? made.reservationId : null;
      this.mark(request, {
        provoked: 'lost-answer',
        step: mark.loseAnswer,
        withheld: { status: reply.statusCode, reservationId },
      });
      reply.code(503);
      reply.removeHeader('location');
      const requestId = request.ctx?.requestId ?? String(request.id);
      out = encodedAnswer(apiError('DEPENDENCY_UNAVAILABLE').envelope(requestId), reply);
    }
    if (this.scenario.rewordMessages && reply.statusCode >= 400) {
      const reworded = this.reworded(out, reply);
      if (reworded !== undefined) {
        out = reworded;
        this.mark(request, { messageReworded: true });
      }
    }
    return out;
  }

  /** The same answer with its message (7.2) or error_description (7.1) in another wording, or undefined. */
  private reworded(payload: unknown, reply: FastifyReply): string | undefined {
    const value = decodedAnswer(payload, reply);
    if (!value) return undefined;
    const pick = <T>(list: readonly T[]) => list[Math.floor(this.random() * list.length)] as T;
    const wording = `${pick(OPENINGS)} ${pick(SENTENCES)} (wording ${Math.floor(this.random() * 0x10000)
      .toString(16)
      .padStart(4, '0')})`;
    const envelope = value.error;
    if (
      typeof envelope === 'object' &&
      envelope !== null &&
      typeof (envelope as { code?: unknown }).code === 'string'
    ) {
      (envelope as Record<string, unknown>).message = wording;
    } else if (typeof envelope === 'string' && typeof value.error_description === 'string') {
      value.error_description = wording;
    } else {
      return undefined;
    }
    return encodedAnswer(value, reply);
  }
}

/** The client a granted token request authenticated: its Basic credentials, or the form's client_id. */
function tokenClientId(request: FastifyRequest): string | null {
  const [scheme = '', credentials = ''] = String(request.headers.authorization ?? '')
    .trim()
    .split(/\s+/, 2);
  if (/^basic$/i.test(scheme)) return basicClientId(credentials);
  const body = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
  return new URLSearchParams(body).get('client_id');
}

function quoteIdOf(request: FastifyRequest): string | undefined {
  if (!Buffer.isBuffer(request.body)) return undefined;
  const body = decodedBody(request.body, String(request.headers['content-type'] ?? ''), 'request');
  const quoteId = (body as { quoteId?: unknown } | undefined)?.quoteId;
  return typeof quoteId === 'string' && quoteId !== '' ? quoteId : undefined;
}

function decodedAnswer(payload: unknown, reply: FastifyReply): Record<string, unknown> | undefined {
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
  if (!bytes || bytes.byteLength === 0) return undefined;
  const value = decodedBody(bytes, String(reply.getHeader('content-type') ?? ''), 'response');
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** In the representation the answer already has (its Content-Type stays). */
function encodedAnswer(value: unknown, reply: FastifyReply): string {
  return isXml(String(reply.getHeader('content-type') ?? ''))
    ? serializeTypedXml(value as JsonValue, 'response')
    : JSON.stringify(value);
}

function invalidToken(reply: FastifyReply) {
  reply.header('WWW-Authenticate', 'Bearer realm="partner-api", error="invalid_token"');
  return apiError('INVALID_TOKEN');
}

function rateLimited(reply: FastifyReply, untilMs: number, now: number) {
  // Whole seconds, rounded up: a client that waits what it is told is never early (spec 8.15).
  const seconds = Math.max(1, Math.ceil((untilMs - now) / 1000));
  reply.header('X-RateLimit-Remaining', '0');
  reply.header('X-RateLimit-Reset', new Date(untilMs).toISOString());
  return apiError('RATE_LIMITED', undefined, { headers: { 'Retry-After': String(seconds) } });
}

/**
 * The token endpoint's 429 in the OAuth shape (spec 4.1, 5.4, 7.1), with Retry-After and no X-RateLimit-* (8.16b), the
 * same words as the reference's own slow_down.
 */
function slowDown(reply: FastifyReply, untilMs: number, now: number): string {
  reply.code(429);
  reply.header('Retry-After', String(Math.max(1, Math.ceil((untilMs - now) / 1000))));
  return JSON.stringify({
    error: 'slow_down',
    error_description: 'Too many token requests; retry after the number of seconds in Retry-After.',
  });
}

function quoteExpired() {
  return apiError('QUOTE_EXPIRED', 'The quote has expired; request a new one.');
}

function quoteStale() {
  return apiError('QUOTE_STALE', 'The price has changed since the quote was issued; request a new quote.');
}
