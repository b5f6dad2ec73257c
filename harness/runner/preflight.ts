import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { CLAUSES } from '../../contract/clauses/index.ts';
import { API_PREFIX, MEDIA_TYPES } from '../../contract/constants.ts';
import { SCOPES } from '../../contract/scopes.ts';
import { basicAuthorization } from '../auth/token-cache.ts';
import { isSelected } from '../check/applicability.ts';
import type { Profile } from '../check/outcome-and-evidence.ts';
import type { Role, TargetConfig } from '../config/target-config.ts';
import { CaFileError, trustedCertificates } from '../config/trusted-ca.ts';
import { discoverHooks, HookError, type HookName } from '../hooks/adapter.ts';
import { send } from '../http/client.ts';
import { profileRank } from '../run-settings.ts';
import { CertifyError } from './errors.ts';

/**
 * The pre-flight stage: everything that would make a run unable to judge, found before any check, in seconds, each
 * problem in one line with its fix (exit 2). Nothing here judges the target: a token endpoint that refuses HTTP
 * Basic but accepts the secret in the body passes (5.2a judges that), a scope string in another spelling is left to
 * 5.5a, a disabled partner's refused token is what it is for.
 */

export interface PreflightInput {
  target: TargetConfig;
  embedded: boolean;
  profile: Profile;
  allowBookings: boolean;
  only: readonly string[];
  /** Profiles the checks of each clause declare in the suite sources (suite-scan.ts). */
  declared?: ReadonlyMap<string, readonly Profile[]>;
  /** Per network step, milliseconds (default 5,000). */
  timeoutMs?: number;
}

export interface PreflightResult {
  /** One line each: what is wrong and how to fix it. Empty: the run can judge. */
  problems: string[];
  /** What was verified, in a few words per stage. */
  passed: string[];
  /** The target's test hooks (discovered only under profile full). */
  hooks: HookName[];
  /** partnerA's business calls a minute as the target states them (X-RateLimit-Limit of GET /locations), if it does. */
  partnerLimitPerMinute?: number;
  durationMs: number;
}

/** One line per problem, the run's exit 2. */
export class PreflightError extends CertifyError {
  constructor(readonly problems: readonly string[]) {
    super(
      `pre-flight found ${problems.length} problem(s); no check ran:\n${problems.map((line) => `  ${line}`).join('\n')}`,
    );
  }
}

const READ_SCOPES = ['fleet:read', 'locations:read', 'rates:read'];
const SHOP_SCOPES = ['availability:read', 'quotes:write'];
const BOOK_SCOPES = ['reservations:read', 'reservations:write', 'reservations:cancel'];
/** The roles that carry the suite's business calls; the others exist to be refused something. */
const WORKING_ROLES: readonly Role[] = ['partnerA', 'partnerB'];

/** Scopes partnerA and partnerB need for what the profile lets the checks do. */
export function scopesNeeded(profile: Profile, allowBookings: boolean): string[] {
  const rank = profileRank(profile);
  return [
    ...READ_SCOPES,
    ...(rank >= profileRank('shop') ? SHOP_SCOPES : []),
    ...(rank >= profileRank('book') && allowBookings ? BOOK_SCOPES : []),
  ];
}

/**
 * --only asks for clauses the profile cannot reach: "4.7 needs profile book". A clause is reachable from the lowest
 * profile any of its checks declares (`declared`, from the suite sources), or its clause-catalogue minimum.
 */
export function selectionProblem(
  only: readonly string[],
  profile: Profile,
  declared: ReadonlyMap<string, readonly Profile[]> = new Map(),
): string | undefined {
  if (only.length === 0) return undefined;
  const lower = (a: Profile, b: Profile): Profile => (profileRank(b) < profileRank(a) ? b : a);
  const selected = CLAUSES.filter((clause) => isSelected(clause, only));
  const lowestOf = (clause: (typeof CLAUSES)[number]): Profile =>
    (declared.get(clause.id) ?? []).reduce(lower, clause.minProfile);
  if (selected.length === 0 || selected.some((clause) => profileRank(lowestOf(clause)) <= profileRank(profile))) {
    return undefined;
  }
  const lowest = selected.map(lowestOf).reduce(lower, 'full');
  return `no check could run: ${only.join(', ')} ${only.length > 1 ? 'need' : 'needs'} profile ${lowest} (the run's profile is ${profile}); run with --profile ${lowest}${profileRank(lowest) >= profileRank('book') ? ' --allow-bookings' : ''}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`${what}: no answer within ${ms / 1000} s`), { code: 'ETIMEDOUT' })),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function hostPort(url: URL): { host: string; port: number } {
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
  };
}

/** A TCP connection to the target: "cannot reach …" with why, or undefined. */
async function reach(url: URL, timeoutMs: number): Promise<string | undefined> {
  const { host, port } = hostPort(url);
  try {
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        const socket = netConnect({ host, port });
        socket.once('connect', () => {
          socket.destroy();
          resolve();
        });
        socket.once('error', reject);
      }),
      timeoutMs,
      'connect',
    );
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const why =
      code === 'ECONNREFUSED'
        ? 'connection refused'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `the host name ${host} does not resolve`
          : code === 'ETIMEDOUT'
            ? `no answer within ${timeoutMs / 1000} s`
            : code;
    return `cannot reach ${url.origin} (${why}): is the server running, and is the base URL (--target or baseUrl) right?`;
  }
}

const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/** The TLS handshake with the trust the run will use (public roots plus tls.caFile). */
async function handshake(url: URL, target: TargetConfig, timeoutMs: number): Promise<string | undefined> {
  const { host, port } = hostPort(url);
  const caFile = target.tls?.caFile;
  let ca: string[] | undefined;
  try {
    ca = caFile ? trustedCertificates(caFile) : undefined;
  } catch (error) {
    if (error instanceof CaFileError)
      return `tls.caFile: ${error.message}; point tls.caFile at the PEM file of the CA that issued the target's certificate`;
    throw error;
  }
  try {
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        const socket = tlsConnect({
          host,
          port,
          servername: /^[\d.:]+$/.test(host) ? undefined : host,
          ...(ca ? { ca } : {}),
          ALPNProtocols: ['http/1.1'],
        });
        socket.once('secureConnect', () => {
          socket.destroy();
          resolve();
        });
        socket.once('error', reject);
      }),
      timeoutMs,
      'TLS handshake',
    );
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const message = (error as Error).message;
    if (UNTRUSTED.has(code)) {
      return caFile
        ? `${url.origin}: certificate not trusted (${message}), not even with tls.caFile ${caFile}; set tls.caFile to the CA that issued it`
        : `${url.origin}: certificate not trusted (${message}); set tls.caFile in the target config`;
    }
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
      return `${url.origin}: the certificate is for another host (${message}); use the host name the certificate names`;
    if (code === 'CERT_HAS_EXPIRED') return `${url.origin}: the certificate has expired; the operator must renew it`;
    if (code === 'CERT_NOT_YET_VALID') return `${url.origin}: the certificate is not valid yet; check the clocks`;
    if (/wrong version number|packet length too long|unknown protocol/i.test(message)) {
      return `${url.origin}: the server does not speak TLS on port ${port}; use an http:// base URL or the TLS port`;
    }
    return `${url.origin}: the TLS handshake failed (${code || message}); check the base URL and tls.caFile`;
  }
}

interface TokenAnswer {
  status: number;
  error?: string;
  scope?: string;
  accessToken?: string;
  ok: boolean;
}

async function tokenRequest(
  target: TargetConfig,
  role: Role,
  style: 'basic' | 'post',
  timeoutMs: number,
): Promise<TokenAnswer> {
  const credentials = target.clients[role];
  if (!credentials) return { status: 0, ok: false };
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  const headers: Record<string, string> = { 'content-type': MEDIA_TYPES.form, accept: MEDIA_TYPES.json };
  if (style === 'basic') headers.authorization = basicAuthorization(credentials.clientId, credentials.clientSecret);
  else {
    form.set('client_id', credentials.clientId);
    form.set('client_secret', credentials.clientSecret);
  }
  const res = await withTimeout(
    send(
      { method: 'POST', url: `${target.baseUrl}${API_PREFIX}/oauth/token`, headers, body: form.toString() },
      { record: false, role },
    ),
    timeoutMs,
    'token endpoint',
  );
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(new TextDecoder().decode(res.body)) as Record<string, unknown>;
  } catch {
    // not JSON: the status says enough
  }
  const answer: TokenAnswer = { status: res.status, ok: res.status === 200 && typeof body.access_token === 'string' };
  if (typeof body.error === 'string') answer.error = body.error;
  if (typeof body.scope === 'string') answer.scope = body.scope;
  if (answer.ok) answer.accessToken = body.access_token as string;
  return answer;
}

/**
 * The business limit the target states for a client (spec 8.2: X-RateLimit-Limit), read from one GET /locations, the
 * cheapest call every profile may make; undefined when the answer does not say (its own checks judge that).
 */
async function statedLimit(target: TargetConfig, accessToken: string, timeoutMs: number): Promise<number | undefined> {
  try {
    const res = await withTimeout(
      send(
        {
          method: 'GET',
          url: `${target.baseUrl}${API_PREFIX}/locations`,
          headers: { authorization: `Bearer ${accessToken}`, accept: MEDIA_TYPES.json },
        },
        { record: false, role: 'partnerA' },
      ),
      timeoutMs,
      'GET /locations',
    );
    const limit = res.headers['x-ratelimit-limit']?.trim();
    return limit !== undefined && /^\d+$/.test(limit) && Number(limit) > 0 ? Number(limit) : undefined;
  } catch {
    return undefined;
  }
}

/** A token for the role (HTTP Basic, else the secret in the body); the problem line, or the granted scopes. */
async function token(
  target: TargetConfig,
  role: Role,
  timeoutMs: number,
): Promise<{ problem?: string; scope?: string; accessToken?: string }> {
  const basic = await tokenRequest(target, role, 'basic', timeoutMs);
  if (basic.ok) return basic;
  if (basic.status === 404 || basic.status === 405) {
    return {
      problem: `the token endpoint ${API_PREFIX}/oauth/token answered HTTP ${basic.status}: is the base URL right (without ${API_PREFIX})?`,
    };
  }
  if (basic.status === 429)
    return {
      problem: `${role}: the token endpoint answered 429 ${basic.error ?? ''}: wait a minute and run again`.replace(
        '  ',
        ' ',
      ),
    };
  if (basic.status === 503) {
    return {
      problem:
        `the token endpoint answered 503 ${basic.error ?? ''}: the partner API is disabled for this environment (spec 5.8) until credentials are provisioned`.replace(
          '  ',
          ' ',
        ),
    };
  }
  const post = await tokenRequest(target, role, 'post', timeoutMs);
  if (post.ok) return post;
  const said = basic.error ?? post.error ?? `HTTP ${basic.status}`;
  return {
    problem: `${role}: token endpoint answered ${said} (HTTP ${basic.status}); check clients.${role}.clientId and clientSecret in the target config`,
  };
}

/** Scopes a working role's token lacks for the profile; nothing when its scope string is not in the spec's names. */
function missingScopes(scope: string | undefined, needed: readonly string[]): string[] {
  if (scope === undefined) return [];
  const granted = scope.split(/\s+/).filter(Boolean);
  if (granted.some((name) => !(SCOPES as readonly string[]).includes(name))) return [];
  return needed.filter((name) => !granted.includes(name));
}

export async function preflight(input: PreflightInput): Promise<PreflightResult> {
  const started = Date.now();
  const timeoutMs = input.timeoutMs ?? 5_000;
  const problems: string[] = [];
  const passed: string[] = [];
  let partnerLimitPerMinute: number | undefined;
  const done = (hooks: HookName[] = []): PreflightResult => ({
    problems,
    passed,
    hooks,
    ...(partnerLimitPerMinute !== undefined ? { partnerLimitPerMinute } : {}),
    durationMs: Date.now() - started,
  });
  const selection = selectionProblem(input.only, input.profile, input.declared);
  if (selection) problems.push(selection);

  const { target } = input;
  const url = new URL(target.baseUrl);
  const unreachable = await reach(url, timeoutMs);
  if (unreachable) {
    problems.push(unreachable);
    return done();
  }
  passed.push('reachable');
  if (url.protocol === 'https:') {
    const tls = await handshake(url, target, timeoutMs);
    if (tls) {
      problems.push(tls);
      return done();
    }
    passed.push('TLS trusted');
  }

  const roles = (Object.keys(target.clients) as Role[]).filter((role) => role !== 'disabledPartner');
  const needed = scopesNeeded(input.profile, input.allowBookings);
  const tokens: string[] = [];
  for (const role of roles) {
    let answer: { problem?: string; scope?: string; accessToken?: string };
    try {
      answer = await token(target, role, timeoutMs);
    } catch (error) {
      problems.push(`${role}: no token: ${(error as Error).message}`);
      continue;
    }
    if (answer.problem) {
      // One endpoint problem (404, 503) is the same for every role: say it once.
      if (!problems.includes(answer.problem)) problems.push(answer.problem);
      continue;
    }
    tokens.push(role);
    if (role === 'partnerA' && answer.accessToken !== undefined) {
      partnerLimitPerMinute = await statedLimit(target, answer.accessToken, timeoutMs);
    }
    if (!WORKING_ROLES.includes(role)) continue;
    const lacking = missingScopes(answer.scope, needed);
    if (lacking.length > 0) {
      const lower = input.profile === 'catalog' ? '' : ', or run a lower profile';
      problems.push(
        `${role}: its token lacks ${lacking.join(', ')}, which profile ${input.profile} needs; ask the operator to grant them${lower}`,
      );
    }
  }
  if (tokens.length > 0) passed.push(`tokens for ${tokens.join(', ')}`);
  if (partnerLimitPerMinute !== undefined) passed.push(`partnerA limited to ${partnerLimitPerMinute} calls a minute`);

  let hooks: HookName[] = [];
  if (target.hooks && input.profile === 'full') {
    try {
      hooks = await withTimeout(discoverHooks(target.hooks), timeoutMs, 'test hooks');
      passed.push(`${hooks.length} test hook(s)`);
    } catch (error) {
      const message = error instanceof HookError || error instanceof Error ? error.message : String(error);
      problems.push(
        `test hooks: ${message}; check hooks.baseUrl and hooks.token in the target config (docs/test-hooks.md)`,
      );
    }
  }
  return done(hooks);
}
