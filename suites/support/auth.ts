import { RESPONSE_CLAUSES } from '../../contract/clause-refs.ts';
import { MEDIA_TYPES } from '../../contract/constants.ts';
import { SCOPES } from '../../contract/scopes.ts';
import { basicAuthorization } from '../../harness/auth/token-cache.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { expectMediaType, expectSchema, requireSuccess } from '../../harness/check/expect-api.ts';
import { claim, currentClauseId, requireStep } from '../../harness/check/scope.ts';
import type { ClientCredentials, Role } from '../../harness/config/target-config.ts';
import { sharedStep } from './shared-steps.ts';

export const TOKEN_PATH = '/oauth/token';

export function credentialsOf(t: CheckContext, role: Role): ClientCredentials {
  const credentials = t.settings.target.clients[role];
  if (!credentials) throw new Error(`role ${role} is not configured: declare it in needs`);
  return credentials;
}

export interface TokenCall {
  /**
   * client_secret_basic, client_secret_post, or no client authentication. Default: the one the harness's token
   * cache found the endpoint takes for the role (Basic, unless the endpoint refuses it: 5.2a's check judges that).
   */
  auth?: 'basic' | 'post' | 'none';
  /** Replaces the role's secret (a wrong secret). */
  secret?: string;
  /** Replaces the role's client id. */
  clientId?: string;
  /** grant_type; null leaves it out. Default client_credentials. */
  grantType?: string | null;
  scope?: string;
  /** Extra or replacing headers (e.g. Accept). */
  headers?: Record<string, string>;
}

/** A raw token request (spec 4.1), bypassing the harness's token cache. */
export async function requestToken(t: CheckContext, role: Role, call: TokenCall = {}): Promise<ApiResult> {
  const credentials = credentialsOf(t, role);
  const clientId = call.clientId ?? credentials.clientId;
  const secret = call.secret ?? credentials.clientSecret;
  const form = new URLSearchParams();
  const grantType = call.grantType === undefined ? 'client_credentials' : call.grantType;
  if (grantType !== null) form.set('grant_type', grantType);
  if (call.scope !== undefined) form.set('scope', call.scope);
  const headers: Record<string, string> = { 'content-type': MEDIA_TYPES.form };
  const auth = call.auth ?? (await t.client(role).clientAuthentication());
  if (auth === 'basic') headers.authorization = basicAuthorization(clientId, secret);
  if (auth === 'post') {
    form.set('client_id', clientId);
    form.set('client_secret', secret);
  }
  return t.client(role).raw({
    method: 'POST',
    path: TOKEN_PATH,
    headers: { ...headers, ...call.headers },
    body: form.toString(),
  });
}

export interface IssuedToken {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export function scopeSet(scope: unknown): string[] {
  return typeof scope === 'string'
    ? scope
        .split(' ')
        .filter((s) => s !== '')
        .sort()
    : [];
}

/** How long a plain token answer is shared: well inside a token's 600 seconds (spec 5.3b). */
const PLAIN_TOKEN_MAX_AGE_MS = 60_000;

/**
 * The role's plain token request answered (client_credentials with its client authentication, no scope): the answer
 * every check of the token response judges (4.0.4, 4.1.1, 4.1.4 to 4.1.6, 5.3b, 5.3c, 5.5a, 8.16b) and the token the
 * checks of a bearer send, sent once for them (sharedStep) and again once a minute old or after a test hook that
 * changes state (a token the hook expired): the token endpoint has limits of its own (spec 8.16).
 */
export function plainTokenAnswer(t: CheckContext, role: Role): Promise<ApiResult> {
  return sharedTokenRequest(t, role);
}

/**
 * A token request that is the same whatever the check (no drawn value: the plain one, one client authentication, no
 * grant_type), answered once for every check that judges it (sharedStep) and again once a minute old or after a test
 * hook that changes state: each check judges its own rule on the answer, and the token endpoint has limits of its own
 * (spec 8.16). The client authentication is resolved first, so a call naming the role's own way is the plain one.
 */
export async function sharedTokenRequest(
  t: CheckContext,
  role: Role,
  call: Omit<TokenCall, 'headers'> = {},
): Promise<ApiResult> {
  const resolved: TokenCall = { ...call, auth: call.auth ?? (await t.client(role).clientAuthentication()) };
  const key = Object.entries(resolved)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ');
  return sharedStep(t, `token answer ${role} ${key}`, () => requestToken(t, role, resolved), {
    maxAgeMs: PLAIN_TOKEN_MAX_AGE_MS,
  });
}

/**
 * A token of the role from a raw request (not the client's cache), the answer the token checks share
 * (sharedTokenRequest); blocked by 4.0.4 (or 4.1.5) when the endpoint refuses.
 */
export async function freshToken(t: CheckContext, role: Role, scope?: string): Promise<IssuedToken> {
  const res = scope === undefined ? await plainTokenAnswer(t, role) : await sharedTokenRequest(t, role, { scope });
  const token = requireSuccess(res, 200, '4.0.4', `the token request for ${role}`) as IssuedToken;
  requireStep('4.1.5', typeof token?.access_token === 'string', 'the token response carries access_token', {
    actual: token?.access_token,
  });
  return token;
}

/**
 * The role's HTTP Basic credentials, for a token request that can carry them no other way (a JSON or XML body).
 * An endpoint that refuses Basic is 5.2a's deviation: filed there, and the check is blocked.
 */
export async function basicCredentials(t: CheckContext, role: Role): Promise<string> {
  requireStep(
    '5.2a',
    (await t.client(role).clientAuthentication()) === 'basic',
    `the token endpoint refuses HTTP Basic client authentication for ${role}, which this request needs`,
  );
  const { clientId, clientSecret } = credentialsOf(t, role);
  return basicAuthorization(clientId, clientSecret);
}

/**
 * A token request with valid Basic credentials but a JSON body instead of a form: the endpoint "stays form-encoded
 * in" (4.13.5b, restated by 4.1.1's "Request application/x-www-form-urlencoded"), so no token may be issued.
 */
export async function jsonTokenRequest(t: CheckContext): Promise<ApiResult> {
  const authorization = await basicCredentials(t, 'partnerA');
  // The same request for every check that judges it (4.1.1, 4.13.5b, 5.4a, 7.1.1): sent once (sharedTokenRequest).
  return sharedStep(
    t,
    'token answer partnerA json body',
    () =>
      t.client('partnerA').raw({
        method: 'POST',
        path: TOKEN_PATH,
        headers: { authorization, 'content-type': MEDIA_TYPES.json },
        body: JSON.stringify({ grant_type: 'client_credentials' }),
      }),
    { maxAgeMs: PLAIN_TOKEN_MAX_AGE_MS },
  );
}

/**
 * jsonTokenRequest for a check that judges the refusal (its status, its OAuth shape): a token issued for the JSON
 * body is the form rule's deviation, filed under 4.13.5b, and the check is blocked.
 */
export async function refusedJsonTokenRequest(t: CheckContext): Promise<ApiResult> {
  const res = await jsonTokenRequest(t);
  requireStep('4.13.5b', res.status !== 200, 'a token request with a JSON body is refused, not served', {
    actual: { status: res.status, body: res.excerpt },
  });
  return res;
}

/**
 * A token request the check's clause asks be refused (grant_type missing or not client_credentials, a body that is
 * not a form): no token, a 4xx, is the clause's own requirement. That the status is 400 is 5.4a's sentence ("400
 * for malformed request, unsupported grant type, ..."), filed there; the OAuth shape is 7.1's and its JSON 4.1.8's.
 */
export function expectTokenRequestRefused(res: ApiResult, what: string): void {
  const own = currentClauseId() ?? '5.4a';
  claim(own, res.status >= 400 && res.status < 500, `${what} is refused (HTTP 4xx), no token issued`, {
    expected: '4xx',
    actual: { status: res.status, body: res.excerpt },
  });
  claim('5.4a', res.status === 400, `${what} answers 400 (spec 5.4)`, {
    expected: 400,
    actual: { status: res.status, body: res.excerpt },
  });
  expectMediaType(res, 'json', RESPONSE_CLAUSES.tokenJson);
  expectSchema(res, 'OAuthError', 'the token endpoint error body');
}

/**
 * The scope names of a token response, for a check that compares scope sets (4.1.4, 5.5b). Names other than the
 * eight of the endpoint table are 5.5a's deviation ("Scopes: fleet:read, …"): filed there once, the check blocked,
 * since no set of such names can equal the one asked for.
 */
export function grantedScopes(scope: unknown, what = 'the token response'): string[] {
  const names = scopeSet(scope);
  const unknown = names.filter((name) => !(SCOPES as readonly string[]).includes(name));
  requireStep('5.5a', unknown.length === 0, `${what} names scopes outside the eight of spec 5.5`, {
    expected: SCOPES,
    actual: scope,
  });
  return names;
}
