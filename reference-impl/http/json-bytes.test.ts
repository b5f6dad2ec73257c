import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { asciiJson } from './ascii-json.ts';
import { jsonBytes, jsonText } from './json-bytes.ts';

const expected = (value: unknown) => asciiJson(JSON.stringify(value) ?? '');

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('jsonText', () => {
  test.prop([fc.anything({ withBoxedValues: true, withNullPrototype: true, withDate: true, withSparseArray: true })])(
    'is asciiJson(JSON.stringify(value)) for any value, exotic ones included',
    (value) => {
      expect(jsonText(value)).toBe(expected(value));
    },
  );

  test.prop([fc.jsonValue()])(
    'the same for a deeply frozen value, written twice (the second from its kept text)',
    (value) => {
      const frozen = deepFreeze(structuredClone(value));
      expect(jsonText(frozen)).toBe(expected(frozen));
      expect(jsonText({ a: frozen, b: [frozen] })).toBe(expected({ a: frozen, b: [frozen] }));
    },
  );

  it('skips what JSON.stringify skips and writes null where it does', () => {
    const value = {
      a: undefined,
      b: () => 1,
      c: Symbol('s'),
      d: [undefined, () => 1, Symbol('s'), Number.NaN, -0, 1e21],
    };
    expect(jsonText(value)).toBe(expected(value));
    expect(jsonText(undefined)).toBe('');
  });

  it('escapes every non-ASCII character and lone surrogates as JSON.stringify does', () => {
    const value = { display: '1.200.000\u00a0₫', name: 'Hồ Chí Minh', emoji: '🚗', lone: '\ud800', line: '\u2028' };
    expect(jsonText(value)).toBe(expected(value));
    expect(jsonText(value)).not.toMatch(/[\u0080-\uffff]/);
  });

  it('does not keep the text of a frozen value whose parts can still change', () => {
    const child = { n: 1 };
    const parent = Object.freeze({ child });
    expect(jsonText(parent)).toBe('{"child":{"n":1}}');
    child.n = 2;
    expect(jsonText(parent)).toBe('{"child":{"n":2}}');
    let calls = 0;
    const accessor = Object.freeze(
      Object.defineProperty({}, 'n', {
        enumerable: true,
        get: () => {
          calls += 1;
          return calls;
        },
      }),
    );
    expect(jsonText(accessor)).toBe('{"n":1}');
    expect(jsonText(accessor)).toBe('{"n":2}');
  });

  it('leaves toJSON, class instances, cycles and bigints to JSON.stringify', () => {
    const withToJson = { at: new Date(0), custom: { toJSON: (key: string) => `key:${key}` } };
    expect(jsonText(withToJson)).toBe(expected(withToJson));
    class Point {
      constructor(readonly x: number) {}
    }
    expect(jsonText({ p: new Point(1) })).toBe('{"p":{"x":1}}');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => jsonText(cycle)).toThrow(TypeError);
    expect(() => jsonText({ n: 1n })).toThrow(TypeError);
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = [deep];
    expect(jsonText(deep)).toBe(expected(deep));
  });
});

describe('jsonBytes', () => {
  it('is the text as bytes, one a character', () => {
    const value = { display: '5.000.000 ₫', n: [1, 2] };
    const bytes = jsonBytes(value);
    expect(bytes.toString('latin1')).toBe(expected(value));
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(value);
  });
});
