import { readFileSync } from 'node:fs';
import type { Profile } from '../check/outcome-and-evidence.ts';
import type { XmlCoverage } from '../check/representations.ts';
import type { ReportCheck, ReportModel } from '../report/model.ts';
import { CertifyError } from './errors.ts';

/** What a replay takes from the earlier report: the one check, and the run's seed and date so it sees the same data. */
export interface ReplayPlan {
  checkId: string;
  clauseId: string;
  /** Matches exactly the vitest test of the check (the full name ends with its title). */
  testNamePattern: string;
  seed: number;
  date: string;
  runs: number;
  /** An XML check of a clause not about representations runs only under every-check; reports before --xml ran so. */
  xml: XmlCoverage;
  profile: Profile;
  allowBookings: boolean;
  strict: boolean;
  target: { embedded: boolean; baseUrl: string };
}

export function loadReplayPlan(checkId: string, reportFile: string): ReplayPlan {
  let report: ReportModel;
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8')) as ReportModel;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CertifyError(
      `--from: cannot read the report ${reportFile} (${code ?? (error as Error).message}); pass the report.json of an earlier run`,
    );
  }
  if (!Array.isArray(report?.sections) || typeof report.options?.seed !== 'number') {
    throw new CertifyError(`--from: ${reportFile} is not a certification report.json`);
  }
  const checks = report.sections.flatMap((section) => section.clauses.flatMap((clause) => clause.checks));
  const check = checks.find((c) => c.id === checkId);
  if (!check) {
    const clauseId = checkId.split('/')[0] ?? '';
    const near = checks.filter((c) => c.id.startsWith(`${clauseId}/`)).map((c) => c.id);
    const hint = near.length > 0 ? `; checks of clause ${clauseId}: ${near.slice(0, 8).join(', ')}` : '';
    throw new CertifyError(`--replay: no check "${checkId}" in ${reportFile}${hint}`);
  }
  const clauseId = clauseIdOf(check);
  return {
    checkId,
    clauseId,
    testNamePattern: testNamePatternOf(check, clauseId),
    seed: report.options.seed,
    date: report.options.date,
    runs: report.options.runs,
    xml: checkId.endsWith('/xml') ? 'every-check' : (report.options.xml ?? 'every-check'),
    profile: report.profile,
    allowBookings: report.options.allowBookings,
    strict: report.options.strict,
    target: { embedded: report.target.embedded, baseUrl: report.target.baseUrl },
  };
}

function clauseIdOf(check: ReportCheck): string {
  const clauseId = check.id.split('/')[0];
  if (!clauseId) throw new CertifyError(`--replay: check id "${check.id}" does not start with a clause id`);
  return clauseId;
}

/**
 * Check titles are `[<clauseId>] <name> (<representation>)`; vitest matches the pattern against the full name
 * (describe titles, a space, the test title), so the pattern is the escaped title anchored at both ends.
 */
export function testNamePatternOf(check: Pick<ReportCheck, 'name' | 'representation'>, clauseId: string): string {
  const title = check.name.startsWith('[')
    ? check.name
    : `[${clauseId}] ${check.name}${check.representation ? ` (${check.representation})` : ''}`;
  return `(^| )${escapeRegExp(title)}$`;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
