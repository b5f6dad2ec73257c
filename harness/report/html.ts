import { createHash } from 'node:crypto';
import type { Evidence, EvidenceExchange } from '../check/meta.ts';
import type { LoadScenarioResult, LoadSeries, ReportCheck, ReportClause, ReportModel, ReportSection } from './model.ts';
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
.load-scenario { border-top: 1px solid #d0d7de; padding-top: 8px; margin-top: 12px; }
.load-scenario table { margin: 6px 0 10px; }
.load-scenario td.n, .load-scenario th.n { text-align: right; font-variant-numeric: tabular-nums; }
.plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 12px; }
.plot { margin: 0; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 6px; }
.plot figcaption { font-weight: 600; font-size: 13px; }
.plot svg { width: 100%; height: auto; display: block; }
.plot text { font: 11px system-ui, -apple-system, "Segoe UI", sans-serif; fill: #57606a; }
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
      `${coverage.clausesJudged} of ${coverage.clausesTotal} clauses have a check that ran (${(coverage.ratio * 100).toFixed(1)}%)`,
    ],
    ['Seed', String(options.seed)],
    ['Options', flags],
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
    loadSectionHtml(model.load),
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

// ---- Load scenarios (load/): results next to the verdict, with inline SVG plots (no script, no style attribute:
// SVG presentation attributes are not subject to the page's CSP). ----

const PALETTE = ['#0969da', '#cf222e', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#1b7c83', '#57606a'];

interface PlotLine {
  label: string;
  values: (number | null)[];
  dashed?: boolean;
}

/** An axis top of four round steps (each 1, 2, 2.5 or 5 times a power of ten) at or above `value`. */
function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const raw = value / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw) ?? raw;
  return step * 4;
}

function fmt(value: number): string {
  if (value === 0) return '0';
  if (Math.abs(value) >= 100) return String(Math.round(value));
  return String(Number(value.toPrecision(2)));
}

/** A line (or bar) chart over the series buckets. */
function plotSvg(title: string, unit: string, t: number[], intervalS: number, lines: PlotLine[], bars = false): string {
  const [width, height, left, right, top, bottom] = [560, 220, 52, 12, 12, 34];
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const tEnd = (t[t.length - 1] ?? 0) + intervalS;
  const peak = Math.max(0, ...lines.flatMap((line) => line.values.filter((v): v is number => v !== null)));
  const yMax = niceMax(peak);
  const x = (seconds: number) => left + (tEnd > 0 ? (seconds / tEnd) * plotW : 0);
  const y = (value: number) => top + plotH - (value / yMax) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)}">`,
    `<title>${esc(title)}</title>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const value = (yMax * i) / 4;
    parts.push(
      `<line x1="${left}" x2="${width - right}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#eaeef2"/>`,
      `<text x="${left - 4}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${esc(fmt(value))}</text>`,
    );
  }
  for (let i = 0; i <= 4; i++) {
    const seconds = (tEnd * i) / 4;
    parts.push(
      `<text x="${x(seconds).toFixed(1)}" y="${height - bottom + 14}" text-anchor="middle">${esc(fmt(seconds))}</text>`,
    );
  }
  parts.push(
    `<text x="${left + plotW / 2}" y="${height - 4}" text-anchor="middle">seconds since start · ${esc(unit)}</text>`,
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" stroke="#8c959f"/>`,
    `<line x1="${left}" x2="${width - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#8c959f"/>`,
  );
  lines.forEach((line, index) => {
    const color = PALETTE[index % PALETTE.length] as string;
    if (bars) {
      const barW = Math.max(1, (intervalS / Math.max(tEnd, intervalS)) * plotW * 0.8);
      line.values.forEach((value, i) => {
        if (value === null || value === 0) return;
        const top0 = y(value);
        parts.push(
          `<rect class="bar" x="${(x(t[i] ?? 0) + 1).toFixed(1)}" y="${top0.toFixed(1)}" width="${barW.toFixed(1)}" height="${(top + plotH - top0).toFixed(1)}" fill="${color}"><title>${esc(`${fmt(t[i] ?? 0)} s: ${value}`)}</title></rect>`,
        );
      });
      return;
    }
    // A null breaks the line: no data in that bucket is not zero.
    let segment: string[] = [];
    const flush = () => {
      if (segment.length > 1) {
        parts.push(
          `<polyline class="line" fill="none" stroke="${color}" stroke-width="1.6"${line.dashed ? ' stroke-dasharray="4 3"' : ''} points="${segment.join(' ')}"/>`,
        );
      } else if (segment.length === 1) {
        const [px, py] = (segment[0] as string).split(',');
        parts.push(`<circle cx="${px}" cy="${py}" r="2" fill="${color}"/>`);
      }
      segment = [];
    };
    line.values.forEach((value, i) => {
      if (value === null) flush();
      else segment.push(`${x((t[i] ?? 0) + intervalS / 2).toFixed(1)},${y(value).toFixed(1)}`);
    });
    flush();
  });
  const legend = lines
    .map((line, index) => {
      const lx = left + 8 + (index % 3) * 170;
      const ly = top + 10 + Math.floor(index / 3) * 14;
      const color = PALETTE[index % PALETTE.length] as string;
      return `<rect x="${lx}" y="${ly - 8}" width="10" height="3" fill="${color}"/><text x="${lx + 14}" y="${ly - 4}">${esc(line.label)}</text>`;
    })
    .join('');
  parts.push(legend, '</svg>');
  return `<figure class="plot" data-plot="${esc(title)}"><figcaption>${esc(title)}</figcaption>${parts.join('')}</figure>`;
}

function loadPlotsHtml(series: LoadSeries): string {
  const intervalS = series.intervalMs / 1000;
  const steps = Object.keys(series.requests);
  const latency: PlotLine[] = steps.flatMap((step) => [
    { label: `${step} p50`, values: series.latencyP50Ms[step] ?? [] },
    { label: `${step} p99`, values: series.latencyP99Ms[step] ?? [], dashed: true },
  ]);
  const rps: PlotLine[] = steps.map((step) => ({
    label: step,
    values: (series.requests[step] ?? []).map((n) => n / intervalS),
  }));
  const remaining: PlotLine[] = Object.entries(series.remaining).map(([client, values]) => ({ label: client, values }));
  const plots = [
    plotSvg('Latency over time', 'ms', series.t, intervalS, latency),
    plotSvg('Requests per second', 'requests/s by step', series.t, intervalS, rps),
    remaining.length > 0
      ? plotSvg('X-RateLimit-Remaining over time', 'lowest Remaining per bucket', series.t, intervalS, remaining)
      : '',
    plotSvg(
      '429 responses',
      `per ${intervalS} s bucket`,
      series.t,
      intervalS,
      [{ label: '429', values: series.rateLimited }],
      true,
    ),
  ];
  return `<div class="plots">${plots.join('')}</div>`;
}

function loadScenarioHtml(result: LoadScenarioResult): string {
  const outcome = result.passed ? 'pass' : 'fail';
  const steps = result.steps
    .map((step) => {
      const errors = Object.entries(step.errors)
        .sort(([, a], [, b]) => b - a)
        .map(([code, n]) => `${code} ${n}`)
        .join(', ');
      const { p50, p90, p99, max } = step.latencyMs;
      return `<tr><td><code>${esc(step.name)}</code></td><td class="n">${step.count}</td><td class="n">${esc(step.ratePerSecond.toFixed(1))}</td><td class="n">${esc(p50)}</td><td class="n">${esc(p90)}</td><td class="n">${esc(p99)}</td><td class="n">${esc(max)}</td><td>${esc(errors || '-')}</td></tr>`;
    })
    .join('');
  const checks = result.checks
    .map(
      (check) =>
        `<tr class="load-check o-${esc(check.outcome)}"><td>${badge(check.outcome)}</td><td>${esc(check.name)}<div class="meta">${esc(check.description)}</div></td><td class="n">${check.passes}</td><td class="n">${check.fails}</td><td>${esc(check.detail ?? '')}</td></tr>`,
    )
    .join('');
  const thresholds = result.thresholds
    .map(
      (threshold) =>
        `<tr class="load-threshold o-${esc(threshold.outcome)}"><td>${badge(threshold.outcome)}</td><td>${esc(threshold.name)}</td><td class="n">${esc(threshold.actual === null ? '-' : fmt(threshold.actual))}</td></tr>`,
    )
    .join('');
  const phases = result.phases
    .map((phase) => `<li><code>${esc(phase.name)}</code>: ${esc(phase.arrival)}</li>`)
    .join('');
  const notes = result.notes.map((note) => `<li>${esc(note)}</li>`).join('');
  return [
    `<div class="load-scenario" id="load-${esc(result.scenario)}" data-outcome="${outcome}">`,
    `<h3>${badge(outcome)} <code>${esc(result.scenario)}</code> ${esc(result.title)}</h3>`,
    `<div class="meta">${esc(result.engine)} engine · ${esc(result.target.baseUrl)}${result.target.embedded ? ' (embedded)' : ''} · started ${esc(result.startedAt)} · ${esc((result.durationMs / 1000).toFixed(1))} s · dropped iterations ${result.droppedIterations}</div>`,
    `<ul class="phases">${phases}</ul>`,
    '<table class="load-steps"><thead><tr><th>Step</th><th class="n">Count</th><th class="n">Rate/s</th><th class="n">p50 ms</th><th class="n">p90 ms</th><th class="n">p99 ms</th><th class="n">max ms</th><th>Errors by code</th></tr></thead>',
    `<tbody>${steps}</tbody></table>`,
    '<table class="load-checks"><thead><tr><th>Check</th><th></th><th class="n">Passed</th><th class="n">Failed</th><th>Detail</th></tr></thead>',
    `<tbody>${checks}</tbody></table>`,
    '<table class="load-thresholds"><thead><tr><th>Threshold</th><th></th><th class="n">Actual</th></tr></thead>',
    `<tbody>${thresholds}</tbody></table>`,
    result.series
      ? loadPlotsHtml(result.series)
      : '<p class="meta">No time series: this engine reports totals only (k6 handleSummary).</p>',
    notes ? `<ul class="notes">${notes}</ul>` : '',
    '</div>',
  ].join('');
}

/** The load section: one block per scenario (empty string without results). */
export function loadSectionHtml(results: readonly LoadScenarioResult[] | undefined): string {
  if (!results || results.length === 0) return '';
  const passed = results.filter((result) => result.passed).length;
  return [
    '<section class="panel" id="load">',
    `<h2>Load scenarios: ${passed} of ${results.length} passed</h2>`,
    '<p class="meta">Separate from the conformance verdict. Latency is measured from each iteration&#39;s scheduled start on the native engine (coordinated omission corrected).</p>',
    results.map(loadScenarioHtml).join('\n'),
    '</section>',
  ].join('');
}

/** A page of load results alone (what `npm run load` writes), under the same CSP as report.html; no script. */
export function renderLoadHtml(results: readonly LoadScenarioResult[]): string {
  const passed = results.every((result) => result.passed);
  const title = `${passed ? 'PASSED' : 'FAILED'}: Partner API v1 load scenarios (${results.map((r) => r.scenario).join(', ')})`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(CSP)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body><main>',
    `<header id="verdict" class="banner ${passed ? 'passed' : 'failed'}"><h1>${esc(title)}</h1></header>`,
    loadSectionHtml(results),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
