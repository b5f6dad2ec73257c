import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderHtml, renderLoadHtml } from '../harness/report/html.ts';
import { renderJson } from '../harness/report/json.ts';
import { renderJunit, renderLoadJunit } from '../harness/report/junit.ts';
import type { LoadScenarioResult, ReportModel } from '../harness/report/model.ts';
import type { LoadTarget } from './scenario/model.ts';

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

/**
 * Adds the results to a certification report in `reportDir` (report.json written by `npm run certify`), replacing
 * earlier results of the same scenarios, and re-renders the report's JSON, HTML and JUnit files that exist there.
 */
export function mergeIntoReport(
  results: LoadScenarioResult[],
  reportDir: string,
  scrub: (text: string) => string = (text) => text,
): string[] {
  const jsonFile = join(resolve(reportDir), 'report.json');
  if (!existsSync(jsonFile)) throw new Error(`${jsonFile} does not exist: run npm run certify first`);
  const model = JSON.parse(readFileSync(jsonFile, 'utf8')) as ReportModel;
  const ids = new Set(results.map((result) => result.scenario));
  model.load = [...(model.load ?? []).filter((result) => !ids.has(result.scenario)), ...results];
  const written: string[] = [];
  const renderers: [string, (model: ReportModel) => string][] = [
    ['report.json', renderJson],
    ['report.html', renderHtml],
    ['report.junit.xml', renderJunit],
  ];
  for (const [name, render] of renderers) {
    const file = join(resolve(reportDir), name);
    if (name !== 'report.json' && !existsSync(file)) continue;
    writeFileSync(file, scrub(render(model)));
    written.push(file);
  }
  return written;
}
