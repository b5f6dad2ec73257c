import { describe, expect, it } from 'vitest';
import { BOOKING_SCOPES } from '../../contract/scopes.ts';
import { ScopeNotGrantedError, TokenCache } from '../auth/token-cache.ts';
import type { HttpRequest, HttpResponse } from '../http/client.ts';
import { missingScopeReason, scopeHolders, scopesOfCheck } from './applicability.ts';
import { endpointScope, scopeGuarded } from './scope-guard.ts';

const BASE = 'https://target.test';
const API = `${BASE}/api/partner/v1`;

describe('the scopes a check needs (applicability.ts)', () => {
  it('its own, else the booking scopes for a check that books or is of profile book, else none', () => {
    expect(scopesOfCheck(['rates:read'], 'book', true)).toEqual(['rates:read']);
    expect(scopesOfCheck(undefined, 'book')).toEqual(BOOKING_SCOPES);
    expect(scopesOfCheck(undefined, 'catalog', true)).toEqual(BOOKING_SCOPES);
    expect(scopesOfCheck(undefined, 'shop')).toEqual([]);
    expect(scopesOfCheck(undefined, 'full')).toEqual([]);
  });

  it('held by the working roles the check needs, else partnerA; the first role lacking one is named', () => {
    expect(scopeHolders([])).toEqual(['partnerA']);
    expect(scopeHolders(['readOnly'])).toEqual(['partnerA']);
    expect(scopeHolders(['partnerB', 'readOnly'])).toEqual(['partnerB']);
    const granted = { partnerA: ['fleet:read' as const], partnerB: ['fleet:read' as const, 'rates:read' as const] };
    expect(missingScopeReason({ granted }, ['partnerA', 'partnerB'], ['fleet:read'])).toBeUndefined();
    expect(missingScopeReason({ granted }, ['partnerA', 'partnerB'], ['rates:read'])).toEqual({
      kind: 'missing-scope',
      detail: 'partnerA does not hold rates:read',
    });
    expect(missingScopeReason({ granted }, ['partnerB'], ['rates:read', 'quotes:write'])).toEqual({
      kind: 'missing-scope',
      detail: 'no role holds quotes:write',
    });
    // A role whose grant pre-flight could not read holds everything.
    expect(missingScopeReason({ granted }, ['readOnly'], ['quotes:write'])).toBeUndefined();
    expect(missingScopeReason({}, ['partnerA'], ['quotes:write'])).toBeUndefined();
  });
});

describe('scope guard', () => {
  it('knows the scope of each endpoint of the table, on the target only', () => {
    expect(endpointScope('GET', `${API}/fleet`, BASE)).toBe('fleet:read');
    expect(endpointScope('GET', `${API}/locations/SGN-APT-01`, BASE)).toBe('locations:read');
    expect(endpointScope('GET', `${API}/reservations?limit=5`, BASE)).toBe('reservations:read');
    expect(endpointScope('POST', `${API}/reservations`, BASE)).toBe('reservations:write');
    expect(endpointScope('PATCH', `${API}/reservations/r1`, BASE)).toBe('reservations:write');
    expect(endpointScope('POST', `${API}/reservations/r1/cancel`, BASE)).toBe('reservations:cancel');
    expect(endpointScope('POST', `${API}/oauth/token`, BASE)).toBeUndefined();
    expect(endpointScope('DELETE', `${API}/fleet`, BASE)).toBeUndefined();
    expect(endpointScope('GET', `${API}/fleet/a/b`, BASE)).toBeUndefined();
    expect(endpointScope('GET', 'https://elsewhere.test/api/partner/v1/fleet', BASE)).toBeUndefined();
  });

  it("stops a working role's everything-held call the role lacks the scope for; lets every other call go", async () => {
    const sent: string[] = [];
    const send = async (req: HttpRequest): Promise<HttpResponse> => {
      sent.push(`${req.method} ${req.url}`);
      const body = new TextEncoder().encode(
        JSON.stringify({ access_token: `t${sent.length}`, token_type: 'Bearer', expires_in: 600, scope: 'fleet:read' }),
      );
      return { status: 200, headers: {}, body, durationMs: 1 };
    };
    const tokens = new TokenCache({
      baseUrl: BASE,
      clients: { partnerA: { clientId: 'a', clientSecret: 's' }, readOnly: { clientId: 'r', clientSecret: 's' } },
      send,
    });
    const granted = { partnerA: ['fleet:read' as const], readOnly: ['fleet:read' as const] };
    const guarded = scopeGuarded(send, tokens, { granted, target: { baseUrl: BASE, clients: {} } });
    const everything = await tokens.token('partnerA');
    const limited = await tokens.token('partnerA', ['fleet:read']);
    const readOnly = await tokens.token('readOnly');
    const call = (method: string, path: string, token: string, role?: string) =>
      guarded({ method, url: `${API}${path}`, headers: { Authorization: `Bearer ${token}` } }, role ? { role } : {});
    sent.length = 0;
    await call('GET', '/fleet', everything, 'partnerA');
    await call('GET', '/rates', limited, 'partnerA');
    await call('GET', '/reservations', readOnly, 'readOnly');
    await call('GET', '/rates', everything);
    expect(sent).toHaveLength(4);
    const refused = await call('POST', '/reservations', everything, 'partnerA').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ScopeNotGrantedError);
    expect(refused).toMatchObject({ role: 'partnerA', scopes: ['reservations:write'] });
    expect(sent).toHaveLength(4);
    // Without a recorded grant nothing is guarded.
    expect(scopeGuarded(send, tokens, { target: { baseUrl: BASE, clients: {} } })).toBe(send);
  });
});
