import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fromStoredText, storedText } from './stored-text.ts';

const storable = (stored: string) => !stored.includes('\0') && Buffer.from(stored, 'utf8').toString('utf8') === stored;

describe('storedText', () => {
  it('keeps an ordinary string as it is', () => {
    expect(storedText('ACME-000123')).toBe('ACME-000123');
    expect(storedText('Đà Nẵng 🚗')).toBe('Đà Nẵng 🚗');
  });

  it('stores NUL, lone surrogates and the marker in a form PostgreSQL text takes', () => {
    for (const value of ['a\0b', '\uD800', 'x\uDC00', '\u0001ACME']) {
      expect(storable(storedText(value))).toBe(true);
      expect(fromStoredText(storedText(value))).toBe(value);
    }
  });

  test.prop([fc.string({ unit: 'binary' })])('round-trips and always gives storable text', (value) => {
    const stored = storedText(value);
    expect(storable(stored)).toBe(true);
    expect(fromStoredText(stored)).toBe(value);
  });

  test.prop([fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })])(
    'two strings never share a stored form',
    (a, b) => {
      fc.pre(a !== b);
      expect(storedText(a)).not.toBe(storedText(b));
    },
  );
});
