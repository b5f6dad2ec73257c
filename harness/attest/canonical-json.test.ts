import { describe, expect, test } from 'vitest';
import { canonicalJson } from './canonical-json.ts';

describe('canonical JSON (RFC 8785)', () => {
  test("the RFC's own example (3.2.2): literals, numbers and strings as JCS writes them", () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  test('keys sorted by UTF-16 code units at every depth (RFC 8785 3.2.3), arrays kept in order', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    // Read off the text: JSON.parse would put the integer-like key first again.
    expect([...canonicalJson(input).matchAll(/:"([^"]+)"/g)].map((m) => m[1])).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
    expect(canonicalJson({ b: [3, { d: 1, c: 2 }], a: undefined })).toBe('{"b":[3,{"c":2,"d":1}]}');
  });

  test('what JSON cannot hold is refused, not written as null', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/NaN/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/not a JSON value/);
  });
});
