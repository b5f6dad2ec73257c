import type { LoadScenarioResult } from '../harness/report/model.ts';
import { isNotJudged, NOT_JUDGED_PREFIX } from './engine-neutral/results.ts';

const pad = (text: string | number, width: number) => String(text).padStart(width);
const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);

function formatActual(value: number | null): string {
  if (value === null) return 'nothing measured';
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 1 ? 4 : 1);
}

/** The terminal summary of one scenario run. */
export function formatResult(result: LoadScenarioResult): string {
  const lines: string[] = [];
  const where = `${result.target.baseUrl}${result.target.embedded ? ' (embedded)' : ''}`;
  const notJudged = result.checks.filter(isNotJudged).length;
  const verdict = `${result.passed ? 'PASSED' : 'FAILED'}${notJudged > 0 ? `, ${notJudged} checks not judged` : ''}`;
  lines.push(
    `${result.scenario}: ${result.title}: ${verdict} (${result.engine} engine, ${where}, ${(result.durationMs / 1000).toFixed(1)} s)`,
  );
  for (const phase of result.phases) lines.push(`  phase ${phase.name}: ${phase.arrival}`);
  lines.push(
    `  ${'step'.padEnd(18)}${pad('count', 7)}${pad('rate/s', 9)}${pad('p50 ms', 9)}${pad('p90 ms', 9)}${pad('p99 ms', 9)}${pad('max ms', 9)}  errors by code`,
  );
  for (const step of result.steps) {
    const errors = Object.entries(step.errors)
      .sort(([, a], [, b]) => b - a)
      .map(([code, n]) => `${code} ${n}`)
      .join(', ');
    const { p50, p90, p99, max } = step.latencyMs;
    lines.push(
      `  ${step.name.padEnd(18)}${pad(step.count, 7)}${pad(step.ratePerSecond.toFixed(1), 9)}${pad(ms(p50), 9)}${pad(ms(p90), 9)}${pad(ms(p99), 9)}${pad(ms(max), 9)}  ${errors || '-'}`,
    );
  }
  lines.push('  checks');
  for (const check of result.checks) {
    const unjudged = isNotJudged(check);
    const counts = check.outcome === 'not-applicable' ? '' : ` (${check.passes} passed, ${check.fails} failed)`;
    lines.push(`    ${(unjudged ? 'not judged' : check.outcome).padEnd(14)} ${check.name}${counts}`);
    const detail = unjudged ? check.detail?.slice(NOT_JUDGED_PREFIX.length) : check.detail;
    if (detail && check.outcome !== 'pass') lines.push(`    ${''.padEnd(14)} ${detail}`);
  }
  lines.push('  thresholds');
  for (const threshold of result.thresholds) {
    lines.push(`    ${threshold.outcome.padEnd(14)} ${threshold.name} (actual ${formatActual(threshold.actual)})`);
  }
  lines.push(`  dropped iterations: ${result.droppedIterations}`);
  for (const note of result.notes) lines.push(`  note: ${note}`);
  return lines.join('\n');
}
