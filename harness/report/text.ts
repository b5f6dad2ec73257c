import type { Evidence, EvidenceExchange, NotApplicableReason } from '../check/meta.ts';
import type { ReportCheck, ReportClause, ReportModel, ReportSection } from './model.ts';
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
