import { createHash } from 'node:crypto';
import type { Evidence, EvidenceExchange } from '../check/meta.ts';
import type { ReportCheck, ReportClause, ReportModel, ReportSection } from './model.ts';
import { OUTCOMES } from './outcome.ts';
import { checkLabel, curlText, notApplicableText, requestText, responseText, seedText } from './text.ts';

/** What a clause row is filtered by: its worst outcome, or 'waived' when every failure of it is waived. */
type RowOutcome = ReportClause['outcome'] | 'waived';

const ROW_OUTCOMES: readonly RowOutcome[] = [...OUTCOMES, 'waived', 'not-checked'];
const LABEL: Record<RowOutcome, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  error: 'error',
  'not-applicable': 'n/a',
  waived: 'waived',
  'not-checked': 'not checked',
};

/** Text for HTML content and quoted attribute values alike. */
export function esc(text: string | number): string {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function rowOutcome(clause: ReportClause): RowOutcome {
  return clause.waived ? 'waived' : clause.outcome;
}

function badge(outcome: RowOutcome): string {
  return `<span class="badge o-${esc(outcome)}">${esc(LABEL[outcome])}</span>`;
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

const STYLE = `
:root { --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --error:#8250df; --na:#6e7781; --nc:#afb8c1; --waived:#0969da; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
main { max-width: 1200px; margin: 0 auto; padding: 16px; }
h2 { font-size: 18px; margin: 24px 0 8px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px; overflow: auto; max-height: 420px; white-space: pre-wrap; word-break: break-all; margin: 4px 0; }
.banner { padding: 16px; border-radius: 8px; color: #fff; }
.banner.passed { background: var(--pass); }
.banner.failed { background: var(--fail); }
.banner h1 { margin: 0 0 8px; font-size: 22px; }
.banner dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
.banner dt { font-weight: 600; }
.banner dd { margin: 0; }
.panel { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 12px; margin-top: 16px; }
.alert { border-color: var(--fail); }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #d0d7de; padding: 4px 6px; text-align: left; vertical-align: top; }
#matrix td.n, #matrix th.n { text-align: right; }
#matrix button { font: inherit; border: 0; border-radius: 4px; padding: 1px 8px; cursor: pointer; background: #eaeef2; min-width: 2.5em; }
#matrix button.zero { background: transparent; color: #8c959f; }
#matrix button.o-pass:not(.zero) { background: #dafbe1; } #matrix button.o-fail:not(.zero) { background: #ffebe9; }
#matrix button.o-warn:not(.zero) { background: #fff8c5; } #matrix button.o-error:not(.zero) { background: #fbefff; }
#matrix button.o-waived:not(.zero) { background: #ddf4ff; }
.badge { display: inline-block; min-width: 5.5em; text-align: center; border-radius: 10px; padding: 0 6px; color: #fff; font-size: 12px; }
.o-pass.badge { background: var(--pass); } .o-fail.badge { background: var(--fail); } .o-warn.badge { background: var(--warn); }
.o-error.badge { background: var(--error); } .o-not-applicable.badge { background: var(--na); }
.o-not-checked.badge { background: var(--nc); color: #1f2328; } .o-waived.badge { background: var(--waived); }
#filters { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; }
#filters label { white-space: nowrap; }
#filter-text { padding: 4px 8px; min-width: 260px; }
.section-block h3 { border-bottom: 1px solid #d0d7de; }
details.clause { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; margin: 4px 0; }
details.clause > summary { padding: 6px 8px; cursor: pointer; }
.clause-body { padding: 0 12px 12px; }
.level { font-size: 11px; color: #57606a; border: 1px solid #d0d7de; border-radius: 4px; padding: 0 4px; }
blockquote { margin: 6px 0; padding: 4px 10px; border-left: 3px solid #d0d7de; color: #424a53; white-space: pre-wrap; }
details.check { border-top: 1px dashed #d0d7de; padding: 6px 0; }
details.check > summary { cursor: pointer; }
.meta { color: #57606a; font-size: 12px; }
.exchange { margin: 8px 0 8px 12px; padding-left: 8px; border-left: 2px solid #d0d7de; }
.curl { display: flex; gap: 6px; align-items: flex-start; }
.curl pre { flex: 1; }
.copy { cursor: pointer; margin-top: 4px; }
.expected-actual th { width: 7em; }
[hidden] { display: none !important; }
`;

const SCRIPT = `
(() => {
  const rows = Array.from(document.querySelectorAll('details.clause'));
  const blocks = Array.from(document.querySelectorAll('.section-block'));
  const boxes = Array.from(document.querySelectorAll('#filters input[name="outcome"]'));
  const text = document.getElementById('filter-text');
  const sectionChip = document.getElementById('filter-section');
  const shown = document.getElementById('shown-count');
  let section = null;
  function apply() {
    const outcomes = new Set(boxes.filter((box) => box.checked).map((box) => box.value));
    const needle = text.value.trim().toLowerCase();
    let count = 0;
    for (const row of rows) {
      const visible = outcomes.has(row.dataset.outcome)
        && (section === null || row.dataset.section === section)
        && (needle === '' || row.dataset.search.includes(needle));
      row.hidden = !visible;
      if (visible) count += 1;
    }
    for (const block of blocks) block.hidden = !block.querySelector('details.clause:not([hidden])');
    sectionChip.hidden = section === null;
    sectionChip.textContent = section === null ? '' : 'section ' + section + ' \\u00d7';
    shown.textContent = String(count);
  }
  for (const box of boxes) box.addEventListener('change', apply);
  text.addEventListener('input', apply);
  sectionChip.addEventListener('click', () => { section = null; apply(); });
  document.getElementById('show-all').addEventListener('click', () => {
    for (const box of boxes) box.checked = true;
    section = null; text.value = ''; apply();
  });
  document.getElementById('show-problems').addEventListener('click', () => {
    for (const box of boxes) box.checked = ['fail', 'error', 'warn'].includes(box.value);
    apply();
  });
  for (const cell of document.querySelectorAll('#matrix button[data-outcome]')) {
    cell.addEventListener('click', () => {
      for (const box of boxes) box.checked = box.value === cell.dataset.outcome;
      section = cell.dataset.section || null;
      apply();
      document.getElementById('filters').scrollIntoView();
    });
  }
  function openTarget() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id ? document.getElementById(id) : null;
    if (target && target.tagName === 'DETAILS') { target.hidden = false; target.open = true; target.scrollIntoView(); }
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
  for (const button of document.querySelectorAll('button.copy')) {
    button.addEventListener('click', async () => {
      const pre = button.parentElement.querySelector('pre');
      const value = pre.textContent;
      try {
        await navigator.clipboard.writeText(value);
      } catch {
        const range = document.createRange();
        range.selectNodeContents(pre);
        const selection = getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        document.execCommand('copy');
      }
      button.textContent = 'Copied';
      setTimeout(() => { button.textContent = 'Copy'; }, 1500);
    });
  }
  apply();
})();
`;

const CSP = [
  "default-src 'none'",
  `style-src ${sha256(STYLE)}`,
  `script-src ${sha256(SCRIPT)}`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function anchorOf(clause: ReportClause): string {
  return `clause-${clause.id}`;
}

function pre(className: string, text: string): string {
  return `<pre class="${className}">${esc(text)}</pre>`;
}

function exchangeHtml(exchange: EvidenceExchange, index: number): string {
  const status = exchange.response ? `HTTP ${exchange.response.status}` : 'no response';
  return [
    '<div class="exchange">',
    `<div class="meta">exchange ${index + 1}: ${esc(`${exchange.request.method} ${exchange.request.url}`)} → <span class="status">${esc(status)}</span> (${esc(exchange.durationMs)} ms)</div>`,
    '<div class="meta">Request</div>',
    pre('request', requestText(exchange)),
    '<div class="meta">Response</div>',
    pre('response', responseText(exchange)),
    '<div class="meta">Reproduce</div>',
    `<div class="curl">${pre('curl-line', curlText(exchange))}<button type="button" class="copy">Copy</button></div>`,
    '</div>',
  ].join('');
}

function evidenceHtml(model: ReportModel, evidence: Evidence | undefined, withSeed: boolean): string {
  const parts: string[] = [];
  if (evidence) {
    parts.push(pre('message', evidence.message));
    if (evidence.expected !== undefined || evidence.actual !== undefined) {
      parts.push('<table class="expected-actual">');
      parts.push(`<tr><th>expected</th><td>${pre('expected', evidence.expected ?? '')}</td></tr>`);
      parts.push(`<tr><th>actual</th><td>${pre('actual', evidence.actual ?? '')}</td></tr>`);
      parts.push('</table>');
    }
    if (evidence.property?.counterexample !== undefined) {
      parts.push('<div class="meta">Counterexample</div>', pre('counterexample', evidence.property.counterexample));
    }
  }
  if (withSeed) parts.push(`<div class="meta seed">Seed: ${esc(seedText(model, evidence))}</div>`);
  evidence?.exchanges.forEach((exchange, index) => {
    parts.push(exchangeHtml(exchange, index));
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
  if (check.notApplicable) details.push(`<div class="meta">${esc(notApplicableText(check.notApplicable))}</div>`);
  details.push(evidenceHtml(model, check.evidence, failed || check.outcome === 'warn'));
  const level = check.level && check.level !== clause.level ? ` <span class="level">${esc(check.level)}</span>` : '';
  return [
    `<details class="check o-${esc(outcome)}" data-check-id="${esc(check.id)}"${failed && !check.waived ? ' open' : ''}>`,
    `<summary>${badge(outcome)} ${esc(checkLabel(check))}${level} <span class="meta">${esc(check.file)} · ${esc(check.durationMs)} ms · <code>${esc(check.id)}</code></span></summary>`,
    details.join(''),
    '</details>',
  ].join('');
}

function clauseHtml(model: ReportModel, section: ReportSection, clause: ReportClause): string {
  const outcome = rowOutcome(clause);
  const search = `${clause.id} ${clause.title}`.toLowerCase();
  const checks = clause.checks.map((check) => checkHtml(model, clause, check)).join('');
  const count = clause.checks.length === 1 ? '1 check' : `${clause.checks.length} checks`;
  return [
    `<details class="clause" id="${esc(anchorOf(clause))}" data-outcome="${esc(outcome)}" data-section="${esc(section.id)}" data-search="${esc(search)}">`,
    `<summary>${badge(outcome)} <code>${esc(clause.id)}</code> <span class="level">${esc(clause.level)}</span> <span class="title">${esc(clause.title)}</span> <span class="meta">${count}</span></summary>`,
    '<div class="clause-body">',
    `<blockquote class="clause-text">${esc(clause.text)}</blockquote>`,
    checks || '<div class="meta">No check judges this clause yet.</div>',
    '</div></details>',
  ].join('');
}

function matrixHtml(model: ReportModel): string {
  const head = ROW_OUTCOMES.map((outcome) => `<th class="n">${badge(outcome)}</th>`).join('');
  const totals = new Map<RowOutcome, number>(ROW_OUTCOMES.map((outcome) => [outcome, 0]));
  const cell = (sectionId: string, outcome: RowOutcome, n: number): string =>
    `<td class="n"><button type="button" class="o-${esc(outcome)}${n === 0 ? ' zero' : ''}" data-section="${esc(sectionId)}" data-outcome="${esc(outcome)}" title="${esc(`${LABEL[outcome]} clauses of ${sectionId || 'every section'}`)}">${n}</button></td>`;
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
    `<thead><tr><th>Section (clauses by worst check)</th>${head}</tr></thead>`,
    `<tbody>${rows.join('')}</tbody>`,
    `<tfoot><tr><th>All sections</th>${totalCells}</tr></tfoot>`,
    '</table>',
  ].join('');
}

function bannerHtml(model: ReportModel): string {
  const { verdict, coverage, options } = model;
  const counts = OUTCOMES.map((outcome) => `${LABEL[outcome]} ${verdict.counts[outcome]}`).join(' · ');
  const flags = [
    options.strict ? 'strict' : 'not strict',
    options.allowBookings ? 'bookings allowed' : 'no bookings',
    `runs ${options.runs}`,
    `date ${options.date}`,
    options.only.length > 0 ? `only ${options.only.join(', ')}` : 'all clauses',
  ].join(', ');
  const rows: [string, string][] = [
    ['Target', `${model.target.baseUrl}${model.target.embedded ? ' (embedded reference implementation)' : ''}`],
    ['Profile', model.profile],
    ['Checks', `${counts}${verdict.waived > 0 ? ` · waived ${verdict.waived}` : ''}`],
    [
      'Coverage',
      `${coverage.clausesWithRunCheck} of ${coverage.clausesTotal} clauses have a check that ran (${(coverage.ratio * 100).toFixed(1)}%)`,
    ],
    ['Seed', String(options.seed)],
    ['Options', flags],
    [
      'Run',
      `${model.timing.startedAt} → ${model.timing.finishedAt} (${(model.timing.durationMs / 1000).toFixed(1)} s)`,
    ],
    ['Tool', `${model.tool.name} ${model.tool.version}`],
  ];
  return [
    `<header id="verdict" class="banner ${verdict.passed ? 'passed' : 'failed'}">`,
    `<h1>${verdict.passed ? 'PASSED' : 'FAILED'}: Partner Car Rental Distribution API v1, release ${esc(model.spec.release)}</h1>`,
    `<dl>${rows.map(([term, value]) => `<dt>${esc(term)}</dt><dd>${esc(value)}</dd>`).join('')}</dl>`,
    '</header>',
  ].join('');
}

function failureIndexHtml(model: ReportModel): string {
  const failing = model.sections.flatMap((section) =>
    section.clauses.filter(
      (clause) => clause.outcome === 'fail' || clause.outcome === 'error' || clause.outcome === 'warn',
    ),
  );
  const items = failing
    .filter((clause) => !clause.waived)
    .map(
      (clause) =>
        `<li>${badge(clause.outcome)} <a href="#${esc(encodeURIComponent(anchorOf(clause)))}"><code>${esc(clause.id)}</code> ${esc(clause.title)}</a></li>`,
    );
  if (items.length === 0) return '';
  return `<section class="panel" id="failure-index"><h2>Failures and warnings</h2><ul>${items.join('')}</ul></section>`;
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
      evidenceHtml(model, check.evidence, true),
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
 * inline blocks by hash). All model text goes through esc(); the script only reads data-* attributes and toggles
 * `hidden`/`open`, so no model text is ever parsed as HTML in the browser.
 */
export function renderHtml(model: ReportModel): string {
  const sections = model.sections
    .map(
      (section) =>
        `<div class="section-block" data-section="${esc(section.id)}"><h3><code>${esc(section.id)}</code> ${esc(section.title)}</h3>${section.clauses.map((clause) => clauseHtml(model, section, clause)).join('\n')}</div>`,
    )
    .join('\n');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(CSP)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${model.verdict.passed ? 'PASSED' : 'FAILED'}: Partner API v1 certification</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body><main>',
    bannerHtml(model),
    harnessErrorsHtml(model),
    `<section class="panel" id="matrix-panel"><h2>Sections by outcome</h2>${matrixHtml(model)}</section>`,
    failureIndexHtml(model),
    leftoversHtml(model),
    waivedHtml(model),
    '<h2>Clauses</h2>',
    filtersHtml(),
    `<section id="clauses">${sections}</section>`,
    '</main>',
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
