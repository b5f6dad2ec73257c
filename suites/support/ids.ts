/**
 * Ids shaped like real ones that name nothing (a tampered quote id, a reservation id one character off), and error
 * bodies compared without their requestId: what "indistinguishable from a nonexistent one" checks compare.
 */
import type { ApiResult } from '../../harness/check/check.ts';
import { isObject } from './schema-walk.ts';

/**
 * Another string of the same length and alphabet: one character in the middle (or the nearest alphanumeric one)
 * moved to the next of its class (a digit, a-f / A-F kept hexadecimal, other letters in their case). A tampered
 * quote id, or an id that does not exist, shaped like a real one.
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

/** An id of the same length and character classes as `id` that differs in its last character. */
export function siblingId(id: string): string {
  const last = id.at(-1) ?? '0';
  const next = /[0-9]/.test(last)
    ? String((Number(last) + 1) % 10)
    : /[a-z]/.test(last)
      ? last === 'z'
        ? 'a'
        : String.fromCharCode(last.charCodeAt(0) + 1)
      : /[A-Z]/.test(last)
        ? last === 'Z'
          ? 'A'
          : String.fromCharCode(last.charCodeAt(0) + 1)
        : '0';
  return id.slice(0, -1) + next;
}

/** An error body with its requestId blanked: what "indistinguishable but for the requestId" compares. */
export function withoutRequestId(body: unknown): unknown {
  if (!isObject(body) || !isObject(body.error)) return body;
  const { requestId: _ignored, ...rest } = body.error;
  return { ...body, error: rest };
}
