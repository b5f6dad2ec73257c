import { inspect } from 'node:util';
import { redactText, redactValue } from '../http/redact.ts';
import { assertionFactsOf } from './assertion-facts.ts';
import type { Evidence, EvidenceExchange } from './outcome-and-evidence.ts';
import { factsFromMessage, plainAssertion, type Shown } from './plain-assertion.ts';
import { Described, MATCHER_NAMES, MATCHER_WORDS, withoutMatchers } from './wording.ts';

const MAX_VALUE_CHARS = 10_000;

/** An expect() failure (vitest's AssertionError), or a fast-check property that failed on one. */
/**
 * vitest's matchers refuse a received value of another type than they compare (`.toMatch() expects to receive a
 * string, but got number`) with a TypeError before any assertion. The value is the target's (a code sent as a
 * number), so it is judged as the failed assertion it stands for, never a harness error.
 */
const MATCHER_TYPE = /^\.(to\w+)\(\) expects to receive an? (\w+), but got (\w+)/;

/** The matcher, the type it compares and the type it was given, when `error` is such a refusal. */
export function matcherTypeMismatch(error: unknown): { matcher: string; expected: string; got: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { name?: unknown; message?: unknown };
  if (e.name !== 'TypeError' || typeof e.message !== 'string') return undefined;
  const m = MATCHER_TYPE.exec(e.message);
  return m ? { matcher: m[1] ?? '', expected: m[2] ?? '', got: m[3] ?? '' } : undefined;
}

export function isAssertionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { name?: unknown; message?: unknown; cause?: unknown };
  if (e.name === 'AssertionError' || matcherTypeMismatch(error)) return true;
  if (typeof e.message === 'string' && e.message.startsWith('Property failed')) {
    // fast-check keeps the failing run's error as the cause: a harness error inside a property stays an error.
    return e.cause === undefined || isAssertionFailure(e.cause);
  }
  return false;
}

/** A plain value as the report shows expected and actual: strings quoted, objects as literals, matchers in words. */
export function describeValue(value: unknown): string {
  // Matchers first (redaction would copy them into plain objects); known secrets are removed from the text after.
  const plain = withoutMatchers(value);
  const text = redactText(
    plain instanceof Described
      ? `<${plain.text}>`
      : typeof plain === 'string'
        ? JSON.stringify(plain)
        : inspect(plain, { depth: 8, breakLength: 100 }),
  );
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

/**
 * A message as a person reads it: the test framework's own wording removed (vitest's "// Object.is equality",
 * fast-check's "Hint:" lines and its "Property failed after N tests" preamble, matcher internals).
 */
export function plainMessage(message: string): string {
  return message
    .split('\n')
    .filter((line) => !/^\s*Hint: /.test(line))
    .join('\n')
    .replace(/\s*\/\/ (Object\.is|deep|strict) equality/g, '')
    .replace(/'?\$\$typeof'?: Symbol\(jest\.asymmetricMatcher\),?\s*/g, '')
    .replace(/\s*inverse: false,?/g, '')
    .replace(/Symbol\(jest\.asymmetricMatcher\)/g, 'matcher')
    .replace(/\basymmetricMatcher\b/g, 'matcher')
    .replace(MATCHER_NAMES, (_, name: string) => `${MATCHER_WORDS[name] ?? name} `)
    .trimEnd();
}

/** fast-check's report: "{ seed: -123, path: "0:1", endOnFailure: true }" and "Counterexample: …". */
function propertyOf(message: string): Evidence['property'] {
  const seed = /seed: (-?\d+)/.exec(message)?.[1];
  if (seed === undefined) return undefined;
  const property: NonNullable<Evidence['property']> = { seed: Number(seed) };
  const path = /path: "([^"]*)"/.exec(message)?.[1];
  if (path !== undefined) property.path = path;
  const counterexample = /Counterexample: (.*)/.exec(message)?.[1];
  if (counterexample !== undefined) property.counterexample = redactText(counterexample);
  return property;
}

interface ErrorLike {
  name?: string;
  message?: string;
  expected?: unknown;
  actual?: unknown;
  cause?: unknown;
}

/**
 * The error that says what went wrong: a fast-check property failure wraps the failing case's error in its cause
 * (its own message is a run summary), so the cause speaks for it. "Got error:" lines cover versions without cause.
 */
function innermost(error: ErrorLike): ErrorLike {
  if (typeof error.message === 'string' && error.message.startsWith('Property failed')) {
    if (typeof error.cause === 'object' && error.cause !== null) return error.cause as ErrorLike;
    const got = /\nGot (?:error: )?(.+)/.exec(error.message)?.[1];
    if (got) return { message: got };
  }
  return error;
}

function shown(side: Shown): string {
  return 'words' in side ? side.words : describeValue(side.value);
}

/**
 * The exchanges with the one the failure is about last, where every renderer looks for it (the report marks the
 * last as the failing exchange): the others keep their order. One no longer recorded (a check keeps its last 40) is
 * added.
 */
function failingLast(exchanges: EvidenceExchange[], failing: EvidenceExchange | undefined): EvidenceExchange[] {
  if (!failing || exchanges.at(-1) === failing) return exchanges;
  return [...exchanges.filter((exchange) => exchange !== failing), failing];
}

/**
 * What a failed or errored check leaves for the report: the failure in plain words (wording.ts: what was judged,
 * expected, what came back), expected vs actual, the exchanges with the one the failure is about last.
 * `requirement` (the check's name) names what was judged when a suite's assertion carries no label.
 */
export function buildEvidence(error: unknown, exchanges: EvidenceExchange[], requirement?: string): Evidence {
  const outer = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as ErrorLike;
  const e = innermost(outer);
  const name = e.name ?? '';
  // Our own harness errors and plain assertions need no class name; anything else (TypeError) keeps it.
  const prefix =
    name && !['AssertionError', 'Error', 'TargetUnreachableError', 'ProfileViolation'].includes(name)
      ? `${name}: `
      : '';
  // Facts recorded when the assertion failed (assertion-facts.ts), else read back from the library's sentence.
  const facts = assertionFactsOf(e) ?? factsFromMessage(e);
  const plain = facts ? plainAssertion(facts, exchanges, requirement) : undefined;
  const failing = plain?.exchange ?? (e as { exchange?: EvidenceExchange }).exchange;
  const mismatch = matcherTypeMismatch(e);
  const said = mismatch
    ? `${requirement ? `${requirement}: ` : ''}expected a ${mismatch.expected}; got a ${mismatch.got}`
    : `${prefix}${e.message ?? String(error)}`;
  const evidence: Evidence = {
    message: redactText(plainMessage(plain ? plain.message : said)),
    exchanges: failingLast(exchanges, failing),
  };
  if (plain) {
    if (plain.expected) evidence.expected = shown(plain.expected);
    if (plain.actual) evidence.actual = shown(plain.actual);
  } else {
    if ('expected' in e && e.expected !== undefined) evidence.expected = describeValue(e.expected);
    if ('actual' in e && e.actual !== undefined) evidence.actual = describeValue(e.actual);
  }
  const property = propertyOf(outer.message ?? '');
  if (property) evidence.property = property;
  return evidence;
}

/**
 * Removes secrets from an error before vitest prints or serializes it (the reporter and JUnit may show it):
 * message, stack, and the assertion's actual and expected values.
 */
export function scrubError(error: unknown, depth = 0): void {
  if (typeof error !== 'object' || error === null || depth > 5) return;
  const e = error as { message?: unknown; stack?: unknown; actual?: unknown; expected?: unknown; cause?: unknown };
  try {
    if (typeof e.message === 'string') e.message = redactText(e.message);
    if (typeof e.stack === 'string') e.stack = redactText(e.stack);
    if ('actual' in e) e.actual = redactValue(e.actual);
    if ('expected' in e) e.expected = redactValue(e.expected);
    if (e.cause !== undefined && e.cause !== error) scrubError(e.cause, depth + 1);
  } catch {
    // A frozen or exotic error: its text was already redacted into the evidence.
  }
}
