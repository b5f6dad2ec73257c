import { inspect } from 'node:util';
import { redactText, redactValue } from '../http/redact.ts';
import type { Evidence, EvidenceExchange } from './meta.ts';

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

function describe(value: unknown): string {
  const redacted = redactValue(value);
  const text = typeof redacted === 'string' ? redacted : inspect(redacted, { depth: 8, breakLength: 100 });
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
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

/** What a failed or errored check leaves for the report: the error's words, expected vs actual, the exchanges. */
export function buildEvidence(error: unknown, exchanges: EvidenceExchange[]): Evidence {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as {
    name?: string;
    message?: string;
    expected?: unknown;
    actual?: unknown;
    showDiff?: boolean;
  };
  const prefix = e.name && e.name !== 'AssertionError' && e.name !== 'Error' ? `${e.name}: ` : '';
  const evidence: Evidence = { message: redactText(`${prefix}${e.message ?? String(error)}`), exchanges };
  if ('expected' in e && e.expected !== undefined) evidence.expected = describe(e.expected);
  if ('actual' in e && e.actual !== undefined) evidence.actual = describe(e.actual);
  const property = propertyOf(e.message ?? '');
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
