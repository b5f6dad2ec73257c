/**
 * Dates, times and zones as spec 2 writes them: quote validity (30 minutes, judged on the target's clock), local
 * date-times without an offset (2.4, 2.9), IANA zones (2.6).
 */
import { expect } from 'vitest';
import { LIMITS } from '../../contract/limits.ts';
import type { ApiResult } from '../../harness/check/check.ts';

const THIRTY_MINUTES_MS = LIMITS.quoteValidityMinutes * 60_000;
/** Slack around "30 minutes" for the second resolution of Date and a slow exchange. */
const EXPIRY_SLACK_MS = 90_000;

/** Milliseconds from the response's Date (the target's clock) to `iso`; the local clock when Date is absent. */
export function msAfterResponse(res: ApiResult, iso: string): number {
  const date = Date.parse(res.headers.date ?? '');
  return Date.parse(iso) - (Number.isNaN(date) ? Date.now() : date);
}

/** `iso` lies 30 minutes (± 90 s) after the response's Date (spec 2.8, 2.9: a quote is valid 30 minutes). */
export function expectAboutThirtyMinutes(res: ApiResult, iso: string, what: string): void {
  const ms = msAfterResponse(res, iso);
  expect(
    Math.abs(ms - THIRTY_MINUTES_MS),
    `${what} ${iso} is ${Math.round(ms / 1000)} s after the response's Date (spec: valid 30 minutes)`,
  ).toBeLessThanOrEqual(EXPIRY_SLACK_MS);
}

/**
 * `${date}T${time}` with or without seconds (and a fraction of them, all zero), and no offset (spec 2.9, 2.12: local
 * date-time without offset): `10:00`, `10:00:00` and `10:00:00.000` name the same minute.
 */
export function expectLocalDateTime(actual: string, date: string, time: string, what: string): void {
  const sameMinute =
    actual.startsWith(`${date}T${time}`) && /^(:00(\.0+)?)?$/.test(actual.slice(date.length + 1 + time.length));
  expect(sameMinute, `${what} ${actual} is ${date}T${time} (local date-time without offset)`).toBe(true);
}

/** A quote's rental restates the requested window as local date-times without offset (spec 2.4.9, 2.9.6). */
export function expectRentalWindow(
  rental: { pickupDateTime: string; dropoffDateTime: string },
  request: { pickupDate: string; pickupTime: string; dropoffDate: string; dropoffTime: string },
): void {
  expectLocalDateTime(rental.pickupDateTime, request.pickupDate, request.pickupTime, 'rental.pickupDateTime');
  expectLocalDateTime(rental.dropoffDateTime, request.dropoffDate, request.dropoffTime, 'rental.dropoffDateTime');
}

/** A zone name of the IANA database (as the runtime knows it, or Area/Location shaped and accepted by Intl). */
export function isIanaZone(zone: string): boolean {
  if (Intl.supportedValuesOf('timeZone').includes(zone) || zone === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return /^[A-Za-z]+(\/[A-Za-z0-9_+-]+)+$/.test(zone);
  } catch {
    return false;
  }
}
