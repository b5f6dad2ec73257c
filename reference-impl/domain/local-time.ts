/**
 * Local dates and times of a location's IANA zone (spec 2.4). Vietnam has no daylight saving today, but the
 * conversion is zone-generic so a local time that does not exist (a DST gap) is reported as invalid.
 */

const partFormats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormats.set(timeZone, format);
  }
  return format;
}

export interface LocalParts {
  date: string; // YYYY-MM-DD
  time: string; // HH:MM
  seconds: string; // SS
}

export function localPartsOf(epochMs: number, timeZone: string): LocalParts {
  const parts: Record<string, string> = {};
  for (const p of formatFor(timeZone).formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    seconds: parts.second ?? '00',
  };
}

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const TIME = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;

/**
 * Results of localToEpochMs, bounded: each conversion formats three times through Intl (a fifth of a quote's time in
 * docs/measurements/bench-2026-11-24-to-29.md "Profile findings"), and a run asks for the same few windows over and over; zone rules never change
 * in a process.
 */
const epochMemo = new Map<string, number | null>();
const EPOCH_MEMO_MAX = 4096;

/** Epoch ms of a local date and time in the zone, or null when the date or time does not exist there. */
export function localToEpochMs(date: string, time: string, timeZone: string): number | null {
  const key = `${date}T${time}@${timeZone}`;
  const known = epochMemo.get(key);
  if (known !== undefined) return known;
  const value = convertLocalToEpochMs(date, time, timeZone);
  if (epochMemo.size >= EPOCH_MEMO_MAX) epochMemo.clear();
  epochMemo.set(key, value);
  return value;
}

/** The local date at an instant in the zone, remembered per zone for the minute it was asked in. */
const dateMemo = new Map<string, { minute: number; date: string }>();

export function localDateOf(epochMs: number, timeZone: string): string {
  // Zone offsets are whole minutes, so the local date cannot change within a UTC minute.
  const minute = Math.floor(epochMs / 60_000);
  const known = dateMemo.get(timeZone);
  if (known?.minute === minute) return known.date;
  const date = localPartsOf(epochMs, timeZone).date;
  dateMemo.set(timeZone, { minute, date });
  return date;
}

function convertLocalToEpochMs(date: string, time: string, timeZone: string): number | null {
  const d = DATE.exec(date);
  const t = TIME.exec(time);
  if (!d || !t) return null;
  const [y, m, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  const [h, min] = [Number(t[1]), Number(t[2])];
  const asUtc = Date.UTC(y, m - 1, day, h, min);
  const check = new Date(asUtc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== day) return null;
  // Two passes find the offset in force at that local time; a result that formats back differently is a gap.
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const local = localPartsOf(guess, timeZone);
    const localAsUtc = Date.parse(`${local.date}T${local.time}:${local.seconds}Z`);
    guess = asUtc - (localAsUtc - guess);
  }
  const back = localPartsOf(guess, timeZone);
  return back.date === date && back.time === time ? guess : null;
}

/** `YYYY-MM-DDTHH:MM:00`: local date-time without offset, as the responses carry it (spec 2.9, 2.12). */
export function localDateTime(date: string, time: string): string {
  return `${date}T${time}:00`;
}

const DAY_MS = 86_400_000;

/** The operator counts started 24-hour periods, at least one (the spec leaves the rule open, 2.8). */
export function rentalDaysBetween(pickupMs: number, dropoffMs: number): number {
  return Math.max(1, Math.ceil((dropoffMs - pickupMs) / DAY_MS));
}
