import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RENDERERS, REPORT_FORMATS } from '../harness/report/formats.ts';
import { renderLoadHtml } from '../harness/report/html-load-plots.ts';
import { renderLoadJunit } from '../harness/report/junit.ts';
import type { LoadScenarioResult, ReportModel } from '../harness/report/model.ts';
import type { LoadTarget } from './engine-neutral/model.ts';
import { LoadUsageError } from './target.ts';

/** Object keys sorted at every depth, 2-space indent (as report.json), so two runs diff cleanly. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function resultJson(result: LoadScenarioResult): string {
  return `${JSON.stringify(canonical(result), null, 2)}\n`;
}

/** Every secret of the target config, replaced wherever it might appear (a response snippet in a check detail). */
export function scrubber(target: LoadTarget): (text: string) => string {
  const secrets = [
    ...Object.values(target.clients).map((client) => client?.clientSecret),
    target.control?.token,
  ].filter((secret): secret is string => typeof secret === 'string' && secret.length >= 8);
  return (text) => secrets.reduce((out, secret) => out.split(secret).join('[REDACTED]'), text);
}

/**
 * Writes `<id>.json`, `<id>.html` and `<id>.junit.xml` per scenario into `dir`, and `load.html` and
 * `load.junit.xml` for all of them when there are several. Returns the files written.
 */
export function writeLoadResults(
  results: LoadScenarioResult[],
  dir: string,
  scrub: (text: string) => string = (text) => text,
): string[] {
  const target = resolve(dir);
  mkdirSync(target, { recursive: true });
  const written: string[] = [];
  const write = (name: string, text: string) => {
    const file = join(target, name);
    writeFileSync(file, scrub(text));
    written.push(file);
  };
  for (const result of results) {
    write(`${result.scenario}.json`, resultJson(result));
    write(`${result.scenario}.html`, renderLoadHtml([result]));
    write(`${result.scenario}.junit.xml`, renderLoadJunit([result]));
  }
  if (results.length > 1) {
    write('load.html', renderLoadHtml(results));
    write('load.junit.xml', renderLoadJunit(results));
  }
  return written;
}

/** The certification report a load run will merge into (--report-dir), read before the load starts. */
export function readReportForMerge(reportDir: string): ReportModel {
  const jsonFile = join(resolve(reportDir), RENDERERS.json.fileName);
  if (!existsSync(jsonFile)) {
    throw new LoadUsageError(
      `--report-dir: ${jsonFile} does not exist; run npm run certify -- --report-dir ${reportDir} first (or leave out --report-dir)`,
    );
  }
  let model: ReportModel;
  try {
    model = JSON.parse(readFileSync(jsonFile, 'utf8')) as ReportModel;
  } catch {
    throw new LoadUsageError(`--report-dir: ${jsonFile} is not valid JSON`);
  }
  if (model?.schemaVersion !== 1 || !Array.isArray(model.sections) || typeof model.target?.baseUrl !== 'string') {
    throw new LoadUsageError(`--report-dir: ${jsonFile} is not a certification report`);
  }
  return model;
}

/**
 * Load results belong in the report of the target they measured: the embedded reference with the embedded
 * reference (each start has its own port), a URL target with the report of that URL.
 */
export function assertSameTarget(model: ReportModel, target: { embedded: boolean; baseUrl: string }): void {
  const strip = (url: string) => url.replace(/\/+$/, '');
  const same = model.target.embedded
    ? target.embedded
    : !target.embedded && strip(model.target.baseUrl) === strip(target.baseUrl);
  if (!same) {
    const what = (t: { embedded: boolean; baseUrl: string }) => (t.embedded ? 'the embedded reference' : t.baseUrl);
    throw new LoadUsageError(
      `--report-dir: the report there judged ${what(model.target)}, this load run measures ${what(target)}; load results are merged only into a report of the same target`,
    );
  }
}

/**
 * Adds the results to a certification report in `reportDir` (report.json written by `npm run certify`), replacing
 * earlier results of the same scenarios, and re-renders every format of the report that is there (report.json,
 * junit.xml, report.html, report.md), so they all agree.
 */
export function mergeIntoReport(
  results: LoadScenarioResult[],
  reportDir: string,
  scrub: (text: string) => string = (text) => text,
): string[] {
  const model = readReportForMerge(reportDir);
  for (const result of results) assertSameTarget(model, result.target);
  const ids = new Set(results.map((result) => result.scenario));
  model.load = [...(model.load ?? []).filter((result) => !ids.has(result.scenario)), ...results];
  const written: string[] = [];
  for (const format of REPORT_FORMATS) {
    const { fileName, render } = RENDERERS[format];
    const file = join(resolve(reportDir), fileName);
    if (format !== 'json' && !existsSync(file)) continue;
    writeFileSync(file, scrub(render(model)));
    written.push(file);
  }
  return written;
}
