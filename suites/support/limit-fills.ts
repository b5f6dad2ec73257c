/**
 * Buckets filled once per run for every check that judges the answer at the top: a target limits each client (spec
 * 8.13), a fill costs a window of its requests, and a target without the rate-limit reset hook then holds that client
 * for the rest of the window (Retry-After). The checks of 7.3.33, 8.14 and 8.15 judge the same 429 (its code, its
 * X-RateLimit-*, its Retry-After), and 5.4c, 8.16a and 8.16b the same token-endpoint 429: each judges its own clause
 * on one fill, with the fill's exchanges as its own evidence (support/shared-steps.ts). The 429s of 4.5.4, 4.6.4
 * and 8.13 are their own: the first two fill the endpoint they name (a target may limit endpoints apart), and 8.13
 * asks partner A while the other client is still refused.
 */
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { freshToken, requestToken } from './auth.ts';
import { type Exhaustion, inOwnWindow, MAX_REQUESTS_TO_429, sendUntil429, windowReset } from './limits.ts';
import { sharedStep } from './shared-steps.ts';

/** Token requests of one client a check may send to reach its 429. */
export const MAX_TOKEN_REQUESTS = 1000;

/** The longest Retry-After a fill waits out (a larger value would stall the run). */
export const MAX_WAIT_SECONDS = 61;

/**
 * The rateLimit client's GET /locations (a fresh token, the check's representation) sent until its first 429,
 * from an empty window where the target resets them (test hook rateLimits.reset).
 */
export function businessFill(t: CheckContext): Promise<Exhaustion> {
  return sharedStep(
    t,
    `business-fill|${t.representation}`,
    () =>
      inOwnWindow(t, async () => {
        const token = (await freshToken(t, 'rateLimit')).access_token;
        return sendUntil429(() => t.client('rateLimit').get('/locations', { token }), MAX_REQUESTS_TO_429);
      }),
    // A limit does not change with the data the test hooks set.
    { acrossHooks: true },
  );
}

export interface TokenFill extends Exhaustion {
  /**
   * Partner A's token request right after the 429, from the same address: its bucket is its own (8.16a). Absent
   * when partner A is not configured.
   */
  other?: ApiResult;
}

/**
 * The rateLimit client's token requests sent until its first 429, then one of partner A's. Without the reset hook
 * the 429's Retry-After is waited out (bounded) before anything else asks for a token.
 */
export function tokenFill(t: CheckContext): Promise<TokenFill> {
  return sharedStep(
    t,
    'token-fill',
    () =>
      inOwnWindow(t, async () => {
        const fill = await sendUntil429(() => requestToken(t, 'rateLimit'), MAX_TOKEN_REQUESTS, {
          tokenEndpoint: true,
        });
        if (!fill.limited) return fill;
        // Only where partner A is configured: 5.4c, which may fill first, needs no second client.
        const other = t.settings.target.clients.partnerA ? await requestToken(t, 'partnerA') : undefined;
        if (!windowReset(t)) await waitOut(fill.limited);
        return { ...fill, other };
      }),
    { acrossHooks: true },
  );
}

/** Waits a 429's Retry-After (bounded), so the bucket it reports is usable again for the checks after. */
export async function waitOut(limited: ApiResult): Promise<void> {
  const seconds = Number(limited.headers['retry-after'] ?? MAX_WAIT_SECONDS);
  const wait = Math.min(Number.isFinite(seconds) ? seconds : MAX_WAIT_SECONDS, MAX_WAIT_SECONDS) * 1000 + 500;
  await new Promise((resolve) => setTimeout(resolve, wait));
}
