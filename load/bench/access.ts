/**
 * Keeps a partner's access to the reference implementation usable at bench rates. partnerA may make 60,000 calls a
 * minute (the bench starts the reference with RATE_LIMIT_PER_MINUTE=60000, processes.ts), below what a benchmark sends
 * in a minute, so the bench moves the service clock one minute forward every half second (control API): each half
 * second is a fresh rate-limit window. Tokens (600 s) and quotes (30 min) age
 * with the clock, so fresh ones are fetched before they expire. The control and token calls are a handful a second,
 * next to thousands of measured requests.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { API_PREFIX } from '../../contract/constants.ts';
import type { LoadTarget } from '../engine-neutral/model.ts';
import { rentalWindow } from '../engine-neutral/partner-api.ts';

const ADVANCE_EVERY_MS = 500;
/** Advances between token refreshes: 5 × 60 s of a 600 s token. */
const TOKEN_EVERY = 5;
/** Advances between quote refreshes: 20 × 60 s of a 30 min quote. */
const QUOTE_EVERY = 20;

async function json(
  url: string,
  init: Parameters<typeof request>[1],
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(url, init);
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export class BenchAccess {
  token = '';
  quoteId = '';
  private running = false;
  private loop: Promise<void> | undefined;
  private advances = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly target: LoadTarget,
  ) {}

  private async advance(): Promise<void> {
    const control = this.target.control;
    if (!control) throw new Error('the bench needs the reference control API');
    const res = await json(`${this.baseUrl}/control/v1/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${control.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 60 }),
    });
    if (res.status !== 200) throw new Error(`clock advance: HTTP ${res.status}`);
  }

  private async refreshToken(): Promise<void> {
    const client = this.target.clients.partnerA;
    if (!client) throw new Error('the bench needs the partnerA client');
    const basic = Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64');
    const res = await json(`${this.baseUrl}${API_PREFIX}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    if (res.status !== 200 || typeof res.body.access_token !== 'string') throw new Error(`token: HTTP ${res.status}`);
    this.token = res.body.access_token;
  }

  private async refreshQuote(): Promise<void> {
    const res = await json(`${this.baseUrl}${API_PREFIX}/quotes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(quoteBody()),
    });
    if (res.status !== 201 || typeof res.body.quoteId !== 'string') throw new Error(`quote: HTTP ${res.status}`);
    this.quoteId = res.body.quoteId;
  }

  private async rotate(): Promise<void> {
    await this.advance();
    this.advances += 1;
    if (this.advances % TOKEN_EVERY === 0) await this.refreshToken();
    if (this.advances % QUOTE_EVERY === 0) await this.refreshQuote();
  }

  async start(): Promise<void> {
    await this.rotate();
    await this.refreshToken();
    await this.refreshQuote();
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        await sleep(ADVANCE_EVERY_MS);
        if (this.running) await this.rotate();
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

/** The bench measures the reference implementation only: its operator data's codes (fixtures/), not a listing. */
const REFERENCE_LOCATION = 'SGN-APT-01';
const REFERENCE_VEHICLE = 'TOYOTA-VIOS-AT';

export function availabilityBody() {
  return rentalWindow(Date.now(), REFERENCE_LOCATION, 60, 3);
}

export function quoteBody() {
  return { ...rentalWindow(Date.now(), REFERENCE_LOCATION, 60, 3), vehicleCode: REFERENCE_VEHICLE };
}
