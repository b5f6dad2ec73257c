import { createSecretKey, randomBytes } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { ReservationRequest } from '../../contract/types.ts';
import { isCanonicalJws } from './canonical-jws.ts';
import { isAdultOn, requestHash } from './reservations.ts';

describe('isAdultOn (spec 2.10: 18 or over, enforced server-side)', () => {
  it('is 18 on the 18th birthday, not the day before', () => {
    expect(isAdultOn('2008-11-22', '2026-11-22')).toBe(true);
    expect(isAdultOn('2008-11-23', '2026-11-22')).toBe(false);
    expect(isAdultOn('2008-12-01', '2026-11-30')).toBe(false);
    expect(isAdultOn('1950-01-01', '2026-11-22')).toBe(true);
    expect(isAdultOn('2030-01-01', '2026-11-22')).toBe(false);
  });

  it('a 29 February birthday turns 18 on 1 March of a non-leap year', () => {
    expect(isAdultOn('2008-02-29', '2026-02-28')).toBe(false);
    expect(isAdultOn('2008-02-29', '2026-03-01')).toBe(true);
    expect(isAdultOn('2008-02-29', '2028-02-29')).toBe(true);
  });
});

describe('requestHash (spec 4.7.3: the same request, whatever its key order or representation)', () => {
  const body: ReservationRequest = {
    quoteId: 'q'.repeat(20),
    driver: {
      firstName: 'Lan',
      lastName: 'Nguyen',
      email: 'l@example.com',
      phone: '+84901234567',
      dateOfBirth: '1990-01-01',
    },
    partnerReference: 'REF-1',
  };

  it('ignores key order at every level', () => {
    const reordered = JSON.parse(
      '{"partnerReference":"REF-1","driver":{"dateOfBirth":"1990-01-01","phone":"+84901234567","email":"l@example.com","lastName":"Nguyen","firstName":"Lan"},"quoteId":"qqqqqqqqqqqqqqqqqqqq"}',
    );
    expect(requestHash(reordered)).toBe(requestHash(body));
  });

  it('tells apart bodies that differ in any value, or in a property being absent', () => {
    expect(requestHash({ ...body, remarks: '' })).not.toBe(requestHash(body));
    expect(requestHash({ ...body, partnerReference: 'REF-2' })).not.toBe(requestHash(body));
    expect(requestHash({ ...body, driver: { ...body.driver, firstName: 'Lam' } })).not.toBe(requestHash(body));
  });

  test.prop([fc.string(), fc.string()])('no two different remarks collide', (a, b) => {
    fc.pre(a !== b);
    expect(requestHash({ ...body, remarks: a })).not.toBe(requestHash({ ...body, remarks: b }));
  });
});

describe('isCanonicalJws (spec 4.7.9: a tampered quote id is QUOTE_INVALID)', () => {
  it('accepts what jose issues and rejects spare-bit variants, other shapes and non-base64url text', async () => {
    const jws = await new SignJWT({ q: { a: 1 } })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(createSecretKey(randomBytes(32)));
    expect(isCanonicalJws(jws)).toBe(true);
    const [h, p, s] = jws.split('.') as [string, string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(s.at(-1) as string);
    // 32 signature bytes use 256 of the 258 bits of 43 characters: flipping bit 0 of the last one decodes the same.
    const spare = `${h}.${p}.${s.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(spare.split('.')[2] as string, 'base64url')).toEqual(Buffer.from(s, 'base64url'));
    expect(isCanonicalJws(spare)).toBe(false);
    for (const bad of [
      `${h}.${p}`,
      `${h}.${p}.${s}.x`,
      `${h}.${p}.`,
      `${h}.${p}.${s}=`,
      `${h}.${p}.${s.slice(0, 10)}+${s.slice(11)}`,
      '',
    ]) {
      expect(isCanonicalJws(bad), bad).toBe(false);
    }
  });
});
