import type { ApiResult } from '../../harness/check/check.ts';
import { errorCodeOf } from '../../harness/check/expect-api.ts';
import { claim } from '../../harness/check/scope.ts';
import { transientSignal } from '../../harness/check/signal.ts';
import { retryAfterSeconds } from '../../harness/http/pacing.ts';
import { REPLAY_HEADER } from './booking.ts';

/**
 * Spec 4.7.3: a replay, and only a replay, says `Idempotent-Replay: true`. Judged under 4.7.3 wherever a check
 * sees a booking answer, so a server that forgets the header fails 4.7.3 and not every idempotency check.
 */
export function observeReplayHeader(res: ApiResult, replay: boolean, what: string): void {
  const value = res.headers[REPLAY_HEADER];
  claim(
    '4.7.3',
    replay ? value === 'true' : value !== 'true',
    `${what}: Idempotent-Replay ${replay ? '' : 'not '}true`,
    {
      actual: value ?? '(absent)',
    },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Races (audit 4.7-R6): what a racing booking may be told besides the race's own answers

/**
 * Spec 7.3, the rows marked retryable that a booking may meet under load: a rate limit (4.7's "Other errors: … 429",
 * Retry-After given) and a dependency unavailable for now (a store refusing a serialisation conflict, a pool
 * exhausted). Neither says anything about the idempotency key: the client is told to send the request again.
 */
const RETRYABLE_REFUSALS: readonly { status: number; code: string }[] = [
  { status: 429, code: 'RATE_LIMITED' },
  { status: 503, code: 'DEPENDENCY_UNAVAILABLE' },
];

/** How often one request refused for now, or met in flight after a race, is sent again before the check gives up. */
export const RACE_RETRIES = 5;
/** Wait before a retry when the answer names no Retry-After: this, doubled at each retry (250, 500, 1000 … ms). */
const BACKOFF_MS = 250;
/** The longest Retry-After honoured here: a larger one ends the check "not judged" rather than stalls the run. */
const MAX_RETRY_AFTER_MS = 10_000;

/** A refusal the 7.3 table marks retryable and that a booking may meet in a race: 429 RATE_LIMITED, 503 DEPENDENCY_UNAVAILABLE. */
export function isRetryableRefusal(res: ApiResult): boolean {
  if (res.status !== 429 && res.status !== 503) return false;
  const code = errorCodeOf(res);
  return RETRYABLE_REFUSALS.some((r) => r.status === res.status && r.code === code);
}

/** How long to wait before sending again: the answer's Retry-After (8.15, whole seconds), else the backoff. */
function waitBefore(res: ApiResult, retry: number): number {
  const seconds = retryAfterSeconds(res.headers['retry-after']);
  if (seconds !== undefined) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  return BACKOFF_MS * 2 ** retry;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Spec 7.3 (retryable) and 4.7 (429 among a booking's errors): a racing answer refused for now is no answer to the
 * race, so it is not judged; the identical request is sent again, as the refusal tells a client to do (its
 * Retry-After honoured, else a short backoff), and what that retry gets stands in the race's place. A request
 * still refused after RACE_RETRIES ends the check not judged (nothing about the race could be judged from it).
 * Returns the settled answers in the race's order and, per answer, the refusals met before it.
 */
export async function settleRetryable(
  answers: readonly ApiResult[],
  resend: (index: number) => Promise<ApiResult>,
  what: string,
): Promise<{ answers: ApiResult[]; refused: string[] }> {
  const refused: string[] = [];
  // Each refused racer waits and retries on its own, all at once: the race's timing, not one wait after another.
  const settled = await Promise.all(
    answers.map(async (first, i) => {
      let res = first;
      for (let retry = 0; isRetryableRefusal(res); retry++) {
        refused.push(`${res.status} ${errorCodeOf(res) ?? ''}`.trim());
        if (retry >= RACE_RETRIES) {
          throw transientSignal(
            `${what}: answer ${i + 1} was still refused for now after ${RACE_RETRIES} retries (HTTP ${res.status}): nothing could be judged`,
          );
        }
        await sleep(waitBefore(res, retry));
        res = await resend(i);
      }
      return res;
    }),
  );
  return { answers: settled, refused };
}

/**
 * Spec 4.7.5 and 7.3.27: IDEMPOTENT_REPLAY_IN_FLIGHT is retryable, and "in process" is the server's to say. A server
 * may clear its in-flight marker a moment after the race's first answer left (a claim released after the commit,
 * under contention), so the identical request sent right after the race may still be told IN_FLIGHT (ambiguity
 * #12). Sends it until it is no longer in flight or refused for now, honouring Retry-After or a short backoff, at
 * most RACE_RETRIES times more; returns the last answer and the in-flight answers met before it (for the caller to
 * judge as what they are). A request refused for now to the end ends the check not judged.
 */
export async function retryPastInFlight(
  send: () => Promise<ApiResult>,
  what: string,
): Promise<{ res: ApiResult; inFlight: ApiResult[] }> {
  const inFlight: ApiResult[] = [];
  let res = await send();
  for (let retry = 0; retry < RACE_RETRIES; retry++) {
    const waiting = errorCodeOf(res) === 'IDEMPOTENT_REPLAY_IN_FLIGHT';
    if (!waiting && !isRetryableRefusal(res)) return { res, inFlight };
    if (waiting) inFlight.push(res);
    await sleep(waitBefore(res, retry));
    res = await send();
  }
  if (isRetryableRefusal(res)) {
    throw transientSignal(`${what} was still refused for now after ${RACE_RETRIES} retries (HTTP ${res.status})`);
  }
  return { res, inFlight };
}
