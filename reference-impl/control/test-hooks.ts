import type { FastifyInstance } from 'fastify';
import { HOOK_NAMES, HOOKS_CONTRACT, HOOKS_CONTRACT_VERSION } from '../../contract/hooks/names.ts';
import { RESERVATION_STATUSES, type ReservationStatus } from '../../contract/types.ts';
import type { ClientRegistry } from '../domain/credentials.ts';
import { apiError } from '../domain/failure.ts';
import type { OperatorData } from '../domain/operator-data.ts';
import { quoteDigest } from '../domain/quote-tokens.ts';
import type { FaultSwitch } from '../faults/switch.ts';
import type { Store } from '../store/types.ts';
import { bearerGuard, invalid, jsonBody } from './routes.ts';

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

      // The reference offers every hook of the contract; another target may list fewer.
      hooks.get('/', async () => ({
        contract: HOOKS_CONTRACT,
        version: HOOKS_CONTRACT_VERSION,
        hooks: [...HOOK_NAMES],
      }));

      hooks.post('/quotes/expire', async (request) => {
        const { quoteId } = jsonBody(request);
        if (typeof quoteId !== 'string' || quoteId === '') throw invalid('quoteId', 'must be a quote id');
        const hash = quoteDigest(quoteId);
        await deps.store.updateControlState((s) => ({
          ...s,
          expiredQuotes: [...s.expiredQuotes.filter((h) => h !== hash), hash].slice(-MAX_EXPIRED_QUOTES),
        }));
        return { quoteId, expired: true };
      });

      hooks.post('/tokens/expire', async (request) => {
        const { clientId } = jsonBody(request);
        if (typeof clientId !== 'string' || !deps.clients.byId(clientId))
          throw invalid('clientId', 'must be a client id');
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
      });

      hooks.post('/idempotency/forget', async (request) => {
        const { olderThanSeconds } = jsonBody(request);
        if (!finiteNumber(olderThanSeconds, 0, 366 * 86_400)) {
          throw invalid('olderThanSeconds', 'must be a number of seconds from 0 to 31622400');
        }
        if (!deps.faults.enforce('idempotency.forget')) return { forgotten: 0 };
        const state = await deps.store.getControlState();
        const now = Date.now() + state.clockOffsetMs;
        const cutoff = deps.faults.adjust('idempotency.forgetCutoffMs', now - (olderThanSeconds as number) * 1000, {});
        const forgotten = await deps.store.forgetIdempotencyKeys(cutoff);
        return { forgotten };
      });

      hooks.put<{ Params: { vehicleCode: string } }>('/prices/:vehicleCode', async (request) => {
        const { vehicleCode } = request.params;
        if (deps.operatorData.standing(vehicleCode) === 'unknown') throw apiError('NOT_FOUND', 'No such vehicle.');
        const { movePercent } = jsonBody(request);
        if (!finiteNumber(movePercent, -99, 1000)) throw invalid('movePercent', 'must be a number from -99 to 1000');
        const state = await deps.store.updateControlState((s) => {
          const moves = { ...s.priceMovesPercent };
          if (movePercent === 0) delete moves[vehicleCode];
          else moves[vehicleCode] = movePercent as number;
          return { ...s, priceMovesPercent: moves };
        });
        return { vehicleCode, movePercent: state.priceMovesPercent[vehicleCode] ?? 0 };
      });

      hooks.post('/bookings/decline-next', async (request) => {
        const { count = 1 } = jsonBody(request);
        if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 1000) {
          throw invalid('count', 'must be an integer from 0 to 1000');
        }
        const state = await deps.store.updateControlState((s) => ({ ...s, declineNextBookings: count }));
        return { declineNextBookings: state.declineNextBookings };
      });

      hooks.put<{ Params: { reservationId: string } }>('/reservations/:reservationId/money', async (request) => {
        const { attached } = jsonBody(request);
        if (typeof attached !== 'boolean') throw invalid('attached', 'must be a boolean');
        if (!(await deps.store.setMoneyAttached(request.params.reservationId, attached))) {
          throw apiError('NOT_FOUND', 'No such reservation.');
        }
        return { reservationId: request.params.reservationId, moneyAttached: attached };
      });

      hooks.put<{ Params: { reservationId: string } }>('/reservations/:reservationId/status', async (request) => {
        const { status } = jsonBody(request);
        if (typeof status !== 'string' || !(RESERVATION_STATUSES as readonly string[]).includes(status)) {
          throw invalid('status', `must be one of ${RESERVATION_STATUSES.join(', ')}`);
        }
        const result = await deps.store.transitionReservation(
          request.params.reservationId,
          RESERVATION_STATUSES,
          status as ReservationStatus,
        );
        if (!result) throw apiError('NOT_FOUND', 'No such reservation.');
        return { reservationId: request.params.reservationId, status: result.reservation.reservation.status };
      });

      hooks.put<{ Params: { clientId: string } }>('/clients/:clientId/partner', async (request) => {
        const client = deps.clients.byId(request.params.clientId);
        if (!client) throw apiError('NOT_FOUND', 'No such client.');
        const { enabled } = jsonBody(request);
        if (typeof enabled !== 'boolean') throw invalid('enabled', 'must be a boolean');
        const partnerId = client.partnerId;
        const state = await deps.store.updateControlState((s) => {
          const others = s.disabledPartnerIds.filter((id) => id !== partnerId);
          return { ...s, disabledPartnerIds: enabled ? others : [...others, partnerId] };
        });
        return { clientId: client.clientId, partnerEnabled: !state.disabledPartnerIds.includes(partnerId) };
      });

      hooks.put('/api', async (request) => {
        const { enabled } = jsonBody(request);
        if (typeof enabled !== 'boolean') throw invalid('enabled', 'must be a boolean');
        const state = await deps.store.updateControlState((s) => ({ ...s, apiDisabled: !enabled }));
        return { apiEnabled: !state.apiDisabled };
      });

      hooks.put('/failures', async (request) => {
        const body = jsonBody(request);
        const switches: Record<string, boolean> = {};
        for (const [key, value] of Object.entries(body)) {
          if (key !== 'dependencyUnavailable' && key !== 'internalError') {
            throw invalid(key, 'is not a failure (dependencyUnavailable, internalError)');
          }
          if (typeof value !== 'boolean') throw invalid(key, 'must be a boolean');
          switches[key] = value;
        }
        const state = await deps.store.updateControlState((s) => ({ ...s, faults: { ...s.faults, ...switches } }));
        return state.faults;
      });

      hooks.get('/alerts', async () => {
        const alerts = await deps.store.listStaffAlerts();
        return {
          alerts: alerts.map((a) => ({
            kind: a.kind,
            reservationId: a.reservationId,
            createdAt: new Date(a.createdAtMs).toISOString(),
          })),
          count: alerts.length,
        };
      });

      hooks.post('/rate-limits/reset', async () => {
        const state = await deps.store.updateControlState((s) => ({
          ...s,
          rateLimitGeneration: s.rateLimitGeneration + 1,
        }));
        return { rateLimitGeneration: state.rateLimitGeneration };
      });

      hooks.put('/bookings/hold', async (request) => {
        const { ms } = jsonBody(request);
        if (!(Number.isInteger(ms) && finiteNumber(ms, 0, 2000)))
          throw invalid('ms', 'must be an integer from 0 to 2000');
        const state = await deps.store.updateControlState((s) => ({ ...s, bookingHoldMs: ms as number }));
        return { ms: state.bookingHoldMs };
      });

      hooks.put('/rate-limits/token-address-ceiling', async (request) => {
        const { perMinute } = jsonBody(request);
        if (perMinute !== null && !(Number.isInteger(perMinute) && finiteNumber(perMinute, 1, 1_000_000))) {
          throw invalid('perMinute', 'must be an integer from 1 to 1000000, or null');
        }
        const state = await deps.store.updateControlState((s) => ({
          ...s,
          tokenAddressCeiling: perMinute as number | null,
        }));
        return { perMinute: state.tokenAddressCeiling };
      });

      hooks.post('/reset', async () => {
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
      });
    },
    { prefix: TEST_HOOKS_PREFIX },
  );
}
