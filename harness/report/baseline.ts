import type { ReportBaseline, ReportClause, ReportModel } from './model.ts';
import { isFailure } from './outcome.ts';

/** A failure the verdict counts: failed or errored and not waived. */
export function failingNow(clause: Pick<ReportClause, 'outcome' | 'waived'>): boolean {
  return isFailure(clause.outcome) && clause.waived !== true;
}

/** Judged on the target: a check passed, failed or warned, or another check's observation failed it. */
function judgedIn(clause: Pick<ReportClause, 'outcome' | 'judgedBy'>): boolean {
  return (
    clause.judgedBy !== undefined || clause.outcome === 'pass' || clause.outcome === 'fail' || clause.outcome === 'warn'
  );
}

/**
 * This run against an earlier report of the same target, clause by clause (--baseline): what CI gates on when the
 * build does not conform fully yet ("nothing got worse"). A waived failure counts as failing in the earlier report
 * too, so lifting a waiver never shows a clause as new.
 */
export function compareWithBaseline(previous: ReportModel, clauses: readonly ReportClause[]): ReportBaseline {
  const before = new Map(previous.sections.flatMap((section) => section.clauses).map((clause) => [clause.id, clause]));
  const out: ReportBaseline = {
    from: { startedAt: previous.timing.startedAt, seed: previous.options.seed, toolVersion: previous.tool.version },
    newFailures: [],
    fixed: [],
    unchanged: [],
    becameNotApplicable: [],
  };
  for (const clause of clauses) {
    const old = before.get(clause.id);
    const failedBefore = old !== undefined && isFailure(old.outcome);
    if (isFailure(clause.outcome)) {
      // A new failure a waiver covers is not news for the gate (waivers still apply).
      if (failedBefore) out.unchanged.push(clause.id);
      else if (failingNow(clause)) out.newFailures.push(clause.id);
    } else if (failedBefore && judgedIn(clause)) {
      out.fixed.push(clause.id);
    } else if (old !== undefined && judgedIn(old) && !judgedIn(clause)) {
      out.becameNotApplicable.push(clause.id);
    }
  }
  return out;
}
