import type { Evidence, EvidenceExchange } from '../check/outcome-and-evidence.ts';
import { failingClauses, groupByCause, judgedText, reachText } from './failures.ts';
import { diffHtml, requestHtml, responseHtml } from './html-body.ts';
import { anchor, badge, esc, label, page, pre, ROW_OUTCOMES, type RowOutcome } from './html-kit.ts';
import { loadSectionHtml } from './html-load-plots.ts';
import { mutationSectionHtml } from './html-mutation.ts';
import type { ReportCheck, ReportClause, ReportModel, ReportObservation, ReportSection } from './model.ts';
import {
  baselineLines,
  checkLabel,
  clauseCountsText,
  coverageText,
  curlText,
  exitCodeOf,
  notApplicableText,
  seedText,
  trafficText,
  verdictLabel,
} from './text.ts';

/** Failing clauses listed in full at the top; the others are in the clause list below. */
const TOP_FAILURES = 25;

function rowOutcome(clause: ReportClause): RowOutcome {
  return clause.waived ? 'waived' : clause.outcome;
}

function clauseAnchor(clause: Pick<ReportClause, 'id'>): string {
  return `clause-${clause.id}`;
}

function checkAnchor(checkId: string): string {
  return anchor('check', checkId);
}

function clauseLink(id: string, text = id): string {
  return `<a href="#${esc(`clause-${id}`)}"><code>${esc(text)}</code></a>`;
}

function exchangeHtml(exchange: EvidenceExchange, index: number, failing: boolean): string {
  const status = exchange.response ? `HTTP ${exchange.response.status}` : 'no response';
  const mark = failing ? '<span class="failing-mark">▶ the failing exchange</span> · ' : '';
  return [
    `<div class="exchange${failing ? ' failing' : ''}">`,
    `<div class="meta">${mark}exchange ${index + 1}: ${esc(`${exchange.request.method} ${exchange.request.url}`)} → <span class="status">${esc(status)}</span> (${esc(exchange.durationMs)} ms)</div>`,
    '<div class="meta">Request</div>',
    `<pre class="request">${requestHtml(exchange)}</pre>`,
    '<div class="meta">Response</div>',
    `<pre class="response">${responseHtml(exchange)}</pre>`,
    '<div class="meta">Reproduce</div>',
    `<div class="curl">${pre('curl-line', curlText(exchange))}<button type="button" class="copy">Copy</button></div>`,
    '</div>',
  ].join('');
}

function expectedActualHtml(expected: string | undefined, actual: string | undefined): string {
  if (expected === undefined && actual === undefined) return '';
  const diff = diffHtml(expected ?? '', actual ?? '');
  return [
    '<table class="expected-actual">',
    `<tr><th>expected</th><td><pre class="expected">${diff.expected}</pre></td></tr>`,
    `<tr><th>actual</th><td><pre class="actual">${diff.actual}</pre></td></tr>`,
    '</table>',
  ].join('');
}

/** A check's evidence: message, expected vs actual (diffed), the exchanges with the failing one (the last) marked. */
function evidenceHtml(model: ReportModel, evidence: Evidence | undefined, withSeed: boolean, failed: boolean): string {
  const parts: string[] = [];
  if (evidence) {
    parts.push(pre('message', evidence.message));
    parts.push(expectedActualHtml(evidence.expected, evidence.actual));
    if (evidence.property?.counterexample !== undefined) {
      parts.push('<div class="meta">Counterexample</div>', pre('counterexample', evidence.property.counterexample));
    }
  }
  if (withSeed) parts.push(`<div class="meta seed">Seed: ${esc(seedText(model, evidence))}</div>`);
  const exchanges = evidence?.exchanges ?? [];
  exchanges.forEach((exchange, index) => {
    parts.push(exchangeHtml(exchange, index, failed && index === exchanges.length - 1));
  });
  return parts.length > 0 ? `<div class="evidence">${parts.join('')}</div>` : '';
}

function checkHtml(model: ReportModel, clause: ReportClause, check: ReportCheck): string {
  const failed = check.outcome === 'fail' || check.outcome === 'error';
  const outcome: RowOutcome = check.waived ? 'waived' : check.outcome;
  const details: string[] = [];
  if (check.waived) {
    details.push(
      `<div class="meta">Waived (${esc(check.outcome)}) until ${esc(check.waived.expires)}: ${esc(check.waived.reason)}</div>`,
    );
  }
  if (check.notApplicable) {
    const blockedBy = check.notApplicable.kind === 'blocked' ? check.notApplicable.clauseId : undefined;
    details.push(
      `<div class="meta">${esc(notApplicableText(check.notApplicable))}${blockedBy ? ` (see ${clauseLink(blockedBy)})` : ''}</div>`,
    );
  }
  const facts = [
    check.judgedBy ? `judged ${check.judgedBy}` : '',
    check.cases ? `${check.cases.judged} of ${check.cases.runs} generated cases judged` : '',
  ];
  if (check.observed && check.observed.length > 0) {
    facts.push(`also saw ${check.observed.map((id) => clauseLink(id)).join(', ')} fail`);
  }
  const factsText = facts.filter(Boolean).join(' · ');
  if (factsText) details.push(`<div class="meta">${factsText}</div>`);
  details.push(evidenceHtml(model, check.evidence, failed || check.outcome === 'warn', failed));
  const level = check.level && check.level !== clause.level ? ` <span class="level">${esc(check.level)}</span>` : '';
  return [
    `<details class="check o-${esc(outcome)}" id="${esc(checkAnchor(check.id))}" data-check-id="${esc(check.id)}"${failed && !check.waived ? ' open' : ''}>`,
    `<summary>${badge(outcome)} ${esc(checkLabel(check))}${level} <span class="meta">${esc(check.file)} · ${esc(check.durationMs)} ms · <code>${esc(check.id)}</code></span></summary>`,
    details.join(''),
    '</details>',
  ].join('');
}

/** What checks of other clauses saw of this one: the message, how often, who saw it (linked), the exchange. */
function observationHtml(observation: ReportObservation, index: number): string {
  const seenIn = observation.seenIn
    .map((id) => `<a href="#${esc(checkAnchor(id))}"><code>${esc(id)}</code></a>`)
    .join(', ');
  return [
    `<div class="observation" id="${esc(`observation-${index}`)}">`,
    pre('message', observation.message),
    `<div class="meta">seen ${esc(observation.count)}× · by ${seenIn}</div>`,
    expectedActualHtml(observation.expected, observation.actual),
    observation.exchange ? exchangeHtml(observation.exchange, 0, true) : '',
    '</div>',
  ].join('');
}

function clauseHtml(model: ReportModel, section: ReportSection, clause: ReportClause): string {
  const outcome = rowOutcome(clause);
  const search = `${clause.id} ${clause.title}`.toLowerCase();
  const checks = clause.checks.map((check) => checkHtml(model, clause, check)).join('');
  const count = clause.checks.length === 1 ? '1 check' : `${clause.checks.length} checks`;
  const judged = judgedText(clause);
  const observations = clause.observations ?? [];
  const seen =
    observations.length > 0
      ? `<h4>Seen failing by checks of other clauses</h4>${observations.map((o, i) => observationHtml(o, i)).join('')}`
      : '';
  const open = (clause.outcome === 'fail' || clause.outcome === 'error') && !clause.waived && observations.length > 0;
  return [
    `<details class="clause" id="${esc(clauseAnchor(clause))}" data-outcome="${esc(outcome)}" data-section="${esc(section.id)}" data-search="${esc(search)}"${open ? ' open' : ''}>`,
    `<summary>${badge(outcome)} <code>${esc(clause.id)}</code> <span class="level">${esc(clause.level)}</span> <span class="title">${esc(clause.title)}</span> <span class="meta">${count}</span></summary>`,
    '<div class="clause-body">',
    `<blockquote class="clause-text">${esc(clause.text)}</blockquote>`,
    `<div class="judged${clause.judgedBy ? '' : ' not'}">${esc(judged)}</div>`,
    seen,
    checks || (observations.length > 0 ? '' : '<div class="meta">No check judges this clause yet.</div>'),
    '</div></details>',
  ].join('');
}

function matrixHtml(model: ReportModel): string {
  const head = ROW_OUTCOMES.map((outcome) => `<th class="n">${badge(outcome)}</th>`).join('');
  const totals = new Map<RowOutcome, number>(ROW_OUTCOMES.map((outcome) => [outcome, 0]));
  const cell = (sectionId: string, outcome: RowOutcome, n: number): string =>
    `<td class="n"><button type="button" class="o-${esc(outcome)}${n === 0 ? ' zero' : ''}" data-section="${esc(sectionId)}" data-outcome="${esc(outcome)}" title="${esc(`${label(outcome)} clauses of ${sectionId || 'every section'}`)}">${n}</button></td>`;
  const rows = model.sections.map((section) => {
    const cells = ROW_OUTCOMES.map((outcome) => {
      const n = section.clauses.filter((clause) => rowOutcome(clause) === outcome).length;
      totals.set(outcome, (totals.get(outcome) ?? 0) + n);
      return cell(section.id, outcome, n);
    }).join('');
    return `<tr data-section="${esc(section.id)}"><th><code>${esc(section.id)}</code> ${esc(section.title)}</th>${cells}</tr>`;
  });
  const totalCells = ROW_OUTCOMES.map((outcome) => cell('', outcome, totals.get(outcome) ?? 0)).join('');
  return [
    '<table id="matrix">',
    `<colgroup><col class="section">${ROW_OUTCOMES.map(() => '<col>').join('')}</colgroup>`,
    `<thead><tr><th>Section (clauses by outcome)</th>${head}</tr></thead>`,
    `<tbody>${rows.join('')}</tbody>`,
    `<tfoot><tr><th>All sections</th>${totalCells}</tr></tfoot>`,
    '</table>',
  ].join('');
}

function bannerHtml(model: ReportModel): string {
  const { options } = model;
  const exitCode = exitCodeOf(model);
  const verdict = verdictLabel(model);
  const flags = [
    options.strict ? 'strict' : 'not strict',
    options.allowBookings ? 'bookings allowed' : 'no bookings',
    options.failOn ? `fail on ${options.failOn}` : '',
    `runs ${options.runs}`,
    options.xml ? `xml ${options.xml}` : '',
    `date ${options.date}`,
    options.only.length > 0 ? `only ${options.only.join(', ')}` : 'all clauses',
  ].filter(Boolean);
  const rows: [string, string][] = [
    ['Clauses', clauseCountsText(model)],
    ...(trafficText(model) ? [['Traffic', trafficText(model) as string] as [string, string]] : []),
    ['Target', `${model.target.baseUrl}${model.target.embedded ? ' (embedded reference implementation)' : ''}`],
    ['Profile', model.profile],
    ['Exit code', String(exitCode)],
    ['Seed', String(options.seed)],
    ['Options', flags.join(', ')],
    [
      'Run',
      `${model.timing.startedAt} → ${model.timing.finishedAt} (${(model.timing.durationMs / 1000).toFixed(1)} s)`,
    ],
    ['Tool', `${model.tool.name} ${model.tool.version}`],
  ];
  if (model.load && model.load.length > 0) {
    const passed = model.load.filter((result) => result.passed).length;
    rows.push(['Load', `${passed} of ${model.load.length} scenarios passed (not part of the verdict; see below)`]);
  }
  const notes = model.verdict.notes ?? [];
  const tone = verdict === 'NOT JUDGED' ? 'unjudged' : model.verdict.passed ? 'passed' : 'failed';
  return [
    `<header id="verdict" class="banner ${tone}">`,
    `<h1>${esc(verdict)}: Partner Car Rental Distribution API v1, release ${esc(model.spec.release)}</h1>`,
    `<p class="headline" id="coverage">${esc(coverageText(model))}</p>`,
    `<dl>${rows.map(([term, value]) => `<dt>${esc(term)}</dt><dd>${esc(value)}</dd>`).join('')}</dl>`,
    notes.length > 0 ? `<ul class="notes">${notes.map((note) => `<li>${esc(note)}</li>`).join('')}</ul>` : '',
    '</header>',
  ].join('');
}

function baselineHtml(model: ReportModel): string {
  const baseline = model.baseline;
  if (!baseline) return '';
  const [intro] = baselineLines(model);
  const lists: [string, string[]][] = [
    ['new failures', baseline.newFailures],
    ['fixed', baseline.fixed],
    ['unchanged failures', baseline.unchanged],
    ['became not applicable', baseline.becameNotApplicable],
  ];
  const items = lists.map(
    ([name, ids]) =>
      `<li class="baseline-list" data-list="${esc(name)}">${esc(name)} ${ids.length}${ids.length > 0 ? `: ${ids.map((id) => clauseLink(id)).join(', ')}` : ''}</li>`,
  );
  const alert = baseline.newFailures.length > 0 ? ' alert' : '';
  return `<section class="panel${alert}" id="baseline"><h2>Since the baseline</h2><p>${esc(intro ?? '')}</p><ul>${items.join('')}</ul></section>`;
}

/** The failing clauses, root causes first, one entry per cause (its clauses counted), before the matrix. */
function failureIndexHtml(model: ReportModel): string {
  const failing = failingClauses(model);
  const warned = model.sections.flatMap((section) => section.clauses).filter((c) => c.outcome === 'warn' && !c.waived);
  if (failing.length === 0 && warned.length === 0) return '';
  const groups = groupByCause(failing);
  const items = groups.slice(0, TOP_FAILURES).map((group) => {
    const [first] = group.items;
    if (!first) return '';
    const reach = reachText(first);
    const links =
      group.items.length === 1
        ? `${clauseLink(first.clause.id)} ${esc(first.clause.title)}`
        : `${group.items.length} clauses: ${group.items.map((item) => clauseLink(item.clause.id)).join(', ')}`;
    return `<li>${badge(first.outcome)} ${links}<span class="cause">${esc(group.headline)}${reach ? ` <span class="meta">(${esc(reach)})</span>` : ''}</span></li>`;
  });
  const rest = groups.slice(TOP_FAILURES).reduce((sum, group) => sum + group.items.length, 0);
  const parts = ['<section class="panel" id="failure-index">'];
  parts.push(
    `<h2>Failing clauses (${failing.length})${failing.some((f) => f.seen + f.blocks > 0) ? ', root causes first' : ''}</h2>`,
  );
  if (items.length > 0) parts.push(`<ol>${items.join('')}</ol>`);
  if (rest > 0) parts.push(`<p class="meta">… and ${rest} more failing clause(s) in the list below.</p>`);
  if (warned.length > 0) {
    parts.push(
      `<h3>Warnings (${warned.length} SHOULD clauses)</h3><p>${warned.map((clause) => `${badge('warn')} ${clauseLink(clause.id)}`).join(' ')}</p>`,
    );
  }
  parts.push('</section>');
  return parts.join('');
}

function harnessErrorsHtml(model: ReportModel): string {
  const errors = model.harnessErrors ?? [];
  if (errors.length === 0) return '';
  const items = errors.map((error) => {
    const where = [error.file, error.test].filter(Boolean).join(' > ');
    return `<li>${where ? `<code>${esc(where)}</code>: ` : ''}${pre('harness-error', error.message)}</li>`;
  });
  return `<section class="panel alert" id="harness-errors"><h2>Harness errors</h2><p>Problems of the harness itself; checks may be missing from this report.</p><ul>${items.join('')}</ul></section>`;
}

function waivedHtml(model: ReportModel): string {
  const waived = model.sections.flatMap((section) =>
    section.clauses.flatMap((clause) =>
      clause.checks.filter((check) => check.waived).map((check) => ({ clause, check })),
    ),
  );
  const waivers = model.waivers.map(
    (waiver) =>
      `<tr class="waiver w-${esc(waiver.status)}"><td><code>${esc(waiver.clauseId)}</code></td><td>${esc(waiver.expires)}</td><td>${esc(waiver.status)}</td><td>${esc(waiver.reason)}</td></tr>`,
  );
  if (waived.length === 0 && waivers.length === 0) return '';
  const parts = ['<section class="panel" id="waived"><h2>Waived failures</h2>'];
  if (waived.length === 0) parts.push('<p>None.</p>');
  for (const { clause, check } of waived) {
    parts.push(
      `<div class="waived-check"><h3>${badge('waived')} <code>${esc(clause.id)}</code> ${esc(clause.title)}</h3>`,
      `<blockquote>${esc(clause.text)}</blockquote>`,
      `<div class="meta">${esc(check.outcome)} · ${esc(checkLabel(check))} · waived until ${esc(check.waived?.expires ?? '')}: ${esc(check.waived?.reason ?? '')}</div>`,
      evidenceHtml(model, check.evidence, true, true),
      '</div>',
    );
  }
  if (waivers.length > 0) {
    parts.push(
      '<h3>Waivers</h3><table id="waivers"><thead><tr><th>Clause</th><th>Expires</th><th>Status</th><th>Reason</th></tr></thead>',
      `<tbody>${waivers.join('')}</tbody></table>`,
    );
  }
  parts.push('</section>');
  return parts.join('');
}

function leftoversHtml(model: ReportModel): string {
  if (model.leftovers.length === 0) return '';
  const items = model.leftovers.map((id) => `<li><code>${esc(id)}</code></li>`).join('');
  return `<section class="panel alert" id="leftovers"><h2>Leftover reservations</h2><p>Created by this run and not cancelled.</p><ul>${items}</ul></section>`;
}

function filtersHtml(): string {
  const boxes = ROW_OUTCOMES.map(
    (outcome) =>
      `<label><input type="checkbox" name="outcome" value="${esc(outcome)}" checked> ${badge(outcome)}</label>`,
  ).join('');
  return [
    '<section class="panel" id="filters">',
    boxes,
    '<input type="search" id="filter-text" placeholder="Filter by clause id or title" aria-label="Filter by clause id or title">',
    '<button type="button" id="filter-section" hidden></button>',
    '<button type="button" id="show-problems">Problems only</button>',
    '<button type="button" id="show-all">Show all</button>',
    '<span class="meta"><span id="shown-count"></span> clauses shown</span>',
    '</section>',
  ].join('');
}

/**
 * report.html: one self-contained page (inline CSS and JS, no external request; a CSP that allows only those two
 * inline blocks by hash). The verdict and coverage of judged clauses first, then what moved since the baseline, the
 * failing clauses (root causes first), the matrix of sections by clause outcome, and every clause with how it was
 * judged, what other checks saw of it and its checks' evidence. All model text goes through esc(); the script only
 * reads data-* attributes and toggles `hidden`/`open`, so no model text is ever parsed as HTML in the browser.
 */
export function renderHtml(model: ReportModel): string {
  const sections = model.sections
    .map(
      (section) =>
        `<div class="section-block" data-section="${esc(section.id)}"><h3><code>${esc(section.id)}</code> ${esc(section.title)}</h3>${section.clauses.map((clause) => clauseHtml(model, section, clause)).join('\n')}</div>`,
    )
    .join('\n');
  return page(
    `${verdictLabel(model)}: Partner API v1 certification`,
    [
      bannerHtml(model),
      baselineHtml(model),
      harnessErrorsHtml(model),
      failureIndexHtml(model),
      loadSectionHtml(model.load),
      mutationSectionHtml(model.mutation),
      `<section class="panel" id="matrix-panel"><h2>Sections by clause outcome</h2>${matrixHtml(model)}</section>`,
      leftoversHtml(model),
      waivedHtml(model),
      '<h2>Clauses</h2>',
      filtersHtml(),
      `<section id="clauses">${sections}</section>`,
    ],
    true,
  );
}
