/**
 * ISO 8601 instants as a server may write them in X-RateLimit-Reset (spec 8.14: "an ISO 8601 timestamp, not epoch
 * seconds"): extended or basic format, reduced precision, a fraction. Date.parse reads only the extended form. Read
 * by the harness's rate-limit model, the limit checks and the load scenarios alike (no Node API: k6 runs it too).
 */
/**
 * ISO 8601 date-times that name an instant (a zone designator): the extended format (2026-11-29T10:15:00Z, RFC 3339)
 * or the basic one (20261129T101500Z), seconds optional (reduced precision, 10:15Z), a decimal fraction of the last
 * unit given with `.` or `,`, a zone of Z, ±hh, ±hh:mm (extended) or ±hhmm (basic). Epoch seconds match neither.
 * Spec 8.14 names "an ISO 8601 timestamp", not RFC 3339's profile of it (audit 8-R5; docs/ambiguities.md S-RL7).
 */
const ISO_EXTENDED = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(?:[.,](\d+))?(Z|[+-]\d{2}(?::\d{2})?)$/;
const ISO_BASIC = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?(?:[.,](\d+))?(Z|[+-]\d{2}(?:\d{2})?)$/;

/** An ISO 8601 instant (ISO_EXTENDED or ISO_BASIC) in epoch ms, or undefined when it is not one or names no real time. */
export function isoInstantMs(value: string): number | undefined {
  const m = ISO_EXTENDED.exec(value) ?? ISO_BASIC.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec, fraction, zone] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string | undefined,
    string | undefined,
    string,
  ];
  const [year, month, day, hour, minute] = [y, mo, d, h, mi].map(Number) as [number, number, number, number, number];
  const second = sec === undefined ? 0 : Number(sec);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  // The fraction belongs to the last unit written: seconds, or minutes under reduced precision.
  const unitMs = sec === undefined ? 60_000 : 1_000;
  const fractionMs = fraction === undefined ? 0 : Number(`0.${fraction}`) * unitMs;
  const local = Date.UTC(year, month - 1, day, hour, minute, second) + fractionMs;
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
  const z = zone;
  if (z === 'Z') return local;
  const digits = z.slice(1).replace(':', '');
  const offsetMin = Number(digits.slice(0, 2)) * 60 + (digits.length > 2 ? Number(digits.slice(2, 4)) : 0);
  if (offsetMin > 18 * 60) return undefined;
  return local - (z.startsWith('-') ? -1 : 1) * offsetMin * 60_000;
}
