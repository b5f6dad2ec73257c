import { createHash } from 'node:crypto';
import type { ClauseOutcome } from './model.ts';
import { OUTCOMES } from './outcome.ts';

/** The pieces every HTML page of the harness shares: escaping, badges, one style sheet, one script, one CSP. */

/** What a row or badge shows: an outcome, or 'waived' when every failure of it is waived. */
export type RowOutcome =
  | ClauseOutcome
  | 'waived'
  | 'caught'
  | 'elsewhere'
  | 'missed'
  | 'passed'
  | 'failed'
  | 'no-report';

export const ROW_OUTCOMES: readonly RowOutcome[] = [...OUTCOMES, 'waived', 'not-checked'];

const LABEL: Record<RowOutcome, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  error: 'error',
  'not-applicable': 'n/a',
  waived: 'waived',
  'not-checked': 'not checked',
  caught: 'caught',
  elsewhere: 'elsewhere',
  missed: 'missed',
  passed: 'passed',
  failed: 'failed',
  'no-report': 'no report',
};

export function label(outcome: RowOutcome): string {
  return LABEL[outcome];
}

/** Text for HTML content and quoted attribute values alike. */
export function esc(text: string | number): string {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function badge(outcome: RowOutcome): string {
  return `<span class="badge o-${esc(outcome)}">${esc(LABEL[outcome])}</span>`;
}

export function pre(className: string, text: string): string {
  return `<pre class="${className}">${esc(text)}</pre>`;
}

/** An id attribute value from any text (check ids hold spaces and slashes): letters, digits and . _ - only. */
export function anchor(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9._-]/g, (c) => `_${c.codePointAt(0)?.toString(16) ?? ''}_`)}`;
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export const STYLE = `
:root { --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --error:#8250df; --na:#6e7781; --nc:#afb8c1; --waived:#0969da; --sticky: 64px; }
* { box-sizing: border-box; }
html { scroll-padding-top: calc(var(--sticky) + 8px); }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
main { max-width: 1200px; margin: 0 auto; padding: 16px; }
h2 { font-size: 18px; margin: 24px 0 8px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
a { color: #0969da; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px; overflow: auto; max-height: 420px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; min-width: 0; }
.banner { padding: 16px; border-radius: 8px; color: #fff; }
.banner.passed { background: var(--pass); }
.banner.failed { background: var(--fail); }
.banner.unjudged { background: #57606a; }
.banner h1 { margin: 0 0 8px; font-size: 22px; }
.banner .headline { font-size: 17px; margin: 0 0 8px; }
.banner dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
.banner dt { font-weight: 600; }
.banner dd { margin: 0; overflow-wrap: anywhere; }
.banner ul.notes { margin: 8px 0 0; padding-left: 20px; }
.panel { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 12px; margin-top: 16px; min-width: 0; }
.alert { border-color: var(--fail); }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #d0d7de; padding: 4px 6px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
#matrix { table-layout: fixed; }
#matrix col.section { width: 34%; }
#matrix td.n, #matrix th.n { text-align: right; }
#matrix thead .badge { min-width: 0; max-width: 100%; white-space: normal; }
#matrix button { font: inherit; border: 0; border-radius: 4px; padding: 1px 8px; cursor: pointer; background: #eaeef2; min-width: 2.5em; max-width: 100%; }
#matrix button.zero { background: transparent; color: #8c959f; }
#matrix button.o-pass:not(.zero) { background: #dafbe1; } #matrix button.o-fail:not(.zero) { background: #ffebe9; }
#matrix button.o-warn:not(.zero) { background: #fff8c5; } #matrix button.o-error:not(.zero) { background: #fbefff; }
#matrix button.o-waived:not(.zero) { background: #ddf4ff; }
.badge { display: inline-block; min-width: 5.5em; text-align: center; border-radius: 10px; padding: 0 6px; color: #fff; font-size: 12px; }
.o-pass.badge, .o-caught.badge, .o-passed.badge { background: var(--pass); }
.o-fail.badge, .o-missed.badge, .o-failed.badge { background: var(--fail); } .o-warn.badge, .o-elsewhere.badge { background: var(--warn); }
.o-error.badge, .o-no-report.badge { background: var(--error); } .o-not-applicable.badge { background: var(--na); }
.o-not-checked.badge { background: var(--nc); color: #1f2328; } .o-waived.badge { background: var(--waived); }
#filters { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; }
#filters label { white-space: nowrap; }
#filter-text { padding: 4px 8px; min-width: 0; width: 260px; max-width: 100%; }
.section-block h3 { border-bottom: 1px solid #d0d7de; }
details.clause { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; margin: 4px 0; scroll-margin-top: calc(var(--sticky) + 8px); }
details.clause > summary { padding: 6px 8px; cursor: pointer; overflow-wrap: anywhere; }
.clause-body { padding: 0 12px 12px; min-width: 0; }
.judged { font-size: 12px; color: #1f2328; margin: 4px 0; }
.judged.not { color: #57606a; font-style: italic; }
.level { font-size: 11px; color: #57606a; border: 1px solid #d0d7de; border-radius: 4px; padding: 0 4px; }
blockquote { margin: 6px 0; padding: 4px 10px; border-left: 3px solid #d0d7de; color: #424a53; white-space: pre-wrap; }
details.check { border-top: 1px dashed #d0d7de; padding: 6px 0; scroll-margin-top: calc(var(--sticky) + 8px); }
details.check > summary { cursor: pointer; overflow-wrap: anywhere; }
.observation { border-left: 3px solid var(--fail); padding: 4px 10px; margin: 8px 0; background: #fff8f8; }
.meta { color: #57606a; font-size: 12px; }
.exchange { margin: 8px 0 8px 12px; padding-left: 8px; border-left: 2px solid #d0d7de; min-width: 0; }
.exchange.failing { border-left-color: var(--fail); }
.failing-mark { color: var(--fail); font-weight: 600; }
.curl { display: flex; gap: 6px; align-items: flex-start; }
.curl pre { flex: 1; min-width: 0; }
.copy { cursor: pointer; margin-top: 4px; }
.expected-actual { table-layout: fixed; }
.expected-actual th { width: 7em; }
del.diff { background: #ffebe9; color: #82071e; text-decoration: none; }
ins.diff { background: #dafbe1; color: #116329; text-decoration: none; }
.j-key { color: #0550ae; } .j-str { color: #0a3069; } .j-num { color: #953800; } .j-lit { color: #8250df; }
.x-tag { color: #116329; } .x-attr { color: #953800; } .x-val { color: #0a3069; } .x-meta { color: #6e7781; }
#failure-index ol { padding-left: 22px; margin: 4px 0; }
#failure-index li { margin: 4px 0; overflow-wrap: anywhere; }
#failure-index .cause { display: block; color: #424a53; }
.baseline-list { margin: 4px 0; }
[hidden] { display: none !important; }
.load-scenario { border-top: 1px solid #d0d7de; padding-top: 8px; margin-top: 12px; }
.load-scenario table { margin: 6px 0 10px; }
.load-scenario td.n, .load-scenario th.n, #mutation td.n { text-align: right; font-variant-numeric: tabular-nums; }
.plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(460px, 100%), 1fr)); gap: 12px; }
.plot { margin: 0; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 6px; min-width: 0; }
.plot figcaption { font-weight: 600; font-size: 13px; }
.plot svg { width: 100%; height: auto; display: block; }
.plot text { font: 11px system-ui, -apple-system, "Segoe UI", sans-serif; fill: #57606a; }
@media (max-width: 900px) {
  main { padding: 8px; }
  #matrix col.section { width: 28%; }
  #matrix th, #matrix td { padding: 2px 2px; }
  #matrix thead .badge { font-size: 10px; padding: 0 2px; }
  #matrix button { min-width: 0; padding: 1px 3px; }
  .badge { min-width: 4em; }
  .exchange { margin-left: 0; }
}
@media (max-width: 600px) {
  .banner dl { grid-template-columns: 1fr; }
  .banner dt { margin-top: 4px; }
}
`;

export const SCRIPT = `
(() => {
  const rows = Array.from(document.querySelectorAll('details.clause'));
  const blocks = Array.from(document.querySelectorAll('.section-block'));
  const boxes = Array.from(document.querySelectorAll('#filters input[name="outcome"]'));
  const bar = document.getElementById('filters');
  const text = document.getElementById('filter-text');
  const sectionChip = document.getElementById('filter-section');
  const shown = document.getElementById('shown-count');
  let section = null;
  // The sticky filter bar's height, so a jump to a clause lands below it (scroll-margin-top reads --sticky).
  function sticky() { if (bar) document.documentElement.style.setProperty('--sticky', bar.offsetHeight + 'px'); }
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
    sticky();
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
      bar.scrollIntoView();
    });
  }
  function openTarget() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id ? document.getElementById(id) : null;
    if (!target) return;
    // A filtered-out clause (or the check or observation inside one) is shown and opened before the jump.
    for (let node = target; node; node = node.parentElement) {
      if (node.tagName === 'DETAILS') { node.hidden = false; node.open = true; }
      if (node.classList && node.classList.contains('section-block')) node.hidden = false;
    }
    sticky();
    target.scrollIntoView();
  }
  window.addEventListener('hashchange', openTarget);
  // A link to the hash already shown fires no hashchange: jump anyway.
  document.addEventListener('click', (event) => {
    const link = event.target.closest && event.target.closest('a[href^="#"]');
    if (link && link.getAttribute('href') === location.hash) setTimeout(openTarget);
  });
  window.addEventListener('resize', sticky);
  for (const button of document.querySelectorAll('button.copy')) {
    button.addEventListener('click', async () => {
      const block = button.parentElement.querySelector('pre');
      const value = block.textContent;
      try {
        await navigator.clipboard.writeText(value);
      } catch {
        const range = document.createRange();
        range.selectNodeContents(block);
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
  openTarget();
})();
`;

export const CSP = [
  "default-src 'none'",
  `style-src ${sha256(STYLE)}`,
  `script-src ${sha256(SCRIPT)}`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** One self-contained page: inline style, the script only when asked, nothing fetched. */
export function page(title: string, body: string[], withScript: boolean): string {
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
    ...body,
    '</main>',
    ...(withScript ? [`<script>${SCRIPT}</script>`] : []),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
