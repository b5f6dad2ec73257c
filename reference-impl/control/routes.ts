import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RESERVATION_STATUSES } from '../../contract/types.ts';
import type { ClientRegistry } from '../domain/credentials.ts';
import { apiError } from '../domain/failure.ts';
import type { OperatorData } from '../domain/operator-data.ts';
import { type FaultSwitch, UnknownFaultError } from '../faults/switch.ts';
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

export const CONTROL_PREFIX = '/control/v1';

export interface ControlDeps {
  store: Store;
  operatorData: OperatorData;
  clients: ClientRegistry;
  controlToken: string;
  faults: FaultSwitch;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The bearer check of the operator APIs: digests make the comparison constant-time whatever the lengths. */
export function bearerGuard(token: string, what: string) {
  const expected = digest(token);
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const presented = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!timingSafeEqual(digest(presented), expected))
      throw apiError('UNAUTHORIZED', `${what}: bearer secret required.`);
  };
}

/**
 * The operator's control API (docs/design.md "Target control"): what only the operator does, apart from the
 * partner paths and authenticated by its own bearer secret. JSON only. Documented in the README.
 */
export function controlRoutes(app: FastifyInstance, deps: ControlDeps) {
  app.register(
    async (control) => {
      control.addHook('onRequest', bearerGuard(deps.controlToken, 'Control API'));
      control.get('/state', () => readState(deps));
      control.post('/clock/advance', (request) => advanceClock(deps, request));
      control.post('/clock/reset', () => resetClock(deps));
      control.put('/api', (request) => switchApi(deps, request));
      control.get<{ Params: { clientId: string } }>('/clients/:clientId', (request) => describeClient(deps, request));
      control.put<{ Params: { partnerId: string } }>('/partners/:partnerId', (request) => switchPartner(deps, request));
      control.put<{ Params: { vehicleCode: string } }>('/prices/:vehicleCode', (request) => movePrice(deps, request));
      control.post('/bookings/decline-next', (request) => declineNextBookings(deps, request));
      control.get('/faults', () => readFaults(deps));
      control.put('/faults', (request) => switchFaults(deps, request));
      control.put<{ Params: { reservationId: string } }>('/reservations/:reservationId/money', (request) =>
        attachMoney(deps, request),
      );
      control.put<{ Params: { reservationId: string } }>('/reservations/:reservationId/status', (request) =>
        setReservationStatus(deps, request),
      );
      control.get('/alerts', () => listAlerts(deps));
    },
    { prefix: CONTROL_PREFIX },
  );
}

async function readState(deps: ControlDeps) {
  const state = await deps.store.getControlState();
  return { ...state, now: new Date(Date.now() + state.clockOffsetMs).toISOString() };
}

function secondsToAdvance(seconds: unknown): number {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > 366 * 86_400) {
    throw invalid('seconds', 'must be a number from 0 to 31622400');
  }
  return seconds;
}

async function advanceClock(deps: ControlDeps, request: FastifyRequest) {
  const seconds = secondsToAdvance(jsonBody(request).seconds);
  const state = await deps.store.updateControlState((s) => ({
    ...s,
    clockOffsetMs: s.clockOffsetMs + Math.round(seconds * 1000),
  }));
  return { clockOffsetMs: state.clockOffsetMs, now: new Date(Date.now() + state.clockOffsetMs).toISOString() };
}

async function resetClock(deps: ControlDeps) {
  const state = await deps.store.updateControlState((s) => ({ ...s, clockOffsetMs: 0 }));
  return { clockOffsetMs: state.clockOffsetMs, now: new Date().toISOString() };
}

async function switchApi(deps: ControlDeps, request: FastifyRequest) {
  const enabled = enabledFlag(jsonBody(request).enabled);
  const state = await deps.store.updateControlState((s) => ({ ...s, apiDisabled: !enabled }));
  return { apiEnabled: !state.apiDisabled };
}

async function describeClient(deps: ControlDeps, request: WithParams<{ clientId: string }>) {
  const client = deps.clients.byId(request.params.clientId);
  if (!client) throw apiError('NOT_FOUND', 'No such client.');
  return { clientId: client.clientId, partnerId: client.partnerId, role: client.role };
}

async function switchPartner(deps: ControlDeps, request: WithParams<{ partnerId: string }>) {
  const { partnerId } = request.params;
  if (!deps.operatorData.partners.has(partnerId)) throw apiError('NOT_FOUND', 'No such partner.');
  const enabled = enabledFlag(jsonBody(request).enabled);
  const state = await deps.store.updateControlState((s) => {
    const others = s.disabledPartnerIds.filter((id) => id !== partnerId);
    return { ...s, disabledPartnerIds: enabled ? others : [...others, partnerId] };
  });
  return { partnerId, enabled: !state.disabledPartnerIds.includes(partnerId) };
}

function pricePercent(movePercent: unknown): number {
  if (typeof movePercent !== 'number' || !Number.isFinite(movePercent) || movePercent <= -100 || movePercent > 1000) {
    throw invalid('movePercent', 'must be a number above -100 and at most 1000');
  }
  return movePercent;
}

async function movePrice(deps: ControlDeps, request: WithParams<{ vehicleCode: string }>) {
  const { vehicleCode } = request.params;
  if (deps.operatorData.standing(vehicleCode) === 'unknown') throw apiError('NOT_FOUND', 'No such vehicle.');
  const movePercent = pricePercent(jsonBody(request).movePercent);
  return storePriceMove(deps.store, vehicleCode, movePercent);
}

async function readFaults(deps: ControlDeps) {
  const state = await deps.store.getControlState();
  return {
    ...state.faults,
    enabled: deps.faults.enabled(),
    registry: deps.faults.registry.map(({ name, kind, clause, description }) => ({
      name,
      kind,
      clause,
      description,
    })),
  };
}

const FAULT_KEYS = ['dependencyUnavailable', 'internalError', 'enabled'] as const;

/** The store's failure switches of a PUT /faults body; any key but those and "enabled" is refused. */
function failureSwitches(body: Record<string, unknown>): Record<string, boolean> {
  const switches: Record<string, boolean> = {};
  for (const key of Object.keys(body)) {
    if (!(FAULT_KEYS as readonly string[]).includes(key))
      throw invalid(key, `is not a fault (${FAULT_KEYS.join(', ')})`);
    if (key === 'enabled') continue;
    if (typeof body[key] !== 'boolean') throw invalid(key, 'must be a boolean');
    switches[key] = body[key] as boolean;
  }
  return switches;
}

/** Switches this instance's named faults to exactly `names`. */
function enableFaults(deps: ControlDeps, names: unknown) {
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) {
    throw invalid('enabled', 'must be an array of fault names');
  }
  try {
    deps.faults.set(names as string[]);
  } catch (error) {
    if (error instanceof UnknownFaultError) throw invalid('enabled', error.message);
    throw error;
  }
}

// The two failure switches live in the store (every instance answers 503 or 500); named faults and benign
// variants are switched on this instance only ("enabled": the full list that is on from now).
async function switchFaults(deps: ControlDeps, request: FastifyRequest) {
  const body = jsonBody(request);
  const switches = failureSwitches(body);
  if ('enabled' in body) enableFaults(deps, body.enabled);
  const state = await deps.store.updateControlState((s) => ({
    ...s,
    faults: { ...s.faults, ...(switches as Partial<typeof s.faults>) },
  }));
  return { ...state.faults, enabled: deps.faults.enabled() };
}

async function setReservationStatus(deps: ControlDeps, request: WithParams<{ reservationId: string }>) {
  const status = reservationStatus(jsonBody(request).status);
  const result = await deps.store.transitionReservation(request.params.reservationId, RESERVATION_STATUSES, status);
  if (!result) throw apiError('NOT_FOUND', 'No such reservation.');
  return result.reservation.reservation;
}

async function listAlerts(deps: ControlDeps) {
  const alerts = await deps.store.listStaffAlerts();
  return {
    alerts: alerts.map((a) => ({ ...a, createdAt: new Date(a.createdAtMs).toISOString() })),
    count: alerts.length,
  };
}
