import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { SaxesParser } from 'saxes';
import type { ReportCheck, ReportModel } from '../../report/model.ts';

// ajv-formats is CommonJS; its `default` property is the plugin (as in contract/validation.ts).
const addFormats = addFormatsModule.default;

/** The report module's JSON Schema of report.json, compiled once. */
export function reportSchemaErrors(value: unknown): string[] {
  const schema = JSON.parse(readFileSync(new URL('../../report/report-model.schema.json', import.meta.url), 'utf8'));
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

export function readReport(dir: string): ReportModel {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as ReportModel;
}

export function checksOf(report: ReportModel): ReportCheck[] {
  return report.sections.flatMap((section) => section.clauses.flatMap((clause) => clause.checks));
}

/** Clause ids with a failed or errored check that no waiver covers. */
export function failingClauses(report: ReportModel): string[] {
  return report.sections.flatMap((section) =>
    section.clauses
      .filter((clause) => clause.checks.some((c) => (c.outcome === 'fail' || c.outcome === 'error') && !c.waived))
      .map((clause) => clause.id),
  );
}

/** Throws at the first well-formedness error; returns the number of elements with each name. */
export function xmlElementCounts(xml: string): Map<string, number> {
  const counts = new Map<string, number>();
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => counts.set(tag.name, (counts.get(tag.name) ?? 0) + 1));
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
  return counts;
}
