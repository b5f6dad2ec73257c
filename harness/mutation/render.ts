import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RENDERERS, REPORT_FORMATS } from '../report/formats.ts';
import { renderMutationHtml } from '../report/html-mutation.ts';
import { mdInline } from '../report/markdown.ts';
import type { ReportModel, ReportMutation, ReportMutationRow } from '../report/model.ts';
import type { FaultRow, MutationReport } from './matrix.ts';

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
  const limit = report.rateLimitPerMinute
    ? `; the reference limiting each client to ${report.rateLimitPerMinute} calls a minute`
    : '';
  out.push(`Seed ${report.seed}${limit}; ${(report.durationMs / 60_000).toFixed(1)} min.`, '');
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

/** A row's result in one word: caught on its clause, caught elsewhere, missed (faults); passed, failed (variants). */
function resultOf(row: FaultRow): ReportMutationRow['result'] {
  if (row.run.problem) return 'no-report';
  if (row.kind === 'benign') return row.ok ? 'passed' : 'failed';
  return row.ok ? 'caught' : row.run.flagged.length > 0 ? 'elsewhere' : 'missed';
}

/** The matrix as the report model carries it (ReportModel.mutation), for report.html and mutation.html. */
export function toReportMutation(report: MutationReport): ReportMutation {
  return {
    startedAt: report.startedAt,
    durationMs: Math.max(0, Math.round(report.durationMs)),
    seed: report.seed,
    summary: { ...report.summary },
    breaches: [...report.breaches],
    rows: report.rows.map((row) => ({
      name: row.name,
      kind: row.kind,
      clause: row.clause,
      description: row.description,
      result: resultOf(row),
      otherFailed: [...row.extra],
      errors: row.run.errors.length,
    })),
  };
}

/** mutation.html: the matrix in the report's page and style. */
export function renderMutationPage(report: MutationReport): string {
  return renderMutationHtml(toReportMutation(report));
}

/**
 * Adds the matrix to the certification report in `dir` (--merge-report) and re-renders every format there. The
 * matrix is about the reference implementation: only a report of the embedded reference takes it.
 */
export function mergeMutationIntoReport(report: MutationReport, dir: string): string[] {
  const model = readEmbeddedReport(dir);
  model.mutation = toReportMutation(report);
  const written: string[] = [];
  for (const format of REPORT_FORMATS) {
    const file = join(resolve(dir), RENDERERS[format].fileName);
    if (format !== 'json' && !existsSync(file)) continue;
    writeFileSync(file, RENDERERS[format].render(model));
    written.push(file);
  }
  return written;
}

/** The report --merge-report names, checked before the matrix runs (an hour later is too late to find it missing). */
export function readEmbeddedReport(dir: string): ReportModel {
  const jsonFile = join(resolve(dir), RENDERERS.json.fileName);
  let model: ReportModel;
  try {
    model = JSON.parse(readFileSync(jsonFile, 'utf8')) as ReportModel;
  } catch (error) {
    throw new Error(
      `--merge-report: cannot read ${jsonFile} (${(error as NodeJS.ErrnoException).code ?? 'invalid JSON'})`,
    );
  }
  if (model?.schemaVersion !== 1 || !model.target?.embedded) {
    throw new Error(`--merge-report: ${jsonFile} is not a report of the embedded reference implementation`);
  }
  return model;
}
