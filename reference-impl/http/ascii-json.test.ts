import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { asciiJson, scalarJson, stringJson } from './ascii-json.ts';

describe('asciiJson', () => {
  it('escapes every non-ASCII character and keeps the JSON value', () => {
    const value = { display: '1.200.000\u00a0₫', name: 'Hồ Chí Minh', emoji: '🚗', line: '\u2028' };
    const text = asciiJson(JSON.stringify(value));
    expect(text).toMatch(/^[^\u0080-\uffff]*$/);
    expect(text).toContain('\\u20ab');
    expect(text).toContain('\\ud83d\\ude97');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('returns ASCII text unchanged', () => {
    const text = JSON.stringify({ a: 'plain', b: [1, 2] });
    expect(asciiJson(text)).toBe(text);
  });
});

describe('stringJson', () => {
  it('writes a string as asciiJson(JSON.stringify(text)) does, escapes and all', () => {
    for (const text of [
      '',
      'eyJhbGci.eyJx-_.sig',
      '2027-01-24T10:30:00.000Z',
      'a"b',
      'a\\b',
      '\u0000\u001f\u007f',
      '₫',
      '\ud800',
      ' ~',
    ]) {
      expect(stringJson(text)).toBe(asciiJson(JSON.stringify(text)));
    }
  });
});

describe('scalarJson', () => {
  test.prop([fc.oneof(fc.double(), fc.integer(), fc.jsonValue(), fc.constant(undefined))])(
    'is asciiJson of JSON.stringify for any value (numbers, NaN, -0, strings, objects)',
    (value) => {
      expect(scalarJson(value)).toBe(asciiJson(JSON.stringify(value) ?? 'null'));
    },
  );
});
