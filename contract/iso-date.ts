/**
 * Calendar arithmetic on ISO dates (YYYY-MM-DD, spec 2's dates), the one copy every room uses: the generators, the
 * suites, the harness and the reference. Pure: it reads no clock, so generators anchored on a given `today` repeat
 * exactly under the same seed. Dates are computed as UTC midnights, where every day has 24 hours.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

function toUtcMs(date: string): number {
  const match = ISO_DATE.exec(date);
  if (!match) throw new RangeError(`not an ISO date (YYYY-MM-DD): ${JSON.stringify(date)}`);
  const [, y, m, d] = match;
  const ms = Date.UTC(Number(y), Number(m) - 1, Number(d));
  if (fromUtcMs(ms) !== date) throw new RangeError(`not a calendar date: ${date}`);
  return ms;
}

function fromUtcMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whether `s` is a real calendar date in YYYY-MM-DD form. */
export function isIsoDate(s: string): boolean {
  try {
    toUtcMs(s);
    return true;
  } catch {
    return false;
  }
}

export function addDays(date: string, days: number): string {
  return fromUtcMs(toUtcMs(date) + days * DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtcMs(to) - toUtcMs(from)) / DAY_MS);
}

/** The same month and day `years` earlier; 29 February becomes 28 February in a common year. */
export function yearsBefore(date: string, years: number): string {
  toUtcMs(date);
  const year = Number(date.slice(0, 4)) - years;
  const month = date.slice(5, 7);
  let day = date.slice(8, 10);
  if (month === '02' && day === '29' && !isIsoDate(`${String(year).padStart(4, '0')}-02-29`)) day = '28';
  return `${String(year).padStart(4, '0')}-${month}-${day}`;
}

/** 'HH:MM' of a minute of the day (0 to 1439). */
export function timeOfDay(minute: number): string {
  const h = Math.floor(minute / 60);
  const m = minute % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}
