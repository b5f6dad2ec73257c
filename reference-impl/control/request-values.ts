/**
 * What the control API and the test hooks read from a request alike: the JSON body, the values they validate, the
 * VALIDATION_ERROR they answer with, and the one operation both offer (money on a reservation).
 */
import type { FastifyRequest } from 'fastify';
import { RESERVATION_STATUSES, type ReservationStatus } from '../../contract/types.ts';
import { apiError } from '../domain/failure.ts';
import type { Store } from '../store/types.ts';

export type WithParams<P> = FastifyRequest<{ Params: P }>;

export function jsonBody(request: FastifyRequest): Record<string, unknown> {
  const raw = request.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) return {};
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw apiError('MALFORMED_JSON', 'The control API takes a JSON object body.');
}

export function invalid(field: string, message: string) {
  return apiError('VALIDATION_ERROR', `${field} ${message}.`, { fields: [{ field, message }] });
}

export function enabledFlag(enabled: unknown): boolean {
  if (typeof enabled !== 'boolean') throw invalid('enabled', 'must be a boolean');
  return enabled;
}

export function declineCount(count: unknown): number {
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 1000) {
    throw invalid('count', 'must be an integer from 0 to 1000');
  }
  return count;
}

export function reservationStatus(status: unknown): ReservationStatus {
  if (typeof status !== 'string' || !(RESERVATION_STATUSES as readonly string[]).includes(status)) {
    throw invalid('status', `must be one of ${RESERVATION_STATUSES.join(', ')}`);
  }
  return status as ReservationStatus;
}

export async function attachMoney(deps: { store: Store }, request: WithParams<{ reservationId: string }>) {
  const { attached } = jsonBody(request);
  if (typeof attached !== 'boolean') throw invalid('attached', 'must be a boolean');
  if (!(await deps.store.setMoneyAttached(request.params.reservationId, attached))) {
    throw apiError('NOT_FOUND', 'No such reservation.');
  }
  return { reservationId: request.params.reservationId, moneyAttached: attached };
}

/** The next `count` bookings (default one) are declined by the operator (spec 3.3). */
export async function declineNextBookings(deps: { store: Store }, request: FastifyRequest) {
  const { count: raw = 1 } = jsonBody(request);
  const count = declineCount(raw);
  const state = await deps.store.updateControlState((s) => ({ ...s, declineNextBookings: count }));
  return { declineNextBookings: state.declineNextBookings };
}

/** Moves a vehicle's prices by `movePercent` (0 puts them back); each API validates the value its own way first. */
export async function storePriceMove(store: Store, vehicleCode: string, movePercent: number) {
  const state = await store.updateControlState((s) => {
    const moves = { ...s.priceMovesPercent };
    if (movePercent === 0) delete moves[vehicleCode];
    else moves[vehicleCode] = movePercent;
    return { ...s, priceMovesPercent: moves };
  });
  return { vehicleCode, movePercent: state.priceMovesPercent[vehicleCode] ?? 0 };
}
