import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccessTokens } from '../domain/access-tokens.ts';
import type { ClientRegistry } from '../domain/credentials.ts';
import { apiError } from '../domain/failure.ts';
import type { OperatorData } from '../domain/operator-data.ts';
import type { FaultSwitch } from '../faults/switch.ts';
import { negotiate } from './negotiation.ts';
import { bucketOf, type RateLimiter, rateLimitHeaders, retryAfterHeaders } from './rate-limit/index.ts';

export interface GuardDeps {
  accessTokens: AccessTokens;
  clients: ClientRegistry;
  operatorData: OperatorData;
  rateLimiter: RateLimiter;
  apiDisabledAtStart: boolean;
  faults: FaultSwitch;
}

// The scheme name is case-insensitive (RFC 9110 11.1); the token is RFC 6750's b64token.
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The checks every business call passes before its handler (spec 4.13, 5.6, 5.8, 8), in this order:
 * representation (406), API switch (503), token (401), rate limit (429), partner (403), scope (403).
 * From the rate-limit step on, every response carries the X-RateLimit-* headers (spec 8.14).
 */
export function businessGuard(deps: GuardDeps) {
  return async function guard(request: FastifyRequest, reply: FastifyReply) {
    const ctx = request.ctx;
    const representation = negotiate(request.headers.accept);
    if (!representation) throw apiError('NOT_ACCEPTABLE');
    ctx.representation = representation;
    if ((deps.apiDisabledAtStart || ctx.control.apiDisabled) && deps.faults.enforce('api.enabled')) {
      throw apiError('API_DISABLED');
    }

    const authorization = request.headers.authorization;
    if (authorization === undefined || authorization.trim() === '') {
      reply.header('WWW-Authenticate', 'Bearer realm="partner-api"');
      throw apiError('UNAUTHORIZED');
    }
    const match = BEARER.exec(authorization);
    const expiry = deps.faults.enforce('token.expiry');
    // A token verified at its own issue time never expires (a fault's server); otherwise at the service clock.
    let verified = match?.[1] ? await deps.accessTokens.verify(match[1], expiry ? ctx.nowMs : 0) : null;
    if (verified === null && match?.[1] && !deps.faults.enforce('token.signature')) {
      verified = deps.accessTokens.claimedSubject(match[1]);
    }
    // Test hook "expire tokens": tokens issued to the client before that moment are expired too.
    const expiredByHook =
      verified !== null && expiry && verified.issuedAtMs < (ctx.control.tokensExpiredBefore[verified.clientId] ?? 0);
    const subject = expiredByHook ? null : verified;
    const client = subject ? deps.clients.byId(subject.clientId) : undefined;
    if (!subject || !client) {
      reply.header('WWW-Authenticate', 'Bearer realm="partner-api", error="invalid_token"');
      throw apiError('INVALID_TOKEN');
    }

    const bucket = deps.faults.adjust('rateLimit.key', `client:${client.clientId}`, {
      clientId: client.clientId,
      ip: request.ip,
    });
    const decision = deps.faults.adjust(
      'rateLimit',
      await deps.rateLimiter.hit(
        bucketOf(ctx.control.rateLimitGeneration, bucket),
        deps.faults.adjust('rateLimit.limit', client.rateLimitPerMinute, { clientId: client.clientId }),
        ctx.nowMs,
      ),
      { key: bucket, limit: client.rateLimitPerMinute },
    );
    reply.headers(rateLimitHeaders(decision));
    if (!decision.allowed && deps.faults.enforce('rateLimit')) {
      throw apiError('RATE_LIMITED', undefined, { headers: retryAfterHeaders(decision) });
    }

    const partner = deps.operatorData.partners.get(subject.partnerId);
    if (
      (!partner?.active || !client.active || ctx.control.disabledPartnerIds.includes(subject.partnerId)) &&
      deps.faults.enforce('partner.active')
    ) {
      throw apiError('PARTNER_DISABLED');
    }
    ctx.caller = { client, partnerId: subject.partnerId, scopes: subject.scopes };
    if (ctx.control.faults.dependencyUnavailable) throw apiError('DEPENDENCY_UNAVAILABLE');
    // A plain Error takes the path any unexpected failure takes: 500 INTERNAL_ERROR in the envelope.
    if (ctx.control.faults.internalError) throw new Error('injected fault: internalError');

    const scope = request.routeOptions.config.scope;
    if (scope && !subject.scopes.includes(scope) && deps.faults.enforce('scope')) {
      reply.header('WWW-Authenticate', `Bearer realm="partner-api", error="insufficient_scope", scope="${scope}"`);
      throw apiError('INSUFFICIENT_SCOPE');
    }
  };
}
