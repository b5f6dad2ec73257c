import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HOOK_NAMES, HOOKS_CONTRACT, HOOKS_CONTRACT_VERSION } from '../../contract/hooks/names.ts';
import { RESERVATION_STATUSES } from '../../contract/types.ts';
import type { ClientRegistry } from '../domain/credentials.ts';
import { apiError } from '../domain/failure.ts';
import type { OperatorData } from '../domain/operator-data.ts';
import { quoteDigest } from '../domain/quote-tokens.ts';
import type { FaultSwitch } from '../faults/switch.ts';
import type { Store } from '../store/types.ts';
import {
  attachMoney,
  declineNextBookings,
  enabledFlag,
  invalid,
  jsonBody,
  reservationStatus,
  storePriceMove,
  type WithParams,
} from './request-values.ts';
import { bearerGuard } from './routes.ts';

/** Where the reference serves the test hooks of docs/test-hooks.md. */
export const TEST_HOOKS_PREFIX = '/test-hooks/v1';

/** Expired quote digests kept: enough for any certification run, bounded so the state row stays small. */
const MAX_EXPIRED_QUOTES = 2_000;

export interface TestHookDeps {
  store: Store;
  operatorData: OperatorData;
  clients: ClientRegistry;
  controlToken: string;
  faults: FaultSwitch;
}

const finiteNumber = (value: unknown, min: number, max: number) =>
  typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;

/**
 * The published test-hooks contract (docs/test-hooks.md, contract/hooks/): what the conformance suite asks of a
 * target's operator side, so any implementation can be driven into the states a clause needs. JSON in and out,
 * authenticated by its own bearer secret, never on the partner paths.
 */
export function testHookRoutes(app: FastifyInstance, deps: TestHookDeps) {
  app.register(
    async (hooks) => {
      hooks.addHook('onRequest', bearerGuard(deps.controlToken, 'Test hooks'));
      hooks.get('/', () => listHooks());
      hooks.post('/quotes/expire', (request) => expireQuote(deps, request));
      hooks.post('/tokens/expire', (request) => expireTokens(deps, request));
      hooks.post('/idempotency/forget', (request) => forgetIdempotencyKeys(deps, request));
      hooks.put<{ Params: { vehicleCode: string } }>('/prices/:vehicleCode', (request) => movePrice(deps, request));
      hooks.post('/bookings/decline-next', (request) => declineNextBookings(deps, request));
      hooks.put<{ Params: { reservationId: string } }>('/reservations/:reservationId/money', (request) =>
        attachMoney(deps, request),
      );
      hooks.put<{ Params: { reservationId: string } }>('/reservations/:reservationId/status', (request) =>
        setReservationStatus(deps, request),
      );
      hooks.put<{ Params: { clientId: string } }>('/clients/:clientId/partner', (request) =>
        switchClientPartner(deps, request),
      );
      hooks.put('/api', (request) => switchApi(deps, request));
      hooks.put('/failures', (request) => switchFailures(deps, request));
      hooks.get('/alerts', () => listAlerts(deps));
      hooks.post('/rate-limits/reset', () => resetRateLimits(deps));
      hooks.put('/bookings/hold', (request) => holdBookings(deps, request));
      hooks.put('/rate-limits/token-address-ceiling', (request) => setTokenAddressCeiling(deps, request));
      hooks.post('/reset', () => resetAll(deps));
    },
    { prefix: TEST_HOOKS_PREFIX },
  );
}

// The reference offers every hook of the contract; another target may list fewer.
async function listHooks() {
  return {
    contract: HOOKS_CONTRACT,
    version: HOOKS_CONTRACT_VERSION,
    hooks: [...HOOK_NAMES],
  };
}

async function expireQuote(deps: TestHookDeps, request: FastifyRequest) {
  const { quoteId } = jsonBody(request);
  if (typeof quoteId !== 'string' || quoteId === '') throw invalid('quoteId', 'must be a quote id');
  const hash = quoteDigest(quoteId);
  await deps.store.updateControlState((s) => ({
    ...s,
    expiredQuotes: [...s.expiredQuotes.filter((h) => h !== hash), hash].slice(-MAX_EXPIRED_QUOTES),
  }));
  return { quoteId, expired: true };
}

async function expireTokens(deps: TestHookDeps, request: FastifyRequest) {
  const { clientId } = jsonBody(request);
  if (typeof clientId !== 'string' || !deps.clients.byId(clientId)) throw invalid('clientId', 'must be a client id');
  const state = await deps.store.getControlState();
  const at = Date.now() + state.clockOffsetMs;
  // Tokens carry millisecond issue times: everything issued up to this millisecond is expired.
  const before = Math.floor(at) + 1;
  await deps.store.updateControlState((s) => ({
    ...s,
    tokensExpiredBefore: { ...s.tokensExpiredBefore, [clientId]: before },
  }));
  // The contract expires tokens issued *so far*: answer only once the cut-off millisecond is over, so a token
  // the client fetches after this answer (e.g. a harness retry) is never caught by it.
  const wait = before - (Date.now() + state.clockOffsetMs);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return { clientId, expiredBefore: new Date(before).toISOString() };
}

function olderThanSecondsOf(olderThanSeconds: unknown): number {
  if (!finiteNumber(olderThanSeconds, 0, 366 * 86_400)) {
    throw invalid('olderThanSeconds', 'must be a number of seconds from 0 to 31622400');
  }
  return olderThanSeconds as number;
}

async function forgetIdempotencyKeys(deps: TestHookDeps, request: FastifyRequest) {
  const olderThanSeconds = olderThanSecondsOf(jsonBody(request).olderThanSeconds);
  if (!deps.faults.enforce('idempotency.forget')) return { forgotten: 0 };
  const state = await deps.store.getControlState();
  const now = Date.now() + state.clockOffsetMs;
  const cutoff = deps.faults.adjust('idempotency.forgetCutoffMs', now - olderThanSeconds * 1000, {});
  const forgotten = await deps.store.forgetIdempotencyKeys(cutoff);
  return { forgotten };
}

async function movePrice(deps: TestHookDeps, request: WithParams<{ vehicleCode: string }>) {
  const { vehicleCode } = request.params;
  if (deps.operatorData.standing(vehicleCode) === 'unknown') throw apiError('NOT_FOUND', 'No such vehicle.');
  const { movePercent } = jsonBody(request);
  if (!finiteNumber(movePercent, -99, 1000)) throw invalid('movePercent', 'must be a number from -99 to 1000');
  return storePriceMove(deps.store, vehicleCode, movePercent as number);
}

async function setReservationStatus(deps: TestHookDeps, request: WithParams<{ reservationId: string }>) {
  const status = reservationStatus(jsonBody(request).status);
  const result = await deps.store.transitionReservation(request.params.reservationId, RESERVATION_STATUSES, status);
  if (!result) throw apiError('NOT_FOUND', 'No such reservation.');
  return { reservationId: request.params.reservationId, status: result.reservation.reservation.status };
}

async function switchClientPartner(deps: TestHookDeps, request: WithParams<{ clientId: string }>) {
  const client = deps.clients.byId(request.params.clientId);
  if (!client) throw apiError('NOT_FOUND', 'No such client.');
  const enabled = enabledFlag(jsonBody(request).enabled);
  const partnerId = client.partnerId;
  const state = await deps.store.updateControlState((s) => {
    const others = s.disabledPartnerIds.filter((id) => id !== partnerId);
    return { ...s, disabledPartnerIds: enabled ? others : [...others, partnerId] };
  });
  return { clientId: client.clientId, partnerEnabled: !state.disabledPartnerIds.includes(partnerId) };
}

async function switchApi(deps: TestHookDeps, request: FastifyRequest) {
  const enabled = enabledFlag(jsonBody(request).enabled);
  const state = await deps.store.updateControlState((s) => ({ ...s, apiDisabled: !enabled }));
  return { apiEnabled: !state.apiDisabled };
}

/** The failure switches of a PUT /failures body; any other key is refused. */
function failureSwitches(body: Record<string, unknown>): Record<string, boolean> {
  const switches: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key !== 'dependencyUnavailable' && key !== 'internalError') {
      throw invalid(key, 'is not a failure (dependencyUnavailable, internalError)');
    }
    if (typeof value !== 'boolean') throw invalid(key, 'must be a boolean');
    switches[key] = value;
  }
  return switches;
}

async function switchFailures(deps: TestHookDeps, request: FastifyRequest) {
  const switches = failureSwitches(jsonBody(request));
  const state = await deps.store.updateControlState((s) => ({ ...s, faults: { ...s.faults, ...switches } }));
  return state.faults;
}

async function listAlerts(deps: TestHookDeps) {
  const alerts = await deps.store.listStaffAlerts();
  return {
    alerts: alerts.map((a) => ({
      kind: a.kind,
      reservationId: a.reservationId,
      createdAt: new Date(a.createdAtMs).toISOString(),
    })),
    count: alerts.length,
  };
}

async function resetRateLimits(deps: TestHookDeps) {
  const state = await deps.store.updateControlState((s) => ({
    ...s,
    rateLimitGeneration: s.rateLimitGeneration + 1,
  }));
  return { rateLimitGeneration: state.rateLimitGeneration };
}

function holdMs(ms: unknown): number {
  if (!(Number.isInteger(ms) && finiteNumber(ms, 0, 2000))) throw invalid('ms', 'must be an integer from 0 to 2000');
  return ms as number;
}

async function holdBookings(deps: TestHookDeps, request: FastifyRequest) {
  const ms = holdMs(jsonBody(request).ms);
  const state = await deps.store.updateControlState((s) => ({ ...s, bookingHoldMs: ms }));
  return { ms: state.bookingHoldMs };
}

function ceilingPerMinute(perMinute: unknown): number | null {
  if (perMinute !== null && !(Number.isInteger(perMinute) && finiteNumber(perMinute, 1, 1_000_000))) {
    throw invalid('perMinute', 'must be an integer from 1 to 1000000, or null');
  }
  return perMinute as number | null;
}

async function setTokenAddressCeiling(deps: TestHookDeps, request: FastifyRequest) {
  const perMinute = ceilingPerMinute(jsonBody(request).perMinute);
  const state = await deps.store.updateControlState((s) => ({
    ...s,
    tokenAddressCeiling: perMinute,
  }));
  return { perMinute: state.tokenAddressCeiling };
}

async function resetAll(deps: TestHookDeps) {
  await deps.store.updateControlState((s) => ({
    ...s,
    tokenAddressCeiling: null,
    bookingHoldMs: 0,
    apiDisabled: false,
    disabledPartnerIds: [],
    priceMovesPercent: {},
    declineNextBookings: 0,
    faults: { dependencyUnavailable: false, internalError: false },
  }));
  return { reset: true };
}
