import { badge, esc, page } from './html-kit.ts';
import type { ReportMutation, ReportMutationRow } from './model.ts';

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

function clauseLink(id: string, linked: boolean): string {
  return linked ? `<a href="#clause-${esc(id)}"><code>${esc(id)}</code></a>` : `<code>${esc(id)}</code>`;
}

function rowHtml(row: ReportMutationRow, linked: boolean): string {
  const others = row.otherFailed.length > 0 ? row.otherFailed.map((id) => clauseLink(id, linked)).join(', ') : '—';
  return [
    `<tr class="mutation-row o-${esc(row.result)}" data-fault="${esc(row.name)}">`,
    `<td><code>${esc(row.name)}</code><div class="meta">${esc(row.description)}</div></td>`,
    `<td>${clauseLink(row.clause, linked)}</td>`,
    `<td>${badge(row.result)}</td>`,
    `<td>${others}</td>`,
    `<td class="n">${row.errors}</td>`,
    '</tr>',
  ].join('');
}

/**
 * The mutation matrix (harness/mutation): fault → caught on its own clause? which other clauses failed; benign
 * variant → passed? `linked`: clause ids link to the clauses of the same page (the certification report).
 */
export function mutationSectionHtml(mutation: ReportMutation | undefined, linked = true): string {
  if (!mutation) return '';
  const s = mutation.summary;
  const faults = mutation.rows.filter((row) => row.kind === 'fault');
  const benign = mutation.rows.filter((row) => row.kind === 'benign');
  const head = (first: string) =>
    `<thead><tr><th>${first}</th><th>Clause</th><th>Result</th><th>Other failed clauses</th><th class="n">Errors</th></tr></thead>`;
  const breaches =
    mutation.breaches.length === 0
      ? '<p>Thresholds: met.</p>'
      : `<ul class="breaches">${mutation.breaches.map((b) => `<li>${esc(b)}</li>`).join('')}</ul>`;
  return [
    '<section class="panel" id="mutation">',
    `<h2>Mutation matrix: ${s.caughtOnClause} of ${s.faults} faults caught on their own clause (${esc(percent(s.score))}), ${s.benignPassed} of ${s.benign} benign variants passed</h2>`,
    `<p class="meta">Seed ${esc(mutation.seed)} · started ${esc(mutation.startedAt)} · ${esc((mutation.durationMs / 60_000).toFixed(1))} min · other failed clauses per fault: median ${esc(s.extraMedian)}, max ${esc(s.extraMax)} · runs with error outcomes: ${esc(s.runsWithErrors)} · plain reference: ${s.baselinePassed ? 'passed' : 'FAILED'}</p>`,
    breaches,
    faults.length > 0
      ? `<h3>Faults</h3><table class="mutation-faults">${head('Fault')}<tbody>${faults.map((row) => rowHtml(row, linked)).join('')}</tbody></table>`
      : '',
    benign.length > 0
      ? `<h3>Benign variants</h3><table class="mutation-benign">${head('Variant')}<tbody>${benign.map((row) => rowHtml(row, linked)).join('')}</tbody></table>`
      : '',
    '</section>',
  ].join('');
}

/** mutation.html: the matrix alone, in the report's style (what `npm run mutation` writes beside mutation.json). */
export function renderMutationHtml(mutation: ReportMutation): string {
  const passed = mutation.breaches.length === 0;
  const title = `${passed ? 'PASSED' : 'FAILED'}: Partner API v1 mutation matrix`;
  return page(
    title,
    [
      `<header id="verdict" class="banner ${passed ? 'passed' : 'failed'}"><h1>${esc(title)}</h1></header>`,
      mutationSectionHtml(mutation, false),
    ],
    false,
  );
}
