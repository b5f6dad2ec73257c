import { Agent, fetch } from 'undici';
import { API_PREFIX } from '../../contract/constants.ts';
import type { ClientCredentials, Role, TargetConfig } from '../config/target-config.ts';
import { trustedSecureContext } from '../config/trusted-ca.ts';
import { Pacer } from '../http/pacing.ts';
import { mapAtMost } from './map-at-most.ts';

/** A reservation the run created and could not cancel, with why. */
export interface Leftover {
  reservationId: string;
  partnerReference: string | null;
  status: string | null;
  reason: string;
}

export interface CleanupResult {
  /** Reservations cancelled now. */
  cancelled: string[];
  leftovers: Leftover[];
  /** Roles that could not list reservations (no reservations:read, token refused): said, not fatal. */
  notes: string[];
}

export interface CleanupInput {
  target: TargetConfig;
  /** partnerReference prefix of the run's reservations. */
  bookingPrefix: string;
  /** Reservation ids the checks recorded; looked up one by one when a list does not show them. */
  recorded?: readonly string[];
  /** When the operator's control is available: detach money so a reservation that needs staff can be cancelled. */
  detachMoney?: (reservationId: string) => Promise<void>;
  maxRps?: number | null;
  /** Per request, milliseconds. */
  timeoutMs?: number;
}

export const CLEANUP_REASON = 'certification run cleanup';

/**
 * Roles that never book: the disabled partner is refused tokens (spec 5.4), and the rate-limit client's buckets are
 * what the rate-limit checks exhaust, so asking it for a token would only wait out a Retry-After.
 */
const SKIPPED_ROLES = new Set<Role>(['disabledPartner', 'rateLimit']);

/**
 * Look-ups and cancellations in flight at once: a run leaves hundreds, one at a time took 1.5 s on loopback. The
 * pacer still holds them to --max-rps (5 a second by default off loopback).
 */
const CONCURRENCY = 4;

interface ReservationLike {
  reservationId: string;
  partnerReference: string | null;
  status: string | null;
}

interface Session {
  role: Role;
  token: string;
  scopes: Set<string>;
}

/**
 * End-of-run booking cleanup: every reservation of the run (partnerReference starting with the run's prefix, or
 * recorded by a check) that is not cancelled gets POST …/cancel. What cannot be cancelled is a leftover.
 * Plain fetch, not the harness client: this runs in the runner process after the suites, with a handful of calls.
 */
export async function cleanupBookings(input: CleanupInput): Promise<CleanupResult> {
  const http = new CleanupHttp(input.target, input.maxRps ?? null, input.timeoutMs ?? 15_000);
  try {
    return await cleanupWith(http, input);
  } finally {
    await http.close();
  }
}

async function cleanupWith(http: CleanupHttp, input: CleanupInput): Promise<CleanupResult> {
  const result: CleanupResult = { cancelled: [], leftovers: [], notes: [] };
  const found = new Map<string, { reservation: ReservationLike; session: Session }>();
  const sessions: Session[] = [];

  for (const [role, credentials] of Object.entries(input.target.clients) as [Role, ClientCredentials][]) {
    if (SKIPPED_ROLES.has(role)) continue;
    const session = await http.session(role, credentials).catch((error: Error) => {
      result.notes.push(`${role}: no token (${error.message})`);
      return undefined;
    });
    if (!session) continue;
    if (!session.scopes.has('reservations:read')) continue;
    sessions.push(session);
    try {
      const list = await http.listReservations(session);
      for (const reservation of list) {
        if (found.has(reservation.reservationId)) continue;
        if (reservation.partnerReference?.startsWith(input.bookingPrefix)) {
          found.set(reservation.reservationId, { reservation, session });
        }
      }
    } catch (error) {
      result.notes.push(`${role}: cannot list reservations (${(error as Error).message})`);
    }
  }

  // Recorded ids a list did not show (more than 100 newer reservations, or no partnerReference): cancelled at once
  // by a client that may, and looked up only when that did not work. A lookup first would double the requests of
  // the cleanup, which spends the same client's rate limit as the run (spec 8).
  const unlisted = [...new Set(input.recorded ?? [])].filter((id) => !found.has(id));
  const cancellers = sessions.filter((session) => session.scopes.has('reservations:cancel'));
  const directly = await mapAtMost(unlisted, CONCURRENCY, async (id) => {
    for (const session of cancellers) {
      const outcome = await http.cancel(session, id);
      if (outcome.ok) return { id, cancelled: true };
      if (outcome.status !== 404) break;
    }
    return { id, cancelled: false };
  });
  for (const { id } of directly.filter(({ cancelled }) => cancelled)) result.cancelled.push(id);
  const unresolved = directly.filter(({ cancelled }) => !cancelled).map(({ id }) => id);
  const lookedUp = await mapAtMost(unresolved, CONCURRENCY, async (id) => {
    for (const session of sessions) {
      const reservation = await http.getReservation(session, id).catch(() => undefined);
      if (reservation) return { id, hit: { reservation, session } };
    }
    return { id, hit: undefined };
  });
  for (const { id, hit } of lookedUp) {
    if (hit) found.set(id, hit);
    else {
      result.leftovers.push({
        reservationId: id,
        partnerReference: null,
        status: null,
        reason: 'not found by any configured client',
      });
    }
  }

  const open = [...found.values()].filter(({ reservation }) => reservation.status !== 'cancelled');
  const outcomes = await mapAtMost(open, CONCURRENCY, async ({ reservation, session }) => {
    const canceller = session.scopes.has('reservations:cancel')
      ? session
      : sessions.find((s) => s.scopes.has('reservations:cancel') && s !== session);
    if (!canceller) {
      return {
        reservation,
        problem: `no configured client holds reservations:cancel for ${session.role}'s reservations`,
      };
    }
    let outcome = await http.cancel(canceller, reservation.reservationId);
    if (outcome.code === 'CANCELLATION_NEEDS_STAFF' && input.detachMoney) {
      await input.detachMoney(reservation.reservationId).then(
        async () => {
          outcome = await http.cancel(canceller, reservation.reservationId);
        },
        () => undefined,
      );
    }
    return { reservation, problem: outcome.ok ? undefined : outcome.problem };
  });
  for (const { reservation, problem } of outcomes) {
    if (problem === undefined) result.cancelled.push(reservation.reservationId);
    else {
      result.leftovers.push({
        reservationId: reservation.reservationId,
        partnerReference: reservation.partnerReference,
        status: reservation.status,
        reason: problem,
      });
    }
  }
  return result;
}

/** One-line description of a leftover for the report and the terminal. */
export function describeLeftover(leftover: Leftover): string {
  const ref = leftover.partnerReference ? ` ${leftover.partnerReference}` : '';
  const status = leftover.status ? ` (${leftover.status})` : '';
  return `${leftover.reservationId}${ref}${status}: ${leftover.reason}`;
}

class CleanupHttp {
  private readonly pacer: Pacer;
  private readonly baseUrl: string;
  /** Trusts the target's private CA (tls.caFile) beside the public roots; undici's default pool otherwise. */
  private readonly dispatcher: Agent | undefined;

  constructor(
    target: TargetConfig,
    maxRps: number | null,
    private readonly timeoutMs: number,
  ) {
    this.baseUrl = target.baseUrl;
    this.pacer = new Pacer({ maxRps, honourRetryAfter: true });
    const caFile = target.tls?.caFile;
    this.dispatcher = caFile ? new Agent({ connect: { secureContext: trustedSecureContext(caFile) } }) : undefined;
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }

  async session(role: Role, credentials: ClientCredentials): Promise<Session> {
    const basic = Buffer.from(
      `${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`,
    );
    const response = await this.request('POST', '/oauth/token', {
      headers: {
        authorization: `Basic ${basic.toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    const body = response.json as { access_token?: unknown; scope?: unknown; error?: unknown } | undefined;
    if (response.status !== 200 || typeof body?.access_token !== 'string') {
      const error = typeof body?.error === 'string' ? ` ${body.error}` : '';
      throw new Error(`token endpoint answered ${response.status}${error}`);
    }
    const scopes = new Set(typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : []);
    return { role, token: body.access_token, scopes };
  }

  async listReservations(session: Session): Promise<ReservationLike[]> {
    const response = await this.request('GET', '/reservations?limit=100', { headers: this.auth(session) });
    const list = (response.json as { reservations?: unknown } | undefined)?.reservations;
    if (response.status !== 200 || !Array.isArray(list))
      throw new Error(`GET /reservations answered ${response.status}${codeOf(response.json)}`);
    return list.filter(isReservationLike);
  }

  async getReservation(session: Session, id: string): Promise<ReservationLike | undefined> {
    const response = await this.request('GET', `/reservations/${encodeURIComponent(id)}`, {
      headers: this.auth(session),
    });
    return response.status === 200 && isReservationLike(response.json) ? response.json : undefined;
  }

  async cancel(
    session: Session,
    id: string,
  ): Promise<
    { ok: true; code?: undefined; status: 200 } | { ok: false; code: string | null; status?: number; problem: string }
  > {
    const path = `/reservations/${encodeURIComponent(id)}/cancel`;
    try {
      const response = await this.request('POST', path, {
        headers: { ...this.auth(session), 'content-type': 'application/json' },
        body: JSON.stringify({ reason: CLEANUP_REASON }),
      });
      const status = (response.json as { status?: unknown } | undefined)?.status;
      if (response.status === 200 && status === 'cancelled') return { ok: true, status: 200 };
      const code = (response.json as { error?: { code?: unknown } } | undefined)?.error?.code;
      return {
        ok: false,
        code: typeof code === 'string' ? code : null,
        status: response.status,
        problem: `cancel answered ${response.status}${codeOf(response.json)}${response.status === 200 ? ` with status ${String(status)}` : ''}`,
      };
    } catch (error) {
      return { ok: false, code: null, problem: `cancel failed: ${(error as Error).message}` };
    }
  }

  private auth(session: Session): Record<string, string> {
    return { authorization: `Bearer ${session.token}`, accept: 'application/json' };
  }

  /** Paced by --max-rps; a 429 is retried (at most three times) after its Retry-After: cleanup should succeed. */
  private async request(
    method: string,
    path: string,
    init: { headers: Record<string, string>; body?: string },
  ): Promise<{ status: number; json: unknown }> {
    for (let attempt = 0; ; attempt++) {
      await this.pacer.acquire();
      const response = await fetch(`${this.baseUrl}${API_PREFIX}${path}`, {
        method,
        headers: init.headers,
        body: init.body ?? null,
        signal: AbortSignal.timeout(this.timeoutMs),
        ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
      }).catch((error: Error) => {
        // undici puts the reason (ECONNREFUSED, …) on cause; the message itself says only "fetch failed".
        const cause = (error.cause as { code?: string } | undefined)?.code;
        throw new Error(cause ?? error.name);
      });
      const text = await response.text();
      if (response.status === 429 && attempt < 3) {
        this.pacer.observe(429, { 'retry-after': response.headers.get('retry-after') ?? '1' });
        continue;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, json };
    }
  }
}

function isReservationLike(value: unknown): value is ReservationLike {
  const record = value as Record<string, unknown> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.reservationId === 'string' &&
    (typeof record.partnerReference === 'string' || record.partnerReference === null)
  );
}

function codeOf(json: unknown): string {
  const code = (json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? ` ${code}` : '';
}
