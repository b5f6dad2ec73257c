import { failingClauses, groupByCause, oneLine, reachText } from './failures.ts';
import type { ReportModel } from './model.ts';
import { baselineLines, clauseCountsText, coverageText, exitCodeOf, trafficText, verdictLabel } from './text.ts';

/** Failure lines the terminal shows; the rest are in the HTML and JSON reports. */
const MAX_FAILURE_LINES = 25;
const MAX_IDS_IN_GROUP = 6;

/**
 * The closing summary of a run, in clauses: verdict and exit code, counts, coverage, what moved since the baseline,
 * then one line per failing clause with its first cause in words (root causes first, clauses that failed for the
 * same cause on one line, counted), notes, waiver news and where the reports are.
 */
export function formatSummary(model: ReportModel, reportFiles: readonly string[] = []): string {
  const lines: string[] = [];
  const exitCode = exitCodeOf(model);
  lines.push(
    `Verdict: ${verdictLabel(model)} · exit ${exitCode} (spec ${model.spec.release}, profile ${model.profile})`,
  );
  lines.push(...baselineLines(model).map((line, index) => (index === 0 ? line : `  ${line}`)));
  lines.push(`Clauses: ${clauseCountsText(model)}`);
  lines.push(`Coverage: ${coverageText(model)}`);
  const traffic = trafficText(model);
  if (traffic) lines.push(`Traffic: ${traffic}`);
  for (const note of model.verdict.notes ?? []) lines.push(`Note: ${note}`);

  const failing = failingClauses(model);
  if (failing.length > 0) {
    const groups = groupByCause(failing);
    const roots = failing.some((item) => item.seen + item.blocks > 0);
    lines.push(`Failing clauses (${failing.length})${roots ? ', root causes first' : ''}:`);
    for (const group of groups.slice(0, MAX_FAILURE_LINES)) {
      const [first] = group.items;
      if (!first) continue;
      if (group.items.length === 1) {
        const reach = reachText(first);
        lines.push(
          `  ${first.outcome.padEnd(5)} ${first.clause.id.padEnd(8)} ${group.headline}${reach ? ` (${reach})` : ''}`,
        );
        continue;
      }
      const ids = group.items.map((item) => item.clause.id);
      const shown = `${ids.slice(0, MAX_IDS_IN_GROUP).join(', ')}${ids.length > MAX_IDS_IN_GROUP ? ', …' : ''}`;
      lines.push(`  ${first.outcome.padEnd(5)} ${`×${ids.length}`.padEnd(8)} ${group.headline} (${shown})`);
    }
    const hidden = groups.slice(MAX_FAILURE_LINES).reduce((sum, group) => sum + group.items.length, 0);
    if (hidden > 0) lines.push(`  … and ${hidden} more failing clause(s) in the HTML and JSON reports`);
  }
  const warned = model.sections.flatMap((section) => section.clauses).filter((clause) => clause.outcome === 'warn');
  if (warned.length > 0) {
    const ids = warned.map((clause) => clause.id);
    lines.push(
      `Warnings (${warned.length} SHOULD clauses): ${ids.slice(0, 12).join(', ')}${ids.length > 12 ? ', …' : ''}`,
    );
  }
  for (const waiver of model.waivers) {
    if (waiver.status !== 'used') lines.push(`Waiver ${waiver.clauseId} (${waiver.expires}): ${waiver.status}`);
  }
  if (model.leftovers.length > 0) lines.push(`Leftover reservations: ${model.leftovers.join(', ')}`);
  for (const error of model.harnessErrors ?? []) {
    lines.push(`Harness error: ${error.file ? `${error.file}: ` : ''}${oneLine(error.message, undefined, 400)}`);
  }
  lines.push(`Seed: ${model.options.seed}`);
  for (const file of reportFiles) lines.push(`Report: ${file}`);
  return `${lines.join('\n')}\n`;
}
