/**
 * Spec 5: OAuth 2.0 client credentials, bearer tokens on business calls, scopes, and the 401/403/503 answers.
 * Token-endpoint calls are raw (the harness's token cache is bypassed); business calls run in JSON and XML.
 */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { BOOKING_SCOPES, SCOPES } from '../contract/scopes.ts';
import { bearerAttacks, foreignKey, type HeaderCase, isRejection } from '../generators/index.ts';
import { type CheckContext, check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { bodyOf, expectError, expectOAuthError, expectOAuthStatus, expectSchema } from '../harness/check/expect-api.ts';
import { ACCEPT_OF } from '../harness/http/partner-client.ts';
import { REPRESENTATIONS } from '../harness/http/representation.ts';
import {
  credentialsOf,
  freshToken,
  grantedScopes,
  plainTokenAnswer,
  refusedJsonTokenRequest,
  requestToken,
  scopeSet,
  sharedTokenRequest,
} from './support/auth.ts';
import { malformedBearers } from './support/bearer-refusals.ts';
import { otherGrantTypes, unknownScopes, wrongSecrets } from './support/draws.ts';
import { unauthenticated } from './support/endpoint-refusals.ts';
import { tokenFill } from './support/limit-fills.ts';
import { sharedListingRead } from './support/listings.ts';
import { SCOPED_READS, scopeRefusals } from './support/scope-refusals.ts';
import { judgeSharedCases } from './support/shared-cases.ts';
import { sharedRead } from './support/shared-reads.ts';
import { canOffer, handshake, legacyOffer, plainHttpStatus, tlsEndpoint } from './support/transport.ts';

describe('5 Authentication', () => {
  // Spec 5.1: "Flow: OAuth 2.0 client credentials (RFC 6749 section 4.4). The client exchanges client_id and
  // client_secret at POST /api/partner/v1/oauth/token for a bearer token."
  check('5.1')(
    {
      name: 'Client credentials exchanged for a bearer token that business calls accept',
      needs: ['partnerA'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      // The token and the read 5.3a's check shares (sharedTokenRequest, sharedRead): asked once.
      const token = await freshToken(t, 'partnerA');
      const res = await sharedRead(t, '/locations', { token: token.access_token });
      expect(res.status, res.excerpt).toBe(200);
      expectSchema(res, 'LocationList');
    },
  );

  // Spec 5.2a: "HTTP Basic (`Authorization: Basic base64(client_id:client_secret)`, client_secret_basic, preferred)"
  check('5.2a')(
    { name: 'HTTP Basic client authentication (client_secret_basic) is accepted', needs: ['partnerA'] },
    async (t) => {
      const res = await sharedTokenRequest(t, 'partnerA', { auth: 'basic' });
      expect(res.status, res.excerpt).toBe(200);
      expectSchema(res, 'TokenResponse');
    },
  );

  // Spec 5.2b: "client_id and client_secret in the form body (client_secret_post)"
  check('5.2b')(
    { name: 'Form client authentication (client_secret_post) is accepted', needs: ['partnerA'] },
    async (t) => {
      const res = await sharedTokenRequest(t, 'partnerA', { auth: 'post' });
      expect(res.status, res.excerpt).toBe(200);
      expectSchema(res, 'TokenResponse');
    },
  );

  // Spec 5.3a: "The token is sent as `Authorization: Bearer <ACCESS_TOKEN>` on every other call."
  check('5.3a')(
    {
      name: 'Authorization: Bearer <token> authenticates every listing read',
      needs: ['partnerA'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      const token = await freshToken(t, 'partnerA');
      for (const path of ['/fleet', '/locations', '/rates']) {
        const res = await sharedRead(t, path, { token: token.access_token });
        expect(res.status, `GET ${path}: ${res.excerpt}`).toBe(200);
      }
    },
  );

  // Spec 5.3a (quoted above)
  check('5.3a')(
    {
      name: 'A genuine token without the Bearer scheme, or under another scheme, is refused: 401',
      needs: ['partnerA'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      // Every form, each one request: a token the target issued, sent bare or under a scheme other than Bearer, and
      // the client's own credentials as Basic. Which of 5.6's two codes says so is open (docs/ambiguities.md #29);
      // the case of the word Bearer stays unasserted (point 39 of docs/ambiguities.md).
      // Client credentials as Basic may also get INVALID_CLIENT ("client authentication failed", 7.3.2; the
      // INVALID_CLIENT row of docs/ambiguities.md), judged under that row as 07.03 judges it.
      const token = (await freshToken(t, 'partnerA')).access_token;
      const forms = [token, `Token ${token}`, `MAC ${token}`, `Digest ${token}`, `Negotiate ${token}`];
      for (const authorization of forms) {
        const res = await t.anonymous.get('/locations', { headers: { authorization } });
        expectError(res, ['INVALID_TOKEN', 'UNAUTHORIZED']);
      }
      const basic = await t.anonymous.get('/locations', { headers: { authorization: basicOf(t) } });
      expectError(basic, ['INVALID_TOKEN', 'UNAUTHORIZED', 'INVALID_CLIENT']);
    },
  );

  // Spec 5.3b: "Tokens are valid 600 seconds"
  check('5.3b')({ name: 'Tokens are issued for 600 seconds (expires_in)', needs: ['partnerA'] }, async (t) => {
    const token = await freshToken(t, 'partnerA');
    expect(token.expires_in).toBe(600);
  });

  // Spec 5.3b (quoted above)
  check('5.3b')(
    {
      name: 'A token is accepted until 600 seconds and refused after (INVALID_TOKEN)',
      needs: ['partnerA'],
      hooks: ['tokens.expire'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      // The 590-second side is judged by the patient path (suites/patient.test.ts), which waits the real seconds.
      const token = await freshToken(t, 'partnerA');
      const within = await t.client('partnerA').get('/locations', { token: token.access_token });
      expect(within.status, `a fresh token: ${within.excerpt}`).toBe(200);
      await t.hooks.expireTokens(credentialsOf(t, 'partnerA').clientId);
      const after = await t.client('partnerA').get('/locations', { token: token.access_token });
      expectError(after, 'INVALID_TOKEN');
    },
  );

  // Spec 5.3c: "No refresh token is issued."
  check('5.3c')({ name: 'No refresh token is issued', needs: ['partnerA'] }, async (t) => {
    const res = await plainTokenAnswer(t, 'partnerA');
    expect(res.status, res.excerpt).toBe(200);
    expect(Object.keys(bodyOf<object>(res, 'the token response'))).not.toContain('refresh_token');
  });

  // Spec 5.4a: "400 for malformed request, unsupported grant type, or requested scope beyond the grant (error
  // invalid_scope)"
  check('5.4a')({ name: 'Malformed token request (a JSON body): 400', needs: ['partnerA'] }, async (t) => {
    // A JSON body served as if it were a form is 4.13.5b's deviation (filed there, this check blocked).
    const res = await refusedJsonTokenRequest(t);
    expect(res.status, res.excerpt).toBe(400);
    expectSchema(res, 'OAuthError');
  });

  // 5.4 names only invalid_scope; the value for a grant type is RFC 6749's, expected (4.1.2 SHOULD) but not required (#30).
  // Spec 5.4a (quoted above)
  check('5.4a')({ name: 'Unsupported grant type: 400 with an OAuth error', needs: ['partnerA'] }, async (t) => {
    await t.forAll(
      otherGrantTypes,
      async (grantType) => {
        expectOAuthStatus(await requestToken(t, 'partnerA', { grantType }), [400]);
      },
      { numRuns: casesFor(t, 'request') },
    );
  });

  // Spec 5.4a (quoted above)
  check('5.4a')({ name: 'Requested scope beyond the grant: 400 invalid_scope', needs: ['partnerA'] }, async (t) => {
    // Granted scopes with one the endpoint table does not have, in any order.
    const requested = fc
      .tuple(fc.subarray([...SCOPES], { maxLength: 3 }), unknownScopes)
      .chain(([granted, extra]) => fc.shuffledSubarray([...granted, extra], { minLength: granted.length + 1 }));
    await t.forAll(
      requested,
      async (scopes) => {
        expectOAuthError(await requestToken(t, 'partnerA', { scope: scopes.join(' ') }), 'invalid_scope');
      },
      { numRuns: casesFor(t, 'request') },
    );
  });

  // Spec 5.4a (quoted above)
  check('5.4a')(
    { name: 'Booking scope requested by a client without it: 400 invalid_scope', needs: ['readOnly'] },
    async (t) => {
      const held = grantedScopes((await freshToken(t, 'readOnly')).scope);
      const missing = SCOPES.filter((s) => !held.includes(s));
      if (missing.length === 0) return t.notApplicable('the readOnly client holds every scope');
      expectOAuthError(await requestToken(t, 'readOnly', { scope: missing.join(' ') }), 'invalid_scope');
    },
  );

  // Spec 5.4b: "401 invalid_client when client authentication fails or the client or partner is not active"
  check('5.4b')({ name: 'Wrong client secret (Basic): 401 invalid_client', needs: ['partnerA'] }, async (t) => {
    await t.forAll(
      wrongSecrets(t, 'partnerA'),
      async (secret) => {
        expectOAuthError(await requestToken(t, 'partnerA', { auth: 'basic', secret }), 'invalid_client');
      },
      { numRuns: casesFor(t, 'severalRequests') },
    );
  });

  // Spec 5.4b (quoted above)
  check('5.4b')({ name: 'Wrong client secret (form): 401 invalid_client', needs: ['partnerA'] }, async (t) => {
    await t.forAll(
      wrongSecrets(t, 'partnerA'),
      async (secret) => {
        expectOAuthError(await requestToken(t, 'partnerA', { auth: 'post', secret }), 'invalid_client');
      },
      { numRuns: casesFor(t, 'severalRequests') },
    );
  });

  // Spec 5.4b (quoted above)
  check('5.4b')({ name: 'Unknown client id: 401 invalid_client', needs: ['partnerA'] }, async (t) => {
    const clientIds = fc.stringMatching(/^[a-z0-9-]{1,40}$/).map((suffix) => `cert-unknown-client-${suffix}`);
    await t.forAll(
      clientIds,
      async (clientId) => {
        expectOAuthError(await requestToken(t, 'partnerA', { clientId }), 'invalid_client');
      },
      { numRuns: casesFor(t, 'severalRequests') },
    );
  });

  // Spec 5.4b (quoted above)
  check('5.4b')(
    { name: 'No client authentication: 401 invalid_client (or 400 invalid_request)', needs: ['partnerA'] },
    async (t) => {
      // Failed client authentication is 401 invalid_client (5.4); a request without any credentials may also be
      // read as malformed (400 invalid_request, RFC 6749 5.2): both are accepted.
      expectOAuthError(await requestToken(t, 'partnerA', { auth: 'none' }), ['invalid_client', 'invalid_request']);
    },
  );

  // Spec 5.4b (quoted above)
  check('5.4b')(
    { name: 'Client of an inactive partner: 401 invalid_client', needs: ['disabledPartner'] },
    async (t) => {
      expectOAuthError(await requestToken(t, 'disabledPartner'), 'invalid_client');
    },
  );

  // Spec 5.4b (quoted above)
  check('5.4b')(
    {
      name: 'Client whose partner was disabled: 401 invalid_client',
      needs: ['partnerB'],
      hooks: ['clients.partner'],
    },
    async (t) => {
      const control = t.hooks;
      const partnerId = credentialsOf(t, 'partnerB').clientId;
      try {
        await control.setPartnerEnabled(partnerId, false);
        expectOAuthError(await requestToken(t, 'partnerB'), 'invalid_client');
      } finally {
        await control.setPartnerEnabled(partnerId, true);
      }
    },
  );

  // Spec 5.4d: "503 temporarily_unavailable."
  check('5.4d')(
    {
      name: 'API disabled: the token endpoint answers 503 temporarily_unavailable',
      needs: ['partnerA'],
      hooks: ['api.switch'],
    },
    async (t) => {
      const control = t.hooks;
      try {
        await control.setApiEnabled(false);
        expectOAuthError(await requestToken(t, 'partnerA'), 'temporarily_unavailable');
      } finally {
        await control.setApiEnabled(true);
      }
    },
  );

  // Spec 5.5a: "Scopes: fleet:read, locations:read, rates:read, availability:read, quotes:write, reservations:read,
  // reservations:write, reservations:cancel (meanings in the endpoint table)."
  check('5.5a')(
    { name: 'Tokens carry only the eight scopes of the endpoint table', needs: ['partnerA'] },
    async (t) => {
      const scope = scopeSet((await freshToken(t, 'partnerA')).scope);
      for (const s of scope) expect(SCOPES as readonly string[], `scope ${s}`).toContain(s);
    },
  );

  // Spec 5.5b: "A token carries exactly the scopes held by BOTH the API client and the partner account, limited to
  // those requested."
  check('5.5b')(
    {
      name: "A token limited to one scope opens that scope's endpoint only",
      needs: ['partnerA'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      const token = await freshToken(t, 'partnerA', 'fleet:read');
      expect(grantedScopes(token.scope)).toEqual(['fleet:read']);
      const fleet = await t.client('partnerA').get('/fleet', { token: token.access_token });
      expect(fleet.status, fleet.excerpt).toBe(200);
      const locations = await t.client('partnerA').get('/locations', { token: token.access_token });
      expectError(locations, 'INSUFFICIENT_SCOPE');
    },
  );

  // Spec 5.5b (quoted above)
  check('5.5b')(
    {
      name: 'A client without booking scopes gets none and is refused reservations',
      needs: ['readOnly'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      const token = await freshToken(t, 'readOnly');
      const held = grantedScopes(token.scope);
      if (held.includes('reservations:read')) return t.notApplicable('the readOnly client holds reservations:read');
      const res = await t.client('readOnly').get('/reservations', { token: token.access_token });
      expectError(res, 'INSUFFICIENT_SCOPE');
    },
  );

  // Spec 5.5b (quoted above)
  check('5.5b')(
    {
      name: 'A client holding the booking scopes its partner lacks gets only what both hold (narrowPartner)',
      needs: ['narrowPartner'],
    },
    async (t) => {
      // The role's client holds every scope and its partner account no reservation scope (the target config
      // says so): "omitted means everything held" is then the read and shop scopes at most.
      const held = grantedScopes((await freshToken(t, 'narrowPartner')).scope);
      expect(
        held.filter((s) => (BOOKING_SCOPES as readonly string[]).includes(s)),
        `reservation scopes of a token requested without scope (carries ${held.join(' ') || 'nothing'})`,
      ).toEqual([]);
      // A request naming scopes the partner lacks asks beyond what both hold. Whether "the grant" of 5.4 is the
      // client's or what both hold is open (docs/ambiguities.md #55): 400 invalid_scope, or a token narrowed to
      // the scopes both hold among those requested, are accepted; any reservation scope in the token is not.
      const judge = async (scopes: readonly string[]) => {
        const res = await requestToken(t, 'narrowPartner', { scope: scopes.join(' ') });
        if (res.status !== 200) return expectOAuthError(res, 'invalid_scope');
        expectSchema(res, 'TokenResponse');
        expect(
          grantedScopes((res.body as { scope?: unknown }).scope),
          `scope of a token requested with "${scopes.join(' ')}": those both hold among the requested`,
        ).toEqual(held.filter((s) => scopes.includes(s)));
      };
      await judge(SCOPES);
      // Some reservation scopes with some of those both hold, in any order.
      const requested = fc
        .tuple(fc.subarray([...BOOKING_SCOPES], { minLength: 1 }), fc.subarray(held))
        .chain(([booking, other]) =>
          fc.shuffledSubarray([...booking, ...other], { minLength: booking.length + other.length }),
        );
      await t.forAll(requested, judge, { numRuns: casesFor(t, 'request') });
    },
  );

  // Spec 5.5b (quoted above)
  check('5.5b')(
    {
      name: 'A client holding the booking scopes its partner lacks is refused reservations (narrowPartner)',
      needs: ['narrowPartner'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      // GET /reservations has no side effect: a server that wrongly serves it creates nothing.
      const token = await freshToken(t, 'narrowPartner');
      const res = await t.client('narrowPartner').get('/reservations', { token: token.access_token });
      expectError(res, 'INSUFFICIENT_SCOPE');
    },
  );

  // Spec 5.6a: "missing, malformed or expired token gives 401 (INVALID_TOKEN; UNAUTHORIZED when authentication is
  // required)"
  check('5.6a')(
    { name: 'No Authorization header: 401 (INVALID_TOKEN or UNAUTHORIZED)', representations: REPRESENTATIONS },
    async (t) => {
      // 5.6 and 7.3 name both codes for a missing token: either is accepted. The refusals 7.1.2, 7.3.1 and 4.0.2
      // judge too (endpointRefusals): sent once for the run.
      for (const operationId of ['listFleet', 'listLocations', 'listRates']) {
        expectError(await unauthenticated(t, 'catalog', operationId), ['INVALID_TOKEN', 'UNAUTHORIZED']);
      }
    },
  );

  // Spec 5.6a (quoted above)
  check('5.6a')({ name: 'Malformed bearer token: 401 INVALID_TOKEN', representations: REPRESENTATIONS }, async (t) => {
    // Strings of the bearer token alphabet that no server issued: the reads 7.3.3 judges too (bearer-refusals.ts).
    await judgeSharedCases(t, malformedBearers('in the alphabet'), casesFor(t, 'request'), ({ answer }) =>
      expectError(answer, 'INVALID_TOKEN'),
    );
  });

  // Spec 5.6a (quoted above)
  check('5.6a')(
    {
      name: 'Bearer token with characters outside the token alphabet: 401 INVALID_TOKEN, never a 5xx',
      representations: REPRESENTATIONS,
    },
    async (t) => {
      // Visible ASCII that RFC 6750's b64token does not allow, between token characters (bearer-refusals.ts): the
      // target must refuse it, not fail on it. The reads 7.3.3 judges too.
      await judgeSharedCases(t, malformedBearers('outside the alphabet'), casesFor(t, 'request'), ({ answer }) =>
        expectError(answer, 'INVALID_TOKEN'),
      );
    },
  );

  // Spec 5.6a (quoted above)
  check('5.6a')(
    {
      name: 'Forged bearer tokens (unsigned, foreign-signed, look-alikes of a genuine one) and none: 401',
      needs: ['partnerA'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      // generators/hostile-bearer.ts: a foreign key drawn per case signs the forgeries; a compact JWS the target
      // issued gets look-alikes too (an opaque token only the other cases).
      const genuine = await t.client('partnerA').token();
      const now = Math.floor(Date.now() / 1000);
      await t.forAll(
        fc.tuple(foreignKey(), fc.nat()),
        async ([key, n]) => {
          const cases = await bearerAttacks(genuine.split('.').length === 3 ? { key, now, genuine } : { key, now });
          const c = cases[n % cases.length] as HeaderCase;
          const headers: Record<string, string> = { accept: ACCEPT_OF[t.representation] };
          if (c.headers.authorization) headers.authorization = c.headers.authorization;
          // No Authorization header at all is the walks' refusal too (sharedRead): asked once.
          const res = c.headers.authorization
            ? await t.anonymous.raw({ method: 'GET', path: '/locations', headers })
            : await sharedRead(t, '/locations', { token: null });
          if (!isRejection(c.expect)) throw new Error(`${c.name}: bearerAttacks cases are refusals`);
          // Client credentials as Basic may also get INVALID_CLIENT (7.3.2; the INVALID_CLIENT row of
          // docs/ambiguities.md), as 5.3a and 7.3.2 accept it.
          const basic = /^basic\s/i.test(c.headers.authorization ?? '');
          expectError(res, [
            ...c.expect.reject.flatMap((answer) => answer.codes),
            ...(basic ? (['INVALID_CLIENT'] as const) : []),
          ]);
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 5.6a (quoted above)
  check('5.6a')(
    { name: 'Tampered bearer token: 401 INVALID_TOKEN', needs: ['partnerA'], representations: REPRESENTATIONS },
    async (t) => {
      const token = (await freshToken(t, 'partnerA')).access_token;
      // One character off anywhere in a token that was valid: never the last of a dot-separated part, whose low
      // bits a base64url decoder may drop.
      const positions = [...token].flatMap((c, i) =>
        c !== '.' && token[i + 1] !== '.' && i < token.length - 1 ? [i] : [],
      );
      positions.push(token.length - 1);
      const tampered = fc
        .tuple(
          fc.constantFrom(...positions),
          fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'),
        )
        .filter(([i, c]) => token[i] !== c && (i < token.length - 1 || c === (token.at(-1) === 'A' ? 'B' : 'A')))
        .map(([i, c]) => `${token.slice(0, i)}${c}${token.slice(i + 1)}`);
      await t.forAll(
        tampered,
        async (bad) => {
          const res = await t.anonymous.get('/locations', { token: bad });
          expectError(res, 'INVALID_TOKEN');
        },
        { numRuns: casesFor(t, 'request') },
      );
    },
  );

  // Spec 5.6a (quoted above)
  check('5.6a')(
    {
      name: 'Expired token: 401 INVALID_TOKEN',
      needs: ['partnerA'],
      hooks: ['tokens.expire'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      const token = (await freshToken(t, 'partnerA')).access_token;
      await t.hooks.expireTokens(credentialsOf(t, 'partnerA').clientId);
      const res = await t.anonymous.get('/locations', { token });
      // An expired token served is the lifetime's deviation (5.3b), filed there; 5.6a judges how it is refused.
      expectError(res, 'INVALID_TOKEN', { servedBreaks: '5.3b' });
    },
  );

  // Spec 5.6b: "valid token lacking the scope gives 403 INSUFFICIENT_SCOPE"
  check('5.6b')(
    {
      name: 'Valid token lacking the scope: 403 INSUFFICIENT_SCOPE on each listing read',
      needs: ['partnerA'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      // Every listing read, with tokens of other scopes: the reads the endpoint rows (4.0.5 to 4.0.9) and 7.3.4 judge
      // too (scope-refusals.ts), sent once for the run. Codes that exist, so the only thing wrong is the scope.
      const perRead = Math.ceil(casesFor(t, 'oneRequest') / SCOPED_READS.length);
      for (const read of SCOPED_READS) {
        await judgeSharedCases(t, scopeRefusals(read), perRead, ({ answer }) =>
          expectError(answer, 'INSUFFICIENT_SCOPE'),
        );
      }
    },
  );

  // Spec 5.6c: "inactive partner gives 403 PARTNER_DISABLED."
  check('5.6c')(
    {
      name: 'Partner made inactive: business calls answer 403 PARTNER_DISABLED',
      needs: ['partnerB'],
      hooks: ['clients.partner'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      const control = t.hooks;
      const partnerId = credentialsOf(t, 'partnerB').clientId;
      // The token is obtained while the partner is active: the token endpoint refuses inactive partners (5.4).
      const token = await t.client('partnerB').token();
      try {
        await control.setPartnerEnabled(partnerId, false);
        const res = await t.client('partnerB').get('/locations', { token });
        expectError(res, 'PARTNER_DISABLED');
      } finally {
        await control.setPartnerEnabled(partnerId, true);
      }
    },
  );

  // Not-applicable on an http:// target (applicability 'plain-http'): see docs/ambiguities.md.
  // Spec 5.7a: "Transport is HTTPS only, TLS 1.2 minimum."
  check('5.7a')(
    { name: 'HTTPS only: TLS 1.2 or later negotiated, TLS 1.0 and 1.1 refused, plain HTTP serves no 2xx' },
    async (t) => {
      const endpoint = tlsEndpoint(t.settings.target);
      // A client offering 1.2 and 1.3 (the certificate verified against the harness's trust).
      const modern = await handshake(endpoint, { minVersion: 'TLSv1.2' });
      expect(modern, 'TLS handshake offering TLS 1.2 and 1.3').toMatchObject({ ok: true });
      expect(['TLSv1.2', 'TLSv1.3'], 'negotiated TLS version').toContain(modern.ok ? modern.protocol : null);

      const unprobed: string[] = [];
      for (const version of ['TLSv1', 'TLSv1.1'] as const) {
        if (!(await canOffer(version))) {
          unprobed.push(version);
          continue;
        }
        const legacy = await handshake(endpoint, legacyOffer(version));
        expect(legacy.ok ? `accepted (${legacy.protocol})` : 'refused', `handshake offering only ${version}`).toBe(
          'refused',
        );
      }

      // The TLS port itself, and port 80 when the service is on the default HTTPS port.
      const ports = endpoint.port === 443 ? [443, 80] : [endpoint.port];
      for (const port of ports) {
        const status = await plainHttpStatus(endpoint, port);
        expect(status !== null && status >= 200 && status <= 299, `plain HTTP on port ${port} answered ${status}`).toBe(
          false,
        );
      }
      if (unprobed.length > 0) {
        t.notApplicable(
          `TLS 1.2+ and plain HTTP verified; refusal of ${unprobed.join(', ')} not observable: this Node/OpenSSL cannot offer it`,
        );
      }
    },
  );

  // Spec 5.7b: "Responses are tenant-specific."
  check('5.7b')(
    {
      name: 'Business responses are not shared-cacheable (no public or s-maxage)',
      needs: ['partnerA'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      for (const path of ['/rates', '/fleet', '/locations'] as const) {
        // The reads every check of a plain listing answer shares (sharedListingRead): the same requests, sent once.
        const res = await sharedListingRead(t, path, 'partnerA');
        expect(res.status, res.excerpt).toBe(200);
        // RFC 9111 3.5: a shared cache may store a response to an authenticated request only with one of these.
        const directives = (res.headers['cache-control'] ?? '')
          .split(',')
          .map((d) => d.trim().toLowerCase().split('=')[0]);
        expect(directives, `Cache-Control of GET ${path}`).not.toContain('public');
        expect(directives, `Cache-Control of GET ${path}`).not.toContain('s-maxage');
      }
    },
  );

  // Spec 5.8: "The partner API can be disabled per environment (503 API_DISABLED) until credentials are provisioned."
  check('5.8')(
    {
      name: 'API disabled: business calls answer 503 API_DISABLED',
      needs: ['partnerA'],
      hooks: ['api.switch'],
      representations: REPRESENTATIONS,
    },
    async (t) => {
      const control = t.hooks;
      const token = await t.client('partnerA').token();
      try {
        await control.setApiEnabled(false);
        for (const path of ['/fleet', '/locations', '/rates']) {
          expectError(await t.client('partnerA').get(path, { token }), 'API_DISABLED');
        }
      } finally {
        await control.setApiEnabled(true);
      }
    },
  );

  // Last: it exhausts the rateLimit client's token bucket for up to a minute (one fill for 8.16a and 8.16b too).
  // Spec 5.4c: "429 slow_down"
  check('5.4c')(
    {
      name: 'Token requests beyond the per-client limit: 429 slow_down',
      needs: ['rateLimit'],
      provokesLimits: true,
      timeoutMs: 150_000,
    },
    async (t) => {
      // A ceiling too high to reach at the run's pace is not judged, never a check timed out (spec 8: ceilings not shown).
      const { limited, bound } = await tokenFill(t);
      if (!limited) return t.notApplicable(`no 429 ${bound} of one client's token requests: the ceiling is higher`);
      expectOAuthError(limited, 'slow_down');
    },
  );
});

function basicOf(t: CheckContext): string {
  const { clientId, clientSecret } = credentialsOf(t, 'partnerA');
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
}
