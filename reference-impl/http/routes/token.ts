import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../../../contract/constants.ts';
import { OAUTH_ERRORS, type OAuthErrorCode } from '../../../contract/errors.ts';
import { isScope, type Scope } from '../../../contract/scopes.ts';
import type { PartnerFixture } from '../../../fixtures/types.ts';
import type { AccessTokens } from '../../domain/access-tokens.ts';
import type { Client, ClientRegistry } from '../../domain/credentials.ts';
import type { OperatorData } from '../../domain/operator-data.ts';
import type { FaultSwitch } from '../../faults/switch.ts';
import { bucketOf, type RateLimiter, retryAfterHeaders } from '../rate-limit/index.ts';
import type { RequestContext } from '../request-context.ts';

export interface TokenRouteDeps {
  accessTokens: AccessTokens;
  clients: ClientRegistry;
  operatorData: OperatorData;
  rateLimiter: RateLimiter;
  apiDisabledAtStart: boolean;
  limits: { perClientPerMinute: number; perAddressPerMinute: number };
  faults: FaultSwitch;
}

/** A token-endpoint failure in the OAuth shape of spec 7.1 (never the business envelope). */
export class OAuthFailure extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export function sendOAuthFailure(reply: FastifyReply, failure: OAuthFailure) {
  return reply
    .code(OAUTH_ERRORS[failure.error].status)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache', ...failure.headers })
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: failure.error, error_description: failure.description }));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const SINGLE_VALUED = ['grant_type', 'client_id', 'client_secret', 'scope'];

/** RFC 6749 2.3.1: Basic credentials are form-urlencoded before base64. */
function basicCredentials(header: string): { clientId: string; secret: string } | 'malformed' {
  // The scheme name is case-insensitive (RFC 9110 11.1).
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!match?.[1]) return 'malformed';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { clientId: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}

function formOf(request: FastifyRequest): URLSearchParams {
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/x-www-form-urlencoded') {
    throw new OAuthFailure('invalid_request', 'The request must be application/x-www-form-urlencoded.');
  }
  const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new OAuthFailure('invalid_request', 'The request body is not valid UTF-8.');
  }
  const form = new URLSearchParams(text);
  for (const name of SINGLE_VALUED) {
    if (form.getAll(name).length > 1) throw new OAuthFailure('invalid_request', `Parameter ${name} is repeated.`);
  }
  return form;
}

const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="partner-api"' };

function slowDown(headers: Record<string, string>) {
  return new OAuthFailure(
    'slow_down',
    'Too many token requests; retry after the number of seconds in Retry-After.',
    headers,
  );
}

/** Spec 4.1 and 5: OAuth 2.0 client credentials with client_secret_basic or client_secret_post. */
export function tokenRoute(app: FastifyInstance, deps: TokenRouteDeps) {
  app.post(`${API_PREFIX}/oauth/token`, { bodyLimit: 8 * 1024 }, async (request, reply) => {
    try {
      return await issueToken(deps, request, reply);
    } catch (error) {
      if (error instanceof OAuthFailure) return sendOAuthFailure(reply, error);
      throw error;
    }
  });
}

/** The token request's stages in the order the spec judges them; any refusal is thrown as an OAuthFailure. */
async function issueToken(deps: TokenRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  const { ctx } = request;
  await countAddress(deps, request);
  if ((deps.apiDisabledAtStart || ctx.control.apiDisabled) && deps.faults.enforce('api.enabled')) {
    throw new OAuthFailure('temporarily_unavailable', 'The partner API is not enabled on this environment.');
  }
  const form = formOf(request);
  const authorization = request.headers.authorization;
  const { clientId, secret } = clientCredentials(authorization, form);
  const grantType = form.get('grant_type');
  if (grantType === null || grantType === '') throw new OAuthFailure('invalid_request', 'grant_type is required.');
  const { client, partner } = await authenticate(deps, ctx, { clientId, secret }, authorization);
  if (grantType !== 'client_credentials') {
    throw new OAuthFailure('unsupported_grant_type', 'Only grant_type=client_credentials is supported.');
  }
  const scopes = grantedScopes(deps, client, partner, form.get('scope'));
  if (scopes.length === 0) throw new OAuthFailure('invalid_scope', 'The client holds no scope.');
  const issued = await deps.accessTokens.issue(
    { clientId: client.clientId, partnerId: partner.partnerId, scopes },
    ctx.nowMs,
  );
  return sendToken(reply, issued, scopes);
}

async function countAddress(deps: TokenRouteDeps, request: FastifyRequest) {
  const { ctx } = request;
  // Spec 8.16a: two separate buckets; the address one is counted first so floods of bad credentials are bounded.
  const byAddress = await deps.rateLimiter.hit(
    bucketOf(ctx.control.rateLimitGeneration, `token-addr:${request.ip}`),
    ctx.control.tokenAddressCeiling ?? deps.limits.perAddressPerMinute,
    ctx.nowMs,
  );
  // A variant whose address bucket counts something else (failed authentications only) lifts this one.
  if (!byAddress.allowed && deps.faults.enforce('token.addressLimit')) throw slowDown(retryAfterHeaders(byAddress));
}

/** The client's id and secret from exactly one of Basic authentication and the form. */
function clientCredentials(
  authorization: string | undefined,
  form: URLSearchParams,
): { clientId: string; secret: string } {
  const postId = form.get('client_id');
  const postSecret = form.get('client_secret');
  if (authorization !== undefined) {
    if (postId !== null || postSecret !== null) {
      throw new OAuthFailure('invalid_request', 'Use one client authentication method, not two.');
    }
    const basic = basicCredentials(authorization);
    if (basic === 'malformed')
      throw new OAuthFailure('invalid_client', 'Client authentication failed.', BASIC_CHALLENGE);
    return basic;
  }
  if (postId !== null && postSecret !== null) return { clientId: postId, secret: postSecret };
  throw new OAuthFailure('invalid_client', 'Client authentication failed.', BASIC_CHALLENGE);
}

/** The authenticated, active client and its active partner; anything else is invalid_client. */
async function authenticate(
  deps: TokenRouteDeps,
  ctx: RequestContext,
  credentials: { clientId: string; secret: string },
  authorization: string | undefined,
): Promise<{ client: Client; partner: PartnerFixture }> {
  const client = await deps.clients.authenticate(credentials.clientId, credentials.secret);
  // The per-client bucket counts authenticated requests only: failed guesses are the address bucket's, so
  // nobody who merely knows a client id can starve that client of tokens.
  if (client) {
    const byClient = await deps.rateLimiter.hit(
      bucketOf(ctx.control.rateLimitGeneration, `token-client:${client.clientId}`),
      deps.limits.perClientPerMinute,
      ctx.nowMs,
    );
    if (!byClient.allowed) throw slowDown(retryAfterHeaders(byClient));
  }
  const partner = client ? deps.operatorData.partners.get(client.partnerId) : undefined;
  const partnerActive =
    partner?.active && !ctx.control.disabledPartnerIds.includes(partner.partnerId)
      ? true
      : !deps.faults.enforce('token.partnerActive');
  if (!client?.active || !partner || !partnerActive) {
    throw new OAuthFailure('invalid_client', 'Client authentication failed.', authorization ? BASIC_CHALLENGE : {});
  }
  return { client, partner };
}

/** Spec 5.5: exactly the scopes held by both the client and the partner, limited to those requested. */
function grantedScopes(
  deps: TokenRouteDeps,
  client: Client,
  partner: PartnerFixture,
  requestedRaw: string | null,
): Scope[] {
  const granted = deps.faults.adjust(
    'token.scopes',
    client.scopes.filter((s) => (partner.scopes as string[]).includes(s)).filter(isScope),
    { partnerId: partner.partnerId, clientScopes: client.scopes, partnerScopes: partner.scopes },
  );
  if (requestedRaw === null || requestedRaw.trim() === '') return granted;
  const requested = requestedRaw.split(' ').filter((s) => s !== '');
  if (!requested.some((s) => !(granted as string[]).includes(s))) return granted.filter((s) => requested.includes(s));
  if (!deps.faults.enforce('token.scopeWithinGrant')) return requested.filter(isScope);
  if (
    // Only scopes the client itself holds may be narrowed away: anything else is beyond any grant (5.4a).
    requested.every((s) => (client.scopes as readonly string[]).includes(s)) &&
    deps.faults.adjust('token.beyondGrant', 'refuse', { requested }) === 'narrow'
  ) {
    return granted.filter((s) => requested.includes(s));
  }
  throw new OAuthFailure('invalid_scope', 'The requested scope exceeds the grant.');
}

function sendToken(reply: FastifyReply, issued: { token: string; expiresIn: number }, scopes: Scope[]) {
  return reply
    .code(200)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
    .type('application/json; charset=utf-8')
    .send(
      JSON.stringify({
        access_token: issued.token,
        token_type: 'Bearer',
        expires_in: issued.expiresIn,
        scope: scopes.join(' '),
      }),
    );
}
