/**
 * Ids shaped like real ones that name nothing (a tampered quote id, a reservation id no one was issued), and error
 * bodies compared without their requestId: what "indistinguishable from a nonexistent one" checks compare.
 */
import type { ApiResult } from '../../harness/check/check.ts';

/**
 * Where unissuedId raises an id's number: the first of its longest runs of digits (a sequence's counter rather than a
 * prefix's digit or a year: `RSV-2026-000123`), or undefined when the id has no digit.
 */
export function sequenceRun(id: string): { at: number; digits: string } | undefined {
  let best: { at: number; digits: string } | undefined;
  for (const m of id.matchAll(/[0-9]+/g)) {
    if (!best || m[0].length > best.digits.length) best = { at: m.index, digits: m[0] };
  }
  return best;
}

/**
 * An id shaped like `id` that no target was issued, whatever its ids look like (audit 2.2-R5, 4.7-R12): spec 2.2
 * leaves the formats open, and where ids are sequential (`R-1043`, `Q00012345`) an id one character off a real one
 * names another live reservation or quote of the run's own. The first digit of the id's longest number that is not a
 * 9 is raised to 9 (`R-1043` → `R-9043`, `Q00012345` → `Q90012345`, `R-9043` → `R-9943`): a number beyond the one
 * given, so beyond every id a sequence issued before it, in the same shape. A number of nines only is lengthened by a
 * leading 1 (`R-9999` → `R-19999`), as such a sequence grows next. For random or time-ordered ids (UUIDs, signed
 * tokens) this is one character changed like any other: a tampered quote id still fails its signature. An id without
 * a digit has its middle character moved on instead (alterMiddle).
 */
export function unissuedId(id: string): string {
  const run = sequenceRun(id);
  if (!run) return alterMiddle(id);
  const k = [...run.digits].findIndex((d) => d !== '9');
  const at = run.at + k;
  return k < 0 ? `${id.slice(0, run.at)}1${id.slice(run.at)}` : `${id.slice(0, at)}9${id.slice(at + 1)}`;
}

/**
 * The positions unissuedId set in `unissued` (made from `id`): the leading nines of its longest number (the raised
 * digit and those before it) and the 1 it put in front of a number of nines. Changed back, a sequential id could name
 * one issued before.
 */
export function raisedPositions(id: string, unissued: string): number[] {
  const run = sequenceRun(unissued);
  if (!run) return [];
  let end = run.at + (unissued.length > id.length ? 1 : 0);
  while (unissued[end] === '9') end += 1;
  return Array.from({ length: end - run.at }, (_, i) => run.at + i);
}

/**
 * Another string of the same length and alphabet: one character in the middle (or the nearest alphanumeric one)
 * moved to the next of its class (a digit, a-f / A-F kept hexadecimal, other letters in their case). For an id
 * without digits only (unissuedId): with digits, one character off may name another id of a sequence.
 */
export function alterMiddle(s: string): string {
  const middle = Math.floor(s.length / 2);
  for (let d = 0; d < s.length; d++) {
    for (const i of [middle + d, middle - d]) {
      const c = s[i];
      if (c === undefined) continue;
      const next = nextOfClass(c);
      if (next !== undefined) return s.slice(0, i) + next + s.slice(i + 1);
    }
  }
  return `${s}0`;
}

function nextOfClass(c: string): string | undefined {
  const rotate = (first: string, size: number) =>
    String.fromCharCode(first.charCodeAt(0) + ((c.charCodeAt(0) - first.charCodeAt(0) + 1) % size));
  if (c >= '0' && c <= '9') return rotate('0', 10);
  if (c >= 'a' && c <= 'f') return rotate('a', 6);
  if (c >= 'A' && c <= 'F') return rotate('A', 6);
  if (c >= 'a' && c <= 'z') return rotate('a', 26);
  if (c >= 'A' && c <= 'Z') return rotate('A', 26);
  return undefined;
}

/** The error object of an envelope without its requestId, with `id` replaced (a message may name the id). */
export function errorWithoutRequestId(res: ApiResult, id: string): unknown {
  const error = (res.body as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error) return undefined;
  const { requestId: _requestId, ...rest } = error;
  return JSON.parse(JSON.stringify(rest).split(id).join('<id>'));
}
