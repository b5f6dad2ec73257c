import { describe, expect, it } from 'vitest';
import { isIsoDate, isLive, parseWaivers, WaiverFileError } from './waivers.ts';

describe('parseWaivers', () => {
  it('accepts a list of { clause, reason, expires }', () => {
    const waivers = [{ clause: '4.7.3', reason: 'ticket 12', expires: '2025-12-31' }];
    expect(parseWaivers(JSON.parse(JSON.stringify(waivers)))).toEqual(waivers);
    expect(parseWaivers([])).toEqual([]);
  });

  it.each([
    [{}, 'must hold a JSON array'],
    [[null], 'must be an object'],
    [[{ clause: '4.7.3', reason: 'r', expires: '2025-12-31', owner: 'x' }], 'unknown field(s) owner'],
    [[{ clause: '', reason: 'r', expires: '2025-12-31' }], '.clause'],
    [[{ clause: '4.99.1', reason: 'r', expires: '2025-12-31' }], '4.99.1 is not a clause'],
    [[{ clause: '4.7.3', reason: ' ', expires: '2025-12-31' }], '.reason'],
    [[{ clause: '4.7.3', reason: 'r', expires: '2025-02-30' }], '.expires'],
    [[{ clause: '4.7.3', reason: 'r', expires: '31.12.2025' }], '.expires'],
  ])('refuses %j', (value, message) => {
    expect(() => parseWaivers(value)).toThrow(WaiverFileError);
    expect(() => parseWaivers(value)).toThrow(message);
  });
});

describe('waiver dates', () => {
  it('knows calendar dates', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(isIsoDate('2025-1-01')).toBe(false);
  });

  it('keeps a waiver live through its expiry day', () => {
    const waiver = { clause: '4.7.3', reason: 'r', expires: '2025-06-01' };
    expect(isLive(waiver, '2025-05-31')).toBe(true);
    expect(isLive(waiver, '2025-06-01')).toBe(true);
    expect(isLive(waiver, '2025-06-02')).toBe(false);
  });
});
