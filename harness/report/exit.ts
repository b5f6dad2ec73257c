import { isUnreachableMessage } from '../http/unreachable.ts';
import type { ReportBaseline, ReportClause } from './model.ts';
import { notJudgedSummary } from './not-judged.ts';

export interface ExitInput {
  clauses: readonly ReportClause[];
  /** The clauses that break the verdict (failed or errored MUST clauses, with --strict also SHOULD ones). */
  breaking: ReadonlySet<string>;
  harnessErrors: number;
  clausesJudged: number;
  only: readonly string[];
  profile: string;
  baseline?: ReportBaseline;
  failOn?: 'new';
}

/** A failure the target caused (a failed check or observation), as opposed to an error nothing judged. */
function judgedFailure(clause: ReportClause): boolean {
  if (clause.waived) return false;
  return (
    (clause.observations?.length ?? 0) > 0 || clause.checks.some((check) => check.outcome === 'fail' && !check.waived)
  );
}

/**
 * The exit code, one meaning each (0 judged and passed, 1 judged and failed, 2 could not judge), and the notes that
 * explain it. The order matters: a harness error or a run that judged nothing is never a verdict; a target that
 * stopped answering leaves a verdict only when it had already failed something; --fail-on new looks at new
 * failures only.
 */
export function decideExit(input: ExitInput): { exitCode: 0 | 1 | 2; notes: string[] } {
  const notes: string[] = [];
  if (input.harnessErrors > 0) {
    notes.push(`${input.harnessErrors} harness error(s): checks may be missing, so there is no verdict (exit 2)`);
    return { exitCode: 2, notes };
  }
  const newOnly = input.failOn === 'new' && input.baseline !== undefined;
  const counted = newOnly ? new Set(input.baseline?.newFailures ?? []) : undefined;
  const breaking = [...input.breaking].filter((id) => counted === undefined || counted.has(id));

  const unreachable = input.clauses.flatMap((clause) =>
    clause.checks.filter((check) => check.outcome === 'error' && isUnreachableMessage(check.evidence?.message)),
  );
  if (unreachable.length > 0) {
    const cause = unreachable[0]?.evidence?.message ?? '';
    const failed = input.clauses.filter((clause) => breaking.includes(clause.id) && judgedFailure(clause));
    const line = `the target stopped answering during the run: ${unreachable.length} check(s) could not run (${cause})`;
    if (failed.length > 0) {
      notes.push(`${line}; ${failed.length} clause(s) had already failed, so the verdict stands (exit 1)`);
      return { exitCode: 1, notes };
    }
    notes.push(`${line}; nothing had failed before, so there is no verdict (exit 2)`);
    return { exitCode: 2, notes };
  }
  if (input.clausesJudged === 0) {
    notes.push(`no check could run: ${notJudgedSummary(input.clauses, input.only, input.profile)} (exit 2)`);
    return { exitCode: 2, notes };
  }
  if (newOnly) {
    if (breaking.length > 0) {
      notes.push(
        `${breaking.length} clause(s) failed that did not fail in the baseline: ${breaking.join(', ')} (exit 1)`,
      );
      return { exitCode: 1, notes };
    }
    if (input.breaking.size > 0) {
      notes.push('--fail-on new: every failing clause failed in the baseline too, so the exit code is 0');
    }
    return { exitCode: 0, notes };
  }
  return { exitCode: input.breaking.size > 0 ? 1 : 0, notes };
}
