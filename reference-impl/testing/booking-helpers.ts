import { randomBytes } from 'node:crypto';
import { API_PREFIX } from '../../contract/constants.ts';
import type { Driver, QuoteRequest, ReservationRequest } from '../../contract/types.ts';
import { serializeTypedXml } from '../../contract/xml/index.ts';
import { loadReferenceTarget } from '../../fixtures/index.ts';
import { type ApiResponse, toApiResponse } from './test-server.ts';

/**
 * Quote-then-book helpers for the HTTP tests of reservations: one client per server URL (in-process or
 * spawned), fixture tokens, the control API, and bodies valid for the fixture operator data.
 */

import { addDays } from '../../contract/iso-date.ts';
import type { Role } from '../../contract/vocabulary.ts';

export type { Role };

export interface CallInit {
  /** A fixture role whose (cached) token is sent, or a literal bearer token. */
  as?: Role;
  token?: string;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
}

const OPERATOR_ZONE = 'Asia/Ho_Chi_Minh';

export const newIdempotencyKey = (): string => `key-${randomBytes(12).toString('hex')}`;

/** YYYY-MM-DD of an instant in an IANA zone. */
export function localDateIn(epochMs: number, zone = OPERATOR_ZONE): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(epochMs),
  );
}

/**
 * The date of birth of someone who turns `age` on `date`: same month and day, `age` years earlier.
 * Throws for 29 February (that birthday does not exist in most years): callers move the clock instead.
 */
export function birthDateTurning(age: number, date: string): string {
  const [y, md] = [Number(date.slice(0, 4)), date.slice(5)];
  if (md === '02-29') throw new Error('no birthday on 29 February in a non-leap year');
  return `${String(y - age).padStart(4, '0')}-${md}`;
}

/** A valid quote request for the fixture operator data, its pickup well after any clock advance of the tests. */
export function quoteRequest(overrides: Partial<QuoteRequest> = {}): QuoteRequest {
  const pickupDate = addDays(localDateIn(Date.now()), 60);
  return {
    pickupLocation: 'SGN-APT-01',
    dropoffLocation: 'HCM-D1',
    pickupDate,
    pickupTime: '10:00',
    dropoffDate: addDays(pickupDate, 3),
    dropoffTime: '10:00',
    vehicleCode: 'TOYOTA-VIOS-AT',
    ...overrides,
  };
}

export function driver(overrides: Partial<Driver> = {}): Driver {
  return {
    firstName: 'Lan',
    lastName: 'Nguyen',
    email: 'lan.nguyen@example.com',
    phone: '+84901234567',
    dateOfBirth: '1990-05-17',
    ...overrides,
  };
}

export function reservationBody(quoteId: string, overrides: Partial<ReservationRequest> = {}): ReservationRequest {
  return { quoteId, driver: driver(), ...overrides };
}

/** The body of an error envelope without its requestId, to compare two errors. */
export function withoutRequestId(json: unknown): unknown {
  const error = (json as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error) return json;
  const { requestId: _requestId, ...rest } = error;
  return { error: rest };
}

export class PartnerApiClient {
  private readonly target = loadReferenceTarget();
  private readonly tokens = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  /** A bearer token for a fixture role; cached until the service clock is moved through this client. */
  async token(role: Role, scope?: string): Promise<string> {
    const cacheKey = `${role} ${scope ?? ''}`;
    const cached = this.tokens.get(cacheKey);
    if (cached) return cached;
    const creds = this.target.clients[role];
    if (!creds) throw new Error(`no fixture client ${role}`);
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope !== undefined) form.set('scope', scope);
    const res = await fetch(`${this.baseUrl}${API_PREFIX}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
    const json = (await res.json()) as { access_token?: string };
    if (res.status !== 200 || !json.access_token) throw new Error(`token for ${role}: HTTP ${res.status}`);
    this.tokens.set(cacheKey, json.access_token);
    return json.access_token;
  }

  /** Forgets cached tokens, e.g. after another client moved the shared clock. */
  forgetTokens(): void {
    this.tokens.clear();
  }

  /** Calls the partner API: `path` is relative to /api/partner/v1. */
  async call(method: string, path: string, init: CallInit = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...init.headers };
    const token = init.token ?? (init.as ? await this.token(init.as) : undefined);
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] ??= 'application/json';
    }
    return toApiResponse(await fetch(`${this.baseUrl}${API_PREFIX}${path}`, { method, headers, body }));
  }

  /** Calls the operator control API with its bearer secret (or `token` when given, even empty). */
  async control(
    method: string,
    path: string,
    body?: unknown,
    init: { token?: string; rawBody?: string } = {},
  ): Promise<ApiResponse> {
    const token = init.token ?? this.target.hooks?.token ?? '';
    const headers: Record<string, string> = {};
    if (token !== '') headers.authorization = `Bearer ${token}`;
    let payload = init.rawBody;
    if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    return toApiResponse(await fetch(`${this.baseUrl}/control/v1${path}`, { method, headers, body: payload }));
  }

  /** Moves the service clock (shared by every instance on the store); tokens are fetched again afterwards. */
  async advanceClock(seconds: number): Promise<void> {
    const res = await this.control('POST', '/clock/advance', { seconds });
    if (res.status !== 200) throw new Error(`clock advance: HTTP ${res.status} ${res.text}`);
    this.tokens.clear();
  }

  /** The service's current (virtual) time in epoch ms. */
  async serviceNow(): Promise<number> {
    const res = await this.control('GET', '/state');
    if (res.status !== 200) throw new Error(`control state: HTTP ${res.status}`);
    return Date.parse(res.json.now);
  }

  /** POST /quotes for `role`; returns the quote id. */
  async quote(role: Role = 'partnerA', request: QuoteRequest = quoteRequest()): Promise<string> {
    const res = await this.call('POST', '/quotes', { as: role, json: request });
    if (res.status !== 201) throw new Error(`quote: HTTP ${res.status} ${res.text}`);
    return res.json.quoteId as string;
  }

  /** POST /reservations; `key: null` sends no Idempotency-Key; `xml` sends the body as typed XML. */
  book(
    role: Role,
    body: unknown,
    key: string | null,
    options: { xml?: boolean; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...options.headers };
    if (key !== null) headers['idempotency-key'] = key;
    if (options.xml) {
      headers['content-type'] = 'application/xml';
      return this.call('POST', '/reservations', {
        as: role,
        headers,
        body: serializeTypedXml(body as never, 'request'),
      });
    }
    return this.call('POST', '/reservations', { as: role, headers, json: body });
  }

  /** Quote, then book under a new key; fails unless the answer is 201. Returns the reservation. */
  async bookFresh(role: Role = 'partnerA', overrides: Partial<ReservationRequest> = {}) {
    const quoteId = await this.quote(role);
    const res = await this.book(role, reservationBody(quoteId, overrides), newIdempotencyKey());
    if (res.status !== 201) throw new Error(`booking: HTTP ${res.status} ${res.text}`);
    return res.json as { reservationId: string; status: string; partnerReference: string | null };
  }

  /**
   * Ids of the reservations of `role` created while `fn` ran: the newest-first list after, less the list
   * before (exact while fewer than 100 are created during `fn`).
   */
  async createdDuring(role: Role, fn: () => Promise<unknown>): Promise<string[]> {
    const before = new Set(await this.listIds(role));
    await fn();
    return (await this.listIds(role)).filter((id) => !before.has(id));
  }

  /** Every reservation of `role` the list shows (at most 100). */
  async listIds(role: Role): Promise<string[]> {
    const res = await this.call('GET', '/reservations?limit=100', { as: role });
    if (res.status !== 200) throw new Error(`list: HTTP ${res.status}`);
    return (res.json.reservations as { reservationId: string }[]).map((r) => r.reservationId);
  }
}
