import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { CLAUSES } from '../../contract/clauses/index.ts';
import { API_PREFIX, MEDIA_TYPES } from '../../contract/constants.ts';
import { BOOKING_SCOPES, SCOPES, type Scope } from '../../contract/scopes.ts';
import { basicAuthorization, REFRESH_MARGIN_SECONDS } from '../auth/token-cache.ts';
import { isSelected, scopesOfCheck, WORKING_ROLES } from '../check/applicability.ts';
import type { Profile } from '../check/outcome-and-evidence.ts';
import type { Role, TargetConfig } from '../config/target-config.ts';
import { CaFileError, trustedCertificates } from '../config/trusted-ca.ts';
import { discoverHooks, HookError, type HookName } from '../hooks/adapter.ts';
import { send } from '../http/client.ts';
import type { IssuedToken, PreflightTokens } from '../run-settings.ts';
import { profileRank } from '../run-settings.ts';
import { CertifyError } from './errors.ts';

/**
 * The pre-flight stage: everything that would make a run unable to judge, found before any check, in seconds, each
 * problem in one line with its fix (exit 2). Nothing here judges the target: a token endpoint that refuses HTTP
 * Basic but accepts the secret in the body passes (5.2a judges that), a scope string in another spelling is left to
 * 5.5a, a disabled partner's refused token is what it is for. The scopes each role's token carries are recorded for
 * the checks (RunSettings.granted): a role that lacks some (a partner before joint certification, spec 1.7 and 5.5)
 * leaves the checks that need them unjudged, said here, and stops the run only when nothing selected could be judged.
 */

export interface PreflightInput {
  target: TargetConfig;
  embedded: boolean;
  profile: Profile;
  allowBookings: boolean;
  only: readonly string[];
  /**
   * The checks of each clause as the run registers them (vitest-run.ts collectChecks): their profile and scopes. A
   * promise, so the runner collects them beside the network steps: an unreachable target or untrusted certificate
   * ends pre-flight without waiting for it.
   */
  declared?: ReadonlyMap<string, readonly DeclaredCheck[]> | Promise<ReadonlyMap<string, readonly DeclaredCheck[]>>;
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
  /** The scopes each role's token carries (roles whose token the target issued with the spec's scope names). */
  granted: Partial<Record<Role, Scope[]>>;
  /** What the roles' grants leave unjudged, one line each: the scopes a working role lacks and the clauses they take. */
  notes: string[];
  /** The tokens pre-flight was issued, for the workers' token cache (a client reuses its token, spec 5.3). */
  tokens: PreflightTokens;
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

/** A check as the suite sources declare it (suite-scan.ts ScannedCheck). */
export interface DeclaredCheck {
  profile?: Profile;
  scopes: readonly Scope[];
}

const READ_SCOPES: readonly Scope[] = ['fleet:read', 'locations:read', 'rates:read'];
const SHOP_SCOPES: readonly Scope[] = ['availability:read', 'quotes:write'];
const BOOK_SCOPES: readonly Scope[] = ['reservations:read', 'reservations:write', 'reservations:cancel'];

/** Scopes partnerA and partnerB use for what the profile lets the checks do. */
export function scopesNeeded(profile: Profile, allowBookings: boolean): Scope[] {
  const rank = profileRank(profile);
  return [
    ...READ_SCOPES,
    ...(rank >= profileRank('shop') ? SHOP_SCOPES : []),
    ...(rank >= profileRank('book') && allowBookings ? BOOK_SCOPES : []),
  ];
}

/** The scopes of a token response's `scope`; undefined when it is absent or names a scope the spec does not have. */
export function grantedScopes(scope: string | undefined): Scope[] | undefined {
  if (scope === undefined) return undefined;
  const granted = scope.split(/\s+/).filter(Boolean);
  return granted.every((name) => (SCOPES as readonly string[]).includes(name)) ? (granted as Scope[]) : undefined;
}

/** A list of clause ids cut to its first few: "2.10.1, 2.10.2, 4.7.1 and 84 more". */
function someOf(ids: readonly string[], shown = 6): string {
  return ids.length <= shown ? ids.join(', ') : `${ids.slice(0, shown).join(', ')} and ${ids.length - shown} more`;
}

/**
 * What partnerA's grant leaves unjudged among the clauses `only` selects, by the checks the suite sources declare
 * (a clause no source declares: one check of its clause-catalogue minimum and the scopes that profile implies):
 * `unjudged`, the clauses every check of which needs a scope partnerA lacks, for the note; and the problem (exit 2)
 * when no check the profile reaches could run for want of scopes ("no check could run: …").
 */
export function scopeShortfall(
  granted: readonly Scope[] | undefined,
  only: readonly string[],
  profile: Profile,
  declared: ReadonlyMap<string, readonly DeclaredCheck[]> = new Map(),
): { problem?: string; unjudged: string[]; lacking: Scope[] } {
  if (granted === undefined) return { unjudged: [], lacking: [] };
  const lacks = (check: DeclaredCheck) => check.scopes.filter((scope) => !granted.includes(scope));
  const selected = CLAUSES.filter((clause) => isSelected(clause, only)).map((clause) => {
    const fallback = { profile: clause.minProfile, scopes: scopesOfCheck(undefined, clause.minProfile) };
    const checks = declared.get(clause.id) ?? [fallback];
    const reached = checks.filter((check) => profileRank(check.profile ?? clause.minProfile) <= profileRank(profile));
    return { id: clause.id, checks, reached };
  });
  const unjudgedClauses = selected.filter((clause) => clause.checks.every((check) => lacks(check).length > 0));
  const order = (a: Scope, b: Scope) => SCOPES.indexOf(a) - SCOPES.indexOf(b);
  const lacking = [...new Set(unjudgedClauses.flatMap((clause) => clause.checks.flatMap(lacks)))].sort(order);
  const unjudged = unjudgedClauses.map((clause) => clause.id);
  const reached = selected.flatMap((clause) => clause.reached);
  if (reached.length === 0 || reached.some((check) => lacks(check).length === 0)) return { unjudged, lacking };
  const needed = [...new Set(reached.flatMap(lacks))].sort(order);
  const booking = needed.every((scope) => BOOKING_SCOPES.includes(scope))
    ? '; booking scopes follow a joint certification (spec 5.5)'
    : '';
  const what = only.length > 0 ? only.join(', ') : 'the suite';
  return {
    problem: `no check could run: ${what} ${only.length > 1 ? 'need' : 'needs'} ${needed.join(', ')}, which partnerA's token lacks${booking}; ask the operator to grant ${needed.length > 1 ? 'them' : 'it'}, or select checks that need none (--only)`,
    unjudged,
    lacking,
  };
}

/**
 * --only asks for clauses the profile cannot reach: "4.7 needs profile book". A clause is reachable from the lowest
 * profile any of its checks declares (`declared`, from the suite sources), or its clause-catalogue minimum.
 */
export function selectionProblem(
  only: readonly string[],
  profile: Profile,
  declared: ReadonlyMap<string, readonly DeclaredCheck[]> = new Map(),
): string | undefined {
  if (only.length === 0) return undefined;
  const lower = (a: Profile, b: Profile): Profile => (profileRank(b) < profileRank(a) ? b : a);
  const selected = CLAUSES.filter((clause) => isSelected(clause, only));
  const lowestOf = (clause: (typeof CLAUSES)[number]): Profile =>
    (declared.get(clause.id) ?? []).map((check) => check.profile ?? clause.minProfile).reduce(lower, clause.minProfile);
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
  /** What the workers' token cache needs to reuse the token (issued only). */
  issued?: IssuedToken;
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
  const requestedAt = Date.now();
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
  if (answer.ok) {
    answer.accessToken = body.access_token as string;
    // Reused by the run's workers as their cache reuses its own (token-cache.ts): until the margin before expiry.
    const expiresIn = body.expires_in;
    if (typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > REFRESH_MARGIN_SECONDS) {
      const reuseUntil = requestedAt + (expiresIn - REFRESH_MARGIN_SECONDS) * 1000;
      answer.issued = { accessToken: answer.accessToken, method: style, reuseUntil };
    }
  }
  return answer;
}

/**
 * The business limit the target states for a client (spec 8.14: X-RateLimit-Limit), read from one GET /locations, the
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
): Promise<{ problem?: string; scope?: string; accessToken?: string; issued?: IssuedToken }> {
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

/** What a working role's token lacks and the checks that leave unjudged, one line; none when it lacks nothing. */
function lackingNote(role: Role, scopes: Scope[] | undefined, input: PreflightInput): string | undefined {
  const lacking = SCOPES.filter((scope) => scopes !== undefined && !scopes.includes(scope));
  if (!WORKING_ROLES.includes(role) || lacking.length === 0) return undefined;
  const used = scopesNeeded(input.profile, input.allowBookings).filter((scope) => lacking.includes(scope));
  const uses = used.length > 0 ? ` (profile ${input.profile} uses ${used.join(', ')})` : '';
  const why = lacking.every((scope) => BOOKING_SCOPES.includes(scope))
    ? '; booking scopes follow a joint certification (spec 5.5)'
    : '';
  return `${role}'s token lacks ${lacking.join(', ')}${uses}: the checks that need ${lacking.length > 1 ? 'them' : 'it'} are not judged ("${role} does not hold …")${why}`;
}

export async function preflight(input: PreflightInput): Promise<PreflightResult> {
  const started = Date.now();
  const timeoutMs = input.timeoutMs ?? 5_000;
  const problems: string[] = [];
  const passed: string[] = [];
  const granted: Partial<Record<Role, Scope[]>> = {};
  const notes: string[] = [];
  const issued: PreflightTokens = {};
  let partnerLimitPerMinute: number | undefined;
  const done = (hooks: HookName[] = []): PreflightResult => ({
    problems,
    passed,
    hooks,
    granted,
    notes,
    tokens: issued,
    ...(partnerLimitPerMinute !== undefined ? { partnerLimitPerMinute } : {}),
    durationMs: Date.now() - started,
  });
  // A selection no check of the run's profile can judge is said first, beside any other problem; without --only there
  // is none, and a target found unreachable is said without waiting for the collection.
  const selection =
    input.only.length > 0 ? selectionProblem(input.only, input.profile, await input.declared) : undefined;
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
  const tokens: string[] = [];
  for (const role of roles) {
    let answer: { problem?: string; scope?: string; accessToken?: string; issued?: IssuedToken };
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
    if (answer.issued) issued[role] = answer.issued;
    if (role === 'partnerA' && answer.accessToken !== undefined) {
      partnerLimitPerMinute = await statedLimit(target, answer.accessToken, timeoutMs);
    }
    const scopes = grantedScopes(answer.scope);
    if (scopes) granted[role] = scopes;
    const note = lackingNote(role, scopes, input);
    if (note) notes.push(note);
  }
  if (tokens.length > 0) passed.push(`tokens for ${tokens.join(', ')}`);
  const shortfall = scopeShortfall(granted.partnerA, input.only, input.profile, await input.declared);
  if (shortfall.problem) {
    if (!selection) problems.push(shortfall.problem);
  } else if (shortfall.unjudged.length > 0) {
    notes.push(
      `clauses every check of which needs ${shortfall.lacking.join(', ')}, so not judged: ${shortfall.unjudged.length} (${someOf(shortfall.unjudged)})`,
    );
  }
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
