import { describe, expect, it } from 'vitest';
import { API_PREFIX } from './constants.ts';
import { allErrorStatuses, ENDPOINTS } from './endpoints.ts';
import { SCHEMA_NAMES } from './schemas/index.ts';
import { SCOPES } from './scopes.ts';

/** Spec 4, the endpoint table, as its rows read. */
const SPEC_TABLE = `
POST /api/partner/v1/oauth/token none 200
GET /api/partner/v1/fleet fleet:read 200
GET /api/partner/v1/fleet/{vehicleCode} fleet:read 200
GET /api/partner/v1/locations locations:read 200
GET /api/partner/v1/locations/{locationCode} locations:read 200
GET /api/partner/v1/rates rates:read 200
POST /api/partner/v1/availability availability:read 200
POST /api/partner/v1/quotes quotes:write 201
POST /api/partner/v1/reservations reservations:write 201
GET /api/partner/v1/reservations reservations:read 200
GET /api/partner/v1/reservations/{reservationId} reservations:read 200
PATCH /api/partner/v1/reservations/{reservationId} reservations:write 501
POST /api/partner/v1/reservations/{reservationId}/cancel reservations:cancel 200
`
  .trim()
  .split('\n')
  .map((line) => line.split(' '));

describe('ENDPOINTS', () => {
  it('holds every row of the table of spec 4, in order', () => {
    expect(ENDPOINTS.map((e) => [e.method, e.path, e.scope ?? 'none', String(e.successStatus)])).toEqual(SPEC_TABLE);
  });

  it('has unique operation ids and method-path pairs', () => {
    expect(new Set(ENDPOINTS.map((e) => e.operationId)).size).toBe(ENDPOINTS.length);
    expect(new Set(ENDPOINTS.map((e) => `${e.method} ${e.path}`)).size).toBe(ENDPOINTS.length);
  });

  it('prefixes every path with the API prefix', () => {
    for (const e of ENDPOINTS) expect(e.path.startsWith(`${API_PREFIX}/`)).toBe(true);
  });

  it('uses every scope of 5.5', () => {
    expect(new Set(ENDPOINTS.map((e) => e.scope).filter((s) => s !== null))).toEqual(new Set(SCOPES));
  });

  it('names only schemas of the bundle', () => {
    for (const e of ENDPOINTS) {
      expect(SCHEMA_NAMES).toContain(e.responseSchema);
      if (e.requestSchema !== null) expect(SCHEMA_NAMES).toContain(e.requestSchema);
    }
  });

  it('sends bodies exactly on the operations of 2.12 and 4.1', () => {
    const withBody = Object.fromEntries(
      ENDPOINTS.filter((e) => e.requestSchema !== null).map((e) => [e.operationId, e.requestSchema]),
    );
    expect(withBody).toEqual({
      issueToken: 'TokenRequest',
      searchAvailability: 'AvailabilityRequest',
      createQuote: 'QuoteRequest',
      createReservation: 'ReservationRequest',
      cancelReservation: 'CancelRequest',
    });
  });

  it('keeps the token endpoint form-in JSON-out, without scope or X-RateLimit headers (4.1, 8.16b)', () => {
    const [token, ...business] = ENDPOINTS;
    expect(token).toMatchObject({
      scope: null,
      representations: 'form-in-json-out',
      rateLimited: false,
      responseSchema: 'TokenResponse',
    });
    expect(token?.summary).toMatch(/Retry-After/);
    for (const e of business) expect(e).toMatchObject({ representations: 'json-and-xml', rateLimited: true });
  });

  it('takes an Idempotency-Key only on reservation creation (4.7)', () => {
    expect(ENDPOINTS.filter((e) => e.idempotencyKey).map((e) => e.operationId)).toEqual(['createReservation']);
  });

  it('lists the error statuses of each section', () => {
    const byId = Object.fromEntries(ENDPOINTS.map((e) => [e.operationId, e.errorStatuses]));
    expect(byId.getFleetVehicle).toEqual([401, 403, 404, 409, 429]);
    expect(byId.createReservation).toEqual([400, 401, 403, 409, 422, 429]);
    expect(byId.cancelReservation).toEqual([400, 401, 403, 404, 409, 429]);
    expect(byId.modifyReservation).toEqual([401, 403]);
    for (const e of ENDPOINTS) expect(e.section).toMatch(/^4\.\d+$/);
  });

  it('adds the cross-cutting statuses in allErrorStatuses', () => {
    const find = (id: string) => ENDPOINTS.find((e) => e.operationId === id);
    const quotes = find('createQuote');
    const patch = find('modifyReservation');
    const token = find('issueToken');
    if (!quotes || !patch || !token) throw new Error('missing endpoint');
    expect(allErrorStatuses(quotes)).toEqual([400, 401, 403, 406, 409, 413, 415, 429, 500, 503]);
    expect(allErrorStatuses(patch)).toEqual([401, 403, 406, 429, 500, 503]);
    expect(allErrorStatuses(token)).toEqual([400, 401, 429, 503]);
  });
});
