import type { Role } from '../../contract/vocabulary.ts';
import type { HttpResponseData, RunContext, ScenarioDefinition, VuContext } from '../engine-neutral/model.ts';
import {
  errorCodeOf,
  hasRateLimitHeaders,
  jsonOf,
  retryAfterOf,
  startFreshWindow,
  tokenRequest,
  windowsSpanned,
} from '../engine-neutral/partner-api.ts';

const CHECKS = {
  perClientReached: 'per client: partnerA is refused (slow_down) within the run',
  perAddressReached: 'per address: the shared address is refused (slow_down) within the run',
  noHeaders: 'the token endpoint never sends X-RateLimit-* headers',
  retryAfter: 'every token 429 carries Retry-After in whole seconds',
  slowDown: 'every token 429 is the OAuth error slow_down',
  clientOtherAddress: 'per client: the limited client is refused from a fresh address too',
  clientOthersServed: 'per client: another client is served meanwhile',
  addressOtherAddress: 'per address: the same clients are served from another address',
} as const;

/** 127.0.0.2 and up: the whole of 127.0.0.0/8 is loopback on Linux, so each is a distinct source address. */
const ADDRESSES = [
  '127.0.0.2',
  '127.0.0.3',
  '127.0.0.4',
  '127.0.0.5',
  '127.0.0.6',
  '127.0.0.7',
  '127.0.0.8',
  '127.0.0.9',
];
const PER_CLIENT_ADDRESSES = [0, 1, 2, 3];
const PER_CLIENT_PROBE = { other: 4, same: 5 };
const PER_ADDRESS = 6;
const PER_ADDRESS_PROBE = 7;
const ADDRESS_CLIENTS: Role[] = ['partnerB', 'readOnly', 'rateLimit'];
/** A VU stops once it has seen this many 429s: the bucket is proven full, more calls only add noise. */
const STOP_AFTER_REFUSALS = 2;
const SLOW_DOWN = 'slow_down';

type Shared = Record<string, never>;

/** Refusals of a bucket phase, all its VUs together (native engine; on k6 the probes that read it do not apply). */
const refusalsOf = (ctx: VuContext<Shared>, step: string) => ctx.memo(`refused:${step}`, () => ({ count: 0 }));

/**
 * The token ceilings the target's config states (spec 8.16b: the token endpoint shows none in its answers). Without
 * them a phase that sees no refusal is not judged; with them it fails once its requests went past what any of its
 * windows can hold.
 */
function stateCeilings(ctx: RunContext, durationS: number, aligned: boolean): void {
  const windows = windowsSpanned(durationS, aligned);
  const { tokenPerClientPerMinute: perClient, tokenPerAddressPerMinute: perAddress } = ctx.target.ceilings ?? {};
  const source = 'the target config';
  if (perClient !== undefined) {
    ctx.ceiling(CHECKS.perClientReached, { limit: perClient, source, sureAfter: perClient * windows });
  }
  if (perAddress !== undefined) {
    ctx.ceiling(CHECKS.perAddressReached, { limit: perAddress, source, sureAfter: perAddress * windows });
  }
}

function judgeToken(ctx: VuContext<Shared>, res: HttpResponseData): void {
  const headers = hasRateLimitHeaders(res);
  ctx.check(CHECKS.noHeaders, headers.length === 0, `HTTP ${res.status} carries ${headers.join(', ')}`);
  if (res.status !== 429) return;
  ctx.check(
    CHECKS.retryAfter,
    retryAfterOf(res) !== undefined,
    `Retry-After ${res.headers['retry-after'] ?? 'absent'}`,
  );
  const body = jsonOf(res);
  ctx.check(
    CHECKS.slowDown,
    body?.error === 'slow_down' && typeof body.error_description === 'string',
    `body ${res.body.slice(0, 200)}`,
  );
}

/** One token request of a bucket phase; the VU skips its remaining iterations once the bucket has refused it. */
async function drive(ctx: VuContext<Shared>, role: Role, sourceAddress: number, step: string): Promise<void> {
  const refusals = ctx.memo(`${step}:${ctx.vu}`, () => ({ count: 0 }));
  if (refusals.count >= STOP_AFTER_REFUSALS) return;
  const res = await ctx.http.request(tokenRequest(ctx, role, { step, sourceAddress }));
  judgeToken(ctx, res);
  if (res.status === 429) {
    refusals.count += 1;
    refusalsOf(ctx, step).count += 1;
  }
}

async function probe(ctx: VuContext<Shared>, role: Role, sourceAddress: number): Promise<HttpResponseData> {
  const res = await ctx.http.request(tokenRequest(ctx, role, { sourceAddress }));
  judgeToken(ctx, res);
  return res;
}

const outcome = (res: HttpResponseData) => `HTTP ${res.status} ${res.status === 200 ? '' : errorCodeOf(res)}`.trim();

export const tokenBucketsScenario: ScenarioDefinition<Shared> = {
  id: 'token-buckets',
  title: 'Token endpoint buckets',
  description:
    'Spec 8.16a: the token endpoint is limited per client and per source address. partnerA asks for tokens from four loopback addresses until refused; then from one address partnerB, readOnly and rateLimit ask until refused. Probes from fresh addresses tell the two buckets apart. Every 429 carries Retry-After and no X-RateLimit-* header. Ceilings are not shown (spec 8): a bucket the run does not fill within its requests is not judged, unless the target config states a ceiling those requests went past.',
  rateMeaning: 'token requests per bucket phase',
  defaults: { rate: 160, durationS: 30 },
  ci: { rate: 16, durationS: 10 },
  steps: ['token_per_client', 'token_per_address'],
  roles: ['partnerA', 'partnerB', 'readOnly', 'rateLimit'],
  sourceAddresses: ADDRESSES,
  // Low limits so that a short run reaches both buckets, the address one before any client's.
  embeddedEnv: { TOKEN_LIMIT_PER_CLIENT: '8', TOKEN_LIMIT_PER_ADDRESS: '12' },
  checks: [
    {
      name: CHECKS.perClientReached,
      description:
        'Spec 8.16a: a token_per_client request is refused with slow_down. Not judged when none is and no ceiling the target config states was passed.',
      reached: { step: 'token_per_client', code: SLOW_DOWN },
    },
    {
      name: CHECKS.perAddressReached,
      description:
        'Spec 8.16a: a token_per_address request is refused with slow_down. Not judged when none is and no ceiling the target config states was passed.',
      reached: { step: 'token_per_address', code: SLOW_DOWN },
    },
    { name: CHECKS.noHeaders, description: 'Spec 8.16b: on every token response, 200 or 429.' },
    {
      name: CHECKS.retryAfter,
      description: 'Spec 8.16b: only Retry-After on a 429.',
      afterCeiling: [CHECKS.perClientReached, CHECKS.perAddressReached],
    },
    {
      name: CHECKS.slowDown,
      description: 'Spec 5.4 and 7.1: 429 slow_down in the OAuth error shape.',
      afterCeiling: [CHECKS.perClientReached, CHECKS.perAddressReached],
    },
    {
      name: CHECKS.clientOtherAddress,
      description: 'After the per-client phase, partnerA from an address it never used is still refused (429).',
      needs: ['source-address'],
      afterCeiling: [CHECKS.perClientReached],
    },
    {
      name: CHECKS.clientOthersServed,
      description: 'After the per-client phase, partnerB from a fresh address gets a token: the limit was not global.',
      needs: ['source-address'],
      afterCeiling: [CHECKS.perClientReached],
    },
    {
      name: CHECKS.addressOtherAddress,
      description:
        'After the per-address phase, one of its clients gets a token from a fresh address: the refusal was the address bucket.',
      needs: ['source-address'],
      afterCeiling: [CHECKS.perAddressReached],
    },
  ],
  thresholds: [{ kind: 'unexpected-rate', expected: [SLOW_DOWN], atMost: 0 }],
  async setup(ctx, { durationS }) {
    // Both buckets then start empty, and the run ends long before the minute does.
    const aligned = await startFreshWindow(ctx);
    stateCeilings(ctx, durationS, aligned);
    return {};
  },
  phases: ({ rate, durationS }) => [
    {
      name: 'per_client',
      arrival: {
        kind: 'per-vu-iterations',
        vus: PER_CLIENT_ADDRESSES.length,
        iterations: Math.ceil(rate / PER_CLIENT_ADDRESSES.length),
        maxDurationS: durationS,
      },
      connectionPerVu: true,
      exec: (ctx) => drive(ctx, 'partnerA', PER_CLIENT_ADDRESSES[(ctx.vu - 1) % 4] ?? 0, 'token_per_client'),
    },
    {
      name: 'per_client_probe',
      arrival: { kind: 'per-vu-iterations', vus: 1, iterations: 1, maxDurationS: durationS },
      async exec(ctx) {
        const other = await probe(ctx, 'partnerB', PER_CLIENT_PROBE.other);
        const same = await probe(ctx, 'partnerA', PER_CLIENT_PROBE.same);
        // Nothing to tell apart when no bucket refused partnerA: the checks are then not judged (afterCeiling).
        if (!ctx.has('source-address') || refusalsOf(ctx, 'token_per_client').count === 0) return;
        ctx.check(CHECKS.clientOthersServed, other.status === 200, `partnerB: ${outcome(other)}`);
        ctx.check(CHECKS.clientOtherAddress, same.status === 429, `partnerA from a fresh address: ${outcome(same)}`);
      },
    },
    {
      name: 'per_address',
      arrival: {
        kind: 'per-vu-iterations',
        vus: ADDRESS_CLIENTS.length,
        iterations: Math.ceil(rate / ADDRESS_CLIENTS.length),
        maxDurationS: durationS,
      },
      connectionPerVu: true,
      exec: (ctx) => drive(ctx, ADDRESS_CLIENTS[(ctx.vu - 1) % 3] ?? 'partnerB', PER_ADDRESS, 'token_per_address'),
    },
    {
      name: 'per_address_probe',
      arrival: { kind: 'per-vu-iterations', vus: 1, iterations: 1, maxDurationS: durationS },
      async exec(ctx) {
        const res = await probe(ctx, 'readOnly', PER_ADDRESS_PROBE);
        if (!ctx.has('source-address') || refusalsOf(ctx, 'token_per_address').count === 0) return;
        ctx.check(CHECKS.addressOtherAddress, res.status === 200, `readOnly from a fresh address: ${outcome(res)}`);
      },
    },
  ],
};
