import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactBody, redactHeaders, redactText, redactValue } from './redact.ts';
import { registerTargetSecrets, SecretRegistry } from './secrets.ts';

const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJwYSJ9.c2lnbmF0dXJl';
const SECRET = 'J6VVFh8fuRxfz0WOYeTXAjFRUKsIzEHNFbxX1SPkbxZK1C5q';

function registry(): SecretRegistry {
  const r = new SecretRegistry();
  registerTargetSecrets(
    {
      baseUrl: 'http://x.test',
      clients: { partnerA: { clientId: 'pa-client', clientSecret: SECRET } },
      hooks: { baseUrl: 'http://127.0.0.1:1/test-hooks/v1', token: 'ctl_control/token+x' },
    },
    r,
  );
  r.add(TOKEN, 'TOKEN_PARTNERA');
  return r;
}

describe('redaction', () => {
  it('keeps only the scheme of Authorization headers, whatever they hold', () => {
    const out = redactHeaders(
      { Authorization: `Bearer ${TOKEN}`, 'proxy-authorization': 'Basic abc', accept: 'application/json' },
      registry(),
    );
    expect(out).toEqual({
      Authorization: `Bearer ${REDACTED}`,
      'proxy-authorization': `Basic ${REDACTED}`,
      accept: 'application/json',
    });
    expect(redactHeaders({ authorization: 'unknown-token-without-scheme' }, registry()).authorization).toBe(REDACTED);
  });

  it('hides cookies and known secrets in any other header', () => {
    const out = redactHeaders({ cookie: 'a=b', 'x-echo': `token ${TOKEN} here` }, registry());
    expect(out).toEqual({ cookie: REDACTED, 'x-echo': `token ${REDACTED} here` });
  });

  it('hides client_id and client_secret pairs of forms, even unknown ones', () => {
    const body = 'grant_type=client_credentials&client_id=someone&client_secret=unknown-secret&scope=fleet%3Aread';
    expect(redactBody(body, new SecretRegistry())).toBe(
      `grant_type=client_credentials&client_id=${REDACTED}&client_secret=${REDACTED}&scope=fleet%3Aread`,
    );
  });

  it('hides tokens of token responses in JSON and typed XML, even unknown ones', () => {
    const json = '{"access_token":"abc\\"def","token_type":"Bearer","refresh_token":"r1"}';
    expect(redactBody(json, new SecretRegistry())).toBe(
      `{"access_token":"${REDACTED}","token_type":"Bearer","refresh_token":"${REDACTED}"}`,
    );
    const xml =
      '<response><object><property name="access_token"><string>abc</string></property>' +
      '<property name="scope"><string>fleet:read</string></property></object></response>';
    expect(redactBody(xml, new SecretRegistry())).toBe(
      `<response><object><property name="access_token"><string>${REDACTED}</string></property>` +
        '<property name="scope"><string>fleet:read</string></property></object></response>',
    );
  });

  it('hides a registered secret in its form-urlencoded spelling too', () => {
    const r = registry();
    expect(redactText(`token=${encodeURIComponent('ctl_control/token+x')}`, r)).toBe(`token=${REDACTED}`);
    expect(redactText('ctl_control/token+x', r)).toBe(REDACTED);
  });

  it('does not hide client ids outside forms and Basic credentials (they are no secret)', () => {
    expect(redactText('client pa-client', registry())).toBe('client pa-client');
  });

  it('redacts strings deep inside values, and token-named keys', () => {
    const value = { a: [`x ${SECRET}`], access_token: 'anything', nested: { ok: 1 } };
    expect(redactValue(value, registry())).toEqual({ a: [`x ${REDACTED}`], access_token: REDACTED, nested: { ok: 1 } });
    const cyclic: Record<string, unknown> = { s: SECRET };
    cyclic.self = cyclic;
    const out = redactValue(cyclic, registry()) as Record<string, unknown>;
    expect(out.s).toBe(REDACTED);
    expect(out.self).toBe(out);
  });

  // Real secrets are long and drawn from URL-safe alphabets; none is then a part of the marker "[REDACTED]".
  const secretArb = fc.stringMatching(/^[A-Za-z0-9_-]{9,64}$/);

  test.prop([secretArb, fc.string(), fc.string(), fc.integer({ min: 1, max: 3 })])(
    'a registered secret never survives in text, headers or bodies',
    (secret, before, after, times) => {
      const r = new SecretRegistry();
      r.add(secret, 'TOKEN_X');
      const text = `${before}${Array.from({ length: times }, () => secret).join(after)}${after}`;
      expect(redactText(text, r)).not.toContain(secret);
      expect(redactBody(text, r)).not.toContain(secret);
      expect(JSON.stringify(redactHeaders({ 'x-a': text, authorization: `Bearer ${secret}` }, r))).not.toContain(
        secret,
      );
    },
  );
});
