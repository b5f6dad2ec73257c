import type { LoadScenarioResult, ReportModel } from './model.ts';
import { checkLabel, evidenceText, notApplicableText } from './text.ts';

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

/**
 * report.junit.xml: one <testsuite> per spec section, one <testcase> per check (classname = section id).
 * fail → <failure>, error → <error>, not-applicable → <skipped> with the reason, a waived failure → <skipped>
 * naming the waiver (it does not fail the verdict), warn → a passing testcase with the warning in <system-out>
 * (JUnit has no warning state; with --strict the wrapper reports SHOULD failures as fail).
 */
export function renderJunit(model: ReportModel): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const totals = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
  const body: string[] = [];
  for (const section of model.sections) {
    const checks = section.clauses.flatMap((clause) => clause.checks.map((check) => ({ clause, check })));
    const failures = checks.filter(({ check }) => check.outcome === 'fail' && !check.waived).length;
    const errors = checks.filter(({ check }) => check.outcome === 'error' && !check.waived).length;
    const skipped = checks.filter(({ check }) => check.outcome === 'not-applicable' || check.waived).length;
    const ms = checks.reduce((sum, { check }) => sum + check.durationMs, 0);
    totals.tests += checks.length;
    totals.failures += failures;
    totals.errors += errors;
    totals.skipped += skipped;
    totals.ms += ms;
    body.push(
      `  <testsuite name="${xmlEscape(`${section.id} ${section.title}`, true)}" tests="${checks.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(ms)}">`,
    );
    for (const { clause, check } of checks) {
      const open = `    <testcase classname="${xmlEscape(section.id, true)}" name="${xmlEscape(`[${clause.id}] ${checkLabel(check)}`, true)}" file="${xmlEscape(check.file, true)}" time="${seconds(check.durationMs)}"`;
      const evidence = (): string => xmlEscape(evidenceText(model, section, clause, check));
      const message = xmlEscape(firstLine(check.evidence?.message ?? check.outcome), true);
      if (check.waived) {
        const note = `waived until ${check.waived.expires}: ${check.waived.reason} (${check.outcome})`;
        body.push(`${open}>`, `      <skipped message="${xmlEscape(note, true)}"/>`);
        body.push(`      <system-out>${evidence()}</system-out>`, '    </testcase>');
      } else if (check.outcome === 'fail' || check.outcome === 'error') {
        const tag = check.outcome === 'fail' ? 'failure' : 'error';
        body.push(`${open}>`, `      <${tag} message="${message}" type="${check.outcome}">${evidence()}</${tag}>`);
        body.push('    </testcase>');
      } else if (check.outcome === 'not-applicable') {
        body.push(`${open}>`, `      <skipped message="${xmlEscape(notApplicableText(check.notApplicable), true)}"/>`);
        body.push('    </testcase>');
      } else if (check.outcome === 'warn') {
        body.push(`${open}>`, `      <system-out>WARN (${clause.level}) ${evidence()}</system-out>`, '    </testcase>');
      } else {
        body.push(`${open}/>`);
      }
    }
    body.push('  </testsuite>');
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
  out.push(
    `<testsuites name="${xmlEscape(`${model.tool.name} ${model.tool.version}: Partner API ${model.spec.release}`, true)}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(totals.ms)}">`,
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
