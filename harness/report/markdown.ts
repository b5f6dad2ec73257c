import type { Outcome } from '../check/meta.ts';
import { allChecks } from './build.ts';
import type { ReportModel } from './model.ts';
import { OUTCOMES } from './outcome.ts';
import { checkLabel, curlText, notApplicableText, seedText } from './text.ts';

const HEAD: Record<Outcome, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  error: 'error',
  'not-applicable': 'n/a',
};

/**
 * Inline text: no raw HTML and no emphasis, code, link or table syntax survives, and it stays on one line (table
 * cells). Line-start syntax (#, -, 1.) needs no escape: every place inline text goes starts with our own prefix.
 */
export function mdInline(text: string): string {
  return text
    .replace(/\r?\n|\r/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|~])/g, '\\$1');
}

/** A fenced code block whose fence is longer than any backtick run inside, so the content cannot close it. */
export function mdCode(text: string, language = ''): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

/** report.md: verdict, counts, coverage, a table per section, then every failure with its clause and curl line. */
export function renderMarkdown(model: ReportModel): string {
  const out: string[] = [];
  const { verdict, coverage, options } = model;
  out.push(`# Partner API v1 certification: ${verdict.passed ? 'PASSED' : 'FAILED'}`, '');
  const flags = [
    options.strict ? 'strict' : null,
    options.allowBookings ? 'bookings allowed' : null,
    `seed ${options.seed}`,
    `runs ${options.runs}`,
    `date ${options.date}`,
    options.only.length > 0 ? `only ${options.only.join(', ')}` : null,
  ].filter((flag): flag is string => flag !== null);
  const counts = OUTCOMES.map((outcome) => `${HEAD[outcome]} ${verdict.counts[outcome]}`).join(' · ');
  out.push(
    '| | |',
    '|---|---|',
    `| Spec release | ${mdInline(model.spec.release)} |`,
    `| Tool | ${mdInline(`${model.tool.name} ${model.tool.version}`)} |`,
    `| Target | ${mdInline(model.target.baseUrl)}${model.target.embedded ? ' (embedded reference)' : ''} |`,
    `| Profile | ${mdInline(model.profile)} |`,
    `| Options | ${mdInline(flags.join(', '))} |`,
    `| Started | ${mdInline(model.timing.startedAt)} (${(model.timing.durationMs / 1000).toFixed(1)} s) |`,
    `| Checks | ${counts}${verdict.waived > 0 ? ` · waived ${verdict.waived}` : ''} |`,
    `| Coverage | ${coverage.clausesJudged}/${coverage.clausesTotal} clauses with a check that ran (${percent(coverage.ratio)}) |`,
    '',
  );

  const harnessErrors = model.harnessErrors ?? [];
  if (harnessErrors.length > 0) {
    out.push('## Harness errors', '', 'Checks may be missing from this report:', '');
    for (const error of harnessErrors) {
      const where = [error.file, error.test].filter(Boolean).join(' > ');
      out.push(`- ${where ? `${mdInline(where)}: ` : ''}${mdInline(error.message)}`);
    }
    out.push('');
  }

  out.push('## Sections', '');
  out.push(`| Section | Title | ${OUTCOMES.map((outcome) => HEAD[outcome]).join(' | ')} | waived | not checked |`);
  out.push(`|---|---|${OUTCOMES.map(() => '---:|').join('')}---:|---:|`);
  for (const section of model.sections) {
    const notChecked = section.clauses.filter((clause) => clause.outcome === 'not-checked').length;
    const cells = OUTCOMES.map((outcome) => section.counts[outcome]).join(' | ');
    out.push(
      `| ${mdInline(section.id)} | ${mdInline(section.title)} | ${cells} | ${section.waived ?? 0} | ${notChecked} |`,
    );
  }
  out.push('');

  const checks = allChecks(model);
  const failures = checks.filter(
    ({ check }) => (check.outcome === 'fail' || check.outcome === 'error') && !check.waived,
  );
  out.push('## Failures', '');
  if (failures.length === 0) out.push('None.', '');
  for (const { clause, check } of failures) {
    out.push(`### ${check.outcome} \\[${mdInline(clause.id)}\\] ${mdInline(checkLabel(check))}`, '');
    out.push(`> ${clause.level}: ${mdInline(clause.text)}`, '');
    out.push(
      `Check \`${check.id.replace(/`/g, "'")}\` in ${mdInline(check.file)}; ${mdInline(seedText(model, check.evidence))}.`,
    );
    out.push('');
    const evidence = check.evidence;
    if (evidence) {
      out.push(mdCode(evidence.message, 'text'), '');
      if (evidence.expected !== undefined || evidence.actual !== undefined) {
        out.push(mdCode(`expected: ${evidence.expected ?? ''}\nactual:   ${evidence.actual ?? ''}`, 'text'), '');
      }
      for (const exchange of evidence.exchanges) {
        const status = exchange.response ? `HTTP ${exchange.response.status}` : 'no response';
        out.push(`${mdInline(`${exchange.request.method} ${exchange.request.url}`)} → ${status}`, '');
        out.push(mdCode(curlText(exchange), 'sh'), '');
      }
    }
  }

  const warnings = checks.filter(({ check }) => check.outcome === 'warn');
  if (warnings.length > 0) {
    out.push('## Warnings', '');
    for (const { clause, check } of warnings) {
      const message = check.evidence?.message ? `: ${mdInline(check.evidence.message)}` : '';
      out.push(`- \\[${mdInline(clause.id)}\\] ${mdInline(checkLabel(check))}${message}`);
    }
    out.push('');
  }

  const waived = checks.filter(({ check }) => check.waived);
  if (waived.length > 0) {
    out.push('## Waived failures', '');
    for (const { clause, check } of waived) {
      out.push(
        `- ${check.outcome} \\[${mdInline(clause.id)}\\] ${mdInline(checkLabel(check))}: waived until ${mdInline(check.waived?.expires ?? '')}, ${mdInline(check.waived?.reason ?? '')}`,
      );
    }
    out.push('');
  }

  if (model.waivers.length > 0) {
    out.push('## Waivers', '', '| Clause | Expires | Status | Reason |', '|---|---|---|---|');
    for (const waiver of model.waivers) {
      out.push(
        `| ${mdInline(waiver.clauseId)} | ${mdInline(waiver.expires)} | ${waiver.status} | ${mdInline(waiver.reason)} |`,
      );
    }
    out.push('');
  }

  if (model.leftovers.length > 0) {
    out.push('## Leftover reservations', '', 'Created by this run and not cancelled:', '');
    for (const id of model.leftovers) out.push(`- ${mdInline(id)}`);
    out.push('');
  }

  const notApplicable = checks.filter(({ check }) => check.outcome === 'not-applicable');
  if (notApplicable.length > 0) {
    out.push('## Not applicable', '');
    for (const { clause, check } of notApplicable) {
      out.push(
        `- \\[${mdInline(clause.id)}\\] ${mdInline(checkLabel(check))}: ${mdInline(notApplicableText(check.notApplicable))}`,
      );
    }
    out.push('');
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
