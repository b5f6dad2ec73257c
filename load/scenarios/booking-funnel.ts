import { readListings, type ShoppingPlan, shoppingPlan } from '../engine-neutral/listings.ts';
import type { HttpResponseData, ScenarioDefinition, VuContext } from '../engine-neutral/model.ts';
import {
  apiRequest,
  driver,
  errorCodeOf,
  fetchToken,
  jsonOf,
  randomHex,
  rentalWindow,
} from '../engine-neutral/partner-api.ts';

const CHECKS = {
  availability: 'availability answers 200 with offers',
  quote: 'quote answers 201 with a quoteId',
  reservation: 'reservation answers 201 with a reservationId',
  get: 'reading the reservation answers 200 with it',
  cancel: 'cancel answers 200 with status cancelled',
} as const;

export interface FunnelShared {
  token: string;
  /** Where and how the journeys shop: the target's own listings (engine-neutral/listings.ts). */
  plan: ShoppingPlan;
}

/** Pickups 60 to 80 days ahead, three days long, so the funnel does not price one day only. */
const SPAN = { startDays: 60, lastStartDays: 80, days: 3 };
const CALLS_PER_JOURNEY = 5;

const failure = (res: HttpResponseData) => `HTTP ${res.status} ${errorCodeOf(res)}`;

function offersOf(res: HttpResponseData): { vehicleCode: string }[] {
  const offers = jsonOf(res)?.offers;
  if (!Array.isArray(offers)) return [];
  return offers.flatMap((offer) => {
    const code = (offer as { vehicle?: { vehicleCode?: unknown } })?.vehicle?.vehicleCode;
    return typeof code === 'string' ? [{ vehicleCode: code }] : [];
  });
}

/** One customer journey; a step that fails ends the iteration (the later steps have nothing to work on). */
async function journey(ctx: VuContext<FunnelShared>): Promise<void> {
  const token = ctx.shared.token;
  const send = (step: string, method: 'GET' | 'POST', path: string, json?: unknown, headers?: Record<string, string>) =>
    ctx.http.request(
      apiRequest(ctx, {
        method,
        path,
        token,
        step,
        client: 'partnerA',
        ...(json ? { json } : {}),
        ...(headers ? { headers } : {}),
      }),
    );
  const { plan } = ctx.shared;
  // Windows spread over a few weeks, and the public rate and each plan the target lists in turn.
  const window = {
    ...rentalWindow(
      Date.now(),
      plan.location,
      SPAN.startDays + (ctx.iteration % (SPAN.lastStartDays - SPAN.startDays + 1)),
      SPAN.days,
    ),
    ...plan.pricings[ctx.iteration % plan.pricings.length],
  };

  const availability = await send('availability', 'POST', '/availability', window);
  const offers = offersOf(availability);
  if (!ctx.check(CHECKS.availability, availability.status === 200 && offers.length > 0, failure(availability))) return;
  const offer = offers[ctx.iteration % offers.length] ?? offers[0];

  const quote = await send('quote', 'POST', '/quotes', { ...window, vehicleCode: offer?.vehicleCode });
  const quoteId = jsonOf(quote)?.quoteId;
  if (!ctx.check(CHECKS.quote, quote.status === 201 && typeof quoteId === 'string', failure(quote))) return;

  const reference = `LOAD-${ctx.runId}-F${ctx.iteration}`;
  const created = await send(
    'reservation',
    'POST',
    '/reservations',
    { quoteId, driver: driver(), partnerReference: reference },
    { 'idempotency-key': `load-${ctx.runId}-${ctx.iteration}-${randomHex(12)}` },
  );
  const reservationId = jsonOf(created)?.reservationId;
  if (!ctx.check(CHECKS.reservation, created.status === 201 && typeof reservationId === 'string', failure(created))) {
    return;
  }
  const path = `/reservations/${encodeURIComponent(String(reservationId))}`;

  const read = await send('get', 'GET', path);
  const same = jsonOf(read)?.reservationId === reservationId && jsonOf(read)?.partnerReference === reference;
  if (!ctx.check(CHECKS.get, read.status === 200 && same, failure(read))) return;

  const cancelled = await send('cancel', 'POST', `${path}/cancel`, { reason: 'Load test booking, cancelled at once' });
  ctx.check(
    CHECKS.cancel,
    cancelled.status === 200 && jsonOf(cancelled)?.status === 'cancelled',
    `${failure(cancelled)} status ${String(jsonOf(cancelled)?.status)}`,
  );
}

export const bookingFunnelScenario: ScenarioDefinition<FunnelShared> = {
  id: 'booking-funnel',
  title: 'Booking funnel',
  description:
    'partnerA shops, quotes, books, reads and cancels at a target arrival rate (open model): latency percentiles per step, errors by code, thresholds. It shops at a location the target lists (GET /locations, /fleet, /rates as partnerA, before the load), at the public rate and each listed plan in turn. Every booking is cancelled in the same iteration.',
  rateMeaning:
    'journeys a second (five calls each; the embedded target lets partnerA make 1,000 calls a second, a service allowing 600 a minute 10)',
  defaults: { rate: 2, durationS: 30 },
  ci: { rate: 4, durationS: 4 },
  steps: ['availability', 'quote', 'reservation', 'get', 'cancel'],
  roles: ['partnerA'],
  checks: [
    { name: CHECKS.availability, description: 'Spec 4.5: POST /availability, 200 AvailabilityResponse with offers.' },
    { name: CHECKS.quote, description: 'Spec 4.6: POST /quotes for one offered vehicle, 201 Quote.' },
    { name: CHECKS.reservation, description: 'Spec 4.7.2: POST /reservations with a fresh Idempotency-Key, 201.' },
    { name: CHECKS.get, description: 'Spec 4.9: GET /reservations/{id}, 200 with the same id and partnerReference.' },
    { name: CHECKS.cancel, description: 'Spec 4.11: POST /reservations/{id}/cancel, 200 in state cancelled.' },
  ],
  thresholds: [
    { kind: 'latency', step: 'availability', stat: 'p99', belowMs: 1500 },
    { kind: 'latency', step: 'quote', stat: 'p99', belowMs: 1500 },
    { kind: 'latency', step: 'reservation', stat: 'p99', belowMs: 2000 },
    { kind: 'latency', step: 'get', stat: 'p99', belowMs: 1000 },
    { kind: 'latency', step: 'cancel', stat: 'p99', belowMs: 1500 },
    { kind: 'unexpected-rate', expected: [], atMost: 0.01 },
    { kind: 'dropped-iterations', atMost: 0 },
  ],
  async setup(ctx, { rate, durationS }) {
    const token = await fetchToken(ctx, 'partnerA');
    const listings = await readListings(ctx, token, 'partnerA');
    const plan = await shoppingPlan(ctx, token, 'partnerA', listings, SPAN);
    ctx.log(
      `shopping at ${plan.location} (vehicles ${plan.vehicleCodes.join(', ')}), pricings: ${plan.pricings.map((p) => ('rateCode' in p ? `${p.accountCode}/${p.rateCode}` : 'public')).join(', ')}`,
    );
    // The run stays inside partnerA's stated ceiling, or says it will not (a load test, not a rate-limit test).
    const perWindow = Math.ceil(rate * CALLS_PER_JOURNEY * Math.min(60, durationS));
    if (listings.rateLimit && perWindow > listings.rateLimit.limit) {
      ctx.log(
        `partnerA's X-RateLimit-Limit is ${listings.rateLimit.limit} a minute and this run makes ${perWindow} calls in a minute: expect RATE_LIMITED answers (counted as unexpected); lower --rate`,
      );
    }
    return { token, plan };
  },
  phases: ({ rate, durationS }) => [
    {
      name: 'funnel',
      arrival: { kind: 'constant-arrival-rate', rate, durationS, maxInFlight: 2_000 },
      exec: journey,
    },
  ],
};
