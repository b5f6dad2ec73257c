import type { EvidenceExchange } from '../check/outcome-and-evidence.ts';
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
  items: FailingClause[];
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

/** Failed and errored clauses no waiver covers: root causes first (most seen and blocking), then in spec order. */
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
  return list
    .map((item, index) => ({ item, index }))
    .sort((a, b) => weight(b.item) - weight(a.item) || a.index - b.index)
    .map(({ item }) => item);
}

/** Clauses that failed for the same first cause, together: one line per cause, the clauses counted. */
export function groupByCause(list: readonly FailingClause[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const item of list) {
    const key = `${item.outcome}\u0000${item.cause}`;
    const group = groups.get(key) ?? { cause: item.cause, items: [] };
    group.items.push(item);
    groups.set(key, group);
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
