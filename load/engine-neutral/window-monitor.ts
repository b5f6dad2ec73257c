/**
 * Judges one client's rate-limit windows (spec 8.13 to 8.15) from the responses it gets, also when requests overlap.
 *
 * Requests run concurrently, so the client cannot know in which order the server counted them. The monitor only
 * relies on what happens-before proves: a response received before another request was sent was counted first.
 * A window is identified by its X-RateLimit-Reset.
 */
import type { CheckDefinition, Finishable, HttpResponseData, RunContext } from './model.ts';
import { isSuccess, type RateLimitHeaders, rateLimitHeadersOf } from './partner-api.ts';

export const WINDOW_CHECKS = {
  headers: 'every response carries X-RateLimit-Limit, -Remaining and an ISO 8601 -Reset',
  successes: 'successes within one window never exceed X-RateLimit-Limit',
  decreasing: 'X-RateLimit-Remaining only decreases within one window',
  onlyAfterLimit: 'a 429 comes only after Limit successes in its window',
} as const;

/**
 * The ceiling check of a scenario that drives the rateLimit client past its limit (CheckDefinition.reached): the
 * checks of what follows a 429 are judged only once it was reached (afterCeiling).
 */
export const RATE_LIMIT_CEILING = 'the rateLimit client is refused (429) within the run';

export function rateLimitCeilingCheck(step: string): CheckDefinition {
  return {
    name: RATE_LIMIT_CEILING,
    description: `Spec 8: a ${step} request of the rateLimit client is refused with RATE_LIMITED. Not judged when none is and the run's requests stayed within what X-RateLimit-Limit allows in the windows they may span.`,
    reached: { step, code: 'RATE_LIMITED' },
  };
}

export const WINDOW_CHECK_DEFINITIONS: CheckDefinition[] = [
  { name: WINDOW_CHECKS.headers, description: 'Spec 8.14, on every response of the rate-limited client.' },
  {
    name: WINDOW_CHECKS.successes,
    description: 'Spec 8: per window (its X-RateLimit-Reset), the 2xx responses number at most X-RateLimit-Limit.',
  },
  {
    name: WINDOW_CHECKS.decreasing,
    description:
      'Spec 8.14: a response never shows more Remaining than one of the same window received before it was sent, and no two successes of a window show the same Remaining.',
  },
  {
    name: WINDOW_CHECKS.onlyAfterLimit,
    description:
      'Spec 8: every 429 of a window is preceded by the success that left Remaining at 0 (sent before the 429 arrived).',
    afterCeiling: [RATE_LIMIT_CEILING],
  },
];

interface Sent {
  sentAt: number;
}

interface Seen extends Sent {
  receivedAt: number;
  success: boolean;
  limits: RateLimitHeaders;
}

export class WindowMonitor implements Finishable {
  private nextTicket = 1;
  private readonly inFlight = new Map<number, Sent>();
  private readonly windows = new Map<number, Seen[]>();
  /** 429s whose judgement waits for requests sent before they arrived. */
  private pending: Seen[] = [];

  constructor(
    private readonly client: string,
    private readonly clock: () => number = Date.now,
  ) {}

  begin(): number {
    const ticket = this.nextTicket++;
    this.inFlight.set(ticket, { sentAt: this.clock() });
    return ticket;
  }

  end(ticket: number, res: HttpResponseData, ctx: RunContext): RateLimitHeaders | undefined {
    const sent = this.inFlight.get(ticket);
    this.inFlight.delete(ticket);
    if (!sent || res.status === 0) {
      this.resolvePending(ctx, false);
      return undefined;
    }
    const limits = rateLimitHeadersOf(res);
    if (!ctx.check(WINDOW_CHECKS.headers, !('problem' in limits), 'problem' in limits ? limits.problem : undefined)) {
      this.resolvePending(ctx, false);
      return undefined;
    }
    const parsed = limits as RateLimitHeaders;
    ctx.remaining(this.client, parsed.remaining);
    const seen: Seen = { sentAt: sent.sentAt, receivedAt: this.clock(), success: isSuccess(res), limits: parsed };
    const window = this.windows.get(parsed.resetMs) ?? [];
    this.judgeOrder(seen, window, ctx);
    window.push(seen);
    this.windows.set(parsed.resetMs, window);
    if (seen.success) {
      const successes = window.filter((s) => s.success).length;
      ctx.check(
        WINDOW_CHECKS.successes,
        successes <= parsed.limit,
        `${successes} successes in the window ending ${parsed.reset}, Limit ${parsed.limit}`,
      );
    } else if (res.status === 429) {
      this.pending.push(seen);
    }
    this.resolvePending(ctx, false);
    return parsed;
  }

  /** Judges the 429s still waiting (requests that never answered count as not sent). */
  finish(ctx: RunContext): void {
    this.inFlight.clear();
    this.resolvePending(ctx, true);
  }

  private judgeOrder(seen: Seen, window: Seen[], ctx: RunContext): void {
    const before = window.filter((other) => other.receivedAt <= seen.sentAt);
    const floor = Math.min(...before.map((other) => other.limits.remaining));
    if (before.length > 0 && seen.limits.remaining > floor) {
      ctx.check(
        WINDOW_CHECKS.decreasing,
        false,
        `Remaining ${seen.limits.remaining} after ${floor} was already received, window ending ${seen.limits.reset}`,
      );
      return;
    }
    const twin =
      seen.success && window.find((other) => other.success && other.limits.remaining === seen.limits.remaining);
    ctx.check(
      WINDOW_CHECKS.decreasing,
      !twin,
      `two successes of the window ending ${seen.limits.reset} both show Remaining ${seen.limits.remaining}`,
    );
  }

  private resolvePending(ctx: RunContext, final: boolean): void {
    const waiting: Seen[] = [];
    for (const refused of this.pending) {
      const undecided = [...this.inFlight.values()].some((sent) => sent.sentAt < refused.receivedAt);
      if (undecided && !final) {
        waiting.push(refused);
        continue;
      }
      // A fixed window names one Reset for all its answers: the success that emptied it is in the same window. A
      // sliding window or a token bucket moves Reset with every call (spec 8 leaves the algorithm open): its 429 is
      // preceded by an answer of the client that showed it empty (a success leaving Remaining at 0, or a 429), or by
      // no success at all in this run (a bucket drained before the run started is not this run's to judge).
      const window = this.windows.get(refused.limits.resetMs) ?? [];
      const fixed = window.some((s) => s !== refused);
      const earlier = [...this.windows.values()].flat().filter((s) => s !== refused && s.sentAt < refused.receivedAt);
      const exhausted = fixed
        ? window.some((s) => s.success && s.limits.remaining === 0 && s.sentAt < refused.receivedAt)
        : earlier.every((s) => !s.success) || earlier.some((s) => !s.success || s.limits.remaining === 0);
      ctx.check(
        WINDOW_CHECKS.onlyAfterLimit,
        exhausted,
        `a 429 in the window ending ${refused.limits.reset} before any success left Remaining at 0 (${window.filter((s) => s.success).length} successes seen, Limit ${refused.limits.limit})`,
      );
    }
    this.pending = waiting;
  }
}
