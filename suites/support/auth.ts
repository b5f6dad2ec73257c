import { MEDIA_TYPES } from '../../contract/constants.ts';
import { basicAuthorization } from '../../harness/auth/token-cache.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { requireSuccess } from '../../harness/check/expect-api.ts';
import { requireStep } from '../../harness/check/scope.ts';
import type { ClientCredentials, Role } from '../../harness/config/target-config.ts';

export const TOKEN_PATH = '/oauth/token';

export function credentialsOf(t: CheckContext, role: Role): ClientCredentials {
  const credentials = t.settings.target.clients[role];
  if (!credentials) throw new Error(`role ${role} is not configured: declare it in needs`);
  return credentials;
}

export interface TokenCall {
  /** client_secret_basic (default), client_secret_post, or no client authentication. */
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
  const auth = call.auth ?? 'basic';
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

/** A token of the role from a fresh raw request; blocked by 4.0.4 (or 4.1.5) when the endpoint refuses. */
export async function freshToken(t: CheckContext, role: Role, scope?: string): Promise<IssuedToken> {
  const res = await requestToken(t, role, scope === undefined ? {} : { scope });
  const token = requireSuccess(res, 200, '4.0.4', `the token request for ${role}`) as IssuedToken;
  requireStep('4.1.5', typeof token?.access_token === 'string', 'the token response carries access_token', {
    actual: token?.access_token,
  });
  return token;
}

/** A token request with valid Basic credentials but a JSON body instead of a form (spec 4.1 wants a form). */
export function jsonTokenRequest(t: CheckContext): Promise<ApiResult> {
  const { clientId, clientSecret } = credentialsOf(t, 'partnerA');
  return t.client('partnerA').raw({
    method: 'POST',
    path: TOKEN_PATH,
    headers: { authorization: basicAuthorization(clientId, clientSecret), 'content-type': MEDIA_TYPES.json },
    body: JSON.stringify({ grant_type: 'client_credentials' }),
  });
}
