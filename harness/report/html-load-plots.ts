import { badge, esc, page } from './html-kit.ts';
import type { LoadScenarioResult, LoadSeries } from './model.ts';

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
  return page(
    title,
    [
      `<header id="verdict" class="banner ${passed ? 'passed' : 'failed'}"><h1>${esc(title)}</h1></header>`,
      loadSectionHtml(results),
    ],
    false,
  );
}
