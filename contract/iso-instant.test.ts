import { describe, expect, it } from 'vitest';
import { isoInstantMs } from './iso-instant.ts';

describe('isoInstantMs: the ISO 8601 instants an X-RateLimit-Reset may be written as (spec 8.14)', () => {
  const instant = Date.UTC(2026, 10, 29, 10, 15, 0);

  it('reads the extended and the basic format, with or without seconds and a fraction, in any zone', () => {
    expect(isoInstantMs('2026-11-29T10:15:00Z')).toBe(instant);
    expect(isoInstantMs('2026-11-29T10:15Z')).toBe(instant);
    expect(isoInstantMs('2026-11-29T17:15:00+07:00')).toBe(instant);
    expect(isoInstantMs('20261129T101500Z')).toBe(instant);
    expect(isoInstantMs('20261129T171500+0700')).toBe(instant);
    expect(isoInstantMs('20261129T101500.250Z')).toBe(instant + 250);
    expect(isoInstantMs('2026-11-29T10:15:00,5Z')).toBe(instant + 500);
  });

  it('refuses epoch seconds, a time without a zone and a day that does not exist', () => {
    expect(isoInstantMs('1795947300')).toBeUndefined();
    expect(isoInstantMs('2026-11-29T10:15:00')).toBeUndefined();
    expect(isoInstantMs('2026-02-30T10:15:00Z')).toBeUndefined();
  });
});
