import type { HttpResponseData, RunContext, ScenarioDefinition, VuContext } from '../engine-neutral/model.ts';
import {
  advanceClock,
  apiRequest,
  fetchToken,
  isSuccess,
  rateLimitedEnvelopeProblem,
  rateLimitHeadersOf,
  retryAfterOf,
  startFreshWindow,
} from '../engine-neutral/partner-api.ts';
import { WINDOW_CHECK_DEFINITIONS, WindowMonitor } from '../engine-neutral/window-monitor.ts';

const CHECKS = {
  retryAfter: 'every 429 carries Retry-After in whole seconds',
  envelope: 'every 429 carries the RATE_LIMITED envelope',
  recovers: 'calls succeed again after the reset',
} as const;

/** Waiting for a reset without a control API is bounded: a window is one minute (spec 8.2). */
const MAX_RESET_WAIT_S = 65;

export interface RateLimitShared {
  token: string;
}

/** Spec 8.3 and 7.3 on one 429; shared with the isolation scenario. */
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
  { name: CHECKS.retryAfter, description: 'Spec 8.3.' },
  {
    name: CHECKS.envelope,
    description: 'Spec 7.2 and 7.3: code RATE_LIMITED, retryable true, requestId = X-Request-Id.',
  },
];

const call = (ctx: RunContext, token: string, step?: string) =>
  ctx.http.request(
    apiRequest(ctx, { method: 'GET', path: '/locations', token, client: 'rateLimit', ...(step ? { step } : {}) }),
  );

/**
 * Drives the client to a 429, waits out Retry-After (by the control clock when there is one), and expects the next
 * call to succeed in a later window.
 */
async function recovery(ctx: RunContext, token: string): Promise<void> {
  let refused: HttpResponseData | undefined;
  // At most what the window has left (its first Remaining) plus one: a server that never refuses is not probed forever.
  let bound = 1_000;
  for (let i = 0; i < bound && !refused; i++) {
    const res = await call(ctx, token);
    if (res.status === 429) refused = res;
    else if (!isSuccess(res)) break;
    const headers = rateLimitHeadersOf(res);
    if (i === 0 && !('problem' in headers)) bound = Math.min(bound, headers.remaining + 2);
  }
  const before = refused && rateLimitHeadersOf(refused);
  const wait = refused && retryAfterOf(refused);
  if (!refused || !before || 'problem' in before || wait === undefined) {
    ctx.check(CHECKS.recovers, false, 'could not drive the client to a 429 with Retry-After before the probe');
    return;
  }
  if (ctx.target.control) await advanceClock(ctx, wait);
  else await ctx.sleep(Math.min(wait, MAX_RESET_WAIT_S) * 1000);
  const after = await call(ctx, token);
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
    'The rateLimit client is driven past its per-minute limit at a constant arrival rate (GET /locations). Every response carries X-RateLimit-*; within one window successes never exceed the Limit and Remaining only decreases; a 429 comes only after Limit successes, with Retry-After and the RATE_LIMITED envelope; calls succeed again after the reset.',
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
    },
  ],
  thresholds: [
    { kind: 'code-count', step: 'locations', code: 'RATE_LIMITED', atLeast: 1 },
    { kind: 'unexpected-rate', step: 'locations', expected: ['RATE_LIMITED'], atMost: 0 },
    { kind: 'latency', step: 'locations', stat: 'p99', belowMs: 1000 },
    { kind: 'dropped-iterations', atMost: 0 },
  ],
  async setup(ctx) {
    const token = await fetchToken(ctx, 'rateLimit');
    if (!(await startFreshWindow(ctx))) ctx.log('no control API: the run starts mid-window');
    return { token };
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
        monitor.end(ticket, res, ctx);
        judge429(ctx, res);
      },
    },
  ],
  async teardown(ctx, shared) {
    await recovery(ctx, shared.token);
  },
};
