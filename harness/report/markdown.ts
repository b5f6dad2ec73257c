import { type FailureGroup, failingClauses, groupByCause, reachText } from './failures.ts';
import type { ReportModel } from './model.ts';
import {
  baselineLines,
  CLAUSE_OUTCOMES,
  clauseCountsText,
  clauseOutcomeLabel,
  coverageText,
  curlText,
  exitCodeOf,
  trafficText,
  verdictLabel,
} from './text.ts';

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

/** report.md must fit a GitHub comment (65,536 characters) with room to spare: the issue asks for under 20 KB. */
export const MARKDOWN_BUDGET_BYTES = 19_500;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

interface Detail {
  /** Failing clauses shown with cause, expected/actual and curl. */
  top: number;
  /** Characters of a curl line. */
  curl: number;
  /** Characters of a cause, expected or actual value. */
  value: number;
  /** Ids in a list before "… and N more". */
  ids: number;
}

const DETAIL_STEPS: Detail[] = [
  { top: 10, curl: 1_200, value: 300, ids: 40 },
  { top: 6, curl: 600, value: 200, ids: 25 },
  { top: 3, curl: 300, value: 120, ids: 12 },
  { top: 1, curl: 200, value: 80, ids: 6 },
];

function idList(ids: readonly string[], max: number): string {
  const shown = ids.slice(0, max).map(mdInline).join(', ');
  return ids.length > max ? `${shown}, … (${ids.length - max} more)` : shown;
}

function groupMarkdown(group: FailureGroup, detail: Detail): string[] {
  const out: string[] = [];
  const [first] = group.items;
  if (!first) return out;
  const ids = group.items.map((item) => item.clause.id);
  const head =
    group.items.length === 1
      ? `### ${first.outcome} ${mdInline(first.clause.id)}: ${mdInline(cut(first.clause.title, 120))}`
      : `### ${first.outcome} ×${group.items.length} clauses: ${idList(ids, detail.ids)}`;
  out.push(head, '');
  const reach = reachText(first);
  out.push(`${mdInline(cut(group.headline, detail.value))}${reach ? ` (${mdInline(reach)})` : ''}`, '');
  if (first.observation && first.observation.seenIn.length > 0) {
    out.push(`Seen by ${idList(first.observation.seenIn, 3)}.`, '');
  }
  if (first.expected !== undefined || first.actual !== undefined) {
    out.push(
      mdCode(
        `expected: ${cut(first.expected ?? '', detail.value)}\nactual:   ${cut(first.actual ?? '', detail.value)}`,
        'text',
      ),
      '',
    );
  }
  const exchange = first.exchange;
  if (exchange) {
    const status = exchange.response ? `HTTP ${exchange.response.status}` : 'no response';
    out.push(`${mdInline(cut(`${exchange.request.method} ${exchange.request.url}`, 200))} → ${status}`, '');
    out.push(mdCode(cut(curlText(exchange), detail.curl), 'sh'), '');
  }
  return out;
}

function render(model: ReportModel, detail: Detail): string {
  const out = [
    ...headerLines(model, detail),
    ...summaryTable(model),
    ...harnessErrorLines(model, detail),
    ...failingClauseLines(model, detail),
    ...sectionTable(model),
    ...warningLines(model, detail),
    ...waiverLines(model, detail),
    ...leftoverLines(model, detail),
    ...loadLines(model),
    'Every check with its evidence, each clause with how it was judged: report.html and report.json.',
  ];
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/** The verdict as the title, the run's notes, and what moved since the baseline: what a reader looks at first. */
function headerLines(model: ReportModel, detail: Detail): string[] {
  const out = [`# Partner API v1 certification: ${verdictLabel(model)}`, ''];
  for (const note of model.verdict.notes ?? []) out.push(`> ${mdInline(note)}`, '');
  const baseline = baselineLines(model, detail.ids);
  if (baseline.length > 0) {
    out.push('## Since the baseline', '', mdInline(baseline[0] ?? ''), '');
    for (const line of baseline.slice(1)) out.push(`- ${mdInline(line)}`);
    out.push('');
  }
  return out;
}

/** The options that change what a run judges or how, in words. */
function optionFlags(options: ReportModel['options']): string[] {
  return [
    options.strict ? 'strict' : null,
    options.allowBookings ? 'bookings allowed' : null,
    options.failOn ? `fail on ${options.failOn}` : null,
    `seed ${options.seed}`,
    `runs ${options.runs}`,
    options.xml ? `xml ${options.xml}` : null,
    `date ${options.date}`,
    options.only.length > 0 ? `only ${options.only.join(', ')}` : null,
  ].filter((flag): flag is string => flag !== null);
}

/** The run at a glance: verdict, counts, coverage and what was run against what. */
function summaryTable(model: ReportModel): string[] {
  const traffic = trafficText(model);
  return [
    '| | |',
    '|---|---|',
    `| Verdict | ${verdictLabel(model)} (exit ${exitCodeOf(model)}) |`,
    `| Clauses | ${clauseCountsText(model)} |`,
    `| Coverage | ${mdInline(coverageText(model))} |`,
    ...(traffic ? [`| Traffic | ${mdInline(traffic)} |`] : []),
    `| Spec release | ${mdInline(model.spec.release)} |`,
    `| Target | ${mdInline(model.target.baseUrl)}${model.target.embedded ? ' (embedded reference)' : ''} |`,
    `| Profile | ${mdInline(model.profile)} |`,
    `| Options | ${mdInline(optionFlags(model.options).join(', '))} |`,
    `| Started | ${mdInline(model.timing.startedAt)} (${(model.timing.durationMs / 1000).toFixed(1)} s) |`,
    `| Tool | ${mdInline(`${model.tool.name} ${model.tool.version}`)} |`,
    '',
  ];
}

const HARNESS_ERRORS_SHOWN = 5;

function harnessErrorLines(model: ReportModel, detail: Detail): string[] {
  const harnessErrors = model.harnessErrors ?? [];
  if (harnessErrors.length === 0) return [];
  const out = ['## Harness errors', '', 'Checks may be missing from this report:', ''];
  for (const error of harnessErrors.slice(0, HARNESS_ERRORS_SHOWN)) {
    const where = [error.file, error.test].filter(Boolean).join(' > ');
    out.push(`- ${where ? `${mdInline(where)}: ` : ''}${mdInline(cut(error.message, detail.value))}`);
  }
  if (harnessErrors.length > HARNESS_ERRORS_SHOWN) {
    out.push(`- … and ${harnessErrors.length - HARNESS_ERRORS_SHOWN} more (see report.html)`);
  }
  out.push('');
  return out;
}

/** The top failing clauses in full, grouped by cause; the rest by id only. */
function failingClauseLines(model: ReportModel, detail: Detail): string[] {
  const failing = failingClauses(model);
  const groups = groupByCause(failing);
  const out = [`## Failing clauses (${failing.length})`, ''];
  if (failing.length === 0) out.push('None.', '');
  else if (failing.some((item) => item.seen + item.blocks > 0)) out.push('Root causes first.', '');
  for (const group of groups.slice(0, detail.top)) out.push(...groupMarkdown(group, detail));
  const rest = groups.slice(detail.top).flatMap((group) => group.items.map((item) => item.clause.id));
  if (rest.length > 0) out.push(`And ${rest.length} more: ${idList(rest, detail.ids)}. Details in report.html.`, '');
  return out;
}

/** A row per section: its clauses by outcome, how many are waived and how many judged. */
function sectionTable(model: ReportModel): string[] {
  const out = [
    '## Sections (clauses by outcome)',
    '',
    `| Section | ${CLAUSE_OUTCOMES.map(clauseOutcomeLabel).join(' | ')} | waived | judged |`,
    `|---|${CLAUSE_OUTCOMES.map(() => '---:|').join('')}---:|---:|`,
  ];
  for (const section of model.sections) {
    const cells = CLAUSE_OUTCOMES.map((outcome) => section.clauses.filter((c) => c.outcome === outcome).length);
    const waived = section.clauses.filter((c) => c.waived).length;
    const judged = section.clauses.filter((clause) => clause.judgedBy !== undefined).length;
    out.push(
      `| ${mdInline(section.id)} ${mdInline(cut(section.title, 40))} | ${cells.join(' | ')} | ${waived} | ${judged}/${section.clauses.length} |`,
    );
  }
  out.push('');
  return out;
}

function warningLines(model: ReportModel, detail: Detail): string[] {
  const warned = model.sections.flatMap((section) => section.clauses).filter((clause) => clause.outcome === 'warn');
  if (warned.length === 0) return [];
  return [
    `## Warnings (${warned.length} SHOULD clauses)`,
    '',
    idList(
      warned.map((clause) => clause.id),
      detail.ids,
    ),
    '',
  ];
}

/** The clauses a waiver covered, and every waiver with what it did in this run. */
function waiverLines(model: ReportModel, detail: Detail): string[] {
  const waived = model.sections.flatMap((section) => section.clauses).filter((clause) => clause.waived);
  if (waived.length === 0 && model.waivers.length === 0) return [];
  const out = ['## Waivers', ''];
  if (waived.length > 0) {
    out.push(
      `Waived failing clauses: ${idList(
        waived.map((clause) => clause.id),
        detail.ids,
      )}.`,
      '',
    );
  }
  if (model.waivers.length > 0) {
    out.push('| Clause | Expires | Status | Reason |', '|---|---|---|---|');
    for (const waiver of model.waivers.slice(0, detail.ids)) {
      out.push(
        `| ${mdInline(waiver.clauseId)} | ${mdInline(waiver.expires)} | ${waiver.status} | ${mdInline(cut(waiver.reason, 120))} |`,
      );
    }
    out.push('');
  }
  return out;
}

function leftoverLines(model: ReportModel, detail: Detail): string[] {
  if (model.leftovers.length === 0) return [];
  return [
    '## Leftover reservations',
    '',
    'Created by this run and not cancelled:',
    '',
    idList(model.leftovers, detail.ids),
    '',
  ];
}

function loadLines(model: ReportModel): string[] {
  if (!model.load || model.load.length === 0) return [];
  const out = ['## Load scenarios', '', 'Not part of the verdict.', ''];
  for (const result of model.load) {
    out.push(
      `- ${mdInline(result.scenario)}: ${result.passed ? 'passed' : 'FAILED'} (${mdInline(result.engine)} engine)`,
    );
  }
  out.push('');
  return out;
}

/**
 * report.md, for a CI summary or a pull-request comment: the verdict, counts by clause, what moved since the
 * baseline, the top failing clauses with their cause and a curl line, a table of sections. Always under
 * MARKDOWN_BUDGET_BYTES: details give way (fewer clauses in full, shorter values) until it fits; the rest is in
 * report.html and report.json.
 */
export function renderMarkdown(model: ReportModel): string {
  let text = '';
  for (const detail of DETAIL_STEPS) {
    text = render(model, detail);
    if (Buffer.byteLength(text, 'utf8') <= MARKDOWN_BUDGET_BYTES) return text;
  }
  // Still too long (a pathological title or URL): cut at a line, say so.
  const note = '\n… (cut to fit; see report.html)\n';
  let bytes = 0;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    bytes += Buffer.byteLength(line, 'utf8') + 1;
    if (bytes > MARKDOWN_BUDGET_BYTES - note.length) break;
    lines.push(line);
  }
  // An open fence would swallow the note: close it.
  const fences = lines.filter((line) => /^`{3,}/.test(line)).length;
  if (fences % 2 === 1) lines.push('```');
  return `${lines.join('\n')}${note}`;
}
