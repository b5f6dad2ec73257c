import { clauseById } from '../../contract/clauses/index.ts';
import { isSelected } from '../check/applicability.ts';
import { causeOf, judgedText } from './failures.ts';
import type { LoadScenarioResult, ReportClause, ReportModel, ReportSection } from './model.ts';
import {
  baselineLines,
  clauseCountsText,
  coverageText,
  curlText,
  evidenceText,
  exitCodeOf,
  notApplicableText,
  requestText,
  responseText,
  trafficText,
  verdictLabel,
} from './text.ts';

// Characters XML 1.0 cannot hold at all (a response body may contain them); shown as U+FFFD.
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what must go
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes for both text and double-quoted attributes; line breaks in attributes are kept as character references. */
export function xmlEscape(text: string, attribute = false): string {
  const escaped = text
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
  return attribute ? escaped.replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;') : escaped;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

function outcomeText(clause: ReportClause, only: readonly string[]): string {
  if (clause.checks.length === 0 && !clause.observations) {
    const entry = clauseById(clause.id);
    if (only.length > 0 && entry && !isSelected(entry, only)) return `not selected (--only ${only.join(',')})`;
  }
  return judgedText(clause);
}

/** Everything JUnit shows of a failing clause: its checks' evidence, then what other checks saw of it. */
function clauseEvidence(model: ReportModel, section: ReportSection, clause: ReportClause): string {
  const parts: string[] = [`[${clause.id}] ${clause.level} ${clause.title} (section ${section.id})`];
  parts.push(`Clause: ${clause.text}`, judgedText(clause));
  for (const check of clause.checks) {
    if (check.outcome === 'pass') continue;
    parts.push('', `=== check ${check.id}: ${check.outcome}${check.waived ? ' (waived)' : ''}`);
    if (check.outcome === 'not-applicable') parts.push(notApplicableText(check.notApplicable));
    else parts.push(evidenceText(model, section, clause, check).split('\n').slice(2).join('\n'));
  }
  for (const observation of clause.observations ?? []) {
    parts.push(
      '',
      `=== seen ${observation.count}× by ${observation.seenIn.join(', ')}`,
      `Message: ${observation.message}`,
    );
    if (observation.expected !== undefined) parts.push(`Expected: ${observation.expected}`);
    if (observation.actual !== undefined) parts.push(`Actual: ${observation.actual}`);
    const exchange = observation.exchange;
    if (exchange) parts.push('', requestText(exchange), '', responseText(exchange), '', `curl: ${curlText(exchange)}`);
  }
  return parts.join('\n');
}

/** The first testsuite: no test of its own, the run's verdict, coverage, notes and baseline as properties and text. */
function verdictSuite(model: ReportModel): string[] {
  const properties: [string, string][] = [
    ['verdict', verdictLabel(model)],
    ['exitCode', String(exitCodeOf(model))],
    ['clausesJudged', String(model.coverage.clausesJudged)],
    ['clausesTotal', String(model.coverage.clausesTotal)],
    ['profile', model.profile],
    ['seed', String(model.options.seed)],
  ];
  if (model.baseline) {
    properties.push(
      ['baseline.newFailures', model.baseline.newFailures.join(' ')],
      ['baseline.fixed', model.baseline.fixed.join(' ')],
      ['baseline.unchanged', model.baseline.unchanged.join(' ')],
      ['baseline.becameNotApplicable', model.baseline.becameNotApplicable.join(' ')],
    );
  }
  const text = [
    ...baselineLines(model),
    `Clauses: ${clauseCountsText(model)}`,
    `Coverage: ${coverageText(model)}`,
    ...(trafficText(model) ? [`Traffic: ${trafficText(model)}`] : []),
    ...(model.verdict.notes ?? []).map((note) => `Note: ${note}`),
  ].join('\n');
  return [
    '  <testsuite name="verdict" tests="0" failures="0" errors="0" skipped="0" time="0.000">',
    '    <properties>',
    ...properties.map(
      ([name, value]) => `      <property name="${xmlEscape(name, true)}" value="${xmlEscape(value, true)}"/>`,
    ),
    '    </properties>',
    `    <system-out>${xmlEscape(text)}</system-out>`,
    '  </testsuite>',
  ];
}

/**
 * junit.xml: counted in clauses like every other format. A first testsuite "verdict" (no tests) carries the verdict,
 * coverage, notes and the baseline comparison; then one <testsuite> per spec section and one <testcase> per clause
 * (classname = section id), its checks' and observations' evidence inside. fail → <failure>, error → <error>, not
 * judged (not applicable, not checked, not selected) → <skipped> with the reason, a waived failure → <skipped> naming
 * the waiver, warn → a passing testcase with the warning in <system-out> (JUnit has no warning state).
 */
export function renderJunit(model: ReportModel): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const totals = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
  const body: string[] = [...verdictSuite(model)];
  for (const section of model.sections) {
    const cases: string[] = [];
    const counts = { failures: 0, errors: 0, skipped: 0, ms: 0 };
    for (const clause of section.clauses) {
      const ms = clause.checks.reduce((sum, check) => sum + check.durationMs, 0);
      counts.ms += ms;
      const open = `    <testcase classname="${xmlEscape(section.id, true)}" name="${xmlEscape(`[${clause.id}] ${clause.title}`, true)}" time="${seconds(ms)}"`;
      const evidence = (): string => xmlEscape(clauseEvidence(model, section, clause));
      const cause = causeOf(section, clause);
      if (clause.waived) {
        counts.skipped += 1;
        const waiver = clause.checks.find((check) => check.waived)?.waived;
        const note = `waived${waiver ? ` until ${waiver.expires}: ${waiver.reason}` : ''} (${clause.outcome})`;
        cases.push(`${open}>`, `      <skipped message="${xmlEscape(note, true)}"/>`);
        cases.push(`      <system-out>${evidence()}</system-out>`, '    </testcase>');
      } else if (clause.outcome === 'fail' || clause.outcome === 'error') {
        const tag = clause.outcome === 'fail' ? 'failure' : 'error';
        if (tag === 'failure') counts.failures += 1;
        else counts.errors += 1;
        const message = xmlEscape(firstLine(cause ?? clause.outcome), true);
        cases.push(`${open}>`, `      <${tag} message="${message}" type="${clause.outcome}">${evidence()}</${tag}>`);
        cases.push('    </testcase>');
      } else if (clause.outcome === 'not-applicable' || clause.outcome === 'not-checked') {
        counts.skipped += 1;
        cases.push(
          `${open}>`,
          `      <skipped message="${xmlEscape(outcomeText(clause, model.options.only), true)}"/>`,
        );
        cases.push('    </testcase>');
      } else if (clause.outcome === 'warn') {
        cases.push(
          `${open}>`,
          `      <system-out>WARN (${clause.level}) ${evidence()}</system-out>`,
          '    </testcase>',
        );
      } else {
        cases.push(`${open}/>`);
      }
    }
    const tests = section.clauses.length;
    totals.tests += tests;
    totals.failures += counts.failures;
    totals.errors += counts.errors;
    totals.skipped += counts.skipped;
    totals.ms += counts.ms;
    const judged = section.clauses.filter((clause) => clause.judgedBy !== undefined).length;
    body.push(
      `  <testsuite name="${xmlEscape(`${section.id} ${section.title}`, true)}" tests="${tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${seconds(counts.ms)}">`,
      '    <properties>',
      `      <property name="clausesJudged" value="${judged}"/>`,
      '    </properties>',
      ...cases,
      '  </testsuite>',
    );
  }
  const harnessErrors = model.harnessErrors ?? [];
  if (harnessErrors.length > 0) {
    // Problems no check owns still have to turn a CI run red, so they appear as errored testcases of their own.
    totals.tests += harnessErrors.length;
    totals.errors += harnessErrors.length;
    body.push(
      `  <testsuite name="harness" tests="${harnessErrors.length}" failures="0" errors="${harnessErrors.length}" skipped="0" time="0.000">`,
    );
    for (const error of harnessErrors) {
      const name = [error.file, error.test].filter(Boolean).join(' > ') || 'run';
      body.push(`    <testcase classname="harness" name="${xmlEscape(name, true)}" time="0.000">`);
      body.push(
        `      <error message="${xmlEscape(firstLine(error.message), true)}" type="harness">${xmlEscape(error.message)}</error>`,
      );
      body.push('    </testcase>');
    }
    body.push('  </testsuite>');
  }
  const load = loadSuites(model.load ?? []);
  body.push(...load.lines);
  totals.tests += load.totals.tests;
  totals.failures += load.totals.failures;
  totals.skipped += load.totals.skipped;
  const name = `${model.tool.name} ${model.tool.version}: Partner API ${model.spec.release}, ${verdictLabel(model)}, ${model.coverage.clausesJudged}/${model.coverage.clausesTotal} clauses judged`;
  out.push(
    `<testsuites name="${xmlEscape(name, true)}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(totals.ms)}">`,
    ...body,
    '</testsuites>',
  );
  return `${out.join('\n')}\n`;
}

/**
 * Load scenarios (load/): one <testsuite> per scenario, one <testcase> per check and per threshold (classname
 * `load.<scenario>`); fail → <failure>, not-applicable → <skipped> with the reason.
 */
function loadSuites(results: readonly LoadScenarioResult[]): {
  lines: string[];
  totals: { tests: number; failures: number; skipped: number };
} {
  const lines: string[] = [];
  const totals = { tests: 0, failures: 0, skipped: 0 };
  for (const result of results) {
    const classname = xmlEscape(`load.${result.scenario}`, true);
    const cases: string[] = [];
    let failures = 0;
    let skipped = 0;
    for (const check of result.checks) {
      const open = `    <testcase classname="${classname}" name="${xmlEscape(`check: ${check.name}`, true)}" time="0.000"`;
      const counts = `${check.passes} passed, ${check.fails} failed`;
      if (check.outcome === 'fail') {
        failures += 1;
        const message = xmlEscape(firstLine(check.detail ?? 'failed'), true);
        cases.push(
          `${open}>`,
          `      <failure message="${message}" type="check">${xmlEscape(`${check.description}\n${counts}\n${check.detail ?? ''}`)}</failure>`,
          '    </testcase>',
        );
      } else if (check.outcome === 'not-applicable') {
        skipped += 1;
        cases.push(
          `${open}>`,
          `      <skipped message="${xmlEscape(check.detail ?? 'not applicable', true)}"/>`,
          '    </testcase>',
        );
      } else {
        cases.push(`${open}>`, `      <system-out>${xmlEscape(counts)}</system-out>`, '    </testcase>');
      }
    }
    for (const threshold of result.thresholds) {
      const open = `    <testcase classname="${classname}" name="${xmlEscape(`threshold: ${threshold.name}`, true)}" time="0.000"`;
      const actual = `actual ${threshold.actual === null ? 'nothing measured' : threshold.actual}`;
      if (threshold.outcome === 'fail') {
        failures += 1;
        cases.push(
          `${open}>`,
          `      <failure message="${xmlEscape(actual, true)}" type="threshold"/>`,
          '    </testcase>',
        );
      } else {
        cases.push(`${open}>`, `      <system-out>${xmlEscape(actual)}</system-out>`, '    </testcase>');
      }
    }
    const tests = result.checks.length + result.thresholds.length;
    totals.tests += tests;
    totals.failures += failures;
    totals.skipped += skipped;
    lines.push(
      `  <testsuite name="${xmlEscape(`load ${result.scenario}: ${result.title} (${result.engine})`, true)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(result.durationMs)}" timestamp="${xmlEscape(result.startedAt.replace(/Z$/, ''), true)}">`,
      ...cases,
      '  </testsuite>',
    );
  }
  return { lines, totals };
}

/** JUnit XML of load results alone (what `npm run load` writes). */
export function renderLoadJunit(results: readonly LoadScenarioResult[]): string {
  const { lines, totals } = loadSuites(results);
  const ms = results.reduce((sum, result) => sum + result.durationMs, 0);
  return `${[
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="Partner API v1 load scenarios" tests="${totals.tests}" failures="${totals.failures}" errors="0" skipped="${totals.skipped}" time="${seconds(ms)}">`,
    ...lines,
    '</testsuites>',
  ].join('\n')}\n`;
}
