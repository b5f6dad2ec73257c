import { CLAUSES, type Clause, SECTIONS } from '../../contract/clauses/index.ts';
import { SPEC_RELEASE } from '../../contract/constants.ts';
import type { Outcome, Profile } from '../check/meta.ts';
import type { CheckRecord, HarnessError } from './check-record.ts';
import type { ReportCheck, ReportClause, ReportModel, ReportSection } from './model.ts';
import { emptyCounts, isFailure, ran, worstOutcome } from './outcome.ts';
import { safeEvidence } from './sanitize.ts';
import { resolveWaivers, type Waiver } from './waivers.ts';

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
  harnessErrors?: readonly HarnessError[];
}

/** `<clauseId>/<name>[/<representation>]`; the same as ReportCheck.id before duplicates are numbered. */
export function checkId(record: Pick<CheckRecord, 'clauseId' | 'name' | 'representation'>): string {
  return `${record.clauseId}/${record.name}${record.representation ? `/${record.representation}` : ''}`;
}

/**
 * Merges the checks of a run with the whole clause catalogue: every clause appears (without checks it is
 * 'not-checked'), waivers are applied, and the verdict and coverage computed. Pure: same input, same model.
 */
export function buildReport(input: BuildReportInput): ReportModel {
  const harnessErrors: HarnessError[] = [...(input.harnessErrors ?? [])];
  const known = new Set(CLAUSES.map((clause) => clause.id));

  const byClause = new Map<string, { record: CheckRecord; id: string }[]>();
  const seenIds = new Map<string, number>();
  for (const record of input.checks) {
    if (!known.has(record.clauseId)) {
      harnessErrors.push({
        file: record.file,
        test: record.name,
        message: `check names clause ${record.clauseId}, which the catalogue does not hold; it is not reported`,
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

  const today = input.today ?? input.timing.startedAt.slice(0, 10);
  const outcomesByClause = new Map(
    [...byClause].map(([clauseId, list]) => [clauseId, list.map(({ record }) => record.outcome)]),
  );
  const waivers = resolveWaivers(input.waivers ?? [], outcomesByClause, today);

  const clauseReport = (clause: Clause): ReportClause => {
    const waiver = waivers.covering.get(clause.id);
    const checks = (byClause.get(clause.id) ?? [])
      .map(({ record, id }): ReportCheck => {
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
        return check;
      })
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const report: ReportClause = {
      id: clause.id,
      title: clause.title,
      text: clause.text,
      level: clause.level,
      outcome: worstOutcome(checks.map((check) => check.outcome)) ?? 'not-checked',
      checks,
    };
    if (checks.some((check) => check.waived)) {
      report.waived = checks.every((check) => !isFailure(check.outcome) || check.waived !== undefined);
    }
    return report;
  };

  const sectionTitles = new Map(SECTIONS.map((section) => [section.id, section.title]));
  const sectionOrder = [...SECTIONS.map((section) => section.id)];
  // A clause whose section is missing from SECTIONS still appears, in a section titled by its id.
  for (const clause of CLAUSES) if (!sectionTitles.has(clause.section)) sectionOrder.push(clause.section);
  const sections: ReportSection[] = [];
  for (const sectionId of new Set(sectionOrder)) {
    const clauses = CLAUSES.filter((clause) => clause.section === sectionId).map(clauseReport);
    // Headings without clauses of their own (section 7 is only its subsections) add an empty row and no information.
    if (clauses.length === 0) continue;
    const counts = emptyCounts();
    let waived = 0;
    for (const check of clauses.flatMap((clause) => clause.checks)) {
      if (check.waived) waived += 1;
      else counts[check.outcome] += 1;
    }
    sections.push({ id: sectionId, title: sectionTitles.get(sectionId) ?? sectionId, counts, waived, clauses });
  }

  const allChecks = sections.flatMap((section) => section.clauses.flatMap((clause) => clause.checks));
  const counts = emptyCounts();
  let waived = 0;
  for (const check of allChecks) {
    if (check.waived) waived += 1;
    else counts[check.outcome] += 1;
  }
  const strict = input.options.strict;
  const breaksVerdict = (check: ReportCheck): boolean => {
    if (check.waived) return false;
    if (strict) return isFailure(check.outcome) || check.outcome === 'warn';
    return isFailure(check.outcome) && check.level === 'MUST';
  };
  const passed = !allChecks.some(breaksVerdict) && harnessErrors.length === 0;

  const clausesWithRunCheck = sections
    .flatMap((section) => section.clauses)
    .filter((clause) => clause.checks.some((check) => ran(check.outcome))).length;
  const clausesTotal = CLAUSES.length;

  const model: ReportModel = {
    schemaVersion: 1,
    tool: { name: input.tool.name, version: input.tool.version },
    spec: { release: SPEC_RELEASE },
    target: { baseUrl: input.target.baseUrl, embedded: input.target.embedded },
    profile: input.profile,
    options: { ...input.options, only: [...input.options.only] },
    timing: { ...input.timing },
    verdict: { passed, counts, waived },
    coverage: {
      clausesWithRunCheck,
      clausesTotal,
      ratio: clausesTotal === 0 ? 0 : Math.round((clausesWithRunCheck / clausesTotal) * 10_000) / 10_000,
    },
    sections,
    waivers: waivers.statuses,
    leftovers: [...(input.leftovers ?? [])],
  };
  if (harnessErrors.length > 0) model.harnessErrors = harnessErrors;
  return model;
}

/** Every check of a model, in report order. */
export function allChecks(model: ReportModel): { section: ReportSection; clause: ReportClause; check: ReportCheck }[] {
  return model.sections.flatMap((section) =>
    section.clauses.flatMap((clause) => clause.checks.map((check) => ({ section, clause, check }))),
  );
}

/** Outcome counts of a list of outcomes (for callers that summarise records before the model exists). */
export function countOutcomes(outcomes: Iterable<Outcome>): Record<Outcome, number> {
  const counts = emptyCounts();
  for (const outcome of outcomes) counts[outcome] += 1;
  return counts;
}
