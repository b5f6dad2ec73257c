import { API_PREFIX, MEDIA_TYPES } from '../../contract/constants.ts';
import type { ClientCredentials, Role } from '../config/target-config.ts';
import type { HttpRequest, HttpResponse, SendOptions } from '../http/client.ts';
import { retryAfterSeconds } from '../http/pacing.ts';

/** A cached token is dropped this long before it expires, so it never expires in flight. */
export const REFRESH_MARGIN_SECONDS = 30;

export type SendFn = (req: HttpRequest, options?: SendOptions) => Promise<HttpResponse>;

export interface TokenCacheOptions {
  baseUrl: string;
  clients: Partial<Record<Role, ClientCredentials>>;
  send: SendFn;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * The scopes each role's token carries (pre-flight's reading, RunSettings.granted): a token limited to a scope the
   * role does not hold is never asked for. A role absent here: every scope.
   */
  granted?: Partial<Record<Role, readonly string[]>>;
}

/** Longest Retry-After the cache waits out on a 429 slow_down before it gives up. */
export const MAX_SLOW_DOWN_WAIT_SECONDS = 60;

/** The harness could not obtain a token for a role: a harness or configuration error, never a check failure. */
export class TokenFetchError extends Error {
  override readonly name: string = 'TokenFetchError';
}

/**
 * The role holds none of `scopes` on this target: pre-flight saw its token without them, or the token endpoint
 * refused a token limited to them (400 invalid_scope, spec 5.4). Not a defect of the harness: the check that asked
 * cannot be judged with this role (not-applicable), whatever the profile.
 */
export class ScopeNotGrantedError extends TokenFetchError {
  override readonly name = 'ScopeNotGrantedError';
  constructor(
    readonly role: Role,
    readonly scopes: readonly string[],
    why: string,
  ) {
    super(`${role} does not hold ${scopes.join(', ')}: ${why}`);
  }
}

/** RFC 6749 2.3.1: client id and secret are form-urlencoded before they are joined and base64-encoded. */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const form = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${form(clientId)}:${form(clientSecret)}`).toString('base64')}`;
}

/** Client authentication at the token endpoint (spec 5.2): client_secret_basic or client_secret_post. */
export type ClientAuthentication = 'basic' | 'post';

interface Entry {
  token: string;
  /** Epoch ms after which the token is not handed out again. */
  reuseUntil: number;
}

/**
 * Spec 5.3: one token per (role, scope set), reused until shortly before it expires, like a well-behaved client.
 * Checks that judge the token endpoint itself make raw calls and never go through this cache.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry>>();
  /** Scope sets the endpoint refused a role (invalid_scope): never asked again in the run. */
  private readonly refused = new Map<string, ScopeNotGrantedError>();
  /** Tokens issued for a request without `scope` (everything the role holds), by their value. */
  private readonly unlimited = new Set<string>();
  /** The client authentication each role's token requests use, once a token was issued with it. */
  private readonly methods = new Map<Role, ClientAuthentication>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: TokenCacheOptions) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** A token of the role limited to `scopes` (omitted: everything the client holds). */
  async token(role: Role, scopes?: readonly string[]): Promise<string> {
    const key = cacheKey(role, scopes);
    const granted = this.options.granted?.[role];
    const lacking = granted ? (scopes ?? []).filter((scope) => !granted.includes(scope)) : [];
    if (lacking.length > 0) {
      throw new ScopeNotGrantedError(role, lacking, `its token carries ${granted?.join(' ') || 'no scope'}`);
    }
    const refused = this.refused.get(key);
    if (refused) throw refused;
    const entry = this.entries.get(key);
    if (entry && this.now() < entry.reuseUntil) return entry.token;
    let fetching = this.pending.get(key);
    if (!fetching) {
      fetching = this.fetch(role, scopes).finally(() => this.pending.delete(key));
      this.pending.set(key, fetching);
    }
    const fresh = await fetching;
    this.entries.set(key, fresh);
    return fresh.token;
  }

  /**
   * Takes a token the role was issued without a scope before this cache existed (pre-flight, in the runner process):
   * handed out as if this cache had fetched it, until `reuseUntil`, with the client authentication it was issued by.
   */
  adopt(role: Role, issued: { accessToken: string; method: ClientAuthentication; reuseUntil: number }): void {
    if (this.now() >= issued.reuseUntil) return;
    this.entries.set(cacheKey(role, undefined), { token: issued.accessToken, reuseUntil: issued.reuseUntil });
    this.methods.set(role, issued.method);
    this.unlimited.add(issued.accessToken);
  }

  /**
   * Whether `token` came from this cache for a request without `scope`, i.e. carries everything its role holds: a
   * call made with it means to be served, not to be refused for a scope (harness/check/scope-guard.ts).
   */
  isUnlimited(token: string): boolean {
    return this.unlimited.has(token);
  }

  /** Forgets `token` (the server refused it), so the next token() call fetches a new one. */
  invalidate(role: Role, scopes: readonly string[] | undefined, token: string): void {
    const key = cacheKey(role, scopes);
    if (this.entries.get(key)?.token === token) this.entries.delete(key);
  }

  /**
   * How the role's client authenticates at the token endpoint: HTTP Basic (spec 5.2: client_secret_basic,
   * "preferred"), or the secret in the form (client_secret_post) when the endpoint refuses Basic and takes the form.
   * Found by the role's first token request and kept for the run; checks that judge the token endpoint make raw
   * calls the same way, and 5.2a's own check is the one that judges a refused Basic.
   */
  async clientAuthentication(role: Role): Promise<ClientAuthentication> {
    const known = this.methods.get(role);
    if (known) return known;
    try {
      await this.token(role);
    } catch (error) {
      // A client the endpoint refuses whatever the method (an inactive partner's): Basic, the preferred one.
      if (!(error instanceof TokenFetchError)) throw error;
    }
    return this.methods.get(role) ?? 'basic';
  }

  private async fetch(role: Role, scopes: readonly string[] | undefined): Promise<Entry> {
    const credentials = this.options.clients[role];
    if (!credentials) throw new TokenFetchError(`no credentials for role ${role} in the target config`);
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scopes && scopes.length > 0) form.set('scope', [...new Set(scopes)].sort().join(' '));
    const known = this.methods.get(role);
    let method: ClientAuthentication = known ?? 'basic';
    let answer = await this.request(role, credentials, form, method);
    // A token endpoint that refuses HTTP Basic (5.2a, judged by its own check) but takes the secret in the form
    // (5.2b) still gives the run its tokens: one refusal is one clause, not every check of the run.
    if (known === undefined && clientAuthenticationRefused(answer)) {
      const post = await this.request(role, credentials, form, 'post');
      if (post.res.status === 200 && typeof post.body?.access_token === 'string') {
        method = 'post';
        answer = post;
      }
    }
    const { res, body, requestedAt } = answer;
    if (res.status === 400 && body?.error === 'invalid_scope' && scopes && scopes.length > 0) {
      const refused = new ScopeNotGrantedError(
        role,
        [...new Set(scopes)].sort(),
        'the token endpoint refused a token limited to them: HTTP 400 (invalid_scope)',
      );
      this.refused.set(cacheKey(role, scopes), refused);
      throw refused;
    }
    if (res.status !== 200 || typeof body?.access_token !== 'string' || body.access_token === '') {
      const oauthError = typeof body?.error === 'string' ? ` (${body.error})` : '';
      throw new TokenFetchError(
        `the token endpoint refused the ${role} credentials: HTTP ${res.status}${oauthError}` +
          (res.status === 200 ? ' without an access_token' : ''),
      );
    }
    this.methods.set(role, method);
    if (!scopes || scopes.length === 0) this.unlimited.add(body.access_token);
    const expiresIn =
      typeof body.expires_in === 'number' && Number.isFinite(body.expires_in) && body.expires_in > 0
        ? body.expires_in
        : // Without a usable lifetime, reuse briefly and let the 401 retry cover the rest.
          REFRESH_MARGIN_SECONDS * 2;
    return {
      token: body.access_token,
      reuseUntil: requestedAt + (expiresIn - REFRESH_MARGIN_SECONDS) * 1000,
    };
  }

  /** One token request with the client authentication `method`; a 429 slow_down is waited out once. */
  private async request(
    role: Role,
    credentials: ClientCredentials,
    form: URLSearchParams,
    method: ClientAuthentication,
  ): Promise<TokenAnswer> {
    const body = new URLSearchParams(form);
    const headers: Record<string, string> = { 'content-type': MEDIA_TYPES.form, accept: MEDIA_TYPES.json };
    if (method === 'basic') headers.authorization = basicAuthorization(credentials.clientId, credentials.clientSecret);
    else {
      body.set('client_id', credentials.clientId);
      body.set('client_secret', credentials.clientSecret);
    }
    const request = () =>
      this.options.send(
        {
          method: 'POST',
          url: `${this.options.baseUrl}${API_PREFIX}/oauth/token`,
          headers,
          body: body.toString(),
        },
        { role },
      );
    let requestedAt = this.now();
    let res = await request();
    // The token endpoint's own rate limit (spec 8.16a) is the run's business, not the check's: wait it out once.
    const retryAfter = res.status === 429 ? retryAfterSeconds(res.headers['retry-after'], this.now()) : undefined;
    if (retryAfter !== undefined && retryAfter <= MAX_SLOW_DOWN_WAIT_SECONDS) {
      await this.sleep(retryAfter * 1000);
      requestedAt = this.now();
      res = await request();
    }
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(new TextDecoder().decode(res.body)) as Record<string, unknown>;
    } catch {
      parsed = undefined;
    }
    return { res, body: parsed, requestedAt };
  }
}

interface TokenAnswer {
  res: HttpResponse;
  body: Record<string, unknown> | undefined;
  requestedAt: number;
}

/**
 * A refusal that may be of HTTP Basic itself (spec 5.4: 401 invalid_client, or a 400 naming the request
 * malformed), not of the scope asked for, the client's rate (429) or the API switch (503).
 */
function clientAuthenticationRefused(answer: TokenAnswer): boolean {
  const { status } = answer.res;
  return status === 401 || (status === 400 && answer.body?.error !== 'invalid_scope');
}

function cacheKey(role: Role, scopes: readonly string[] | undefined): string {
  return `${role}|${scopes ? [...new Set(scopes)].sort().join(' ') : '*'}`;
}
