/**
 * Spec 7.1 The token endpoint's error shape: OAuthError, closed, with required string error and
 * error_description, used by the token endpoint only. Token errors are provoked with generated faults (raw
 * requests, the token cache bypassed); business errors of every endpoint are shown never to take that shape.
 */
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { ENDPOINT_CLAUSE, type OperationId } from '../contract/clause-refs.ts';
import { MEDIA_TYPES } from '../contract/constants.ts';
import { SCOPES } from '../contract/scopes.ts';
import { type ApiResult, type CheckContext, check, SKIP } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { expectMediaType, expectSchema } from '../harness/check/expect-api.ts';
import { claim } from '../harness/check/scope.ts';
import type { Role } from '../harness/config/target-config.ts';
import { REPRESENTATIONS } from '../harness/http/representation.ts';
import { credentialsOf, jsonTokenRequest, requestToken, type TokenCall } from './support/auth.ts';
import { endpointRefusals } from './support/endpoint-refusals.ts';
import { ENDPOINT_PROFILES } from './support/endpoints.ts';

const partnerA: Role = 'partnerA';

/** One fault of a token request; each makes the token endpoint refuse. */
type TokenFault =
  | { kind: 'wrong-secret'; auth: 'basic' | 'post'; secret: string }
  | { kind: 'unknown-client'; auth: 'basic' | 'post'; suffix: string }
  | { kind: 'grant-type'; grantType: string | null }
  | { kind: 'scope'; scope: string }
  | { kind: 'json-body' };

const alnum = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');

/** `basic`: the endpoint takes HTTP Basic, which a JSON body needs to carry the credentials (else 5.2a's, filed there). */
function tokenFault(realSecret: string, basic: boolean): fc.Arbitrary<TokenFault> {
  const auth = fc.constantFrom<'basic' | 'post'>('basic', 'post');
  const kinds: fc.Arbitrary<TokenFault>[] = [
    fc.record({
      kind: fc.constant('wrong-secret' as const),
      auth,
      secret: fc.string({ unit: alnum, minLength: 8, maxLength: 48 }).filter((s) => s !== realSecret),
    }),
    fc.record({
      kind: fc.constant('unknown-client' as const),
      auth,
      suffix: fc.string({ unit: alnum, minLength: 4, maxLength: 16 }),
    }),
    fc.record({
      kind: fc.constant('grant-type' as const),
      grantType: fc.constantFrom(null, 'authorization_code', 'password', 'refresh_token', 'implicit', 'client'),
    }),
    fc.record({
      kind: fc.constant('scope' as const),
      scope: fc.stringMatching(/^[a-z]{3,10}:[a-z]{3,10}$/).filter((s) => !(SCOPES as readonly string[]).includes(s)),
    }),
  ];
  if (basic) kinds.push(fc.constant({ kind: 'json-body' as const }));
  return fc.oneof(...kinds);
}

/** What the OAuth status of the fault is (spec 5.4): 401 for client authentication, 400 for the rest. */
function statusOf(fault: TokenFault): number {
  return fault.kind === 'wrong-secret' || fault.kind === 'unknown-client' ? 401 : 400;
}

/** The clause that states the fault's status: 5.4b (401 invalid_client) or 5.4a (400). */
function statusClauseOf(fault: TokenFault): string {
  return statusOf(fault) === 401 ? '5.4b' : '5.4a';
}

/** The clause a token issued despite the fault breaks. */
function servedClauseOf(fault: TokenFault): string {
  if (fault.kind === 'grant-type') return '4.1.2';
  if (fault.kind === 'json-body') return '4.13.5b';
  return statusClauseOf(fault);
}

function send(t: CheckContext, fault: TokenFault, accept: string | null): Promise<ApiResult> {
  if (fault.kind === 'json-body') return jsonTokenRequest(t);
  const headers: Record<string, string> = accept === null ? {} : { accept };
  const call: TokenCall = { headers };
  if (fault.kind === 'wrong-secret') Object.assign(call, { auth: fault.auth, secret: fault.secret });
  if (fault.kind === 'unknown-client') {
    Object.assign(call, { auth: fault.auth, clientId: `cert-unknown-${fault.suffix}` });
  }
  if (fault.kind === 'grant-type') call.grantType = fault.grantType;
  if (fault.kind === 'scope') call.scope = fault.scope;
  return requestToken(t, partnerA, call);
}

/** An OAuthError-shaped body: a string `error` at the top (spec 7.1). */
function isOAuthShaped(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const record = body as Record<string, unknown>;
  return typeof record.error === 'string' || 'error_description' in record;
}

describe('7.1 Token endpoint error shape', () => {
  // Spec 7.1.1: "OAuthError (closed, both required): error (string), error_description (string)."
  check('7.1.1')(
    {
      needs: [partnerA],
      name: 'Every token-endpoint refusal is a closed OAuthError with string error and error_description',
    },
    async (t) => {
      const { clientSecret } = credentialsOf(t, partnerA);
      const basic = (await t.client(partnerA).clientAuthentication()) === 'basic';
      const accept = fc.constantFrom<string | null>(null, MEDIA_TYPES.json, MEDIA_TYPES.xml);
      await t.forAll(
        fc.tuple(tokenFault(clientSecret, basic), accept),
        async ([fault, acceptHeader]) => {
          const res = await send(t, fault, acceptHeader);
          // This clause judges the refusal's shape; that there is a refusal, and its status, are 5.4's (or 4.1.2's,
          // 4.13.5b's): filed there, and a case served or refused otherwise than with a 4xx shows no OAuthError to judge.
          const where = `${fault.kind}: HTTP ${res.status} ${res.excerpt}`;
          if (res.status < 400) {
            claim(servedClauseOf(fault), false, `${where}: served, not refused`);
            return SKIP;
          }
          claim(statusClauseOf(fault), res.status === statusOf(fault), `${where}: HTTP status ${statusOf(fault)}`, {
            expected: statusOf(fault),
            actual: res.status,
          });
          if (res.status >= 500) return SKIP;
          expectMediaType(res, 'json');
          expectSchema(res, 'OAuthError');
          const body = res.body as Record<string, unknown>;
          expect(Object.keys(body).sort(), 'exactly the two fields').toEqual(['error', 'error_description']);
          expect(typeof body.error, 'error is a string').toBe('string');
          expect(typeof body.error_description, 'error_description is a string').toBe('string');
        },
        { numRuns: casesFor(t, 'tokenRefusal') },
      );
    },
  );

  for (const { level } of ENDPOINT_PROFILES) {
    // Spec 7.1.2: "Used only by the token endpoint."
    check('7.1.2')(
      {
        representations: REPRESENTATIONS,
        needs: [partnerA],
        profile: level,
        name: `Refusals of every ${level}-profile endpoint (no, malformed or wrong-scope token) use the envelope, never OAuthError`,
      },
      async (t) => {
        // The refusals 4.0.2 and 7.3.1 judge too (endpointRefusals): sent once for the run.
        for (const { endpoint, what, res } of await endpointRefusals(t, level)) {
          const where = `${what}: HTTP ${res.status} ${res.excerpt}`;
          // A call served anyway is its endpoint's scope or token rule broken (4.0.x, 5.6), not the refusal shape.
          if (res.status < 400) {
            claim(ENDPOINT_CLAUSE[endpoint.operationId as OperationId], false, `${where}: served, not refused`);
            continue;
          }
          expect(isOAuthShaped(res.body), `${where}: OAuthError shape outside the token endpoint`).toBe(false);
          expectSchema(res, 'ErrorEnvelope');
        }
      },
    );
  }
});
