import type { ScenarioDefinition, VuContext } from '../engine-neutral/model.ts';
import { apiRequest, fetchToken, startFreshWindow } from '../engine-neutral/partner-api.ts';
import {
  RATE_LIMIT_CEILING,
  rateLimitCeilingCheck,
  WINDOW_CHECK_DEFINITIONS,
  WindowMonitor,
} from '../engine-neutral/window-monitor.ts';
import { judge429, RATE_LIMIT_429_CHECKS, stateRateLimitCeiling } from './rate-limit.ts';

const QUIET_NOT_LIMITED = 'the other client sees no 429 while one is limited';

export interface IsolationShared {
  noisy: string;
  quiet: string;
  /** The run starts on a fresh window (control API). */
  aligned: boolean;
}

export const clientIsolationScenario: ScenarioDefinition<IsolationShared> = {
  id: 'client-isolation',
  title: 'Per-client isolation',
  description:
    "Two clients at once (spec 8.13: limits are per API client): each iteration sends one call as rateLimit (driven past its limit) and one as partnerA at the same moment; partnerA never sees a 429 once rateLimit has been refused. Not judged when the run does not reach rateLimit's ceiling (spec 8: ceilings not shown).",
  rateMeaning: 'iterations a second (one call of each client)',
  defaults: { rate: 5, durationS: 20 },
  // 80 calls: more than two windows' worth of rateLimit's 30, so it is refused even in a run that straddles a minute.
  ci: { rate: 20, durationS: 4 },
  steps: ['noisy', 'quiet'],
  roles: ['rateLimit', 'partnerA'],
  checks: [
    {
      name: QUIET_NOT_LIMITED,
      description:
        "Spec 8.13: partnerA's response is other than 429 in every iteration from rateLimit's first 429 on (a threshold counts every partnerA 429 of the run).",
      afterCeiling: [RATE_LIMIT_CEILING],
    },
    ...WINDOW_CHECK_DEFINITIONS,
    ...RATE_LIMIT_429_CHECKS,
    rateLimitCeilingCheck('noisy'),
  ],
  thresholds: [
    { kind: 'code-count', step: 'quiet', code: 'RATE_LIMITED', atMost: 0 },
    { kind: 'unexpected-rate', step: 'noisy', expected: ['RATE_LIMITED'], atMost: 0 },
    { kind: 'unexpected-rate', step: 'quiet', expected: [], atMost: 0 },
    { kind: 'latency', step: 'quiet', stat: 'p99', belowMs: 1000 },
    { kind: 'dropped-iterations', atMost: 0 },
  ],
  async setup(ctx) {
    const [noisy, quiet] = [await fetchToken(ctx, 'rateLimit'), await fetchToken(ctx, 'partnerA')];
    const aligned = await startFreshWindow(ctx);
    return { noisy, quiet, aligned };
  },
  phases: ({ rate, durationS }) => [
    {
      name: 'load',
      arrival: { kind: 'constant-arrival-rate', rate, durationS, maxInFlight: 1_000 },
      k6MaxVus: 1,
      async exec(ctx: VuContext<IsolationShared>) {
        const noisyMonitor = ctx.memo('rateLimit', () => new WindowMonitor('rateLimit'));
        const quietMonitor = ctx.memo('partnerA', () => new WindowMonitor('partnerA'));
        const [noisyTicket, quietTicket] = [noisyMonitor.begin(), quietMonitor.begin()];
        const [noisy, quiet] = await Promise.all([
          ctx.http.request(
            apiRequest(ctx, {
              method: 'GET',
              path: '/locations',
              token: ctx.shared.noisy,
              step: 'noisy',
              client: 'rateLimit',
            }),
          ),
          ctx.http.request(
            apiRequest(ctx, {
              method: 'GET',
              path: '/locations',
              token: ctx.shared.quiet,
              step: 'quiet',
              client: 'partnerA',
            }),
          ),
        ]);
        stateRateLimitCeiling(ctx, noisyMonitor.end(noisyTicket, noisy, ctx), durationS, ctx.shared.aligned);
        quietMonitor.end(quietTicket, quiet, ctx);
        judge429(ctx, noisy);
        // Isolation is shown only while rateLimit is refused: before its first 429 there is nothing to isolate from.
        const refused = ctx.memo('noisy:refused', () => ({ seen: false }));
        if (noisy.status === 429) refused.seen = true;
        if (!refused.seen) return;
        ctx.check(
          QUIET_NOT_LIMITED,
          quiet.status !== 429,
          `partnerA answered 429 (${quiet.headers['retry-after'] ?? '-'} s)`,
        );
      },
    },
  ],
};
