import { describe, expect, it } from 'vitest';
import {
  assertOptionsBounded,
  assertPhasesBounded,
  assertTargetAllowed,
  hostOf,
  isLoopbackHost,
  LoadSafetyError,
} from './safety.ts';

const target = (baseUrl: string, owned?: boolean) => ({
  baseUrl,
  clients: {},
  ...(owned === undefined ? {} : { owned }),
});

describe('load safety', () => {
  it('knows loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.10.0.2', 'localhost', 'api.localhost', '::1', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['10.0.0.1', '128.0.0.1', '127.0.0.1.example.com', 'example.com', '::2', '127.0.0.256']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
    expect(hostOf('http://[::1]:8080/x')).toBe('::1');
    expect(hostOf('https://user@Example.COM:443')).toBe('example.com');
  });

  it('refuses a non-loopback target unless the config says owned: true', () => {
    expect(() => assertTargetAllowed(target('http://127.0.0.1:8080'))).not.toThrow();
    expect(() => assertTargetAllowed(target('https://api.partner.example'))).toThrow(LoadSafetyError);
    expect(() => assertTargetAllowed(target('https://api.partner.example', false))).toThrow(/owned/);
    expect(() => assertTargetAllowed(target('https://api.partner.example', true))).not.toThrow();
    expect(() => assertTargetAllowed(target('ftp://127.0.0.1'))).toThrow(LoadSafetyError);
  });

  it('bounds duration, rate and concurrency', () => {
    expect(() => assertOptionsBounded({ rate: 10, durationS: 600 })).not.toThrow();
    expect(() => assertOptionsBounded({ rate: 10, durationS: 601 })).toThrow(/--duration/);
    expect(() => assertOptionsBounded({ rate: 0, durationS: 10 })).toThrow(/--rate/);
    expect(() => assertOptionsBounded({ rate: 2001, durationS: 10 })).toThrow(/--rate/);
    expect(() => assertOptionsBounded({ rate: Number.NaN, durationS: 10 })).toThrow(/--rate/);
    const exec = async () => {};
    expect(() =>
      assertPhasesBounded([{ name: 'p', arrival: { kind: 'constant-vus', vus: 1001, durationS: 1 }, exec }]),
    ).toThrow(/1001 VUs/);
    expect(() =>
      assertPhasesBounded([
        { name: 'p', arrival: { kind: 'per-vu-iterations', vus: 2, iterations: 3, maxDurationS: 900 }, exec },
      ]),
    ).toThrow(/duration 900/);
    expect(() =>
      assertPhasesBounded([
        { name: 'p', arrival: { kind: 'constant-arrival-rate', rate: 50, durationS: 10, maxInFlight: 10 }, exec },
      ]),
    ).not.toThrow();
  });
});
