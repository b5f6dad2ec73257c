import { API_PREFIX, MEDIA_TYPES } from '../../contract/constants.ts';
import { addDays } from '../../contract/iso-date.ts';
import { LIMITS } from '../../contract/limits.ts';
import { basicAuthorization } from '../auth/token-cache.ts';
import type { Role, TargetConfig } from '../config/target-config.ts';
import { send } from '../http/client.ts';
import type { PatientClock } from '../run-settings.ts';

/**
 * The patient path (README, --patient: the spec's 30-minute quotes and 600 s tokens): on a target without test hooks,
 * quote and token expiry are judged by waiting for them. The runner starts both clocks before the suites (a token and a
 * quote issued now) and the patient checks, which run last, wait out what is left: a full run takes the 30 minutes of a
 * quote, not 30 minutes plus the suite.
 */

/** Seconds past the lifetime before the expired object is tried: clock skew and second resolution. */
export const PATIENT_MARGIN_SECONDS = 5;

/** The waits are the spec's (8.1, 8.2); PARTNER_CERT_PATIENT_WAITS shortens them for the harness's own tests only. */
export function patientLifetimes(env: NodeJS.ProcessEnv): { tokenSeconds: number; quoteSeconds: number } {
  const waits = env.PARTNER_CERT_PATIENT_WAITS;
  const fromEnv = (name: string) => {
    const value = waits ? new RegExp(`(?:^|,)${name}=(\\d+)`).exec(waits)?.[1] : undefined;
    return value === undefined ? undefined : Number(value);
  };
  return {
    tokenSeconds: fromEnv('token') ?? LIMITS.accessTokenLifetimeSeconds,
    quoteSeconds: fromEnv('quote') ?? LIMITS.quoteValidityMinutes * 60,
  };
}

const lossy = new TextDecoder();

async function getJson(target: TargetConfig, token: string, path: string): Promise<unknown> {
  const res = await send(
    {
      method: 'GET',
      url: `${target.baseUrl}${API_PREFIX}${path}`,
      headers: { authorization: `Bearer ${token}`, accept: MEDIA_TYPES.json },
    },
    { record: false },
  );
  if (res.status !== 200) throw new Error(`GET ${path} answered HTTP ${res.status}`);
  return JSON.parse(lossy.decode(res.body));
}

/**
 * A fresh token of the role, never the run's cached one (that one must stay valid). Basic first (spec 5.2's
 * preferred method), the secret in the form when the endpoint refuses Basic: that refusal is 5.2a's, judged there.
 */
async function issueToken(target: TargetConfig, role: Role): Promise<string> {
  const credentials = target.clients[role];
  if (!credentials) throw new Error(`no ${role} credentials`);
  const request = (method: 'basic' | 'post') =>
    send(
      {
        method: 'POST',
        url: `${target.baseUrl}${API_PREFIX}/oauth/token`,
        headers: {
          ...(method === 'basic'
            ? { authorization: basicAuthorization(credentials.clientId, credentials.clientSecret) }
            : {}),
          'content-type': MEDIA_TYPES.form,
          accept: MEDIA_TYPES.json,
        },
        body:
          method === 'basic'
            ? 'grant_type=client_credentials'
            : new URLSearchParams({
                grant_type: 'client_credentials',
                client_id: credentials.clientId,
                client_secret: credentials.clientSecret,
              }).toString(),
      },
      { record: false, role },
    );
  let res = await request('basic');
  if (res.status === 400 || res.status === 401) res = await request('post');
  const body = JSON.parse(lossy.decode(res.body)) as { access_token?: unknown };
  if (res.status !== 200 || typeof body.access_token !== 'string') {
    throw new Error(`the token endpoint answered HTTP ${res.status}`);
  }
  return body.access_token;
}

interface Listed {
  locations?: { locationCode: string; capabilities?: { pickup?: boolean; dropoff?: boolean } }[];
  vehicles?: { vehicleCode: string; locationCodes?: string[] }[];
}

/** A quote of the first listed vehicle at a round-trip location it is offered at, 14 days after the run's date. */
async function issueQuote(target: TargetConfig, token: string, date: string): Promise<string> {
  const { locations = [] } = (await getJson(target, token, '/locations')) as Listed;
  const { vehicles = [] } = (await getJson(target, token, '/fleet')) as Listed;
  const roundTrip = locations.filter((l) => l.capabilities?.pickup && l.capabilities?.dropoff);
  for (const vehicle of vehicles) {
    const location = roundTrip.find((l) => vehicle.locationCodes?.includes(l.locationCode));
    if (!location) continue;
    const pickupDate = addDays(date, 14);
    const res = await send(
      {
        method: 'POST',
        url: `${target.baseUrl}${API_PREFIX}/quotes`,
        headers: { authorization: `Bearer ${token}`, 'content-type': MEDIA_TYPES.json, accept: MEDIA_TYPES.json },
        body: JSON.stringify({
          pickupLocation: location.locationCode,
          dropoffLocation: location.locationCode,
          pickupDate,
          pickupTime: '10:00',
          dropoffDate: addDays(pickupDate, 3),
          dropoffTime: '10:00',
          vehicleCode: vehicle.vehicleCode,
        }),
      },
      { record: false },
    );
    if (res.status !== 201) continue;
    const quoteId = (JSON.parse(lossy.decode(res.body)) as { quoteId?: unknown }).quoteId;
    if (typeof quoteId === 'string') return quoteId;
  }
  throw new Error('no listed vehicle could be quoted at a round-trip location');
}

/**
 * Starts the patient clocks: a token of partnerA issued now and, when the run may shop, a quote issued now. What
 * cannot be started is recorded with its reason; the patient checks are then not-applicable with it.
 */
export async function startPatientClocks(
  target: TargetConfig,
  options: { canShop: boolean; date: string; env: NodeJS.ProcessEnv },
): Promise<PatientClock> {
  const lifetimes = patientLifetimes(options.env);
  const clock: PatientClock = { ...lifetimes, marginSeconds: PATIENT_MARGIN_SECONDS };
  const role: Role = 'partnerA';
  if (!target.clients[role]) {
    clock.unavailable = 'the target config has no partnerA credentials';
    return clock;
  }
  try {
    const issuedAtMs = Date.now();
    clock.token = { role, accessToken: await issueToken(target, role), issuedAtMs };
    if (options.canShop) {
      const quoteAt = Date.now();
      clock.quote = {
        role,
        quoteId: await issueQuote(target, clock.token.accessToken, options.date),
        issuedAtMs: quoteAt,
      };
    }
  } catch (error) {
    clock.unavailable = (error as Error).message;
  }
  return clock;
}

/** "mm:ss" until the deadlines, for the progress line while the patient checks wait. */
export function patientProgress(clock: PatientClock, now = Date.now()): string | undefined {
  const left = (issuedAtMs: number, seconds: number) =>
    Math.max(0, Math.ceil((issuedAtMs + (seconds + clock.marginSeconds) * 1000 - now) / 1000));
  const mmss = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  const parts: string[] = [];
  if (clock.token) parts.push(`token expiry judged in ${mmss(left(clock.token.issuedAtMs, clock.tokenSeconds))}`);
  if (clock.quote) parts.push(`quote expiry judged in ${mmss(left(clock.quote.issuedAtMs, clock.quoteSeconds))}`);
  return parts.length > 0 ? `patient: ${parts.join(', ')}` : undefined;
}
