/**
 * Spec 4.1 POST /oauth/token. Every call here is a raw token request (the harness's token cache is bypassed);
 * RFC 6749 names the error values the spec leaves to "the OAuth shape" (5.1 adopts RFC 6749 section 4.4).
 */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { MEDIA_TYPES } from '../contract/constants.ts';
import { SCOPES } from '../contract/scopes.ts';
import { check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { bodyOf, expectMediaType, expectOAuthError, expectSchema } from '../harness/check/expect-api.ts';
import { claim } from '../harness/check/scope.ts';
import {
  basicCredentials,
  expectTokenRequestRefused,
  grantedScopes,
  jsonTokenRequest,
  plainTokenAnswer,
  requestToken,
  scopeSet,
  sharedTokenRequest,
} from './support/auth.ts';
import { otherGrantTypes, unknownScopes, wrongSecrets } from './support/draws.ts';

describe('4.1 POST /oauth/token', () => {
  // Spec 4.1.1: "Request `application/x-www-form-urlencoded`"
  check('4.1.1')({ name: 'A form-encoded token request is accepted', needs: ['partnerA'] }, async (t) => {
    const res = await plainTokenAnswer(t, 'partnerA');
    expect(res.status, res.excerpt).toBe(200);
    expectSchema(res, 'TokenResponse');
  });

  // Spec 4.1.1 (quoted above)
  check('4.1.1')(
    { name: 'A JSON token request issues no token (400, OAuth shape)', needs: ['partnerA'] },
    async (t) => {
      // Valid Basic credentials, so the JSON body is the only fault: this clause (with 4.13.5b, which restates it)
      // asks that it be refused.
      // 5.4 states its status (400, with any of RFC 6749's values: which names it is not stated).
      expectTokenRequestRefused(await jsonTokenRequest(t), 'a token request with a JSON body');
    },
  );

  // The refusal is this clause's; its status 400 is 5.4a's ("400 for malformed request, unsupported grant type"),
  // filed there; RFC 6749's error value is expected but not required (docs/ambiguities.md #30).
  // Spec 4.1.2: "grant_type (required, must be client_credentials)"
  check('4.1.2')({ name: 'grant_type missing: refused (400) with an OAuth error', needs: ['partnerA'] }, async (t) => {
    expectTokenRequestRefused(
      await sharedTokenRequest(t, 'partnerA', { grantType: null }),
      'a token request without grant_type',
    );
  });

  // Spec 4.1.2 (quoted above)
  check('4.1.2')(
    { level: 'SHOULD', name: 'grant_type missing names invalid_request (RFC 6749 5.2)', needs: ['partnerA'] },
    async (t) => {
      expectOAuthError(await sharedTokenRequest(t, 'partnerA', { grantType: null }), 'invalid_request');
    },
  );

  // Spec 4.1.2 (quoted above)
  check('4.1.2')(
    { name: 'grant_type other than client_credentials: refused (400) with an OAuth error', needs: ['partnerA'] },
    async (t) => {
      await t.forAll(
        otherGrantTypes,
        async (grantType) => {
          expectTokenRequestRefused(
            await requestToken(t, 'partnerA', { grantType }),
            `a token request with grant_type ${grantType}`,
          );
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 4.1.2 (quoted above)
  check('4.1.2')(
    {
      level: 'SHOULD',
      name: 'grant_type other than client_credentials names unsupported_grant_type (RFC 6749 5.2)',
      needs: ['partnerA'],
    },
    async (t) => {
      await t.forAll(
        otherGrantTypes,
        async (grantType) => {
          expectOAuthError(await requestToken(t, 'partnerA', { grantType }), 'unsupported_grant_type');
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 4.1.3: "client_id and client_secret (only for client_secret_post)"
  check('4.1.3')(
    { name: 'With client_secret_basic the form needs no client_id or client_secret', needs: ['partnerA'] },
    async (t) => {
      // An endpoint refusing Basic altogether is 5.2a's deviation (filed there, this check blocked).
      await basicCredentials(t, 'partnerA');
      const res = await sharedTokenRequest(t, 'partnerA', { auth: 'basic' });
      expect(res.status, res.excerpt).toBe(200);
      expectSchema(res, 'TokenResponse');
    },
  );

  // Spec 4.1.3 (quoted above)
  check('4.1.3')(
    { name: 'With client_secret_post the form carries client_id and client_secret', needs: ['partnerA'] },
    async (t) => {
      const res = await sharedTokenRequest(t, 'partnerA', { auth: 'post' });
      expect(res.status, res.excerpt).toBe(200);
      expectSchema(res, 'TokenResponse');
    },
  );

  // Spec 4.1.4: "scope (optional, space-delimited subset of the grant; omitted means everything held)"
  check('4.1.4')({ name: 'scope omitted: the token carries every scope held', needs: ['partnerA'] }, async (t) => {
    const all = await plainTokenAnswer(t, 'partnerA');
    expect(all.status, all.excerpt).toBe(200);
    const held = grantedScopes(bodyOf<{ scope?: unknown }>(all, 'the token response').scope);
    expect(held.length, 'scopes of a token requested without scope').toBeGreaterThan(0);
    // Every scope the client can obtain singly is in the scope-less token, and no other. A 200 whose token leaves the
    // asked scope out (narrowed to what the partner holds, ambiguity #55) did not obtain it (audit 2026-11-29, 4.1-R3).
    const obtainable: string[] = [];
    for (const scope of SCOPES) {
      const one = await sharedTokenRequest(t, 'partnerA', { scope });
      if (one.status !== 200) expectOAuthError(one, 'invalid_scope');
      else if (grantedScopes((one.body as { scope?: unknown } | undefined)?.scope).includes(scope))
        obtainable.push(scope);
    }
    expect(held).toEqual(obtainable.sort());
  });

  // Spec 4.1.4 (quoted above)
  check('4.1.4')(
    { name: 'scope: a space-delimited subset of the grant gives exactly that subset', needs: ['partnerA'] },
    async (t) => {
      const all = await plainTokenAnswer(t, 'partnerA');
      expect(all.status, all.excerpt).toBe(200);
      const held = grantedScopes(bodyOf<{ scope?: unknown }>(all, 'the token response').scope);
      if (held.length === 0) return t.notApplicable('the client holds no scope');
      // Any non-empty subset, in any order, space-delimited.
      await t.forAll(
        fc.shuffledSubarray(held, { minLength: 1 }),
        async (subset) => {
          // A subset asked before (one scope alone, as the check above asks each) is answered once (sharedTokenRequest).
          const res = await sharedTokenRequest(t, 'partnerA', { scope: subset.join(' ') });
          expect(res.status, res.excerpt).toBe(200);
          expectSchema(res, 'TokenResponse');
          expect(grantedScopes((res.body as { scope?: unknown }).scope)).toEqual([...subset].sort());
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 4.1.5: "Response 200 JSON with access_token (string), token_type (`Bearer`), expires_in (integer, 600), scope
  // (string, space-delimited)"
  check('4.1.5')(
    {
      name: 'Token response: 200 JSON with access_token, token_type Bearer, expires_in 600, scope',
      needs: ['partnerA'],
    },
    async (t) => {
      const res = await plainTokenAnswer(t, 'partnerA');
      expect(res.status, res.excerpt).toBe(200);
      expectMediaType(res, 'json');
      expectSchema(res, 'TokenResponse');
      const body = res.body as { access_token: string; scope: string };
      expect(body.access_token.length, 'access_token').toBeGreaterThan(0);
      // Which names the scope string holds is 5.5a's (the eight of the endpoint table): filed there.
      claim(
        '5.5a',
        scopeSet(body.scope).every((s) => (SCOPES as readonly string[]).includes(s)),
        'scope names',
        {
          expected: SCOPES,
          actual: body.scope,
        },
      );
    },
  );

  // Spec 4.1.6: "header `Cache-Control: no-store`"
  check('4.1.6')({ name: 'The token response carries Cache-Control: no-store', needs: ['partnerA'] }, async (t) => {
    const res = await plainTokenAnswer(t, 'partnerA');
    expect(res.status, res.excerpt).toBe(200);
    const directives = (res.headers['cache-control'] ?? '').split(',').map((d) => d.trim().toLowerCase());
    expect(directives, 'Cache-Control directives').toContain('no-store');
  });

  // Spec 4.1.7: "Errors use the OAuth shape (section 7.1)."
  check('4.1.7')(
    { name: 'Token endpoint errors use the OAuth shape (7.1), not the business envelope', needs: ['partnerA'] },
    async (t) => {
      const failures = fc.record({
        secret: wrongSecrets(t, 'partnerA'),
        grantType: otherGrantTypes,
        scope: unknownScopes,
      });
      await t.forAll(
        failures,
        async ({ secret, grantType, scope }) => {
          for (const res of [
            await requestToken(t, 'partnerA', { secret }),
            await requestToken(t, 'partnerA', { grantType }),
            await requestToken(t, 'partnerA', { scope }),
          ]) {
            expect(res.status, res.excerpt).toBeGreaterThanOrEqual(400);
            expectMediaType(res, 'json');
            expectSchema(res, 'OAuthError');
          }
        },
        { numRuns: casesFor(t, 'severalRequests') },
      );
    },
  );

  // Spec 4.1.8: "Token responses are always JSON, even when business calls use XML."
  check('4.1.8')({ name: 'Asked for XML, the token endpoint still answers JSON', needs: ['partnerA'] }, async (t) => {
    const res = await requestToken(t, 'partnerA', { headers: { accept: MEDIA_TYPES.xml } });
    expect(res.status, res.excerpt).toBe(200);
    expectMediaType(res, 'json');
    expectSchema(res, 'TokenResponse');
  });

  // Spec 4.1.8 (quoted above)
  check('4.1.8')({ name: 'Asked for XML, a token endpoint error is still JSON', needs: ['partnerA'] }, async (t) => {
    const accepts = fc.constantFrom(
      MEDIA_TYPES.xml,
      'text/xml',
      `${MEDIA_TYPES.xml};charset=utf-8`,
      `${MEDIA_TYPES.xml}, */*;q=0.1`,
    );
    await t.forAll(
      fc.tuple(wrongSecrets(t, 'partnerA'), accepts),
      async ([secret, accept]) => {
        expectOAuthError(await requestToken(t, 'partnerA', { secret, headers: { accept } }), 'invalid_client');
      },
      { numRuns: casesFor(t, 'severalRequests') },
    );
  });
});
