import { LIST_LAG_MS } from '../../harness/http/list-lag.ts';
import { readListings, shoppingPlan } from '../engine-neutral/listings.ts';
import type { RunContext, ScenarioDefinition, VuContext } from '../engine-neutral/model.ts';
import {
  apiRequest,
  driver,
  envelopeOf,
  errorCodeOf,
  fetchToken,
  jsonOf,
  rentalWindow,
  retryAfterOf,
} from '../engine-neutral/partner-api.ts';

const CHECKS = {
  answers: 'every attempt answers 201, a 200 replay, 409 IDEMPOTENT_REPLAY_IN_FLIGHT, 429 or a retryable 503',
  replayHeader: 'every 200 carries Idempotent-Replay: true',
  sameReservation: 'every response for one key names the same reservation',
  oneCreated: 'at most one 201 per key',
  completes: 'every connection gets its reservation within its attempts',
  exactlyOne: 'exactly one reservation per key afterwards',
} as const;

const KEYS = 4;
/** Each connection keeps sending until it has this many 201/200 answers: the first creates or replays, the rest replay. */
const ANSWERS_PER_CONNECTION = 3;
const MAX_ATTEMPTS = 200;

export interface StormShared {
  token: string;
  keys: { key: string; reference: string; body: { quoteId: string; driver: unknown; partnerReference: string } }[];
}

interface KeyLedger {
  reservations: Map<string, Set<string>>;
  created: Map<string, number>;
}

async function connection(ctx: VuContext<StormShared>): Promise<void> {
  const entry = ctx.shared.keys[(ctx.vu - 1) % ctx.shared.keys.length];
  if (!entry) return;
  const ledger = ctx.memo<KeyLedger>('ledger', () => ({ reservations: new Map(), created: new Map() }));
  let answers = 0;
  for (let attempt = 0; attempt < MAX_ATTEMPTS && answers < ANSWERS_PER_CONNECTION; attempt++) {
    const res = await ctx.http.request(
      apiRequest(ctx, {
        method: 'POST',
        path: '/reservations',
        token: ctx.shared.token,
        json: entry.body,
        headers: { 'idempotency-key': entry.key },
        step: 'reserve',
        client: 'partnerB',
      }),
    );
    const code = errorCodeOf(res);
    const inFlight = res.status === 409 && code === 'IDEMPOTENT_REPLAY_IN_FLIGHT';
    // Refused for now: a 429, or a 503 marked retryable (spec 7.3 DEPENDENCY_UNAVAILABLE: a store that refuses
    // conflicting writes under a race may say so; nothing was created, the identical request is answered later).
    const limited = res.status === 429 || (res.status === 503 && envelopeOf(res)?.retryable === true);
    const answered = res.status === 201 || res.status === 200;
    if (!ctx.check(CHECKS.answers, answered || inFlight || limited, `HTTP ${res.status} ${code}`)) return;
    if (inFlight || limited) {
      // Spread retries so the connections do not move in lockstep.
      await ctx.sleep(limited ? (retryAfterOf(res) ?? 1) * 1000 : 10 + Math.random() * 40);
      continue;
    }
    answers += 1;
    if (res.status === 200) {
      ctx.check(
        CHECKS.replayHeader,
        res.headers['idempotent-replay'] === 'true',
        `Idempotent-Replay ${res.headers['idempotent-replay'] ?? 'absent'}`,
      );
    } else {
      const created = (ledger.created.get(entry.key) ?? 0) + 1;
      ledger.created.set(entry.key, created);
      if (ctx.has('shared-memory'))
        ctx.check(CHECKS.oneCreated, created === 1, `${created} responses 201 for ${entry.key}`);
    }
    const id = jsonOf(res)?.reservationId;
    const ids = ledger.reservations.get(entry.key) ?? new Set<string>();
    ids.add(String(id));
    ledger.reservations.set(entry.key, ids);
    if (ctx.has('shared-memory')) {
      ctx.check(CHECKS.sameReservation, ids.size === 1, `${entry.key} named ${[...ids].join(', ')}`);
    }
  }
  ctx.check(CHECKS.completes, answers >= ANSWERS_PER_CONNECTION, `${answers} answers after ${MAX_ATTEMPTS} attempts`);
}

/** Lists the partner's newest reservations (spec 4.8: at most 100) and keeps those of this run's keys. */
async function reservationsByReference(ctx: RunContext, token: string): Promise<Map<string, string[]>> {
  const res = await ctx.http.request(apiRequest(ctx, { method: 'GET', path: '/reservations?limit=100', token }));
  const list = jsonOf(res)?.reservations;
  const out = new Map<string, string[]>();
  if (res.status !== 200 || !Array.isArray(list)) throw new Error(`GET /reservations: HTTP ${res.status}`);
  for (const item of list as { reservationId?: string; partnerReference?: string | null }[]) {
    if (!item.partnerReference || !item.reservationId) continue;
    out.set(item.partnerReference, [...(out.get(item.partnerReference) ?? []), item.reservationId]);
  }
  return out;
}

export const idempotencyStormScenario: ScenarioDefinition<StormShared> = {
  id: 'idempotency-storm',
  title: 'Idempotency storm',
  description:
    'Many connections send the same POST /reservations (same Idempotency-Key, same body) at once for a few keys, retrying on 409 IDEMPOTENT_REPLAY_IN_FLIGHT, 429 and a retryable 503 until each has three answers. Afterwards there is exactly one reservation per key (spec 4.7.3 and 4.7.5); they are then cancelled.',
  rateMeaning: `connections (split over ${KEYS} keys)`,
  defaults: { rate: 64, durationS: 60 },
  ci: { rate: 32, durationS: 20 },
  steps: ['reserve'],
  roles: ['partnerB'],
  checks: [
    { name: CHECKS.answers, description: 'Spec 4.7.2, 4.7.3, 4.7.5 and 8: nothing else is a right answer here.' },
    { name: CHECKS.replayHeader, description: 'Spec 4.7.3: a replay is 200 with Idempotent-Replay: true.' },
    {
      name: CHECKS.sameReservation,
      description: 'Spec 4.7.3: the original response, so one reservationId per key across all connections.',
      needs: ['shared-memory'],
    },
    {
      name: CHECKS.oneCreated,
      description: 'Spec 4.7.3: no second reservation, so one 201 per key.',
      needs: ['shared-memory'],
    },
    {
      name: CHECKS.completes,
      description: `Each connection gets ${ANSWERS_PER_CONNECTION} answers within ${MAX_ATTEMPTS} attempts.`,
    },
    {
      name: CHECKS.exactlyOne,
      description: "After the storm, GET /reservations lists exactly one reservation with each key's partnerReference.",
    },
  ],
  thresholds: [
    {
      kind: 'unexpected-rate',
      step: 'reserve',
      expected: ['IDEMPOTENT_REPLAY_IN_FLIGHT', 'RATE_LIMITED', 'DEPENDENCY_UNAVAILABLE'],
      atMost: 0,
    },
    { kind: 'latency', step: 'reserve', stat: 'p99', belowMs: 3000 },
  ],
  async setup(ctx) {
    const token = await fetchToken(ctx, 'partnerB');
    // A location and vehicles the target lists and offers to partnerB, at the public rate.
    const listings = await readListings(ctx, token, 'partnerB');
    const plan = await shoppingPlan(ctx, token, 'partnerB', listings, { startDays: 70, lastStartDays: 70, days: 3 });
    const keys: StormShared['keys'] = [];
    for (let k = 0; k < KEYS; k++) {
      const vehicleCode = plan.vehicleCodes[k % plan.vehicleCodes.length];
      const quote = await ctx.http.request(
        apiRequest(ctx, {
          method: 'POST',
          path: '/quotes',
          token,
          json: { ...rentalWindow(Date.now(), plan.location, 70, 3), vehicleCode },
        }),
      );
      const quoteId = jsonOf(quote)?.quoteId;
      if (quote.status !== 201 || typeof quoteId !== 'string') {
        throw new Error(`storm setup: POST /quotes answered HTTP ${quote.status} ${errorCodeOf(quote)}`);
      }
      const reference = `LOAD-${ctx.runId}-S${k}`;
      keys.push({
        key: `storm-${ctx.runId}-${k}`,
        reference,
        body: { quoteId, driver: driver(), partnerReference: reference },
      });
    }
    return { token, keys };
  },
  phases: ({ rate, durationS }) => [
    {
      name: 'storm',
      arrival: { kind: 'per-vu-iterations', vus: rate, iterations: 1, maxDurationS: durationS },
      connectionPerVu: true,
      exec: connection,
    },
  ],
  async teardown(ctx, shared) {
    // Spec 6: a list served from a copy may show a booking a moment after its answer (docs/ambiguities.md S36): read
    // again, backing off, for up to LIST_LAG_MS until every key is listed, as the suite's client does.
    let found = await reservationsByReference(ctx, shared.token);
    for (let waited = 0, wait = 250; waited < LIST_LAG_MS; waited += wait, wait = Math.min(wait * 2, 1_000)) {
      if (shared.keys.every(({ reference }) => found.has(reference))) break;
      await ctx.sleep(wait);
      found = await reservationsByReference(ctx, shared.token);
    }
    for (const { key, reference } of shared.keys) {
      const ids = found.get(reference) ?? [];
      ctx.check(CHECKS.exactlyOne, ids.length === 1, `${key}: ${ids.length} reservations (${ids.join(', ')})`);
      for (const id of ids) {
        const res = await ctx.http.request(
          apiRequest(ctx, {
            method: 'POST',
            path: `/reservations/${encodeURIComponent(id)}/cancel`,
            token: shared.token,
            json: { reason: 'Load test booking, cancelled after the storm' },
          }),
        );
        if (res.status !== 200) ctx.log(`could not cancel ${id}: HTTP ${res.status} ${errorCodeOf(res)}`);
      }
    }
  },
};
