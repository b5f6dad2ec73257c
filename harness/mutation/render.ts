import { mdInline } from '../report/markdown.ts';
import type { MutationReport } from './matrix.ts';

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/** The terminal summary of a matrix: the figures the thresholds judge. */
export function formatMutationSummary(report: MutationReport): string {
  const s = report.summary;
  const lines = [
    `Faults: ${s.faults} · caught on own clause: ${s.caughtOnClause} (${percent(s.score)}) · extra failed clauses: median ${s.extraMedian}, max ${s.extraMax}`,
    `Benign variants: ${s.benign} · passed: ${s.benignPassed} · false failures: ${s.benign - s.benignPassed}`,
    `Runs with error outcomes: ${s.runsWithErrors} · baseline: ${s.baselinePassed ? 'passed' : 'FAILED'}`,
  ];
  if (report.stability) {
    lines.push(
      `Stability: ${report.stability.identical}/${report.stability.runs} identical verdicts${report.stability.busy ? ' (one core kept busy)' : ''}`,
    );
  }
  lines.push(report.breaches.length === 0 ? 'Thresholds: met' : `Thresholds: NOT met: ${report.breaches.join('; ')}`);
  return `${lines.join('\n')}\n`;
}

/** mutation.md: the summary, then the matrix (fault → caught? on its clause? what else failed; variant → passed?). */
export function renderMutationMarkdown(report: MutationReport): string {
  const out: string[] = ['# Mutation matrix', '', '```text', formatMutationSummary(report).trimEnd(), '```', ''];
  out.push(`Seed ${report.seed}; ${(report.durationMs / 60_000).toFixed(1)} min.`, '');
  out.push(
    '## Faults',
    '',
    '| fault | clause | caught on its clause | other failed clauses | errors |',
    '|---|---|---|---|---:|',
  );
  for (const row of report.rows.filter((r) => r.kind === 'fault')) {
    const caught = row.run.problem ? 'no report' : row.ok ? 'yes' : row.run.flagged.length > 0 ? 'elsewhere' : 'missed';
    out.push(
      `| ${mdInline(row.name)} | ${row.clause} | ${caught} | ${mdInline(row.extra.join(', ')) || '—'} | ${row.run.errors.length} |`,
    );
  }
  out.push(
    '',
    '## Benign variants',
    '',
    '| variant | freedom of | passed | false failures | errors |',
    '|---|---|---|---|---:|',
  );
  for (const row of report.rows.filter((r) => r.kind === 'benign')) {
    out.push(
      `| ${mdInline(row.name)} | ${row.clause} | ${row.ok ? 'yes' : 'no'} | ${mdInline(row.extra.join(', ')) || '—'} | ${row.run.errors.length} |`,
    );
  }
  if (report.stability) {
    out.push('', '## Stability', '', '| seed | verdict | flagged | errors |', '|---:|---|---|---:|');
    for (const v of report.stability.verdicts) {
      out.push(
        `| ${v.seed} | ${v.passed ? 'passed' : 'failed'} | ${mdInline(v.flagged.join(', ')) || '—'} | ${v.errors} |`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}
