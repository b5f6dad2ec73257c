import { inspect } from 'node:util';
import { redactText, redactValue } from '../http/redact.ts';
import type { Evidence, EvidenceExchange } from './outcome-and-evidence.ts';

const MAX_VALUE_CHARS = 10_000;

/** An expect() failure (vitest's AssertionError), or a fast-check property that failed on one. */
export function isAssertionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { name?: unknown; message?: unknown; cause?: unknown };
  if (e.name === 'AssertionError') return true;
  if (typeof e.message === 'string' && e.message.startsWith('Property failed')) {
    // fast-check keeps the failing run's error as the cause: a harness error inside a property stays an error.
    return e.cause === undefined || isAssertionFailure(e.cause);
  }
  return false;
}

const ASYMMETRIC = Symbol.for('jest.asymmetricMatcher');

/** expect.objectContaining(…) and friends, in words: what the check expected, not the matcher object. */
const MATCHER_WORDS: Record<string, string> = {
  ObjectContaining: 'an object containing',
  ObjectNotContaining: 'an object not containing',
  ArrayContaining: 'an array containing',
  ArrayNotContaining: 'an array not containing',
  StringContaining: 'a string containing',
  StringNotContaining: 'a string not containing',
  StringMatching: 'a string matching',
  StringNotMatching: 'a string not matching',
  CloseTo: 'a number close to',
  NotCloseTo: 'a number not close to',
  Any: 'any',
  Anything: 'anything',
  SchemaMatching: 'a value matching the schema',
};

/** Matcher names as vitest prints them in a message ("to deeply equal ObjectContaining{…}"). */
const MATCHER_NAMES = new RegExp(
  `\\b(${Object.keys(MATCHER_WORDS)
    .filter((name) => name !== 'Any' && name !== 'Anything')
    .join('|')})\\s*(?=[{[/"'\\d<…-])`,
  'g',
);

const SECRET_KEYS = /^(access_token|refresh_token|id_token|client_secret)$/;

function isAsymmetricMatcher(value: unknown): value is { sample?: unknown; toString(): string } {
  return typeof value === 'object' && value !== null && (value as { $$typeof?: unknown }).$$typeof === ASYMMETRIC;
}

/** A value without matcher internals: each asymmetric matcher becomes a short description of what it matches. */
function withoutMatchers(value: unknown, depth = 0): unknown {
  if (depth > 8) return value;
  if (isAsymmetricMatcher(value)) {
    const name = String(value.toString());
    const words = MATCHER_WORDS[name.replace(/<.*$/, '')] ?? name;
    if (value.sample === undefined) return new Described(words);
    if (typeof value.sample === 'function') return new Described(`${words} ${value.sample.name || 'value'}`);
    const sample =
      value.sample instanceof RegExp ? String(value.sample) : describeValue(withoutMatchers(value.sample, depth + 1));
    return new Described(`${words} ${sample}`);
  }
  if (Array.isArray(value)) return value.map((item) => withoutMatchers(item, depth + 1));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        SECRET_KEYS.test(key) && typeof item === 'string' ? '[REDACTED]' : withoutMatchers(item, depth + 1),
      ]),
    );
  }
  return value;
}

/** Printed as its text, unquoted (inspect's custom hook). */
class Described {
  constructor(readonly text: string) {}
  [inspect.custom](): string {
    return `<${this.text}>`;
  }
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

/** What a failed or errored check leaves for the report: the error's words, expected vs actual, the exchanges. */
export function buildEvidence(error: unknown, exchanges: EvidenceExchange[]): Evidence {
  const outer = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as ErrorLike;
  const e = innermost(outer);
  const name = e.name ?? '';
  // Our own harness errors and plain assertions need no class name; anything else (TypeError) keeps it.
  const prefix =
    name && !['AssertionError', 'Error', 'TargetUnreachableError', 'ProfileViolation'].includes(name)
      ? `${name}: `
      : '';
  const evidence: Evidence = { message: redactText(plainMessage(`${prefix}${e.message ?? String(error)}`)), exchanges };
  if ('expected' in e && e.expected !== undefined) evidence.expected = describeValue(e.expected);
  if ('actual' in e && e.actual !== undefined) evidence.actual = describeValue(e.actual);
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
