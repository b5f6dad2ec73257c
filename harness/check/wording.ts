import { inspect } from 'node:util';

/**
 * The one way a failure is said: what was judged, what was expected, what came back —
 * `<what>: expected <E>; got <A>`. Every failure line of a report is built here, whether it comes from a claim of the
 * check model (scope.ts, expect-api.ts) or from an assertion of a suite (plain-assertion.ts), so a reader meets one
 * shape, and never the assertion library's `expected … to be …`, where expected and actual are easily read swapped.
 *
 * A status that came back is always written `HTTP <status>` after `got` (or in the request's own words, `HTTP 409`
 * of the exchange printed under the message); an expected status never carries the `HTTP` prefix. The report test
 * (harness/report/message-audit.ts) holds every quoted `HTTP <status>` to the status of the printed exchange.
 */

const ASYMMETRIC = Symbol.for('jest.asymmetricMatcher');

/** expect.objectContaining(…) and friends, in words: what the check expected, not the matcher object. */
export const MATCHER_WORDS: Record<string, string> = {
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
export const MATCHER_NAMES = new RegExp(
  `\\b(${Object.keys(MATCHER_WORDS)
    .filter((name) => name !== 'Any' && name !== 'Anything')
    .join('|')})\\s*(?=[{[/"'\\d<…-])`,
  'g',
);

const SECRET_KEYS = /^(access_token|refresh_token|id_token|client_secret)$/;

function isAsymmetricMatcher(value: unknown): value is { sample?: unknown; toString(): string } {
  return typeof value === 'object' && value !== null && (value as { $$typeof?: unknown }).$$typeof === ASYMMETRIC;
}

function sampleText(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : inspect(value, { depth: 8, breakLength: 100 });
}

/** A value without matcher internals: each asymmetric matcher becomes a short description of what it matches. */
export function withoutMatchers(value: unknown, depth = 0): unknown {
  if (depth > 8) return value;
  if (isAsymmetricMatcher(value)) {
    const name = String(value.toString());
    const words = MATCHER_WORDS[name.replace(/<.*$/, '')] ?? name;
    if (value.sample === undefined) return new Described(words);
    if (typeof value.sample === 'function') return new Described(`${words} ${value.sample.name || 'value'}`);
    const sample =
      value.sample instanceof RegExp ? String(value.sample) : sampleText(withoutMatchers(value.sample, depth + 1));
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
export class Described {
  constructor(readonly text: string) {}
  [inspect.custom](): string {
    return `<${this.text}>`;
  }
}

/** Values longer than this are cut in the one-line message: the report shows them in full beside it. */
const MAX_INLINE_CHARS = 100;

/** A value in a message: strings quoted, the rest as a literal on one line, cut to MAX_INLINE_CHARS. */
export function inlineValue(value: unknown, max = MAX_INLINE_CHARS): string {
  if (value === undefined) return 'none';
  const plain = withoutMatchers(value);
  const text =
    typeof plain === 'string'
      ? JSON.stringify(plain)
      : inspect(plain, { depth: 3, breakLength: Number.POSITIVE_INFINITY, maxArrayLength: 12, maxStringLength: 80 });
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A status as a person reads it, with the error code or OAuth error that came with it: `404 NOT_FOUND`. */
export function statusWithCode(status: number, code?: unknown): string {
  return typeof code === 'string' && code !== '' ? `${status} ${code}` : String(status);
}

/** The answers a check accepts, statuses first: `404 NOT_FOUND`, `400 VALIDATION_ERROR or INVALID_LOCATION`. */
export function answersText(answers: readonly { status: number; code?: string }[]): string {
  const byStatus = new Map<number, string[]>();
  for (const answer of answers) {
    const codes = byStatus.get(answer.status) ?? [];
    if (answer.code !== undefined && !codes.includes(answer.code)) codes.push(answer.code);
    byStatus.set(answer.status, codes);
  }
  return [...byStatus]
    .map(([status, codes]) => (codes.length > 0 ? `${status} ${codes.join(' or ')}` : String(status)))
    .join(' or ');
}

/** What a response came back as: `HTTP 403 INSUFFICIENT_SCOPE`, `HTTP 200`. */
export function responseText(status: number, code?: unknown): string {
  return `HTTP ${statusWithCode(status, code)}`;
}

/**
 * Statuses a message line says came back: every `HTTP <status>` outside what it says was expected
 * (`expected 404 NOT_FOUND; got HTTP 403 …` quotes 403).
 */
export function quotedStatuses(line: string): number[] {
  const withoutExpected = line.replace(/\bexpected\b[^;]*/g, '');
  return [...withoutExpected.matchAll(/\bHTTP ([1-5]\d\d)\b/g)].map((match) => Number(match[1]));
}

/**
 * The status a claim says came back: its actual's (`{ status }`, or a bare status when the requirement is about
 * one), else the first its message quotes. The exchange printed under the claim must have answered it.
 */
export function statusClaimed(requirement: string, actual: unknown): number | undefined {
  if (actual !== null && typeof actual === 'object' && isStatus((actual as { status?: unknown }).status)) {
    return (actual as { status: number }).status;
  }
  if (isStatus(actual) && ABOUT_STATUS.test(requirement)) return actual;
  return quotedStatuses(requirement)[0];
}

/**
 * A text without a response body a check pasted into it (`${what}: HTTP ${res.status} ${res.text}`): the exchange
 * printed under the message shows the body whole, and a body in the message makes every answer a message of its own.
 */
export function withoutPastedBody(text: string): string {
  // A JSON object or list, or an XML document or its root: a value quoted in a message (`<null/>`, `{"a":1}`) is short.
  const pasted = /(^|[:\s])(\{"|\[\{|<\?xml|<response[\s>]|<request[\s>])/.exec(text);
  if (!pasted || text.length - pasted.index < 60) return text;
  return text
    .slice(0, pasted.index + (pasted[1]?.length ?? 0))
    .replace(/[\s:;,—-]+$/, '')
    .trim();
}

/** A message that already says what came back (or what was expected): nothing to add to it. */
const SAYS_WHAT_CAME_BACK = /(^|[\s(:;,])(got|expected|came back|answered) /;

/** A requirement about the status of an answer ("POST /quotes answers 201", "is refused (HTTP 4xx)"). */
const ABOUT_STATUS = /\b(status|answers?|answered|HTTP|refused|accepted|served|succeeds?)\b/i;

function isStatus(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;
}

/**
 * What came back, when a claim's message should say it: the answer's status and code (`{ status, code }`, the OAuth
 * `error`, or a bare number when the requirement is about a status), or a missing, null or boolean value. Other
 * values stay out of the message (the report shows them as `actual` beside it): the message is also what one
 * deviation seen on many responses is counted by, and "must be an object; got 5000000.5", "…; got 8000000.5" would
 * count as many deviations.
 */
export function gotText(actual: unknown, requirement = ''): string | undefined {
  if (actual !== null && typeof actual === 'object' && !Array.isArray(actual)) {
    const { status, code, error } = actual as { status?: unknown; code?: unknown; error?: unknown };
    if (isStatus(status)) return responseText(status, code ?? error);
  }
  if (isStatus(actual) && ABOUT_STATUS.test(requirement)) return responseText(actual);
  if (actual === undefined || actual === null || typeof actual === 'boolean') return inlineValue(actual);
  return undefined;
}

/** The one shape of a failure: `<what>: expected <E>; got <A>` (without `what` when there is nothing to name). */
export function expectedGot(what: string | undefined, expected: string, got: string): string {
  const said = `expected ${expected}; got ${got}`;
  return what ? `${what}: ${said}` : said;
}

/**
 * A claim's message as the report says it: the requirement as the check wrote it, and what came back when the
 * requirement does not say it already ("POST /quotes answers 201; got HTTP 200"). A requirement alone reads as if
 * it were what the target did ("HTTP status is 400" above an exchange that answered 200).
 */
export function claimText(requirement: string, detail: { actual?: unknown } = {}): string {
  const said = withoutPastedBody(requirement) || requirement;
  if (!('actual' in detail) || SAYS_WHAT_CAME_BACK.test(said)) return said;
  const got = gotText(detail.actual, said);
  return got === undefined ? said : `${said}; got ${got}`;
}
