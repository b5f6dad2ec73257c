import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  RECORDING_VERSION,
  type RecordedAuthorization,
  type RecordedExchange,
} from '../../contract/client-clauses/exchange.ts';
import { API_PREFIX } from '../../contract/constants.ts';
import type { AccessTokens } from '../domain/access-tokens.ts';
import { basicClientId, decodedBody } from './decode.ts';
import type { ExchangeMark } from './scenario.ts';

/**
 * Sandbox mode (README "Configuration", SANDBOX_RECORD): one JSON line per exchange, for the client judge
 * (harness/client-certify/, docs/client-clauses.md). The line format is the contract's `RecordedExchange`.
 *
 * Secrets never reach the file: a bearer token becomes its scheme and a hash (the same token always hashes the same,
 * so the judge can follow one token's uses), Basic credentials the client id they name, a client_secret field the
 * fact that it was sent. Booking bodies are written whole: the judge compares quoteIds and partnerReferences, and a
 * sandbox's travellers are test data.
 */
export interface SandboxRecorderDeps {
  /** The JSON Lines file appended to (created when absent). */
  file: string;
  /** To read which client a bearer token names, even an expired one (signature and expiry unchecked). */
  accessTokens: Pick<AccessTokens, 'claimedSubject'>;
  /** Under SANDBOX_SCENARIO: what the scenario did to an exchange, written on its line. */
  markOf?: (request: FastifyRequest) => ExchangeMark | undefined;
}

const TOKEN_PATH = `${API_PREFIX}/oauth/token`;
const RESERVATIONS_PATH = `${API_PREFIX}/reservations`;

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 16);
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

function headerOf(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
}

function authorizationOf(
  header: string | null,
  accessTokens: SandboxRecorderDeps['accessTokens'],
): { recorded: RecordedAuthorization | null; clientId: string | null } {
  if (header === null || header.trim() === '') return { recorded: null, clientId: null };
  const [scheme = '', credentials = ''] = header.trim().split(/\s+/, 2);
  if (/^bearer$/i.test(scheme)) {
    return {
      recorded: { scheme, tokenHash: tokenHash(credentials) },
      clientId: accessTokens.claimedSubject(credentials)?.clientId ?? null,
    };
  }
  if (/^basic$/i.test(scheme)) return { recorded: { scheme }, clientId: basicClientId(credentials) };
  return { recorded: { scheme }, clientId: null };
}

function bodyBytes(request: FastifyRequest): Buffer | null {
  return Buffer.isBuffer(request.body) && request.body.byteLength > 0 ? request.body : null;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

interface Pending {
  receivedAtMs: number;
  payload?: Buffer;
}

export function installSandboxRecorder(app: FastifyInstance, deps: SandboxRecorderDeps): void {
  const pending = new WeakMap<FastifyRequest, Pending>();
  let seq = 0;

  app.addHook('onRequest', async (request) => {
    pending.set(request, { receivedAtMs: Date.now() });
  });
  // Written as the answer leaves (the last onSend: the scenario's have run, status, headers and body are final), not
  // on onResponse: a sandbox stopped right after a client read its last answer (Ctrl-C) may exit before the socket's
  // 'finish' is seen, and that exchange would be lost from the session the judge reads.
  app.addHook('onSend', async (request, reply, payload) => {
    const entry = pending.get(request) ?? { receivedAtMs: Date.now() };
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) entry.payload = Buffer.from(payload);
    seq += 1;
    appendFileSync(deps.file, `${JSON.stringify(exchangeOf(request, reply, entry, seq, deps))}\n`);
    return payload;
  });
}

function exchangeOf(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: Pending,
  seq: number,
  deps: SandboxRecorderDeps,
): RecordedExchange {
  const [path = '', query] = request.url.split('?', 2);
  const contentType = headerOf(request, 'content-type');
  const auth = authorizationOf(headerOf(request, 'authorization'), deps.accessTokens);
  let clientId = auth.clientId;
  const body = bodyBytes(request);
  let bodySha256 = body ? sha256(body) : null;

  const exchange: Partial<RecordedExchange> = {};
  if (request.method === 'POST' && path === TOKEN_PATH) {
    const form = new URLSearchParams(body ? body.toString('utf8') : '');
    const clientSecretInForm = form.has('client_secret');
    // The digest must not become a way to test guesses of the secret: it is taken with the secret masked.
    if (clientSecretInForm) form.set('client_secret', '[redacted]');
    if (body) bodySha256 = sha256(form.toString());
    clientId ??= form.get('client_id');
    exchange.tokenRequest = {
      grantType: form.get('grant_type'),
      scope: form.get('scope'),
      clientIdInForm: form.has('client_id'),
      clientSecretInForm,
    };
  }
  const answer = entry.payload
    ? decodedBody(entry.payload, String(reply.getHeader('content-type') ?? ''), 'response')
    : undefined;
  if (request.method === 'POST' && path === RESERVATIONS_PATH) {
    const made = reply.statusCode < 300 ? record(answer)?.reservationId : undefined;
    exchange.booking = {
      body: body ? (decodedBody(body, contentType, 'request') ?? null) : null,
      // Which rental the answer names: a replay names the first attempt's, so the judge can count rentals.
      reservationId: typeof made === 'string' ? made : null,
    };
  }
  const mark = deps.markOf?.(request);
  if (mark?.provoked) exchange.provoked = mark.provoked;
  if (mark?.step) exchange.scenarioStep = mark.step;
  if (mark?.messageReworded) exchange.messageReworded = true;
  if (mark?.withheld) exchange.withheld = mark.withheld;
  const envelope = record(record(answer)?.error);
  let errorCode: string | null = null;
  if (reply.statusCode >= 400) {
    const oauthError = record(answer)?.error;
    errorCode = typeof envelope?.code === 'string' ? envelope.code : typeof oauthError === 'string' ? oauthError : null;
  }
  const issued = record(answer);
  if (path === TOKEN_PATH && reply.statusCode === 200 && typeof issued?.access_token === 'string') {
    exchange.issuedToken = {
      tokenHash: tokenHash(issued.access_token),
      expiresInS: typeof issued.expires_in === 'number' ? issued.expires_in : 0,
      scope: typeof issued.scope === 'string' ? issued.scope : '',
    };
    clientId ??= deps.accessTokens.claimedSubject(issued.access_token)?.clientId ?? null;
  }
  const retryAfter = Number(reply.getHeader('retry-after'));

  return {
    v: RECORDING_VERSION,
    seq,
    requestId: String(request.id),
    clientId,
    method: request.method,
    path,
    query: query ?? null,
    protocol: request.protocol === 'https' ? 'https' : 'http',
    headers: {
      accept: headerOf(request, 'accept'),
      contentType,
      authorization: auth.recorded,
      idempotencyKey: headerOf(request, 'idempotency-key'),
    },
    bodySha256,
    bodyBytes: body?.byteLength ?? 0,
    ...exchange,
    status: reply.statusCode,
    errorCode,
    retryable: typeof envelope?.retryable === 'boolean' ? envelope.retryable : null,
    retryAfterS: Number.isFinite(retryAfter) && reply.hasHeader('retry-after') ? retryAfter : null,
    idempotentReplay: reply.getHeader('idempotent-replay') === 'true',
    receivedAtMs: entry.receivedAtMs,
    respondedAtMs: Date.now(),
  };
}
