import { isRepresentationClause, xmlOnlyClauseOf } from '../../contract/clause-refs.ts';
import { CLAUSES, type Clause, SECTIONS } from '../../contract/clauses/index.ts';
import { SPEC_RELEASE } from '../../contract/constants.ts';
import { plainMessage } from '../check/evidence.ts';
import type { JudgedBy, NotApplicableReason, Outcome, Profile } from '../check/outcome-and-evidence.ts';
import { addTraffic, emptyTraffic, type Traffic } from '../http/traffic.ts';
import { compareWithBaseline } from './baseline.ts';
import type { CheckRecord, HarnessError } from './check-record.ts';
import { decideExit } from './exit.ts';
import type {
  ReportCheck,
  ReportClause,
  ReportModel,
  ReportObservation,
  ReportSection,
  ReportTraffic,
} from './model.ts';
import { emptyClauseCounts, emptyCounts, isFailure, judged, worstOutcome } from './outcome.ts';
import { safeEvidence, safeExchange } from './sanitize.ts';
import { notApplicableText } from './text.ts';
import { type ResolvedWaivers, resolveWaivers, type Waiver } from './waivers.ts';

export interface BuildReportInput {
  checks: readonly CheckRecord[];
  tool: ReportModel['tool'];
  target: ReportModel['target'];
  profile: Profile;
  options: ReportModel['options'];
  timing: ReportModel['timing'];
  waivers?: readonly Waiver[];
  /** YYYY-MM-DD the waivers' expiry is judged against; default: the day of `timing.startedAt`. */
  today?: string;
  leftovers?: readonly string[];
  /** Requests pre-flight sent before the checks (ReportTraffic.preflight). */
  preflightRequests?: number;
  harnessErrors?: readonly HarnessError[];
  /** --baseline: an earlier report of the same target, compared clause by clause. */
  baseline?: ReportModel;
}

/** `<clauseId>/<name>[/<representation>]`; the same as ReportCheck.id before duplicates are numbered. */
export function checkId(record: Pick<CheckRecord, 'clauseId' | 'name' | 'representation'>): string {
  return `${record.clauseId}/${record.name}${record.representation ? `/${record.representation}` : ''}`;
}

/** A check record with its id, numbered where two checks share one. */
interface NumberedCheck {
  record: CheckRecord;
  id: string;
}

type ChecksByClause = ReadonlyMap<string, readonly NumberedCheck[]>;

/**
 * Merges the checks of a run with the whole clause catalogue: every clause appears (without checks it is
 * 'not-checked'), waivers are applied, and the verdict and coverage computed. Pure: same input, same model.
 */
export function buildReport(input: BuildReportInput): ReportModel {
  const known = new Set(CLAUSES.map((clause) => clause.id));
  const numbered = numberChecks(xmlOnlyToRepresentation(input.checks), known);
  const harnessErrors: HarnessError[] = [...(input.harnessErrors ?? []), ...numbered.unknown];
  const seen = observationsByClause(numbered.byClause, known);
  const { strict } = input.options;
  const today = input.today ?? input.timing.startedAt.slice(0, 10);
  const waivers = resolveWaivers(input.waivers ?? [], outcomesByClause(numbered.byClause, seen, strict), today);
  const context: ClauseContext = { byClause: numbered.byClause, known, seen, covering: waivers.covering, strict };
  const sections = reportSections((clause) => reportClause(clause, context));
  const allClauses = sections.flatMap((section) => section.clauses);
  const coverage = coverageOf(allClauses);
  const baseline = input.baseline ? compareWithBaseline(input.baseline, allClauses) : undefined;
  const verdict = verdictOf(input, allClauses, harnessErrors, coverage.clausesJudged, baseline);
  const model: ReportModel = {
    schemaVersion: 1,
    tool: { name: input.tool.name, version: input.tool.version },
    spec: { release: SPEC_RELEASE },
    target: { baseUrl: input.target.baseUrl, embedded: input.target.embedded },
    profile: input.profile,
    options: { ...input.options, only: [...input.options.only] },
    timing: { ...input.timing },
    verdict,
    coverage,
    sections,
    waivers: waivers.statuses,
    leftovers: [...(input.leftovers ?? [])],
  };
  const traffic = trafficOf(input.checks);
  if (traffic) model.traffic = input.preflightRequests ? { ...traffic, preflight: input.preflightRequests } : traffic;
  if (harnessErrors.length > 0) model.harnessErrors = harnessErrors;
  if (baseline) model.baseline = baseline;
  return model;
}

/**
 * The checks per clause, each with its id; a check naming a clause the clause catalogue does not hold is left out and
 * becomes a harness error instead.
 */
function numberChecks(
  records: readonly CheckRecord[],
  known: ReadonlySet<string>,
): { byClause: Map<string, NumberedCheck[]>; unknown: HarnessError[] } {
  const byClause = new Map<string, NumberedCheck[]>();
  const unknown: HarnessError[] = [];
  const seenIds = new Map<string, number>();
  for (const record of records) {
    if (!known.has(record.clauseId)) {
      unknown.push({
        file: record.file,
        test: record.name,
        message: `check names clause ${record.clauseId}, which the clause catalogue does not hold; it is not reported`,
      });
      continue;
    }
    // Two checks with one name would share an id; number the later ones so --replay can still address each.
    const base = checkId(record);
    const seen = (seenIds.get(base) ?? 0) + 1;
    seenIds.set(base, seen);
    const id = seen === 1 ? base : `${base}#${seen}`;
    const list = byClause.get(record.clauseId) ?? [];
    list.push({ record, id });
    byClause.set(record.clauseId, list);
  }
  return { byClause, unknown };
}

/** What checks saw of other clauses (observationsByClause). */
type Seen = ReturnType<typeof observationsByClause>;

/**
 * What the deviations other checks saw of a clause make of it; undefined when none was seen. One seen by a MUST
 * check fails the clause it breaks; one seen only by SHOULD checks warns (unless --strict): a check that only
 * recommends a behaviour cannot make what it met along the way a requirement.
 */
function observedOutcome(clause: Clause, seen: Seen, strict: boolean): Outcome | undefined {
  if (!seen.observations.has(clause.id)) return undefined;
  if (strict) return 'fail';
  return clause.level === 'SHOULD' || !seen.fromMust.has(clause.id) ? 'warn' : 'fail';
}

/** The outcomes of each clause that met any, its checks' and what others saw of it: what waivers are judged by. */
function outcomesByClause(byClause: ChecksByClause, seen: Seen, strict: boolean): Map<string, Outcome[]> {
  const outcomes = new Map<string, Outcome[]>();
  for (const clause of CLAUSES) {
    const list = (byClause.get(clause.id) ?? []).map(({ record }) => record.outcome);
    const observed = observedOutcome(clause, seen, strict);
    if (observed) list.push(observed);
    if (list.length > 0) outcomes.set(clause.id, list);
  }
  return outcomes;
}

/** What a clause's report is made of besides the clause itself. */
interface ClauseContext {
  byClause: ChecksByClause;
  known: ReadonlySet<string>;
  seen: Seen;
  covering: ResolvedWaivers['covering'];
  strict: boolean;
}

/** One clause of the clause catalogue with its checks, its outcome, how it was judged and whether it is waived. */
function reportClause(clause: Clause, context: ClauseContext): ReportClause {
  const waiver = context.covering.get(clause.id);
  const checks = (context.byClause.get(clause.id) ?? [])
    .map((numbered) => reportCheck(numbered, clause, waiver, context.known))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const seen = context.seen.observations.get(clause.id);
  const observed = observedOutcome(clause, context.seen, context.strict);
  // A check judging at SHOULD level fails its clause only under --strict (otherwise it is a warning).
  const outcomes = checks.map(
    (check): Outcome =>
      check.outcome === 'fail' && check.level === 'SHOULD' && !context.strict ? 'warn' : check.outcome,
  );
  if (observed) outcomes.push(observed);
  const report: ReportClause = {
    id: clause.id,
    title: clause.title,
    text: clause.text,
    level: clause.level,
    outcome: worstOutcome(outcomes) ?? 'not-checked',
    checks,
    ...judgementOf(checks, seen !== undefined),
  };
  if (seen) report.observations = seen;
  if (waiver && isFailure(report.outcome)) report.waived = true;
  else if (checks.some((check) => check.waived)) {
    report.waived = checks.every((check) => !isFailure(check.outcome) || check.waived !== undefined);
  }
  return report;
}

/** One check of a clause as reported: sanitised evidence, waived when the clause's waiver covers its failure. */
function reportCheck(
  { record, id }: NumberedCheck,
  clause: Clause,
  waiver: Waiver | undefined,
  known: ReadonlySet<string>,
): ReportCheck {
  const check: ReportCheck = {
    id,
    name: record.name,
    file: record.file,
    level: record.level ?? clause.level,
    outcome: record.outcome,
    durationMs: Math.max(0, Math.round(record.durationMs)),
  };
  if (record.representation) check.representation = record.representation;
  if (waiver && isFailure(record.outcome)) check.waived = { reason: waiver.reason, expires: waiver.expires };
  if (record.notApplicable) check.notApplicable = record.notApplicable;
  if (record.evidence) check.evidence = safeEvidence(record.evidence);
  if (record.judgedBy) check.judgedBy = record.judgedBy;
  if (record.cases) check.cases = { ...record.cases };
  if (record.traffic) check.requests = Object.values(record.traffic.requests).reduce((sum, n) => sum + n, 0);
  const observed = [...new Set((record.observations ?? []).map((o) => o.clauseId))].filter((c) => known.has(c));
  if (observed.length > 0) check.observed = observed;
  return check;
}

/** How a clause was judged, or why it was not: the reasons its checks gave, else that they errored. */
function judgementOf(checks: readonly ReportCheck[], observed: boolean): Pick<ReportClause, 'judgedBy' | 'notJudged'> {
  const methods = [...new Set(checks.filter((c) => judged(c.outcome)).map((c) => c.judgedBy ?? 'live'))];
  // What other checks saw of it on the wire judged it too: a clause failed by observations is judged, live.
  if (observed && !methods.includes('live')) methods.push('live');
  if (methods.length > 0) return { judgedBy: methods.sort() as JudgedBy[] };
  const reasons = [...new Set(checks.filter((c) => c.notApplicable).map((c) => notApplicableText(c.notApplicable)))];
  if (reasons.length > 0) return { notJudged: reasons };
  if (checks.length > 0) return { notJudged: ['no check of the clause could judge it (see the errors)'] };
  return {};
}

/** The clause catalogue's clauses reported section by section, in SECTIONS order, each section with its counts. */
function reportSections(reportOf: (clause: Clause) => ReportClause): ReportSection[] {
  const sectionTitles = new Map(SECTIONS.map((section) => [section.id, section.title]));
  const sectionOrder = [...SECTIONS.map((section) => section.id)];
  // A clause whose section is missing from SECTIONS still appears, in a section titled by its id.
  for (const clause of CLAUSES) if (!sectionTitles.has(clause.section)) sectionOrder.push(clause.section);
  const sections: ReportSection[] = [];
  for (const sectionId of new Set(sectionOrder)) {
    const clauses = CLAUSES.filter((clause) => clause.section === sectionId).map(reportOf);
    // Headings without clauses of their own (section 7 is only its subsections) add an empty row and no information.
    if (clauses.length === 0) continue;
    const { counts, waived } = countChecks(clauses);
    sections.push({ id: sectionId, title: sectionTitles.get(sectionId) ?? sectionId, counts, waived, clauses });
  }
  return sections;
}

/** The clauses' checks by outcome; a waived check counts as waived, not as its outcome. */
function countChecks(clauses: readonly ReportClause[]): { counts: ReportSection['counts']; waived: number } {
  const counts = emptyCounts();
  let waived = 0;
  for (const check of clauses.flatMap((clause) => clause.checks)) {
    if (check.waived) waived += 1;
    else counts[check.outcome] += 1;
  }
  return { counts, waived };
}

/** Whether a clause's outcome fails the run (the verdict and its exit code). */
function breaksVerdict(clause: ReportClause, strict: boolean): boolean {
  if (clause.waived) return false;
  if (isFailure(clause.outcome)) return clause.level === 'MUST' || strict;
  if (!strict) return false;
  if (clause.outcome === 'warn') return true;
  // --strict: a MUST clause left unjudged only because the target config lacked something.
  return (
    clause.level === 'MUST' &&
    clause.judgedBy === undefined &&
    clause.checks.some((check) => check.notApplicable && configurable(check.notApplicable))
  );
}

/** The verdict of the run: passed or not, its counts, and the exit code the CLI ends with. */
function verdictOf(
  input: BuildReportInput,
  allClauses: readonly ReportClause[],
  harnessErrors: readonly HarnessError[],
  clausesJudged: number,
  baseline: ReportModel['baseline'],
): ReportModel['verdict'] {
  const { counts, waived } = countChecks(allClauses);
  const clauseCounts = emptyClauseCounts();
  for (const clause of allClauses) clauseCounts[clause.outcome] += 1;
  const breaking = new Set(
    allClauses.filter((clause) => breaksVerdict(clause, input.options.strict)).map((clause) => clause.id),
  );
  // A run that judged nothing is never a pass.
  const passed = breaking.size === 0 && harnessErrors.length === 0 && clausesJudged > 0;
  const exit = decideExit({
    clauses: allClauses,
    breaking,
    harnessErrors: harnessErrors.length,
    clausesJudged,
    only: input.options.only,
    profile: input.profile,
    ...(baseline ? { baseline } : {}),
    ...(input.options.failOn ? { failOn: input.options.failOn } : {}),
  });
  return {
    passed,
    counts,
    clauses: clauseCounts,
    waived,
    exitCode: exit.exitCode,
    ...(exit.notes.length > 0 ? { notes: exit.notes } : {}),
  };
}

/** How much of the clause catalogue the run judged, by which method, and by checks of generated cases or examples. */
function coverageOf(allClauses: readonly ReportClause[]): ReportModel['coverage'] {
  const byMethod: Record<JudgedBy, number> = { live: 0, hooks: 0, patient: 0, static: 0 };
  for (const clause of allClauses) for (const method of clause.judgedBy ?? []) byMethod[method] += 1;
  const clausesJudged = allClauses.filter((clause) => clause.judgedBy !== undefined).length;
  const clausesTotal = CLAUSES.length;
  const checkKinds = { properties: 0, examples: 0 };
  for (const clause of allClauses) {
    for (const check of clause.checks) {
      if (check.outcome !== 'pass' && check.outcome !== 'fail' && check.outcome !== 'warn') continue;
      if (check.cases) checkKinds.properties += 1;
      else checkKinds.examples += 1;
    }
  }
  return {
    clausesJudged,
    clausesTotal,
    ratio: clausesTotal === 0 ? 0 : Math.round((clausesJudged / clausesTotal) * 10_000) / 10_000,
    byMethod,
    checks: checkKinds,
  };
}

/** The checks' traffic summed, roles in name order; undefined when no check counted any (older records). */
function trafficOf(checks: readonly CheckRecord[]): ReportTraffic | undefined {
  const counted = checks.filter((record) => record.traffic !== undefined);
  if (counted.length === 0) return undefined;
  const sum = counted.reduce((total, record) => addTraffic(total, record.traffic as Traffic), emptyTraffic());
  const byRole = Object.fromEntries(Object.entries(sum.requests).sort(([a], [b]) => a.localeCompare(b)));
  return {
    requests: Object.values(byRole).reduce((total, n) => total + n, 0),
    byRole,
    limited: { provoked: sum.provoked429, unprovoked: sum.unprovoked429 },
    waitedMs: Math.round(sum.waitedMs),
  };
}

/**
 * A clause whose failures were all seen in XML answers, while a JSON check of it passed, is met by the service and
 * broken by its XML representation: those failures are filed under 4.14.18a instead (an XML writer that spells a
 * number as a string fails one clause, not every field rule its checks met in XML). The XML checks of the clause
 * are then blocked by 4.14.18a (by 4.13.5a for a clause of access: xmlOnlyClauseOf). Clauses of 4.13 and 4.14 are
 * about representations themselves and stay as they are.
 */
export function xmlOnlyToRepresentation(records: readonly CheckRecord[]): CheckRecord[] {
  const representationOf = (record: CheckRecord) => record.representation ?? 'json';
  const failing = new Map<string, { xml: number; json: number }>();
  const count = (clauseId: string, representation: string) => {
    const entry = failing.get(clauseId) ?? { xml: 0, json: 0 };
    if (representation === 'xml') entry.xml += 1;
    else entry.json += 1;
    failing.set(clauseId, entry);
  };
  const passingJson = new Set<string>();
  for (const record of records) {
    if (record.outcome === 'fail') count(record.clauseId, representationOf(record));
    if (record.outcome === 'pass' && representationOf(record) === 'json') passingJson.add(record.clauseId);
    for (const observation of record.observations ?? []) count(observation.clauseId, representationOf(record));
  }
  const moved = new Set<string>();
  for (const [clauseId, entry] of failing) {
    if (!isRepresentationClause(clauseId) && entry.json === 0 && entry.xml > 0 && passingJson.has(clauseId))
      moved.add(clauseId);
  }
  if (moved.size === 0) return [...records];
  return records.map((record) => {
    if (representationOf(record) !== 'xml') return record;
    const observations = (record.observations ?? []).map((o) =>
      moved.has(o.clauseId)
        ? {
            ...o,
            clauseId: xmlOnlyClauseOf(o.clauseId),
            message: `${o.message} (in XML only; JSON meets ${o.clauseId})`,
          }
        : o,
    );
    if (record.outcome === 'fail' && moved.has(record.clauseId)) {
      const message = record.evidence?.message ?? 'failed';
      const target = xmlOnlyClauseOf(record.clauseId);
      const observation = {
        clauseId: target,
        message: `${message} (in XML only; JSON meets ${record.clauseId})`,
        count: 1,
        // What was expected and what came back go with the message, as for any other observation.
        ...(record.evidence?.expected !== undefined ? { expected: record.evidence.expected } : {}),
        ...(record.evidence?.actual !== undefined ? { actual: record.evidence.actual } : {}),
        ...(record.evidence?.exchanges.at(-1) ? { exchange: record.evidence.exchanges.at(-1) } : {}),
      };
      return {
        ...record,
        outcome: 'not-applicable' as const,
        notApplicable: {
          kind: 'blocked' as const,
          clauseId: target,
          detail: `blocked by ${target}: the XML answer differs from the JSON one (${message.slice(0, 200)})`,
        },
        observations: [...observations, observation],
      };
    }
    return record.observations ? { ...record, observations } : record;
  });
}

/** Not-applicable reasons a more complete target config (credentials, hooks, probe codes) would lift. */
function configurable(reason: NotApplicableReason): boolean {
  return reason.kind === 'missing-credential' || reason.kind === 'missing-hooks' || reason.kind === 'missing-probe';
}

const MAX_OBSERVATIONS_PER_CLAUSE = 5;
const MAX_SEEN_IN = 5;

/**
 * What checks saw of other clauses, grouped per clause and message, the most frequent first; and the clauses some
 * MUST-level check saw a deviation of.
 */
function observationsByClause(
  byClause: ChecksByClause,
  known: ReadonlySet<string>,
): { observations: Map<string, ReportObservation[]>; fromMust: Set<string> } {
  const grouped = new Map<string, Map<string, ReportObservation>>();
  const fromMust = new Set<string>();
  const levelOf = new Map(CLAUSES.map((clause) => [clause.id, clause.level]));
  for (const list of byClause.values()) {
    for (const { record, id } of list) {
      const observerLevel = record.level ?? levelOf.get(record.clauseId);
      for (const observation of record.observations ?? []) {
        if (!known.has(observation.clauseId) || observation.clauseId === record.clauseId) continue;
        if (observerLevel !== 'SHOULD') fromMust.add(observation.clauseId);
        const messages = grouped.get(observation.clauseId) ?? new Map<string, ReportObservation>();
        grouped.set(observation.clauseId, messages);
        const entry = messages.get(observation.message);
        if (entry) {
          entry.count += observation.count;
          if (entry.seenIn.length < MAX_SEEN_IN && !entry.seenIn.includes(id)) entry.seenIn.push(id);
          continue;
        }
        const created: ReportObservation = {
          message: plainMessage(observation.message),
          count: observation.count,
          seenIn: [id],
        };
        if (observation.expected !== undefined) created.expected = plainMessage(observation.expected);
        if (observation.actual !== undefined) created.actual = plainMessage(observation.actual);
        if (observation.exchange) created.exchange = safeExchange(observation.exchange);
        messages.set(observation.message, created);
      }
    }
  }
  const out = new Map<string, ReportObservation[]>();
  for (const [clauseId, messages] of grouped) {
    const sorted = [...messages.values()].sort((a, b) => b.count - a.count || (a.message < b.message ? -1 : 1));
    out.set(clauseId, sorted.slice(0, MAX_OBSERVATIONS_PER_CLAUSE));
  }
  return { observations: out, fromMust };
}

/** Every check of a model, in report order. */
export function allChecks(model: ReportModel): { section: ReportSection; clause: ReportClause; check: ReportCheck }[] {
  return model.sections.flatMap((section) =>
    section.clauses.flatMap((clause) => clause.checks.map((check) => ({ section, clause, check }))),
  );
}
