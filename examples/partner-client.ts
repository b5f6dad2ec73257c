/**
 * The steps of a partner client that keeps every client clause (docs/client-clauses.md): shop, quote, book, read, list
 * and cancel against the Partner API, the way the spec asks a client to. `good-client.ts` runs them; read this file
 * top to bottom: the token, one request and its retries, then a session.
 *
 * It uses nothing but Node's fetch, so it can be copied out of this repository as it is (with good-client.ts).
 */
import { randomUUID } from 'node:crypto';

/** How many times one request is sent in all before the client gives up (a retry keeps the request identical). */
const MAX_ATTEMPTS = 5;
/** Spec 5.3: a token lives 600 s; it is replaced in its last minute so a call never races its expiry. */
const RENEW_BEFORE_EXPIRY_MS = 60_000;

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An error answer in the 7.2 envelope; the client decides on `code` and `retryable`, never on `message`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly retryable: boolean,
    readonly requestId: string | null,
  ) {
    super(`${status} ${code}${requestId ? ` (requestId ${requestId})` : ''}`);
  }
}

/**
 * Spec 8.15: after a 429 nothing goes to that limit before Retry-After has passed. Without a Retry-After (a 5xx, a
 * replay in flight) an exponential backoff: the spec leaves that wait to the client.
 */
function waitBefore(attempt: number, response: Response): number {
  const retryAfter = Number(response.headers.get('retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter >= 0 && response.headers.has('retry-after')) {
    return retryAfter * 1000 + 50;
  }
  return Math.min(8_000, 250 * 2 ** attempt);
}

/** One API client's credentials and its one token, reused until it nears expiry (spec 5.3). */
export class PartnerClient {
  private token: { value: string; renewAtMs: number } | undefined;
  /** The token limit and the business limit are separate buckets (spec 8): each has its own "not before". */
  private notBefore = { token: 0, business: 0 };
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  private async waitForBucket(bucket: 'token' | 'business'): Promise<void> {
    const wait = this.notBefore[bucket] - Date.now();
    if (wait > 0) await sleep(wait);
  }

  private async accessToken(): Promise<string> {
    if (this.token && Date.now() < this.token.renewAtMs) return this.token.value;
    // client_secret_basic (spec 5.2, preferred): id and secret form-urlencoded, then base64 (RFC 6749 2.3.1).
    const basic = Buffer.from(
      `${encodeURIComponent(this.clientId)}:${encodeURIComponent(this.clientSecret)}`,
      'utf8',
    ).toString('base64');
    for (let attempt = 0; ; attempt++) {
      await this.waitForBucket('token');
      const response = await fetch(`${this.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
      });
      if (response.ok) {
        const body = (await response.json()) as { access_token: string; expires_in: number };
        this.token = {
          value: body.access_token,
          renewAtMs: Date.now() + Math.max(0, body.expires_in * 1000 - RENEW_BEFORE_EXPIRY_MS),
        };
        return body.access_token;
      }
      // Only a 429 or a 5xx may succeed when sent again; a 400 or 401 would fail the same way (spec 7.1).
      if ((response.status === 429 || response.status >= 500) && attempt + 1 < MAX_ATTEMPTS) {
        this.notBefore.token = Date.now() + waitBefore(attempt, response);
        await response.body?.cancel();
        continue;
      }
      throw new Error(`token request refused: ${response.status} ${await response.text()}`);
    }
  }

  /**
   * One business request, sent again only when the answer allows it: a 429 after Retry-After, a retryable error or a
   * lost answer (a 5xx, a network failure) after a backoff, always the identical request, so a booking keeps its
   * Idempotency-Key and body and the service replays it rather than booking twice (spec 4.7.3).
   */
  async call<T>(method: string, path: string, options: { body?: unknown; idempotencyKey?: string } = {}): Promise<T> {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    let renewedAfterRefusal = false;
    for (let attempt = 0; ; attempt++) {
      await this.waitForBucket('business');
      const headers: Record<string, string> = {
        Authorization: `Bearer ${await this.accessToken()}`,
        Accept: 'application/json',
      };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
      let response: Response;
      try {
        response = await fetch(`${this.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      } catch (error) {
        // No answer at all: the request may or may not have been done; the identical retry is safe (4.7.3).
        if (attempt + 1 >= MAX_ATTEMPTS) throw error;
        await sleep(Math.min(8_000, 250 * 2 ** attempt));
        continue;
      }
      if (response.ok) return (await response.json()) as T;
      const envelope = (await response.json().catch(() => ({}))) as {
        error?: { code?: string; retryable?: boolean; requestId?: string };
      };
      const code = envelope.error?.code ?? `HTTP_${response.status}`;
      const error = new ApiError(
        response.status,
        code,
        envelope.error?.retryable === true,
        envelope.error?.requestId ?? response.headers.get('x-request-id'),
      );
      // A token refused (expired early, revoked): one new token, once, then the call again.
      if (code === 'INVALID_TOKEN' && !renewedAfterRefusal) {
        renewedAfterRefusal = true;
        this.token = undefined;
        continue;
      }
      const mayRetry = response.status === 429 || response.status >= 500 || error.retryable;
      if (!mayRetry || attempt + 1 >= MAX_ATTEMPTS) throw error;
      this.notBefore.business = Date.now() + waitBefore(attempt, response);
    }
  }
}

interface Offer {
  quoteId: string;
  vehicle: { vehicleCode: string };
}
interface QuoteAnswer {
  quoteId: string;
  charges: { total: { amount: number; exponent: number; currency: string } };
}
interface ReservationAnswer {
  reservationId: string;
  rocketBookingCode: string;
  status: string;
}

function isoDate(daysFromNow: number): string {
  return new Date(Date.now() + daysFromNow * 86_400_000).toISOString().slice(0, 10);
}

const rentalWindow = (daysAhead: number) => ({
  pickupLocation: 'SGN-APT-01',
  dropoffLocation: 'SGN-APT-01',
  pickupDate: isoDate(daysAhead),
  pickupTime: '10:00',
  dropoffDate: isoDate(daysAhead + 3),
  dropoffTime: '10:00',
});

const driver = {
  firstName: 'Lan',
  lastName: 'Nguyen',
  email: 'lan.nguyen@example.com',
  phone: '+84901234567',
  dateOfBirth: '1988-04-12',
};

/**
 * Quote and book one rental. Each attempt to book has its own Idempotency-Key (spec 4.7: unique per attempt); a quote
 * that expired or went stale is quoted again, never booked again (7.3), and that new booking is a new attempt.
 */
async function quoteAndBook(client: PartnerClient, daysAhead: number, vehicleCode: string): Promise<ReservationAnswer> {
  const partnerReference = `good-${randomUUID()}`;
  for (let quotes = 0; quotes < 3; quotes++) {
    const quote = await client.call<QuoteAnswer>('POST', '/quotes', {
      body: { ...rentalWindow(daysAhead), vehicleCode },
    });
    try {
      return await client.call<ReservationAnswer>('POST', '/reservations', {
        idempotencyKey: randomUUID(),
        body: { quoteId: quote.quoteId, driver, partnerReference },
      });
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'QUOTE_EXPIRED' || error.code === 'QUOTE_STALE')) continue;
      throw error;
    }
  }
  throw new Error('the price kept moving: three quotes went stale before they could be booked');
}

/** The operator declined the booking (7.3: the reason only via support): said, and never sent again. */
const declined = (error: unknown) => error instanceof ApiError && error.code === 'RESERVATION_REJECTED';

export async function session(client: PartnerClient, label: string, rounds: number): Promise<void> {
  const locations = await client.call<{ count: number }>('GET', '/locations');
  const fleet = await client.call<{ count: number }>('GET', '/fleet');
  const rates = await client.call<{ count: number }>('GET', '/rates');
  console.log(`${label}: ${locations.count} locations, ${fleet.count} vehicles, ${rates.count} rate plans`);
  for (let round = 0; round < rounds; round++) {
    const daysAhead = 30 + round * 7;
    const availability = await client.call<{ offers: Offer[] }>('POST', '/availability', {
      body: rentalWindow(daysAhead),
    });
    const offer = availability.offers[0];
    if (!offer) {
      console.log(`${label}: no offer for the window ${daysAhead} days ahead`);
      continue;
    }
    let booked: ReservationAnswer;
    try {
      booked = await quoteAndBook(client, daysAhead, offer.vehicle.vehicleCode);
    } catch (error) {
      if (!declined(error)) throw error;
      console.log(`${label}: the operator declined the booking; ask support about ${(error as ApiError).requestId}`);
      continue;
    }
    const read = await client.call<ReservationAnswer>(
      'GET',
      `/reservations/${encodeURIComponent(booked.reservationId)}`,
    );
    const list = await client.call<{ count: number }>('GET', '/reservations?limit=10');
    // To change a reservation the spec says cancel and re-book (4.10): this sample only cancels.
    const cancelled = await client.call<ReservationAnswer>(
      'POST',
      `/reservations/${encodeURIComponent(booked.reservationId)}/cancel`,
      { body: { reason: 'Traveller changed plans' } },
    );
    console.log(
      `${label}: booked ${booked.rocketBookingCode} (${read.status}), ${list.count} listed, then ${cancelled.status}`,
    );
  }
}

/** Five rounds each: enough bookings to meet every step of the sandbox's resilience scenario. */
export const ROUNDS = 5;

/**
 * The sample's whole run, as good-client.ts starts it: the first client's session, then the second client's when the
 * environment names one (PARTNER_API_CLIENT_ID_2 and PARTNER_API_CLIENT_SECRET_2).
 */
export async function runSessions(): Promise<void> {
  const baseUrl = requiredEnv('PARTNER_API_BASE_URL');
  const first = new PartnerClient(
    baseUrl,
    requiredEnv('PARTNER_API_CLIENT_ID'),
    requiredEnv('PARTNER_API_CLIENT_SECRET'),
  );
  await session(first, 'client 1', ROUNDS);
  const secondId = process.env.PARTNER_API_CLIENT_ID_2;
  const secondSecret = process.env.PARTNER_API_CLIENT_SECRET_2;
  if (secondId && secondSecret) await session(new PartnerClient(baseUrl, secondId, secondSecret), 'client 2', ROUNDS);
}
