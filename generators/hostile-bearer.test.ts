import fc from 'fast-check';
import { base64url, decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { isRejection, meetsRejection } from './expectations.ts';
import { bearerAttacks, foreignKey } from './hostile-bearer.ts';

const NOW = 1_900_000_000;
const [KEY] = fc.sample(foreignKey(), { seed: 11, numRuns: 1 }) as [Uint8Array];
/** The target's own secret: none of the attacks may verify under it. */
const TARGET_SECRET = new TextEncoder().encode('target-secret-of-32-bytes-or-more!!');

async function genuineHs256(): Promise<string> {
  return new SignJWT({ scope: 'fleet:read', client_id: 'partner-a' })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuedAt(NOW)
    .setExpirationTime(NOW + 600)
    .setSubject('partner-a')
    .sign(TARGET_SECRET);
}

const tokenOf = (authorization: string | null | undefined) =>
  authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined;

describe('bearerAttacks', () => {
  it('none of the tokens verifies under the target key, and each expects a 401', async () => {
    const genuine = await genuineHs256();
    await expect(jwtVerify(genuine, TARGET_SECRET, { currentDate: new Date(NOW * 1000) })).resolves.toBeDefined();
    const cases = await bearerAttacks({ key: KEY, now: NOW, genuine });
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    expect(cases.length).toBeGreaterThanOrEqual(16);
    for (const c of cases) {
      expect(isRejection(c.expect) && c.expect.reject.every((a) => a.status === 401), c.name).toBe(true);
      const token = tokenOf(c.headers.authorization);
      if (token === undefined) continue;
      await expect(jwtVerify(token, TARGET_SECRET, { currentDate: new Date(NOW * 1000) }), c.name).rejects.toThrow();
    }
  });

  it('foreign-signed tokens are well-formed JWS whose only fault is the signer (or, expired, also exp)', async () => {
    const cases = await bearerAttacks({ key: KEY, now: NOW });
    const token = (part: string) => tokenOf(cases.find((c) => c.name.includes(part))?.headers.authorization) ?? '';
    const foreign = KEY.slice(0, 32);
    const at = { currentDate: new Date(NOW * 1000) };
    await expect(jwtVerify(token('valid-looking claims'), foreign, at)).resolves.toBeDefined();
    await expect(jwtVerify(token('expired 600 s ago'), foreign, at)).rejects.toThrow(/exp/);
    await expect(
      jwtVerify(token('expired 600 s ago'), foreign, { currentDate: new Date((NOW - 900) * 1000) }),
    ).resolves.toBeDefined();
  });

  it('malformed tokens have the wrong shape; missing ones accept UNAUTHORIZED', async () => {
    const cases = await bearerAttacks({ key: KEY, now: NOW });
    const segments = (part: string) =>
      tokenOf(cases.find((c) => c.name.includes(part))?.headers.authorization)?.split('.').length;
    expect(segments('one segment')).toBe(1);
    expect(segments('two segments')).toBe(2);
    expect(segments('four segments')).toBe(4);
    const missing = cases.find((c) => c.name === 'Authorization missing');
    expect(missing?.headers.authorization).toBeNull();
    expect(missing && isRejection(missing.expect) && meetsRejection(missing.expect, 401, 'UNAUTHORIZED')).toBe(true);
    const none = tokenOf(cases.find((c) => c.name.startsWith('alg "none"'))?.headers.authorization) ?? '';
    expect(decodeProtectedHeader(none).alg).toBe('none');
  });

  it('look-alikes of a genuine token keep its header and claims but for the named change', async () => {
    const genuine = await genuineHs256();
    const [h, p] = genuine.split('.');
    const cases = await bearerAttacks({ key: KEY, now: NOW, genuine });
    const token = (part: string) => tokenOf(cases.find((c) => c.name.includes(part))?.headers.authorization) ?? '';
    const resigned = token('re-signed with a foreign key (HS256)');
    expect(resigned.split('.').slice(0, 2)).toEqual([h, p]);
    await expect(jwtVerify(resigned, KEY.slice(0, 32), { currentDate: new Date(NOW * 1000) })).resolves.toBeDefined();
    expect(token('signature removed')).toBe(`${h}.${p}.`);
    expect(token('signature altered').split('.').slice(0, 2)).toEqual([h, p]);
    expect(token('signature altered')).not.toBe(genuine);
    const tampered = JSON.parse(
      new TextDecoder().decode(base64url.decode(token('claims tampered').split('.')[1] ?? '')),
    );
    expect(tampered.exp).toBe(NOW + 600 + 86_400);
  });

  it('an asymmetric genuine token gets a same-algorithm forgery', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const genuine = await new SignJWT({ scope: 'fleet:read' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .sign(privateKey);
    const cases = await bearerAttacks({ key: KEY, now: NOW, genuine });
    const resigned = tokenOf(cases.find((c) => c.name.includes('(ES256)'))?.headers.authorization) ?? '';
    expect(decodeProtectedHeader(resigned)).toEqual({ alg: 'ES256', kid: 'k1' });
    await expect(jwtVerify(resigned, publicKey)).rejects.toThrow();
  });

  it('the same key and clock give the same HMAC cases', async () => {
    const genuine = await genuineHs256();
    const a = await bearerAttacks({ key: KEY, now: NOW, genuine });
    const b = await bearerAttacks({ key: new Uint8Array(KEY), now: NOW, genuine });
    expect(b).toEqual(a);
  });
});
