import { RESPONSE_CLAUSES, RESTATED_RULES, type RestatedRule } from '../../contract/clause-refs.ts';
import { API_PREFIX } from '../../contract/constants.ts';
import { SCHEMA_BUNDLE } from '../../contract/schemas/index.ts';
import type { EvidenceExchange } from '../check/outcome-and-evidence.ts';
import { SNAKE_CASE_REASON } from '../http/partner-client.ts';
import type { ReportCheck, ReportClause, ReportModel, ReportObservation, ReportSection } from './model.ts';

/**
 * The failing clauses of a run as every renderer lists them: one entry per clause (the counting unit everywhere),
 * with its first cause in words and the exchange that shows it; the clauses other checks kept running into (root
 * causes) first, and clauses that failed for the very same reason grouped so a repeat is counted, not printed.
 */
export interface FailingClause {
  section: ReportSection;
  clause: ReportClause;
  outcome: 'fail' | 'error';
  /** The first cause, one line, without the clause id the line already shows. */
  cause: string;
  expected?: string;
  actual?: string;
  /** The check whose evidence shows the cause, when one of the clause's own checks failed or errored. */
  check?: ReportCheck;
  /** The observation that shows it, when only other checks saw the clause fail. */
  observation?: ReportObservation;
  /** The exchange that shows it: the last of the failing check, or the observation's. */
  exchange?: EvidenceExchange;
  /** Times checks of other clauses saw this clause deviate. */
  seen: number;
  /** Checks of other clauses that could not judge theirs because this one failed (blocked by it). */
  blocks: number;
}

export interface FailureGroup {
  cause: string;
  /** The request of the first clause's exchange (`GET /fleet/XYZ`), when the cause does not name it already. */
  request?: string;
  /**
   * The group's line: the shared expectation and what came back, and the request it was seen on ("HTTP status:
   * expected 404 NOT_FOUND; got HTTP 403 INSUFFICIENT_SCOPE — GET /fleet/XYZ").
   */
  headline: string;
  items: FailingClause[];
}

/** An exchange's request as a reader names it: method and path under the API prefix, with its query. */
export function requestLine(exchange: EvidenceExchange): string {
  let path = exchange.request.url;
  try {
    const url = new URL(exchange.request.url);
    path = `${url.pathname}${url.search}`;
  } catch {
    // Not an absolute URL: shown as recorded.
  }
  if (path.startsWith(`${API_PREFIX}/`)) path = path.slice(API_PREFIX.length);
  return `${exchange.request.method} ${path.length > 120 ? `${path.slice(0, 119)}…` : path}`;
}

const MAX_CAUSE_CHARS = 240;

/** One line of at most MAX_CAUSE_CHARS, without a trailing "(spec <id>)" the clause column already says. */
export function oneLine(text: string, clauseId?: string, max = MAX_CAUSE_CHARS): string {
  let line = text.split('\n').find((part) => part.trim() !== '') ?? text;
  line = line.trim();
  if (clauseId) line = line.replace(new RegExp(`\\s*\\(spec ${clauseId.replace(/\./g, '\\.')}\\)$`), '');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function isFailing(outcome: ReportClause['outcome']): outcome is 'fail' | 'error' {
  return outcome === 'fail' || outcome === 'error';
}

function blockedCounts(model: ReportModel): Map<string, number> {
  const counts = new Map<string, number>();
  for (const section of model.sections) {
    for (const clause of section.clauses) {
      for (const check of clause.checks) {
        const reason = check.notApplicable;
        if (reason?.kind === 'blocked' && reason.clauseId !== clause.id) {
          counts.set(reason.clauseId, (counts.get(reason.clauseId) ?? 0) + 1);
        }
      }
    }
  }
  return counts;
}

function describeClause(section: ReportSection, clause: ReportClause & { outcome: 'fail' | 'error' }, blocks: number) {
  const own =
    clause.checks.find((check) => check.outcome === 'fail' && !check.waived) ??
    clause.checks.find((check) => check.outcome === 'error' && !check.waived);
  const observation = clause.observations?.[0];
  const seen = (clause.observations ?? []).reduce((sum, item) => sum + item.count, 0);
  const entry: FailingClause = { section, clause, outcome: clause.outcome, cause: 'failed', seen, blocks };
  if (own && (own.outcome === 'fail' || !observation)) {
    entry.check = own;
    entry.cause = oneLine(own.evidence?.message ?? own.outcome, clause.id);
    if (own.evidence?.expected !== undefined) entry.expected = own.evidence.expected;
    if (own.evidence?.actual !== undefined) entry.actual = own.evidence.actual;
    const exchange = own.evidence?.exchanges.at(-1);
    if (exchange) entry.exchange = exchange;
  } else if (observation) {
    entry.observation = observation;
    entry.cause = oneLine(observation.message, clause.id);
    if (observation.expected !== undefined) entry.expected = observation.expected;
    if (observation.actual !== undefined) entry.actual = observation.actual;
    if (observation.exchange) entry.exchange = observation.exchange;
  }
  return entry;
}

/** The first cause of a failed or errored clause in words (its own failing check's, else the first observation's). */
export function causeOf(section: ReportSection, clause: ReportClause): string {
  if (!isFailing(clause.outcome)) return clause.outcome;
  return describeClause(section, clause as ReportClause & { outcome: 'fail' | 'error' }, 0).cause;
}

/**
 * Codes and ids a message names whole (`KIA-MORNING-MT`, `SGN-APT-01`, `RSV-01a2…-c327d02f9a9a`): what a later request
 * may be built from. Whole: the prefix every reservation id shares would relate every two reservations.
 */
const ENTITY = /(?<![\w-])[A-Z0-9]{2,}(?:-[A-Za-z0-9]+)+(?![\w-])/g;

function entitiesOf(item: FailingClause): string[] {
  return [...new Set([...`${item.cause}\n${item.actual ?? ''}`.matchAll(ENTITY)].map((match) => match[0]))];
}

function pathOf(exchange: EvidenceExchange | undefined): string {
  if (!exchange) return '';
  try {
    return decodeURIComponent(new URL(exchange.request.url).pathname);
  } catch {
    return exchange.request.url;
  }
}

/**
 * `later` met `root`'s deviation on the way: its failing request was built from what `root`'s failure names (GET
 * /fleet/KIA-MORNING-MT after a listing that should not have held KIA-MORNING-MT), and `root`'s own request was not.
 */
function metOnTheWay(later: FailingClause, root: FailingClause): boolean {
  const path = pathOf(later.exchange);
  const rootPath = pathOf(root.exchange);
  if (path === '' || path === rootPath) return false;
  return entitiesOf(root).some((entity) => path.includes(entity) && !rootPath.includes(entity));
}

/**
 * `later`'s checks ran into `root` themselves: a check of `later` filed what it saw of `root` under it, or could not go
 * on because of it (blocked). What `later`'s checks then failed on is what they met after.
 */
function ranInto(later: FailingClause, root: FailingClause): boolean {
  return later.clause.checks.some(
    (check) =>
      (check.outcome !== 'pass' && check.observed?.includes(root.clause.id)) ||
      (check.notApplicable?.kind === 'blocked' && check.notApplicable.clauseId === root.clause.id),
  );
}

/** The words of a failure outside what it says was expected: what the target answered, and where. */
function answeredWords(item: FailingClause): Set<string> {
  const said = `${item.cause.replace(/\bexpected\b[^;]*/g, '')} ${item.actual ?? ''}`;
  const words = said.split(/[^A-Za-z0-9_+/:.-]+/).map((word) => word.replace(/[.:]+$/, ''));
  return new Set(words.filter((word) => word.length >= 2));
}

/** The values a failure's line says were expected and came back (`status: expected "confirmed"; got "cancelled"`). */
function saidValues(item: FailingClause): { expected: string; got: string } | undefined {
  const match = /\bexpected ("[^"]*"|[^\s;]+); got ("[^"]*"|[^\s;]+)/.exec(item.cause);
  return match ? { expected: match[1] as string, got: match[2] as string } : undefined;
}

/**
 * `later` expected a value that came from `root`'s deviating answer: a quote compared with a location's timezone
 * `"ICT"` that the listing should have written as an IANA zone. `later` failed only because it trusted that answer.
 * Not when each expected what the other got: one disagreement seen from both sides (a read after a cancel still
 * `"confirmed"`, and the XML answer's `"cancelled"` compared with that JSON one), where neither took its expectation
 * from the other's answer.
 */
function expectedFrom(later: FailingClause, root: FailingClause): boolean {
  const expected = /^"(.+)"$/.exec(later.expected ?? '')?.[1];
  if (expected === undefined || pathOf(later.exchange) === pathOf(root.exchange)) return false;
  const [mine, theirs] = [saidValues(later), saidValues(root)];
  if (mine && theirs && mine.expected === theirs.got && mine.got === theirs.expected) return false;
  return answeredWords(root).has(expected) && !answeredWords(later).has(expected);
}

/** Field names a failure names (`pickupDate`, `dataQuality.status`): camelCase words. */
function fieldsOf(item: FailingClause): string[] {
  return [...new Set([...item.cause.matchAll(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g)].map((match) => match[0]))];
}

function titleNames(item: FailingClause, field: string): boolean {
  return new RegExp(`(^|[^A-Za-z])${field}([^A-Za-z]|$)`).test(item.clause.title);
}

/**
 * Two failures at one field, one clause about the field and one about what holds it (2.4.3
 * `RentalWindow.pickupDate` and 2.12.3 `AvailabilityRequest`): the deviation breaks the field's rule.
 */
function aboutTheField(candidate: FailingClause, other: FailingClause): boolean {
  const shared = fieldsOf(candidate).filter((field) => fieldsOf(other).includes(field));
  return shared.some((field) => titleNames(candidate, field) && !titleNames(other, field));
}

/**
 * A failure that is an XML answer differing from the JSON one: what checks of other clauses failed on in XML only
 * (build.ts files those under 4.14.18a or 4.13.5a), or XML property names in snake_case where JSON has the spec's
 * (the HTTP client files those under 9.3b, SNAKE_CASE_REASON).
 */
function xmlOnly(item: FailingClause): boolean {
  return item.cause.includes('(in XML only; JSON meets ') || item.cause.includes(SNAKE_CASE_REASON);
}

/**
 * `later` holds what XML answers differed from JSON ones by (xmlOnly), and `root` is a rule of the XML representation
 * that failed itself: the XML answers differed because they broke it (4.14.18a's "same field names" for XML names in
 * snake_case, listed before 9.3b however often checks met those names).
 */
function xmlOnlyAfter(later: FailingClause, root: FailingClause): boolean {
  return xmlOnly(later) && !xmlOnly(root) && /^4\.1[34]\./.test(root.clause.id);
}

/** The operation an exchange called: its method and path, each segment holding a digit (an id) as `{id}`. */
function operationOf(exchange: EvidenceExchange | undefined): string | undefined {
  if (!exchange) return undefined;
  const path = pathOf(exchange).split('?')[0] ?? '';
  const segments = path.split('/').map((segment) => (/\d/.test(segment) ? '{id}' : segment));
  return `${exchange.request.method} ${segments.join('/')}`;
}

/** For each clause that restates rules of others (contract/clause-refs.ts RESTATED_RULES), those rules. */
const RESTATED = new Map<string, RestatedRule[]>();
for (const rule of RESTATED_RULES) {
  for (const later of rule.restatedBy) RESTATED.set(later, [...(RESTATED.get(later) ?? []), rule]);
}

/** Per failing clause, what the relations below read of it more than once (a long list compares every pair). */
function memo<T>(compute: (item: FailingClause) => T): (item: FailingClause) => T {
  const cache = new WeakMap<FailingClause, T>();
  return (item) => {
    if (!cache.has(item)) cache.set(item, compute(item));
    return cache.get(item) as T;
  };
}

/** The operations a clause's failures were seen on: every exchange of its failing checks and of its observations. */
const operationsOf = memo((item: FailingClause): Set<string> => {
  const exchanges = [
    ...item.clause.checks
      .filter((check) => (check.outcome === 'fail' || check.outcome === 'error') && !check.waived)
      .flatMap((check) => check.evidence?.exchanges ?? []),
    ...(item.clause.observations ?? []).map((observation) => observation.exchange),
  ];
  return new Set(exchanges.map(operationOf).filter((operation) => operation !== undefined));
});

/**
 * `later` restates a rule that `owner` states alone and whole, and both failed on one operation: one deviation of
 * the rule, which `owner` is the clause of. The spec states some rules in several clauses (the 30 minutes of a quote in
 * 2.8.2, 2.9.3 and 8.2; a length in a request's shape, 2.12.1, and in the limits table, 8.9); each clause still judges
 * its sentence, and the report names the owner first, whatever the spec order or how often checks met the others.
 * Which clause owns which rule, and why, is the contract's (RESTATED_RULES). Failures on no common operation are not
 * taken for one deviation: a clause that restates one rule among others (2.12.1) may fail for another; nor those
 * whose owner failed on another part of what both state than the rule's (its `when`: 9.4 owns a namespace of another
 * version, 4.14.1 any other namespace).
 */
function restates(later: FailingClause, owner: FailingClause): boolean {
  const rule = RESTATED.get(later.clause.id)?.find((candidate) => candidate.owner === owner.clause.id);
  if (!rule || (rule.when && !rule.when.test(`${owner.cause}\n${owner.actual ?? ''}`))) return false;
  const operations = operationsOf(owner);
  return [...operationsOf(later)].some((operation) => operations.has(operation));
}

/** A key as spelled without its case and separators: `location_code`, `locationCode` and `LocationCode` are one. */
function spelling(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** Every property name the contract's schemas declare (the spec's field names), by their spelling. */
const FIELD_NAMES: ReadonlyMap<string, string> = (() => {
  const names = new Map<string, string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    else if (node !== null && typeof node === 'object') {
      const properties = (node as { properties?: unknown }).properties;
      if (properties !== null && typeof properties === 'object') {
        for (const name of Object.keys(properties)) names.set(spelling(name), name);
      }
      for (const child of Object.values(node)) visit(child);
    }
  };
  visit(SCHEMA_BUNDLE);
  return names;
})();

/** The keys a failure names on a path (`locations[0].locationCode`, `offers[2].quote_id`). */
const keysOf = memo((item: FailingClause): string[] => {
  const text = `${item.cause}\n${item.actual ?? ''}`;
  return [...new Set([...text.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] as string))];
});

/**
 * The spec's fields `root` found sent under another spelling (`location_code` for locationCode), by spelling, when
 * `root` is the clause of field names (9.3: "field names are as in this document"); else none.
 */
const respelledFields = memo((root: FailingClause): Set<string> => {
  if (root.clause.id !== RESPONSE_CLAUSES.fieldNames) return new Set();
  return new Set(
    keysOf(root)
      .filter((key) => FIELD_NAMES.has(spelling(key)) && FIELD_NAMES.get(spelling(key)) !== key)
      .map(spelling),
  );
});

/**
 * `later` failed at a field `root` found renamed: a required key missing (2.6.1 "locationCode is required") or a key
 * no schema allows (2.0.2 "location_code is not an allowed property") is how a rename looks to the rules of the object
 * holding it, and every check that reads the field runs into it (blocked by 2.6.1). The rename breaks the clause of
 * field names, which comes first, however often the others were seen.
 */
function renamedBy(later: FailingClause, root: FailingClause): boolean {
  if (later.clause.id === root.clause.id) return false;
  const renamed = respelledFields(root);
  return renamed.size > 0 && keysOf(later).some((key) => renamed.has(spelling(key)));
}

/**
 * Whether `candidate` is the root of a deviation `other` only met: it goes before. First what the spec says of its
 * own clauses: `candidate` is the clause of field names and `other` failed at a field it found renamed (renamedBy),
 * or `other` restates a rule `candidate` owns and failed on the same operation (restates). These come before what the
 * checks met, since a check that met a missing key or a restated rule files it under the clause it saw. Then either
 * `other`'s checks ran into `candidate` on their way (ranInto), or `other`'s failing request was built from what
 * `candidate`'s failure names (metOnTheWay), or `other` expected what `candidate`'s answer carried (expectedFrom), or
 * `other` holds XML-only differences that `candidate`, a rule of the XML representation, explains (xmlOnlyAfter);
 * else, of two failures at one field, the clause about the field (aboutTheField).
 */
function rootOf(candidate: FailingClause, other: FailingClause): boolean {
  const owns = (root: FailingClause, later: FailingClause) => renamedBy(later, root) || restates(later, root);
  if (owns(candidate, other)) return !owns(other, candidate);
  if (owns(other, candidate)) return false;
  const met = (later: FailingClause, root: FailingClause) =>
    ranInto(later, root) || metOnTheWay(later, root) || expectedFrom(later, root) || xmlOnlyAfter(later, root);
  if (met(other, candidate)) return !met(candidate, other);
  if (met(candidate, other)) return false;
  return aboutTheField(candidate, other) && !aboutTheField(other, candidate);
}

/**
 * Roots before the clauses that met their deviation on the way: each clause moves up to just before the first clause
 * it is the root of. Unrelated clauses keep their order. Bounded, in case the relation has a cycle.
 */
function rootsFirst(list: FailingClause[]): FailingClause[] {
  const order = [...list];
  // Each pass asks again about the pairs the last one asked about; rootOf reads the failures' texts (up to a few KB
  // each), so a run failing every clause would spend seconds on the same answers.
  const known = new Map<FailingClause, Map<FailingClause, boolean>>();
  const isRoot = (candidate: FailingClause, other: FailingClause): boolean => {
    let row = known.get(candidate);
    if (!row) {
      row = new Map();
      known.set(candidate, row);
    }
    let answer = row.get(other);
    if (answer === undefined) {
      answer = rootOf(candidate, other);
      row.set(other, answer);
    }
    return answer;
  };
  for (let pass = 0; pass < order.length; pass++) {
    let moved = false;
    for (let i = 0; i < order.length && !moved; i++) {
      for (let j = i + 1; j < order.length; j++) {
        const candidate = order[j] as FailingClause;
        if (isRoot(candidate, order[i] as FailingClause) && !isRoot(order[i] as FailingClause, candidate)) {
          order.splice(j, 1);
          order.splice(i, 0, candidate);
          moved = true;
          break;
        }
      }
    }
    if (!moved) break;
  }
  return order;
}

/**
 * Failed and errored clauses no waiver covers, root causes first: the clauses other checks kept running into (most
 * seen and blocking), then in spec order; and, among clauses that failed on one deviation, the clause it breaks
 * before those that restate its rule, show the field it renamed under the object's rules, or only met it on the way
 * (rootsFirst).
 */
export function failingClauses(model: ReportModel): FailingClause[] {
  const blocked = blockedCounts(model);
  const list: FailingClause[] = [];
  for (const section of model.sections) {
    for (const clause of section.clauses) {
      if (!isFailing(clause.outcome) || clause.waived) continue;
      list.push(
        describeClause(section, clause as ReportClause & { outcome: 'fail' | 'error' }, blocked.get(clause.id) ?? 0),
      );
    }
  }
  const weight = (item: FailingClause) => item.seen + item.blocks;
  // A stable sort keeps spec order among equals.
  return rootsFirst(
    list
      .map((item, index) => ({ item, index }))
      .sort((a, b) => weight(b.item) - weight(a.item) || a.index - b.index)
      .map(({ item }) => item),
  );
}

/**
 * Clauses that failed for the same first cause, together: one line per cause, the clauses counted, with the request
 * of the first (its exchange is the one the reports print).
 */
export function groupByCause(list: readonly FailingClause[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const item of list) {
    const key = `${item.outcome}\u0000${item.cause}`;
    let group = groups.get(key);
    if (!group) {
      group = { cause: item.cause, headline: item.cause, items: [] };
      const request = item.exchange ? requestLine(item.exchange) : undefined;
      // A cause that starts with its request ("GET /fleet vehicles[3] …") names it already.
      if (request && !item.cause.includes(request)) {
        group.request = request;
        group.headline = `${item.cause} — ${request}`;
      }
      groups.set(key, group);
    }
    group.items.push(item);
  }
  return [...groups.values()];
}

/** "seen 336× by other checks; blocks 3 checks", or '' for a clause only its own checks failed. */
export function reachText(item: FailingClause): string {
  const parts: string[] = [];
  if (item.seen > 0) parts.push(`seen ${item.seen}× by other checks`);
  if (item.blocks > 0) parts.push(`blocks ${item.blocks} check${item.blocks === 1 ? '' : 's'}`);
  return parts.join('; ');
}

/** How a clause was judged, or why not, in a few words ("judged live, hooks" / "not judged: profile: …"). */
export function judgedText(clause: ReportClause): string {
  if (clause.judgedBy && clause.judgedBy.length > 0) return `judged ${clause.judgedBy.join(', ')}`;
  if (clause.notJudged && clause.notJudged.length > 0) return `not judged: ${clause.notJudged.join('; ')}`;
  return clause.checks.length === 0 ? 'not judged: no check judges this clause yet' : 'not judged';
}
