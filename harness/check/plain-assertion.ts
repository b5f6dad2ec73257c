import type { AssertionFacts } from './assertion-facts.ts';
import type { EvidenceExchange } from './outcome-and-evidence.ts';
import { expectedGot, inlineValue, responseText, withoutPastedBody } from './wording.ts';

/**
 * A suite's failed `expect(…)` in the report's one shape (wording.ts): `<what>: expected <E>; got <A>`, with the
 * exchange it was about. vitest's own sentence ("expected [ 'a', 'b' ] to include 'c'") names the list of allowed
 * values as the actual and the value that came back as the expected; here each side is named for what it is.
 */

/** A side of the comparison: a value (the report prints it) or words (what was expected, said as a rule). */
export type Shown = { value: unknown } | { words: string };

export interface PlainFailure {
  message: string;
  expected?: Shown;
  actual?: Shown;
  /** The exchange the assertion was about: the report prints it as the failing one. */
  exchange?: EvidenceExchange;
}

function isStatus(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;
}

const EQUALITY = new Set(['toBe', 'toEqual', 'toStrictEqual', 'equal', 'equals', 'eq', 'eql']);

/** The matcher of the facts: vitest's name, else the verb of chai's template. */
function matcherOf(facts: AssertionFacts): string {
  if (facts.matcher && facts.matcher !== 'toContain' && facts.matcher !== 'toHaveLength') return facts.matcher;
  const verb = /#\{this\} (?:not |to not |to be not )?(?:to )?(.*?)(?: #\{exp\}| but got|$|,| '|")/.exec(
    facts.template,
  );
  const words = verb?.[1] ?? '';
  if (/include|contain/.test(words) || facts.matcher === 'toContain') return 'toContain';
  if (/length|size/.test(words) || facts.matcher === 'toHaveLength') return 'toHaveLength';
  if (/have property/.test(words)) return 'toHaveProperty';
  if (/instance/.test(words)) return 'toBeInstanceOf';
  if (/deeply equal|deep equal|strictly equal|equal/.test(words)) return 'toEqual';
  return facts.matcher ?? words;
}

/** The item of a `to include` / `to contain` assertion: chai leaves it out of `expected`, in its template only. */
function containedItem(facts: AssertionFacts): { text: string; raw?: unknown } {
  if (facts.expected !== undefined) return { text: inlineValue(facts.expected), raw: facts.expected };
  const text = /(?:include|contain) (.*)$/s.exec(facts.template)?.[1]?.trim() ?? 'the item';
  const quoted = /^(['"])(.*)\1$/s.exec(text);
  return quoted ? { text: JSON.stringify(quoted[2]), raw: quoted[2] } : { text };
}

/** The request a label names at its start (`GET /fleet vehicles[3]`, `POST /availability: …`), if any. */
function requestOf(label: string | undefined): { method: string; path: string } | undefined {
  const match = label ? /^(GET|POST|PATCH|PUT|DELETE) (\/[^\s:?]*)/.exec(label) : null;
  return match ? { method: match[1] as string, path: match[2] as string } : undefined;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/**
 * The exchange the assertion is about: the last one before it failed, unless the label names another request
 * (a check judging a listing it read before, `GET /fleet vehicles[3]`) or a status (`HTTP 409`, or the status the
 * assertion compared): then the latest exchange up to then that was that request and answered that status. A check
 * that sent several requests at once judges each after all came back.
 */
function exchangeFor(
  facts: AssertionFacts,
  exchanges: readonly EvidenceExchange[],
  status: number | undefined,
): EvidenceExchange | undefined {
  const at = facts.exchange ? exchanges.indexOf(facts.exchange) : -1;
  const upTo = at === -1 ? exchanges : exchanges.slice(0, at + 1);
  const base = facts.exchange ?? exchanges.at(-1);
  const request = requestOf(facts.label);
  const fits = (exchange: EvidenceExchange, byRequest: boolean, byStatus: boolean) =>
    (!byRequest ||
      request === undefined ||
      (exchange.request.method === request.method && pathOf(exchange.request.url).endsWith(request.path))) &&
    (!byStatus || status === undefined || exchange.response?.status === status);
  const latest = (list: readonly EvidenceExchange[], byRequest: boolean, byStatus: boolean) =>
    [...list].reverse().find((exchange) => fits(exchange, byRequest, byStatus));
  if (request === undefined && status === undefined) {
    // A list of what went wrong, judged at the end (`expect(accepted).toEqual([])`): the request that sent a value
    // the list names, rather than whatever the check sent last.
    const values = sentValues(facts.actual);
    const sent = (exchange: EvidenceExchange) =>
      values.some((value) => `${exchange.request.url}\n${exchange.request.body ?? ''}`.includes(value));
    if (values.length === 0 || (base && sent(base))) return base;
    return [...upTo].reverse().find(sent) ?? base;
  }
  if (base && fits(base, true, true)) return base;
  return (
    latest(upTo, true, true) ??
    latest(exchanges, true, true) ??
    latest(upTo, false, true) ??
    (base && fits(base, true, false) ? base : undefined) ??
    latest(upTo, true, false) ??
    base
  );
}

/**
 * Values a failure names that a request may have sent: the quoted parts of its strings (`date format "2026/12/30"`),
 * and short strings whole. Only strings with something distinctive (a digit, a slash, a dash) count.
 */
function sentValues(actual: unknown): string[] {
  const out = new Set<string>();
  const walk = (value: unknown, depth: number) => {
    if (out.size >= 20 || depth > 3) return;
    if (typeof value === 'string') {
      for (const match of value.matchAll(/"([^"]{4,60})"/g)) out.add(match[1] as string);
      if (value.length >= 6 && value.length <= 40 && !/\s/.test(value)) out.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value.slice(0, 10)) walk(item, depth + 1);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value).slice(0, 10)) walk(item, depth + 1);
    }
  };
  walk(actual, 0);
  return [...out].filter((value) => /[\d/-]/.test(value));
}

/** Where two values differ first, by field path (`dataQuality.status`, `[3].rentalDays`), and how many places do. */
function differences(expected: unknown, actual: unknown): { path: string; expected: unknown; actual: unknown }[] {
  const out: { path: string; expected: unknown; actual: unknown }[] = [];
  const plain = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
  const walk = (e: unknown, a: unknown, path: string, depth: number) => {
    if (out.length >= 50 || Object.is(e, a)) return;
    const matcher = e as { asymmetricMatch?: (value: unknown) => boolean } | null;
    if (typeof matcher?.asymmetricMatch === 'function') {
      if (!matcher.asymmetricMatch(a)) out.push({ path, expected: e, actual: a });
      return;
    }
    if (depth < 12 && Array.isArray(e) && Array.isArray(a)) {
      for (let i = 0; i < Math.max(e.length, a.length); i++) walk(e[i], a[i], `${path}[${i}]`, depth + 1);
      return;
    }
    if (depth < 12 && plain(e) && plain(a)) {
      for (const key of new Set([...Object.keys(e), ...Object.keys(a)])) {
        // toEqual reads a key holding undefined as absent.
        if (e[key] === undefined && a[key] === undefined) continue;
        walk(e[key], a[key], path === '' ? key : `${path}.${key}`, depth + 1);
      }
      return;
    }
    out.push({ path, expected: e, actual: a });
  };
  walk(expected, actual, '', 0);
  return out;
}

/**
 * The label as the subject of the message: without a response body a check pasted into it (`${res.text}`: the
 * exchange printed under the message shows it whole), and without a bare status left before it.
 */
function subjectOf(label: string | undefined, exchange: EvidenceExchange | undefined): string | undefined {
  if (label === undefined) return undefined;
  let text = label;
  const body = exchange?.response?.body;
  const head = body?.trim().slice(0, 24);
  if (head && head.length >= 2 && text.includes(head)) text = text.slice(0, text.indexOf(head));
  text = withoutPastedBody(text)
    .replace(/[\s:;,—-]+$/, '')
    .trim();
  if (/^(HTTP )?\d{3}$/.test(text)) text = '';
  if (text.length > 160) text = `${text.slice(0, 159)}…`;
  return text === '' ? undefined : text;
}

/** The verbs of the assertion library's sentences, after `expected <actual> `, and the matcher each stands for. */
const VERBS: readonly [RegExp, string][] = [
  [/^to (?:be )?greater than or equal to\b/, 'toBeGreaterThanOrEqual'],
  [/^to (?:be )?less than or equal to\b/, 'toBeLessThanOrEqual'],
  [/^to (?:be )?greater than\b/, 'toBeGreaterThan'],
  [/^to (?:be )?less than\b/, 'toBeLessThan'],
  [/^to be at least\b/, 'least'],
  [/^to be at most\b/, 'most'],
  [/^to be above\b/, 'above'],
  [/^to be below\b/, 'below'],
  [/^to be close to\b/, 'toBeCloseTo'],
  [/^to (?:deeply |strictly )?equal\b/, 'toEqual'],
  [/^to match object\b/, 'toEqual'],
  [/^to match\b/, 'toMatch'],
  [/^to (?:deep equally )?(?:include|contain)\b/, 'toContain'],
  [/^to have (?:a )?length\b/, 'toHaveLength'],
  [/^to have property\b/, 'toHaveProperty'],
  [/^to be null\b/, 'toBeNull'],
  [/^to be undefined\b/, 'toBeUndefined'],
  [/^to be defined\b/, 'toBeDefined'],
  [/^to be nullish\b/, 'toBeNullable'],
  [/^to be truthy\b/, 'toBeTruthy'],
  [/^to be falsy\b/, 'toBeFalsy'],
  [/^to be NaN\b/, 'toBeNaN'],
  [/^to be type of\b/, 'toBeTypeOf'],
  [/^to be an instance of\b/, 'toBeInstanceOf'],
  [/^to be\b/, 'toBe'],
];

/**
 * The facts of an assertion error no facts were recorded for (thrown where the recording was not installed, or
 * directly, as toMatchObject does), read back from its sentence and its own expected and actual. Undefined for a
 * message that is no such sentence.
 */
export function factsFromMessage(error: {
  name?: string;
  message?: string;
  expected?: unknown;
  actual?: unknown;
}): AssertionFacts | undefined {
  const message = error.message ?? '';
  if (error.name !== 'AssertionError') return undefined;
  const start = /(^|: )expected /.exec(message);
  if (!start) return undefined;
  const rest = message.slice(start.index + start[0].length);
  for (const at of rest.matchAll(/ (?=(?:not )?to [a-zA-Z])/g)) {
    const said = rest.slice(at.index + 1);
    // `not to be`, `to not include`, `to be not greater than`: one verb, negated.
    const negated = /^not to |^to not |^to be not /.test(said);
    const phrase = said
      .replace(/^not to /, 'to ')
      .replace(/^to not /, 'to ')
      .replace(/^to be not /, 'to be ');
    const verb = VERBS.find(([pattern]) => pattern.test(phrase));
    if (!verb) continue;
    const facts: AssertionFacts = {
      matcher: verb[1],
      template: `expected #{this} ${phrase.split('\n')[0]}`,
      negated,
      subject: error.actual,
      expected: error.expected,
      actual: error.actual,
    };
    if (start.index > 0) facts.label = message.slice(0, start.index);
    return facts;
  }
  return undefined;
}

const COMPARISONS: Record<string, [string, string]> = {
  // matcher: [expected when it holds, expected when negated]
  toBeGreaterThan: ['more than', 'at most'],
  toBeGreaterThanOrEqual: ['at least', 'less than'],
  toBeLessThan: ['less than', 'at least'],
  toBeLessThanOrEqual: ['at most', 'more than'],
  above: ['more than', 'at most'],
  least: ['at least', 'less than'],
  below: ['less than', 'at least'],
  most: ['at most', 'more than'],
};

/**
 * The failed assertion in plain words. `requirement` (the check's name) names what was judged when the check gave
 * the assertion no label.
 */
export function plainAssertion(
  facts: AssertionFacts,
  exchanges: readonly EvidenceExchange[],
  requirement?: string,
): PlainFailure {
  const matcher = matcherOf(facts);
  const { negated, expected, actual } = facts;
  const statusAssertion = EQUALITY.has(matcher) && isStatus(actual) && (negated || isStatus(expected));
  // A label that states the status wanted and, in brackets, the one that came back (`a driver 16 years old: HTTP
  // 400 (201 {…})`) over a yes-or-no assertion: said as the status it is about.
  const pair = /^(.*?):? HTTP ([1-5]\d\d) \(([1-5]\d\d)\b/.exec(facts.label ?? '');
  const quoted = pair?.[3] ?? (facts.label ? /\bHTTP ([1-5]\d\d)\b/.exec(facts.label)?.[1] : undefined);
  const status = statusAssertion ? (actual as number) : quoted !== undefined ? Number(quoted) : undefined;
  const exchange = exchangeFor(facts, exchanges, status);
  const label = subjectOf(facts.label, exchange);
  const said: Said = {
    facts,
    matcher,
    label,
    what: label ?? requirement,
    exchange,
    withExchange: (failure) => (exchange ? { ...failure, exchange } : failure),
  };
  if (pair && typeof actual === 'boolean' && typeof expected === 'boolean' && !negated) {
    const got = Number(pair[3]);
    return said.withExchange({
      message: expectedGot(`${pair[1] ? `${pair[1]}: ` : ''}HTTP status`, pair[2] as string, responseText(got)),
      expected: { value: Number(pair[2]) },
      actual: { value: got },
    });
  }
  if (statusAssertion) return statusFailure(said);
  if (EQUALITY.has(matcher)) return equalityFailure(said);
  return ruleFailure(said);
}

/** What every way of saying a failed assertion works from. */
interface Said {
  facts: AssertionFacts;
  /** The matcher (matcherOf). */
  matcher: string;
  /** The assertion's label as the subject of the message (subjectOf). */
  label: string | undefined;
  /** What was judged: the label, else the check's name. */
  what: string | undefined;
  /** The exchange the assertion was about (exchangeFor). */
  exchange: EvidenceExchange | undefined;
  withExchange(failure: Omit<PlainFailure, 'exchange'>): PlainFailure;
}

/** An equality over an HTTP status: said as the status, with the answer that came back when it is that exchange's. */
function statusFailure({ facts, label, exchange, withExchange }: Said): PlainFailure {
  const { negated, expected, actual } = facts;
  const subject = label && /status/i.test(label) ? label : label ? `${label}: HTTP status` : 'HTTP status';
  const got = exchange?.response?.status === actual ? responseText(actual as number) : `HTTP ${actual}`;
  return withExchange({
    message: expectedGot(subject, negated ? `any status but ${expected}` : String(expected), got),
    expected: negated ? { words: `any status but ${expected}` } : { value: expected },
    actual: { value: actual },
  });
}

/** toBe, toEqual and their kin. */
function equalityFailure({ facts, label, what, withExchange }: Said): PlainFailure {
  const { negated, expected, actual } = facts;
  if (typeof actual === 'boolean' && typeof expected === 'boolean' && !negated && label !== undefined) {
    // `expect(ok, 'the class is still offered').toBe(true)`: the label is the requirement; saying "expected true;
    // got false" would tell a reader nothing more.
    return withExchange({
      message: `${label}: ${expected ? 'not the case' : 'the case, and it must not be'}`,
      expected: { value: expected },
      actual: { value: actual },
    });
  }
  if (negated) {
    return withExchange({
      message: expectedGot(what, `anything but ${inlineValue(expected)}`, inlineValue(actual)),
      expected: { words: `anything but ${inlineValue(expected)}` },
      actual: { value: actual },
    });
  }
  // Two objects, or two lists of one length: the first field that differs, by its path, is what a reader acts on
  // (the report diffs the rest). Lists of two lengths (`[]` against what came back) are said whole.
  const comparable =
    typeof expected === 'object' &&
    typeof actual === 'object' &&
    (!Array.isArray(expected) || (Array.isArray(actual) && expected.length === actual.length));
  const found = comparable ? differences(expected, actual) : [];
  const first = found[0];
  if (first && first.path !== '') {
    const more = found.length > 1 ? ` (${found.length - 1} more field${found.length === 2 ? '' : 's'} differ)` : '';
    const where = what ? `${what}: ${first.path}` : first.path;
    return withExchange({
      message: `${expectedGot(where, inlineValue(first.expected), inlineValue(first.actual))}${more}`,
      expected: { value: expected },
      actual: { value: actual },
    });
  }
  return withExchange({
    message: expectedGot(what, inlineValue(expected), inlineValue(actual)),
    expected: { value: expected },
    actual: { value: actual },
  });
}

/** Any other matcher: what it expects said as a rule (`a value`, `length 3`, `at least 2`). */
function ruleFailure({ facts, matcher, what, exchange, withExchange }: Said): PlainFailure {
  const { negated, expected, actual } = facts;
  // `got` said in words when it is no value of the answer's (`length 2`, `a number`).
  const rule = (expectedWords: string, got: unknown = actual, gotWords?: string): PlainFailure =>
    withExchange({
      message: expectedGot(what, expectedWords, gotWords ?? inlineValue(got)),
      expected: { words: expectedWords },
      actual: gotWords !== undefined ? { words: gotWords } : { value: got },
    });

  switch (matcher) {
    case 'toBeNull':
      return rule(negated ? 'a value' : 'null');
    case 'toBeUndefined':
      return rule(negated ? 'a value' : 'none (no such value)');
    case 'toBeDefined':
      return rule(negated ? 'none (no such value)' : 'a value');
    case 'toBeNullable':
      return rule(negated ? 'a value' : 'null or none');
    case 'toBeTruthy':
      return rule(negated ? 'false, 0, an empty string, null or none' : 'a value (not false, 0, empty or null)');
    case 'toBeFalsy':
      return rule(negated ? 'a value (not false, 0, empty or null)' : 'false, 0, an empty string, null or none');
    case 'toBeNaN':
      return rule(negated ? 'a number' : 'NaN');
    case 'toMatch': {
      const pattern = expected instanceof RegExp ? String(expected) : inlineValue(expected);
      const kind = expected instanceof RegExp ? 'matching' : 'containing';
      return rule(negated ? `a string not ${kind} ${pattern}` : `a string ${kind} ${pattern}`);
    }
    case 'toBeTypeOf':
      return rule(`${negated ? 'anything but ' : ''}a ${String(expected)}`, actual, `a ${String(actual)}`);
    case 'toBeInstanceOf':
      return rule(`${negated ? 'anything but ' : ''}an instance of ${facts.template.split(' ').at(-1) ?? 'the class'}`);
    case 'toBeCloseTo':
      return rule(`${negated ? 'anything but ' : ''}about ${inlineValue(facts.expected)}`, facts.subject);
    case 'toHaveLength':
      return rule(`${negated ? 'any length but ' : 'length '}${String(expected)}`, actual, `length ${String(actual)}`);
    case 'toHaveProperty': {
      const name = /have property "([^"]*)"/.exec(facts.template)?.[1] ?? 'the property';
      const withValue = /with value/.test(facts.template) ? ` = ${inlineValue(expected)}` : '';
      return rule(negated ? `no property ${name}${withValue}` : `a property ${name}${withValue}`);
    }
    case 'toContain':
    case 'toContainEqual':
      return containment(facts, exchange, what, withExchange);
    default:
      break;
  }
  const comparison = COMPARISONS[matcher];
  if (comparison) return rule(`${negated ? comparison[1] : comparison[0]} ${inlineValue(expected)}`);
  // An assertion this table does not know: its sides, still named for what they are.
  return rule(
    `${negated ? 'not ' : ''}${matcher || 'the condition'}${expected !== undefined ? ` ${inlineValue(expected)}` : ''}`,
  );
}

/**
 * `expect(list).toContain(item)`: either the item came back and the list is what the spec allows
 * (`expect(['verified', …]).toContain(status)`), or the list came back and lacks an item the check knows. The
 * response body tells which: an item the answer holds is what came back.
 */
function containment(
  facts: AssertionFacts,
  exchange: EvidenceExchange | undefined,
  what: string | undefined,
  withExchange: (failure: Omit<PlainFailure, 'exchange'>) => PlainFailure,
): PlainFailure {
  const item = containedItem(facts);
  const list = facts.subject;
  const body = exchange?.response?.body ?? '';
  // A header's value without its parameters (a Content-Type of `application/xml; charset=utf-8` came back as
  // application/xml): what the check read from the answer's headers rather than its body.
  const headerValues = Object.values(exchange?.response?.headers ?? {}).map((v) => v.split(';')[0]?.trim());
  // As a whole JSON string or XML text: a code the answer lacks may still be the prefix of one it has.
  const itemCameBack =
    Array.isArray(list) &&
    typeof item.raw === 'string' &&
    item.raw !== '' &&
    (body.includes(JSON.stringify(item.raw)) || body.includes(`>${item.raw}<`) || headerValues.includes(item.raw));
  if (typeof list === 'string') {
    const words = `${facts.negated ? 'a text without' : 'a text containing'} ${item.text}`;
    return withExchange({
      message: expectedGot(what, words, inlineValue(list)),
      expected: { words },
      actual: { value: list },
    });
  }
  if (itemCameBack) {
    const words = `${facts.negated ? 'none of' : 'one of'} ${inlineValue(list)}`;
    return withExchange({
      message: expectedGot(what, words, item.text),
      expected: { words },
      actual: { value: item.raw },
    });
  }
  const words = facts.negated ? `no ${item.text} among them` : `${item.text} among them`;
  return withExchange({
    message: expectedGot(what, words, inlineValue(list)),
    expected: { words },
    actual: { value: list },
  });
}
