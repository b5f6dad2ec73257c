import { HOOK_NAMES, type HookName } from '../../contract/hooks/names.ts';
import type { HttpRequest, HttpResponse, SendOptions } from '../http/client.ts';
import { send as defaultSend, forgetRateLimits } from '../http/client.ts';
import { forgetListLag } from '../http/list-lag.ts';

/**
 * The test hooks of a target (docs/test-hooks.md): what the suite asks of the operator side so a clause can be
 * judged on any implementation that offers them. A target may offer some hooks only; a check that needs one the
 * target lacks is not-applicable, by name.
 */
export { HOOK_NAMES, type HookName } from '../../contract/hooks/names.ts';

export interface TestHooks {
  /** The hooks the target lists at GET / of its hooks base URL. */
  readonly available: ReadonlySet<HookName>;
  /** Spec 3.9: the quote is past its 30 minutes from now on. */
  expireQuote(quoteId: string): Promise<void>;
  /** Spec 5.3: every access token issued to the client so far is past its 600 seconds. */
  expireTokens(clientId: string): Promise<void>;
  /** Spec 4.7.6: idempotency keys first used at least this long ago are forgotten (0: all done keys). */
  forgetIdempotencyKeys(olderThanSeconds: number): Promise<void>;
  /** Spec 4.7.9b: moves the public daily rate of a vehicle by a percentage (0: back to the listed price). */
  movePrice(vehicleCode: string, percent: number): Promise<void>;
  /** Spec 3, 4.7.10: the next `count` bookings are declined (422 RESERVATION_REJECTED). */
  declineNextBookings(count: number): Promise<void>;
  /** Spec 4.7.5: each booking holds its Idempotency-Key claim `ms` before it goes on (0: no hold). */
  holdBookings(ms: number): Promise<void>;
  /** Spec 3: attaches (or detaches) a rental payment or deposit to a reservation. */
  attachMoney(reservationId: string, attached: boolean): Promise<void>;
  /** Spec 3: puts a reservation in a state only the operator sets. */
  setReservationStatus(reservationId: string, status: string): Promise<void>;
  /** Spec 5.6c: disables (or enables again) the partner account of a client. */
  setPartnerEnabled(clientId: string, enabled: boolean): Promise<void>;
  /** Spec 5.8: the partner API switch. */
  setApiEnabled(enabled: boolean): Promise<void>;
  /** Spec 7.3: business calls answer 503 DEPENDENCY_UNAVAILABLE or 500 INTERNAL_ERROR while on. */
  setFailures(failures: { dependencyUnavailable?: boolean; internalError?: boolean }): Promise<void>;
  /** Spec 3: staff alerts raised (cancellations that need staff). */
  listAlerts(): Promise<unknown[]>;
  /** Spec 8: every rate-limit window starts empty again, so a check that filled one holds nobody up. */
  resetRateLimits(): Promise<void>;
  /**
   * Spec 8.16a: the token endpoint's per-address ceiling is `perMinute` a minute until set back (null: the target's
   * own), so a check reaches that bucket in a few requests instead of the target's whole ceiling.
   */
  setTokenAddressCeiling(perMinute: number | null): Promise<void>;
  /** Back to normal: API on, failures off, no pending declines, prices unmoved. */
  reset(): Promise<void>;
}

/** A hook call the target refused: a harness error (the check could not set up its precondition). */
export class HookError extends Error {
  override readonly name = 'HookError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

type SendFn = (req: HttpRequest, options?: SendOptions) => Promise<HttpResponse>;

export interface HooksEndpoint {
  /** The hooks' own base URL (e.g. `https://test.example/test-hooks/v1`). */
  baseUrl: string;
  token: string;
}

/**
 * Counts the test-hook calls that may change the target's state (every one but a read), before and after each: what
 * a check read before a different count may no longer be what the target serves (suites/support/listings.ts).
 */
let changes = 0;
/** Empties rate-limit windows only: nothing any read's body shows changes (not counted in `changes`). */
const RATE_LIMITS_RESET = '/rate-limits/reset';
/** Moves a rate-limit ceiling only: not counted in `changes` either. */
const TOKEN_ADDRESS_CEILING = '/rate-limits/token-address-ceiling';
/** Slows bookings only: not counted in `changes` either. */
const BOOKINGS_HOLD = '/bookings/hold';

/** The count of state-changing hook calls begun or ended so far in this process. */
export function hookChanges(): number {
  return changes;
}

/** The traffic name of test-hook calls (the report's requests per role). */
const HOOKS_ROLE = 'testHooks';

async function call(
  endpoint: HooksEndpoint,
  send: SendFn,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const headers: Record<string, string> = { authorization: `Bearer ${endpoint.token}`, accept: 'application/json' };
  const req: HttpRequest = { method, url: `${endpoint.baseUrl.replace(/\/+$/, '')}${path}`, headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    req.body = JSON.stringify(body);
  }
  let res: HttpResponse;
  try {
    // The hooks are the operator's, not a partner client's: counted apart from every client's bucket.
    res = await send(req, { role: HOOKS_ROLE });
  } catch (error) {
    throw new HookError(`test hook ${method} ${path} could not be reached: ${(error as Error).message}`);
  }
  const text = new TextDecoder().decode(res.body);
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (res.status < 200 || res.status > 299) {
    const code = (parsed as { error?: { code?: unknown } } | undefined)?.error?.code;
    throw new HookError(
      `test hook ${method} ${path} answered HTTP ${res.status}${typeof code === 'string' ? ` ${code}` : ''}`,
      res.status,
    );
  }
  return parsed;
}

/** The hooks a target lists (GET / of its hooks base URL); unknown names are ignored. */
export async function discoverHooks(endpoint: HooksEndpoint, send: SendFn = defaultSend): Promise<HookName[]> {
  const listing = (await call(endpoint, send, 'GET', '/')) as { hooks?: unknown } | undefined;
  if (!Array.isArray(listing?.hooks))
    throw new HookError('test hooks: GET / did not list its hooks ({ "hooks": [...] })');
  return listing.hooks.filter((name): name is HookName => (HOOK_NAMES as readonly string[]).includes(String(name)));
}

/** The adapter of any target that implements docs/test-hooks.md; calls are recorded as evidence (token redacted). */
export function testHooks(
  endpoint: HooksEndpoint,
  available: readonly HookName[],
  send: SendFn = defaultSend,
): TestHooks {
  const segment = (s: string) => encodeURIComponent(s);
  const go = async (method: string, path: string, body?: unknown) => {
    if (method === 'GET' || path === RATE_LIMITS_RESET || path === TOKEN_ADDRESS_CEILING || path === BOOKINGS_HOLD) {
      return call(endpoint, send, method, path, body);
    }
    changes += 1;
    try {
      return await call(endpoint, send, method, path, body);
    } finally {
      changes += 1;
    }
  };
  return {
    available: new Set(available),
    async expireQuote(quoteId) {
      await go('POST', '/quotes/expire', { quoteId });
    },
    async expireTokens(clientId) {
      await go('POST', '/tokens/expire', { clientId });
    },
    async forgetIdempotencyKeys(olderThanSeconds) {
      await go('POST', '/idempotency/forget', { olderThanSeconds });
    },
    async movePrice(vehicleCode, percent) {
      await go('PUT', `/prices/${segment(vehicleCode)}`, { movePercent: percent });
    },
    async declineNextBookings(count) {
      await go('POST', '/bookings/decline-next', { count });
    },
    async holdBookings(ms) {
      await go('PUT', BOOKINGS_HOLD, { ms });
    },
    async attachMoney(reservationId, attached) {
      await go('PUT', `/reservations/${segment(reservationId)}/money`, { attached });
    },
    async setReservationStatus(reservationId, status) {
      await go('PUT', `/reservations/${segment(reservationId)}/status`, { status });
    },
    async setPartnerEnabled(clientId, enabled) {
      await go('PUT', `/clients/${segment(clientId)}/partner`, { enabled });
    },
    async setApiEnabled(enabled) {
      await go('PUT', '/api', { enabled });
    },
    async setFailures(failures) {
      await go('PUT', '/failures', failures);
    },
    async listAlerts() {
      const body = (await go('GET', '/alerts')) as { alerts?: unknown } | undefined;
      return Array.isArray(body?.alerts) ? body.alerts : [];
    },
    async resetRateLimits() {
      await go('POST', RATE_LIMITS_RESET);
      // Every bucket is full again: what the run had learned of them no longer holds.
      forgetRateLimits();
    },
    async setTokenAddressCeiling(perMinute) {
      await go('PUT', TOKEN_ADDRESS_CEILING, { perMinute });
    },
    async reset() {
      await go('POST', '/reset');
      // The reservations the run made are gone: none of them is for a list to show any more.
      forgetListLag();
    },
  };
}
