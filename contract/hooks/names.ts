/**
 * The test-hooks contract (docs/test-hooks.md): what the conformance suite asks of a target's operator side, so
 * every clause can be judged on any implementation that offers these hooks. One vocabulary for the harness (its
 * adapter) and the reference implementation (its routes).
 */
export const HOOKS_CONTRACT = 'partner-api-test-hooks';
export const HOOKS_CONTRACT_VERSION = '1.2.0';

/** Every hook of the contract, as `GET /` of the hooks base URL lists them. */
export const HOOK_NAMES = [
  'quotes.expire',
  'tokens.expire',
  'idempotency.forget',
  'prices.move',
  'bookings.declineNext',
  'bookings.hold',
  'reservations.money',
  'reservations.status',
  'clients.partner',
  'api.switch',
  'failures',
  'alerts',
  'rateLimits.reset',
  'rateLimits.tokenAddressCeiling',
  'reset',
] as const;

export type HookName = (typeof HOOK_NAMES)[number];

/** Where each hook lives relative to the hooks base URL, and which spec clauses it lets a suite judge. */
export const HOOK_ROUTES: Readonly<
  Record<HookName, { method: 'GET' | 'POST' | 'PUT'; path: string; clauses: string[] }>
> = {
  'quotes.expire': { method: 'POST', path: '/quotes/expire', clauses: ['3.9', '4.7.9a', '7.3.22', '8.2'] },
  'tokens.expire': { method: 'POST', path: '/tokens/expire', clauses: ['5.3b', '5.6a', '7.3.3', '8.1'] },
  'idempotency.forget': { method: 'POST', path: '/idempotency/forget', clauses: ['4.7.6', '8.4'] },
  'prices.move': { method: 'PUT', path: '/prices/{vehicleCode}', clauses: ['2.11.9b', '4.6.3', '4.7.9b', '7.3.24'] },
  'bookings.declineNext': { method: 'POST', path: '/bookings/decline-next', clauses: ['3.3', '4.7.10', '7.3.29'] },
  'bookings.hold': { method: 'PUT', path: '/bookings/hold', clauses: ['4.7.5', '7.3.27'] },
  'reservations.money': { method: 'PUT', path: '/reservations/{reservationId}/money', clauses: ['3.5', '7.3.31'] },
  'reservations.status': { method: 'PUT', path: '/reservations/{reservationId}/status', clauses: ['3.7', '7.3.30'] },
  'clients.partner': { method: 'PUT', path: '/clients/{clientId}/partner', clauses: ['5.6c', '7.3.5'] },
  'api.switch': { method: 'PUT', path: '/api', clauses: ['5.4d', '5.8', '7.3.34'] },
  failures: { method: 'PUT', path: '/failures', clauses: ['7.3.35', '7.3.36'] },
  alerts: { method: 'GET', path: '/alerts', clauses: ['3.5'] },
  'rateLimits.reset': {
    method: 'POST',
    path: '/rate-limits/reset',
    clauses: ['4.5.4', '4.6.4', '7.3.33', '8.13', '8.14', '8.15', '8.16a', '8.16b'],
  },
  'rateLimits.tokenAddressCeiling': { method: 'PUT', path: '/rate-limits/token-address-ceiling', clauses: ['8.16a'] },
  reset: { method: 'POST', path: '/reset', clauses: [] },
};
