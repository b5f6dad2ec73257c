/**
 * What a hostile case expects of the target, per spec and docs/ambiguities.md. A case either must be refused
 * with one of a few (status, code) answers, must be accepted as if it were the plain request, or is left open
 * by the spec ('unspecified', so no MUST check asserts it).
 */
import { ERROR_CODES, type ErrorCode } from '../contract/errors.ts';

import type { Level } from '../contract/vocabulary.ts';

export type { Level };

/**
 * One acceptable refusal: the HTTP status and the error codes (any one of them) of the envelope. `otherCodes`: a
 * code of the server's own (one the 7.3 table does not hold) is acceptable too at that status (spec 7.3 leaves the
 * specific code open, e.g. for an unknown field); a table code keeps its table meaning.
 */
export interface ErrorAnswer {
  readonly status: number;
  readonly codes: readonly ErrorCode[];
  readonly otherCodes?: true;
}

export interface Rejection {
  readonly reject: readonly ErrorAnswer[];
  readonly level: Level;
  /** Where the expectation comes from: spec section, RFC, ambiguity number. */
  readonly basis: string;
}

/**
 * The fault must not decide the answer: the target answers as it answers the plain rendering of the same
 * value (e.g. a prefixed XML document, a body of exactly 32,000 bytes). `mediaTypes`, when given, are the
 * response media types allowed (content negotiation, 4.13).
 */
export interface Acceptance {
  readonly accept: true;
  readonly mediaTypes?: readonly string[];
  readonly level: Level;
  readonly basis: string;
}

export type Expectation = 'unspecified' | Rejection | Acceptance;

/** A refusal with any of `codes`, grouped by their status in the code table (spec 7.3). */
export function rejectWith(level: Level, basis: string, ...codes: ErrorCode[]): Rejection {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return { reject: [...byStatus].map(([status, list]) => ({ status, codes: list })), level, basis };
}

/**
 * A refusal with `code` or any other code of the same status: spec 7.3 names no specific code beyond the generic
 * one ("the specific code … for an unknown-field rejection … not shown").
 */
export function rejectWithAnyCodeOf(level: Level, basis: string, code: ErrorCode, ...more: ErrorCode[]): Rejection {
  const codes = [code, ...more.filter((c) => ERROR_CODES[c].status === ERROR_CODES[code].status)];
  return { reject: [{ status: ERROR_CODES[code].status, codes, otherCodes: true }], level, basis };
}

export function accepted(level: Level, basis: string, mediaTypes?: readonly string[]): Acceptance {
  return mediaTypes ? { accept: true, mediaTypes, level, basis } : { accept: true, level, basis };
}

export function isRejection(expect: Expectation): expect is Rejection {
  return typeof expect === 'object' && 'reject' in expect;
}

export function isAcceptance(expect: Expectation): expect is Acceptance {
  return typeof expect === 'object' && 'accept' in expect;
}

/** Whether a refusal's status and envelope code are among the expected answers. */
export function meetsRejection(expect: Rejection, status: number, code: string | undefined): boolean {
  return expect.reject.some(
    (a) =>
      a.status === status &&
      code !== undefined &&
      ((a.codes as readonly string[]).includes(code) || (a.otherCodes === true && !Object.hasOwn(ERROR_CODES, code))),
  );
}
