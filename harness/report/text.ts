import type { Evidence, EvidenceExchange, NotApplicableReason } from '../check/outcome-and-evidence.ts';
import type { ClauseOutcome, ReportCheck, ReportClause, ReportModel, ReportSection } from './model.ts';
import { safeCommandLine, safeHeaderValue } from './sanitize.ts';

/** Plain-text pieces shared by the JUnit and Markdown renderers (the HTML renderer builds its own markup). */

export function checkLabel(check: ReportCheck): string {
  return check.representation ? `${check.name} (${check.representation})` : check.name;
}

export function notApplicableText(reason: NotApplicableReason | undefined): string {
  return reason ? `${reason.kind}: ${reason.detail}` : 'not applicable';
}

export function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${safeHeaderValue(name, value)}`);
}

export function requestText(exchange: EvidenceExchange): string {
  const { request } = exchange;
  const lines = [`${request.method} ${request.url}`, ...headerLines(request.headers)];
  if (request.body !== undefined && request.body !== '') lines.push('', request.body);
  return lines.join('\n');
}

export function responseText(exchange: EvidenceExchange): string {
  const { response } = exchange;
  if (!response) return '(no response)';
  const lines = [`HTTP ${response.status}`, ...headerLines(response.headers)];
  if (response.body !== undefined && response.body !== '') lines.push('', response.body);
  return lines.join('\n');
}

export function curlText(exchange: EvidenceExchange): string {
  return safeCommandLine(exchange.curl);
}

/** How to replay a failure: the run's seed, and for property-based checks the failing case's seed and path. */
export function seedText(model: ReportModel, evidence: Evidence | undefined): string {
  const property = evidence?.property;
  const parts = [`run seed ${model.options.seed}`];
  if (property) {
    parts.push(`property seed ${property.seed}`);
    if (property.path !== undefined) parts.push(`path ${property.path}`);
  }
  return parts.join(', ');
}

/** The whole evidence of a check as plain text (JUnit failure bodies). */
export function evidenceText(
  model: ReportModel,
  section: ReportSection,
  clause: ReportClause,
  check: ReportCheck,
): string {
  const evidence = check.evidence;
  const lines = [`[${clause.id}] ${clause.level} ${clause.title} (section ${section.id})`, `Clause: ${clause.text}`];
  if (check.waived) lines.push(`Waived until ${check.waived.expires}: ${check.waived.reason}`);
  if (evidence) {
    lines.push(`Message: ${evidence.message}`);
    if (evidence.expected !== undefined) lines.push(`Expected: ${evidence.expected}`);
    if (evidence.actual !== undefined) lines.push(`Actual: ${evidence.actual}`);
    if (evidence.property?.counterexample !== undefined) {
      lines.push(`Counterexample: ${evidence.property.counterexample}`);
    }
  }
  lines.push(`Seed: ${seedText(model, evidence)}`);
  (evidence?.exchanges ?? []).forEach((exchange, index) => {
    lines.push('', `--- exchange ${index + 1} (${exchange.durationMs} ms)`, requestText(exchange), '');
    lines.push(responseText(exchange), '', `curl: ${curlText(exchange)}`);
  });
  return lines.join('\n');
}

const CLAUSE_LABEL: Record<ClauseOutcome | 'waived', string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  error: 'error',
  'not-applicable': 'n/a',
  'not-checked': 'not checked',
  waived: 'waived',
};

/** Clause outcomes in the order counts are listed: the good news first, the unjudged last. */
export const CLAUSE_OUTCOMES: readonly ClauseOutcome[] = [
  'pass',
  'fail',
  'warn',
  'error',
  'not-applicable',
  'not-checked',
];

export function clauseOutcomeLabel(outcome: ClauseOutcome | 'waived'): string {
  return CLAUSE_LABEL[outcome];
}

/** The exit code the model records (older reports: derived from the verdict). */
export function exitCodeOf(model: ReportModel): 0 | 1 | 2 {
  if (model.verdict.exitCode !== undefined) return model.verdict.exitCode;
  return (model.harnessErrors?.length ?? 0) > 0 ? 2 : model.verdict.passed ? 0 : 1;
}

/** PASSED, FAILED (a clause failed), or NOT JUDGED (exit 2 and nothing failed: there is no verdict). */
export function verdictLabel(model: ReportModel): string {
  if (model.verdict.passed) return 'PASSED';
  const failed = model.sections.some((section) => section.clauses.some((c) => c.outcome === 'fail' && !c.waived));
  return exitCodeOf(model) === 2 && !failed ? 'NOT JUDGED' : 'FAILED';
}

/** "pass 120 · fail 12 · … · waived 1": clauses by outcome, the one counting unit of every format. */
export function clauseCountsText(model: ReportModel): string {
  const counts = CLAUSE_OUTCOMES.map((outcome) => `${CLAUSE_LABEL[outcome]} ${model.verdict.clauses[outcome]}`);
  const waived = waivedClauses(model);
  if (waived > 0) counts.push(`waived ${waived}`);
  return counts.join(' · ');
}

export function waivedClauses(model: ReportModel): number {
  return model.sections.reduce((sum, section) => sum + section.clauses.filter((clause) => clause.waived).length, 0);
}

/** "136 / 361 clauses judged on this target (37.7%): live 120, hooks 14". */
export function coverageText(model: ReportModel): string {
  const { coverage } = model;
  const methods = Object.entries(coverage.byMethod)
    .filter(([, n]) => n > 0)
    .map(([method, n]) => `${method} ${n}`);
  return `${coverage.clausesJudged} / ${coverage.clausesTotal} clauses judged on this target (${(coverage.ratio * 100).toFixed(1)}%)${methods.length > 0 ? `: ${methods.join(', ')}` : ''}${checkKindsText(model)}`;
}

/**
 * "4,210 requests (partnerA 3,900, rateLimit 310), and 6 at pre-flight; 429: 60 provoked, 2 waited out; 41 s waiting
 * for the target's rate limits", or undefined when the report counted none.
 */
export function trafficText(model: ReportModel): string | undefined {
  const traffic = model.traffic;
  if (!traffic) return undefined;
  const n = (value: number) => value.toLocaleString('en-US');
  const roles = Object.entries(traffic.byRole).map(([role, count]) => `${role} ${n(count)}`);
  const { provoked, unprovoked } = traffic.limited;
  return (
    `${n(traffic.requests)} requests${roles.length > 0 ? ` (${roles.join(', ')})` : ''}` +
    `${traffic.preflight ? `, and ${n(traffic.preflight)} at pre-flight` : ''}; ` +
    `429: ${n(provoked)} provoked, ${n(unprovoked)} not provoked (waited out, never judged); ` +
    `${Math.round(traffic.waitedMs / 1000)} s waiting for the target's rate limits`
  );
}

/** "; checks: 420 properties / 280 examples (60% properties)", or nothing when no check judged. */
function checkKindsText(model: ReportModel): string {
  const kinds = model.coverage.checks;
  const total = kinds ? kinds.properties + kinds.examples : 0;
  if (!kinds || total === 0) return '';
  const share = Math.round((kinds.properties / total) * 100);
  return `; checks: ${kinds.properties} properties / ${kinds.examples} examples (${share}% properties)`;
}

/** One line per movement since the baseline, or none without a baseline. */
export function baselineLines(model: ReportModel, maxIds = 12): string[] {
  const baseline = model.baseline;
  if (!baseline) return [];
  const ids = (list: string[]) =>
    list.length === 0
      ? ''
      : `: ${list.slice(0, maxIds).join(', ')}${list.length > maxIds ? `, … (${list.length - maxIds} more)` : ''}`;
  return [
    `Compared with the baseline of ${baseline.from.startedAt} (seed ${baseline.from.seed}, tool ${baseline.from.toolVersion}):`,
    `new failures ${baseline.newFailures.length}${ids(baseline.newFailures)}`,
    `fixed ${baseline.fixed.length}${ids(baseline.fixed)}`,
    `unchanged failures ${baseline.unchanged.length}${ids(baseline.unchanged)}`,
    `became not applicable ${baseline.becameNotApplicable.length}${ids(baseline.becameNotApplicable)}`,
  ];
}
