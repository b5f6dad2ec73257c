import type { HttpRequest, HttpResponse, SendOptions } from '../http/client.ts';
import { send as defaultSend } from '../http/client.ts';

/**
 * What only the operator can do to a target (design.md "Target control"). Checks that need it declare
 * `control: true` and are not-applicable on targets without an adapter.
 */
export interface ControlAdapter {
  /** Moves the service clock forward (tokens, quotes, idempotency memory and rate-limit windows follow it). */
  advanceClock(seconds: number): Promise<void>;
  resetClock(): Promise<void>;
  /** Spec 5.8: the partner API switch. */
  setApiEnabled(enabled: boolean): Promise<void>;
  setPartnerEnabled(partnerId: string, enabled: boolean): Promise<void>;
  partnerIdOf(clientId: string): Promise<string>;
  /** Moves the public daily rate of a vehicle by a percentage (0 = back to the catalogue price). */
  movePrice(vehicleCode: string, percent: number): Promise<void>;
  /** The next `count` bookings are declined (422 RESERVATION_REJECTED). */
  declineNextBookings(count: number): Promise<void>;
  /** Attaches (or detaches) a rental payment or deposit to a reservation. */
  attachMoney(reservationId: string, attached: boolean): Promise<void>;
  setReservationStatus(reservationId: string, status: string): Promise<void>;
  /** Staff alerts raised so far (e.g. cancellations that need staff). */
  listAlerts(): Promise<unknown[]>;
  /**
   * Switches named faults: business calls past authentication answer 503 DEPENDENCY_UNAVAILABLE or 500
   * INTERNAL_ERROR while on (spec 7.3 rows no healthy server shows otherwise).
   */
  setFaults(faults: { dependencyUnavailable?: boolean; internalError?: boolean }): Promise<void>;
}

/** A control call the target refused: a harness error (the check could not set up its precondition). */
export class ControlError extends Error {
  override readonly name = 'ControlError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export const REFERENCE_CONTROL_PREFIX = '/control/v1';

type SendFn = (req: HttpRequest, options?: SendOptions) => Promise<HttpResponse>;

/**
 * The adapter of the bundled reference implementation: its control API under `<baseUrl>/control/v1`
 * (README "Control API"), JSON in and out, authenticated by the control bearer token. Control calls are
 * recorded in the check's evidence like any other exchange (the token redacted).
 */
export function referenceControlAdapter(baseUrl: string, token: string, send: SendFn = defaultSend): ControlAdapter {
  const root = `${baseUrl.replace(/\/+$/, '')}${REFERENCE_CONTROL_PREFIX}`;

  async function call(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const req: HttpRequest = { method, url: `${root}${path}`, headers };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      req.body = JSON.stringify(body);
    }
    const res = await send(req);
    const text = new TextDecoder().decode(res.body);
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (res.status < 200 || res.status > 299) {
      const code = (parsed as { error?: { code?: unknown } } | undefined)?.error?.code;
      throw new ControlError(
        `control ${method} ${path} answered HTTP ${res.status}${typeof code === 'string' ? ` ${code}` : ''}`,
        res.status,
      );
    }
    return parsed;
  }

  const segment = (s: string) => encodeURIComponent(s);

  return {
    async advanceClock(seconds) {
      await call('POST', '/clock/advance', { seconds });
    },
    async resetClock() {
      await call('POST', '/clock/reset');
    },
    async setApiEnabled(enabled) {
      await call('PUT', '/api', { enabled });
    },
    async setPartnerEnabled(partnerId, enabled) {
      await call('PUT', `/partners/${segment(partnerId)}`, { enabled });
    },
    async partnerIdOf(clientId) {
      const body = (await call('GET', `/clients/${segment(clientId)}`)) as { partnerId?: unknown } | undefined;
      if (typeof body?.partnerId !== 'string') throw new ControlError(`control: no partner id for client ${clientId}`);
      return body.partnerId;
    },
    async movePrice(vehicleCode, percent) {
      await call('PUT', `/prices/${segment(vehicleCode)}`, { movePercent: percent });
    },
    async declineNextBookings(count) {
      await call('POST', '/bookings/decline-next', { count });
    },
    async attachMoney(reservationId, attached) {
      await call('PUT', `/reservations/${segment(reservationId)}/money`, { attached });
    },
    async setReservationStatus(reservationId, status) {
      await call('PUT', `/reservations/${segment(reservationId)}/status`, { status });
    },
    async setFaults(faults) {
      await call('PUT', '/faults', faults);
    },
    async listAlerts() {
      const body = (await call('GET', '/alerts')) as { alerts?: unknown } | undefined;
      return Array.isArray(body?.alerts) ? body.alerts : [];
    },
  };
}
