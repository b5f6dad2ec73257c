import { API_PREFIX } from './constants.ts';
import type { SchemaName } from './schemas/index.ts';
import type { Scope } from './scopes.ts';

/** One row of the endpoint table of spec 4, with its scope (5.5) and the error statuses its section lists. */
export interface Endpoint {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** OpenAPI style, e.g. '/api/partner/v1/fleet/{vehicleCode}'. */
  path: string;
  /** null only for the token endpoint, which authenticates the client instead (5.2). */
  scope: Scope | null;
  /** PATCH has no success (4.10): there this is the status it always answers, 501. */
  successStatus: number;
  requestSchema: SchemaName | null;
  /** PATCH answers with the error envelope (4.10). */
  responseSchema: SchemaName;
  /** Sends X-RateLimit-* on every response (8.14). */
  rateLimited: boolean;
  /** Takes the Idempotency-Key header (4.7). */
  idempotencyKey: boolean;
  /** 4.13: business calls negotiate JSON or XML; the token endpoint is form in, JSON out. */
  representations: 'json-and-xml' | 'form-in-json-out';
  /** The statuses the endpoint's own section lists (4.1 to 4.11, 5.4); see allErrorStatuses for the rest. */
  errorStatuses: number[];
  summary: string;
  /** The spec section describing the endpoint, e.g. '4.7'. */
  section: string;
}

const P = API_PREFIX;

/** Spec 4: every endpoint, in the order of the table. */
export const ENDPOINTS: readonly Endpoint[] = [
  {
    operationId: 'issueToken',
    method: 'POST',
    path: `${P}/oauth/token`,
    scope: null,
    successStatus: 200,
    requestSchema: 'TokenRequest',
    responseSchema: 'TokenResponse',
    // 8.16a, 8.16b: limited on two buckets (per client and per source address) but sends no X-RateLimit-* headers.
    rateLimited: false,
    idempotencyKey: false,
    representations: 'form-in-json-out',
    errorStatuses: [400, 401, 429, 503],
    summary:
      'Exchange client credentials for a 600-second bearer token (OAuth 2.0 client credentials). Rate-limited per client and per source address, but without X-RateLimit-* headers: only Retry-After on 429 (8.16a, 8.16b).',
    section: '4.1',
  },
  {
    operationId: 'listFleet',
    method: 'GET',
    path: `${P}/fleet`,
    scope: 'fleet:read',
    successStatus: 200,
    requestSchema: null,
    responseSchema: 'FleetList',
    rateLimited: true,
    idempotencyKey: false,
    representations: 'json-and-xml',
    errorStatuses: [401, 403, 429, 503],
    summary: 'List the complete partner-offerable fleet.',
    section: '4.2',
  },
  {
    operationId: 'getFleetVehicle',
    method: 'GET',
    path: `${P}/fleet/{vehicleCode}`,
    scope: 'fleet:read',
    successStatus: 200,
    requestSchema: null,
    responseSchema: 'FleetVehicle',
    rateLimited: true,
    idempotencyKey: false,
    representations: 'json-and-xml',
    errorStatuses: [401, 403, 404, 409, 429],
    summary: 'Read one vehicle of the fleet.',
    section: '4.2',
  },
  {
    operationId: 'listLocations',
    method: 'GET',
    path: `${P}/locations`,
    scope: 'locations:read',
    successStatus: 200,
    requestSchema: null,
    responseSchema: 'LocationList',
    rateLimited: true,
    idempotencyKey: false,
    representations: 'json-and-xml',
    errorStatuses: [401, 403, 429],
    summary: 'List the active rental locations.',
    section: '4.3',
  },
  {
    operationId: 'getLocation',
    method: 'GET',
    path: `${P}/locations/{locationCode}`,
    scope: 'locations:read',
    successStatus: 200,
    requestSchema: null,
    responseSchema: 'Location',
    rateLimited: true,
    idempotencyKey: false,
    representations: 'json-and-xml',
    errorStatuses: [401, 403, 404, 429],
    summary: 'Read one rental location.',
    section: '4.3',
  },
  {
    operationId: 'listRates',
    method: 'GET',
    path: `${P}/rates`,
    scope: 'rates:read',
    successStatus: 200,
    requestSchema: null,
    responseSchema: 'RateList',
    rateLimited: true,
    idempotencyKey: false,
    representations: 'json-and-xml',
    errorStatuses: [401, 403, 429],
    summary: "List the caller's active, approved account and rate codes.",
    section: '4.4',
  },
  {
    operationId: 'searchAvailability',
    method: 'POST',
    path: `${P}/availability`,
    scope: 'availability:read',
    successStatus: 200,
    requestSchema: 'AvailabilityRequest',
    responseSchema: 'AvailabilityResponse',
    rateLimited: true,
    idempotencyKey: false,
    representations: 'json-and-xml',
    errorStatuses: [400, 401, 403, 409, 429],
    summary: 'Shop: offers for a rental window, each with a quoteId valid 30 minutes. No hold is placed.',
    section: '4.5',
  },
  {
    operationId: 'createQuote',
    method: 'POST',
    path: `${P}/quotes`,
    scope: 'quotes:write',
    successStatus: 201,
    requestSchema: 'QuoteRequest',
    responseSchema: 'Quote',
    rateLimited: true,
    idempotencyKey: false,
    representations: 'json-and-xml',
    errorStatuses: [400, 401, 403, 409, 429],
    summary: 'Price one vehicle for one window with a full, server-authoritative charge breakdown.',
    section: '4.6',
  },
  {
    operationId: 'createReservation',
    method: 'POST',
    path: `${P}/reservations`,
    scope: 'reservations:write',
    successStatus: 201,
    requestSchema: 'ReservationRequest',
    responseSchema: 'Reservation',
    rateLimited: true,
    idempotencyKey: true,
    representations: 'json-and-xml',
    errorStatuses: [400, 401, 403, 409, 422, 429],
    summary: 'Create a confirmed reservation from a quote; 200 with Idempotent-Replay: true on a replay.',
    section: '4.7',
  },
  {
    operationId: 'listReservations',
    method: 'GET',
    path: `${P}/reservations`,
    scope: 'reservations:read',
    successStatus: 200,
    requestSchema: null,
    responseSchema: 'ReservationList',
    rateLimited: true,
    idempotencyKey: false,
    representations: 'json-and-xml',
    errorStatuses: [401, 403, 429],
    summary: "List the caller's reservations, newest first.",
    section: '4.8',
  },
  {
    operationId: 'getReservation',
    method: 'GET',
    path: `${P}/reservations/{reservationId}`,
    scope: 'reservations:read',
    successStatus: 200,
    requestSchema: null,
    responseSchema: 'Reservation',
    rateLimited: true,
    idempotencyKey: false,
    representations: 'json-and-xml',
    errorStatuses: [401, 403, 404, 429],
    summary: "Read one of the caller's reservations in its current state.",
    section: '4.9',
  },
  {
    operationId: 'modifyReservation',
    method: 'PATCH',
    path: `${P}/reservations/{reservationId}`,
    scope: 'reservations:write',
    successStatus: 501,
    requestSchema: null,
    responseSchema: 'ErrorEnvelope',
    rateLimited: true,
    idempotencyKey: false,
    representations: 'json-and-xml',
    errorStatuses: [401, 403],
    summary: 'Unsupported in v1: always 501 MODIFICATION_NOT_SUPPORTED after authentication and scope checks.',
    section: '4.10',
  },
  {
    operationId: 'cancelReservation',
    method: 'POST',
    path: `${P}/reservations/{reservationId}/cancel`,
    scope: 'reservations:cancel',
    successStatus: 200,
    requestSchema: 'CancelRequest',
    responseSchema: 'Reservation',
    rateLimited: true,
    idempotencyKey: false,
    representations: 'json-and-xml',
    errorStatuses: [400, 401, 403, 404, 409, 429],
    summary: 'Cancel a reservation; 200 with the reservation in its new state. No refund is calculated.',
    section: '4.11',
  },
];

/**
 * The section's own statuses plus those every business call can meet: 406 (4.13), 413, 415 and 400 on a
 * body (4.13, 4.14), 429 where rate-limited (8.15), 500 and 503 (7.3 INTERNAL_ERROR, API_DISABLED, 5.8).
 */
export function allErrorStatuses(endpoint: Endpoint): number[] {
  const statuses = new Set(endpoint.errorStatuses);
  if (endpoint.rateLimited) statuses.add(429);
  if (endpoint.representations === 'json-and-xml') {
    statuses.add(406);
    statuses.add(500);
    statuses.add(503);
    if (endpoint.requestSchema !== null) {
      statuses.add(400);
      statuses.add(413);
      statuses.add(415);
    }
  }
  return [...statuses].sort((a, b) => a - b);
}
