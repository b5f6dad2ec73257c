import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../../contract/constants.ts';
import { ApiError, apiError } from '../domain/failure.ts';
import { negotiate } from './negotiation.ts';
import { RateLimitStoreUnavailableError } from './rate-limit/index.ts';
import { sendRepresentation } from './respond.ts';
import { OAuthFailure, sendOAuthFailure } from './routes/token.ts';

const TOKEN_PATH = `${API_PREFIX}/oauth/token`;

/** Maps any failure to the spec's shape: the OAuth error on the token endpoint, the 7.2 envelope elsewhere. */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof RateLimitStoreUnavailableError || isStoreUnavailable(error))
    return apiError('DEPENDENCY_UNAVAILABLE');
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return apiError('REQUEST_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return apiError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return apiError('VALIDATION_ERROR', 'The request body does not match its Content-Length.');
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return apiError('VALIDATION_ERROR', 'The request is malformed.');
  }
  return apiError('INTERNAL_ERROR');
}

/**
 * node-postgres reports a lost or unobtainable connection with these messages and no SQLSTATE (its errors carry no
 * code of their own); a server-side error always has one.
 */
const PG_CONNECTION_LOSS =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Query read timeout|Connection terminated due to connection timeout|Cannot use a pool after calling end)/;

/**
 * SQLite failures of the file or disk under the store, each with its extended codes (better-sqlite3 reports e.g.
 * SQLITE_IOERR_WRITE): locked by another connection (BUSY), disk full (FULL), a write refused or failed (IOERR; seen:
 * IOERR_WRITE, EPERM, on a file turned read-only under the server), a read-only file (READONLY). A failed group commit
 * writes nothing, so the request can be retried once the disk is back.
 */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|FULL|IOERR|READONLY)(_|$)/;

/**
 * PostgreSQL SQLSTATEs of a server going away or not there yet: admin_shutdown (57P01, also pg_ctl stop), crash_shutdown
 * (57P02: a backend was killed, e.g. an immediate stop), cannot_connect_now (57P03: starting up, in recovery),
 * too_many_connections (53300), and class 08 (connection exceptions).
 */
const PG_UNAVAILABLE = /^(57P0[123]|53300|08...)$/;

/** Connection-level failures of PostgreSQL, Redis or SQLite's disk: the dependency, not the request, is at fault. */
export function isStoreUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    return (
      ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code) ||
      SQLITE_UNAVAILABLE.test(code) ||
      PG_UNAVAILABLE.test(code)
    );
  }
  return error instanceof Error && PG_CONNECTION_LOSS.test(error.message);
}

/**
 * The token endpoint is POST /oauth/token only: another method on that path reached no route (404 in the
 * envelope, like any unknown resource) and must not be answered as a failing token request.
 */
function isTokenEndpoint(request: FastifyRequest): boolean {
  return request.method === 'POST' && request.routeOptions.url === TOKEN_PATH;
}

/** Declared bodies up to this size are read to their end before a refusal, so the client sees the answer. */
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;
const DRAIN_TIMEOUT_MS = 5_000;

/**
 * A body refused before it was read (too large by its Content-Length) is still on the wire: answering now makes
 * the server close the connection under the client's upload, which most clients report as a network failure
 * instead of the 413. Up to a bound the rest is read and discarded first; beyond it the connection is given up.
 */
async function drainUnreadBody(request: FastifyRequest): Promise<void> {
  const raw = request.raw;
  const declared = Number(raw.headers['content-length']);
  if (raw.complete || raw.readableEnded || !(declared > 0 && declared <= DRAIN_LIMIT_BYTES)) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    raw.once('end', done);
    raw.once('error', done);
    raw.once('close', done);
    raw.resume();
  });
}

export async function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if ((error as Partial<FastifyError>).code === 'FST_ERR_CTP_BODY_TOO_LARGE') await drainUnreadBody(request);
  if (isTokenEndpoint(request)) {
    const failure =
      error instanceof OAuthFailure
        ? error
        : (error as Partial<FastifyError>).code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? new OAuthFailure('invalid_request', 'The request body is too large.')
          : null;
    if (failure) return sendOAuthFailure(reply, failure);
    request.log.error({ err: error }, 'token endpoint failure');
    return sendOAuthFailure(
      reply,
      new OAuthFailure('temporarily_unavailable', 'The token endpoint is temporarily unavailable.'),
    );
  }
  const apiErr = toApiError(error);
  if (apiErr.code === 'INTERNAL_ERROR' || apiErr.code === 'DEPENDENCY_UNAVAILABLE') {
    request.log.error({ err: error }, 'request failed');
  }
  const requestId = request.ctx?.requestId ?? String(request.id);
  reply.header('x-request-id', requestId);
  reply.headers(apiErr.headers);
  return sendRepresentation(reply, apiErr.status, apiErr.envelope(requestId), request.ctx?.representation);
}

/**
 * Fastify's router answers a path it cannot decode (FST_ERR_BAD_URL) or an over-long parameter
 * (FST_ERR_MAX_PARAM_LENGTH) before any hook runs, in its own shape and echoing the path. Such a path names
 * no resource: 404 NOT_FOUND in the 7.2 envelope, negotiated like every other answer.
 */
export function handleFrameworkError(_error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const requestId = String(request.id);
  const representation = negotiate(request.headers.accept) ?? undefined;
  reply.headers({
    'x-request-id': requestId,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    vary: 'Accept',
  });
  const error = apiError('NOT_FOUND');
  return sendRepresentation(reply, error.status, error.envelope(requestId), representation);
}
