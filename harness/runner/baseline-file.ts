import { readFileSync } from 'node:fs';
import type { ReportModel } from '../report/model.ts';
import { CertifyError } from './errors.ts';

/** --baseline FILE: an earlier report.json, read and checked before anything starts. */
export function loadBaseline(file: string): ReportModel {
  let report: ReportModel;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as ReportModel;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CertifyError(
      `--baseline: cannot read ${file} (${code ?? (error as Error).message}); pass the report.json of an earlier run`,
    );
  }
  if (report?.schemaVersion !== 1 || !Array.isArray(report.sections) || typeof report.target?.baseUrl !== 'string') {
    throw new CertifyError(`--baseline: ${file} is not a certification report.json`);
  }
  return report;
}

/** A baseline is about the same target: the same base URL, or both the embedded reference (its port changes). */
export function assertSameTarget(baseline: ReportModel, target: { baseUrl: string; embedded: boolean }, file: string) {
  const same = baseline.target.embedded
    ? target.embedded
    : !target.embedded && baseline.target.baseUrl.replace(/\/+$/, '') === target.baseUrl.replace(/\/+$/, '');
  if (!same) {
    const what = (t: { baseUrl: string; embedded: boolean }) => (t.embedded ? 'the embedded reference' : t.baseUrl);
    throw new CertifyError(
      `--baseline: ${file} judged ${what(baseline.target)}, this run judges ${what(target)}; compare runs of the same target`,
    );
  }
}

export function parseFailOn(value: string): 'new' | 'any' {
  if (value === 'new' || value === 'any') return value;
  throw new CertifyError(`--fail-on: expected "new" or "any", got "${value}"`);
}
