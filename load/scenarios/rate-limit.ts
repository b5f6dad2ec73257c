import type { HttpResponseData, RunContext, ScenarioDefinition, VuContext } from '../engine-neutral/model.ts';
import {
  advanceClock,
  apiRequest,
  errorCodeOf,
  fetchToken,
  isSuccess,
  type RateLimitHeaders,
  rateLimitedEnvelopeProblem,
  rateLimitHeadersOf,
  retryAfterOf,
  startFreshWindow,
  windowsSpanned,
} from '../engine-neutral/partner-api.ts';
import {
  RATE_LIMIT_CEILING,
  rateLimitCeilingCheck,
  WINDOW_CHECK_DEFINITIONS,
  WindowMonitor,
} from '../engine-neutral/window-monitor.ts';

const CHECKS = {
  retryAfter: 'every 429 carries Retry-After in whole seconds',
  envelope: 'every 429 carries the RATE_LIMITED envelope',
  recovers: 'calls succeed again after the reset',
} as const;

/** Waiting for a reset without a control API is bounded: a window is one minute (spec 8.14). */
const MAX_RESET_WAIT_S = 65;
/** Calls the recovery may send to reach a 429 after the load, at most (and never more than the load itself sent). */
const MAX_RECOVERY_PROBES = 1_000;

export interface RateLimitShared {
  token: string;
  /** The run starts on a fresh window (control API). */
  aligned: boolean;
  /** Requests the load phase sends (rate × duration). */
  planned: number;
}

/**
 * The rateLimit client's ceiling as its answers state it (X-RateLimit-Limit), once a run: a refusal is certain after
 * Limit requests in each window the run may span (spec 8.14: one-minute windows). Shared with the isolation scenario.
 */
export function stateRateLimitCeiling(
  ctx: Pick<VuContext<unknown>, 'memo' | 'ceiling'>,
  limits: RateLimitHeaders | undefined,
  durationS: number,
  aligned: boolean,
): void {
  if (!limits) return;
  const stated = ctx.memo('ceiling:rateLimit', () => ({ done: false }));
  if (stated.done) return;
  stated.done = true;
  const sureAfter = limits.limit * windowsSpanned(durationS, aligned);
  ctx.ceiling(RATE_LIMIT_CEILING, { limit: limits.limit, source: 'X-RateLimit-Limit', sureAfter });
}

/** Spec 8.15 and 7.3 on one 429; shared with the isolation scenario. */
export function judge429(ctx: RunContext, res: HttpResponseData): void {
  if (res.status !== 429) return;
  const retryAfter = retryAfterOf(res);
  ctx.check(
    CHECKS.retryAfter,
    retryAfter !== undefined,
    `Retry-After ${JSON.stringify(res.headers['retry-after'] ?? null)}`,
  );
  const problem = rateLimitedEnvelopeProblem(res);
  ctx.check(CHECKS.envelope, problem === undefined, problem);
}

export const RATE_LIMIT_429_CHECKS = [
  { name: CHECKS.retryAfter, description: 'Spec 8.15.', afterCeiling: [RATE_LIMIT_CEILING] },
  {
    name: CHECKS.envelope,
    description: 'Spec 7.2 and 7.3: code RATE_LIMITED, retryable true, requestId = X-Request-Id.',
    afterCeiling: [RATE_LIMIT_CEILING],
  },
];

const call = (ctx: RunContext, token: string, step?: string) =>
  ctx.http.request(
    apiRequest(ctx, { method: 'GET', path: '/locations', token, client: 'rateLimit', ...(step ? { step } : {}) }),
  );

/**
 * Drives the client to a 429, waits out Retry-After (by the control clock when there is one), and expects the next
 * call to succeed in a later window. The drive is bounded by what the window has left (its first Remaining, plus
 * one) and by what the load itself sent: a ceiling beyond that is not judged here either.
 */
async function recovery(ctx: RunContext, shared: RateLimitShared): Promise<void> {
  let refused: HttpResponseData | undefined;
  let bound = Math.min(MAX_RECOVERY_PROBES, shared.planned + 1);
  let promised = false;
  let firstReset: string | undefined;
  let sameWindow = true;
  let sent = 0;
  for (; sent < bound && !refused; sent++) {
    const res = await call(ctx, shared.token);
    if (res.status === 429) {
      refused = res;
      break;
    }
    if (!isSuccess(res)) {
      ctx.check(CHECKS.recovers, false, `HTTP ${res.status} ${errorCodeOf(res)} while driving the client to a 429`);
      return;
    }
    const headers = rateLimitHeadersOf(res);
    if ('problem' in headers) continue;
    if (firstReset === undefined) {
      firstReset = headers.reset;
      if (sent + headers.remaining + 2 <= bound) {
        bound = sent + headers.remaining + 2;
        promised = true;
      }
    }
    sameWindow &&= headers.reset === firstReset;
  }
  if (!refused) {
    if (promised && sameWindow) {
      ctx.check(
        CHECKS.recovers,
        false,
        `${sent} calls in the window ending ${firstReset}, none refused, though X-RateLimit-Remaining said fewer were left`,
      );
    } else {
      ctx.notJudged(
        CHECKS.recovers,
        `no 429 within ${sent} calls after the load (the load's own count, or what the window had left): nothing to recover from`,
      );
    }
    return;
  }
  const before = rateLimitHeadersOf(refused);
  const wait = retryAfterOf(refused);
  if ('problem' in before || wait === undefined) {
    ctx.check(CHECKS.recovers, false, 'the 429 that ended the drive lacks Retry-After or X-RateLimit-*');
    return;
  }
  if (ctx.target.control) await advanceClock(ctx, wait);
  else await ctx.sleep(Math.min(wait, MAX_RESET_WAIT_S) * 1000);
  const after = await call(ctx, shared.token);
  const headers = rateLimitHeadersOf(after);
  const later = !('problem' in headers) && headers.resetMs > before.resetMs;
  ctx.check(
    CHECKS.recovers,
    isSuccess(after) && later,
    `after waiting Retry-After ${wait} s: HTTP ${after.status}, X-RateLimit-Reset ${after.headers['x-ratelimit-reset']} (before: ${before.reset})`,
  );
}

export const rateLimitScenario: ScenarioDefinition<RateLimitShared> = {
  id: 'rate-limit',
  title: 'Rate limit under load',
  description:
    'The rateLimit client is driven past its per-minute limit at a constant arrival rate (GET /locations). Every response carries X-RateLimit-*; within one window successes never exceed the Limit and Remaining only decreases; a 429 comes only after Limit successes, with Retry-After and the RATE_LIMITED envelope; calls succeed again after the reset. A Limit higher than the run reaches is not judged (spec 8: ceilings not shown).',
  rateMeaning: 'requests a second',
  defaults: { rate: 5, durationS: 20 },
  ci: { rate: 15, durationS: 4 },
  steps: ['locations'],
  roles: ['rateLimit'],
  checks: [
    ...WINDOW_CHECK_DEFINITIONS,
    ...RATE_LIMIT_429_CHECKS,
    {
      name: CHECKS.recovers,
      description:
        'After a 429, once Retry-After has passed (the control clock is advanced when the target has one), the next call succeeds in a later window.',
      afterCeiling: [RATE_LIMIT_CEILING],
    },
    rateLimitCeilingCheck('locations'),
  ],
  thresholds: [
    { kind: 'unexpected-rate', step: 'locations', expected: ['RATE_LIMITED'], atMost: 0 },
    { kind: 'latency', step: 'locations', stat: 'p99', belowMs: 1000 },
    { kind: 'dropped-iterations', atMost: 0 },
  ],
  async setup(ctx, { rate, durationS }) {
    const token = await fetchToken(ctx, 'rateLimit');
    const aligned = await startFreshWindow(ctx);
    if (!aligned) ctx.log('no control API: the run starts mid-window');
    return { token, aligned, planned: Math.round(rate * durationS) };
  },
  phases: ({ rate, durationS }) => [
    {
      name: 'load',
      arrival: { kind: 'constant-arrival-rate', rate, durationS, maxInFlight: 1_000 },
      k6MaxVus: 1,
      async exec(ctx: VuContext<RateLimitShared>) {
        const monitor = ctx.memo('rateLimit', () => new WindowMonitor('rateLimit'));
        const ticket = monitor.begin();
        const res = await call(ctx, ctx.shared.token, 'locations');
        stateRateLimitCeiling(ctx, monitor.end(ticket, res, ctx), durationS, ctx.shared.aligned);
        judge429(ctx, res);
      },
    },
  ],
  async teardown(ctx, shared) {
    await recovery(ctx, shared);
  },
};
