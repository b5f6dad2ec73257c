import type { ControlState } from './types.ts';

export const DEFAULT_CONTROL_STATE: Readonly<ControlState> = Object.freeze({
  clockOffsetMs: 0,
  apiDisabled: false,
  disabledPartnerIds: [],
  priceMovesPercent: {},
  declineNextBookings: 0,
  expiredQuotes: [],
  tokensExpiredBefore: {},
  rateLimitGeneration: 0,
  tokenAddressCeiling: null,
  bookingHoldMs: 0,
  faults: Object.freeze({ dependencyUnavailable: false, internalError: false }),
});

/**
 * Fills absent or malformed fields from the defaults, so a row written by an older version (or by hand)
 * still reads as a complete ControlState, and returns fresh arrays and objects the caller may mutate.
 */
export function normalizeControlState(value: unknown): ControlState {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Partial<
    Record<keyof ControlState, unknown>
  >;
  const finite = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
  const faults = (typeof raw.faults === 'object' && raw.faults !== null ? raw.faults : {}) as Record<string, unknown>;
  const moves: Record<string, number> = {};
  if (typeof raw.priceMovesPercent === 'object' && raw.priceMovesPercent !== null) {
    for (const [code, percent] of Object.entries(raw.priceMovesPercent)) {
      if (typeof percent === 'number' && Number.isFinite(percent)) moves[code] = percent;
    }
  }
  const expiredBefore: Record<string, number> = {};
  if (typeof raw.tokensExpiredBefore === 'object' && raw.tokensExpiredBefore !== null) {
    for (const [clientId, ms] of Object.entries(raw.tokensExpiredBefore)) {
      if (typeof ms === 'number' && Number.isFinite(ms)) expiredBefore[clientId] = ms;
    }
  }
  return {
    clockOffsetMs: finite(raw.clockOffsetMs, DEFAULT_CONTROL_STATE.clockOffsetMs),
    apiDisabled: typeof raw.apiDisabled === 'boolean' ? raw.apiDisabled : DEFAULT_CONTROL_STATE.apiDisabled,
    disabledPartnerIds: Array.isArray(raw.disabledPartnerIds)
      ? raw.disabledPartnerIds.filter((id): id is string => typeof id === 'string')
      : [],
    priceMovesPercent: moves,
    declineNextBookings: Math.max(0, Math.trunc(finite(raw.declineNextBookings, 0))),
    expiredQuotes: Array.isArray(raw.expiredQuotes)
      ? raw.expiredQuotes.filter((h): h is string => typeof h === 'string')
      : [],
    tokensExpiredBefore: expiredBefore,
    rateLimitGeneration: Math.max(0, Math.trunc(finite(raw.rateLimitGeneration, 0))),
    bookingHoldMs: Math.min(2000, Math.max(0, Math.trunc(finite(raw.bookingHoldMs, 0)))),
    tokenAddressCeiling:
      typeof raw.tokenAddressCeiling === 'number' &&
      Number.isInteger(raw.tokenAddressCeiling) &&
      raw.tokenAddressCeiling > 0
        ? raw.tokenAddressCeiling
        : null,
    faults: {
      dependencyUnavailable: faults.dependencyUnavailable === true,
      internalError: faults.internalError === true,
    },
  };
}

/** The read-modify-write of takeDeclineNextBooking, shared by both stores (each runs it under a row lock). */
export function takeOneDecline(state: ControlState): { state: ControlState; taken: boolean } {
  if (state.declineNextBookings <= 0) return { state, taken: false };
  return { state: { ...state, declineNextBookings: state.declineNextBookings - 1 }, taken: true };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A normalized state shared by many requests at once: frozen, so a reader can never change it for the others. */
export function sharedControlState(value: unknown): ControlState {
  return deepFreeze(normalizeControlState(value));
}
