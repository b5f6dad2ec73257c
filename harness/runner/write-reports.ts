import { accessSync, constants, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RECORD_FILE } from '../attest/record-file.ts';
import { RENDERERS } from '../report/formats.ts';
import type { ReportModel } from '../report/model.ts';
import { CertifyError } from './errors.ts';
import { REPORT_FILES, REPORT_FORMATS, type ReportFormat } from './options.ts';

/** Creates the report directory (before the run: a run must not end unable to write its report). */
export function prepareReportDir(dir: string): string {
  const target = resolve(dir);
  try {
    mkdirSync(target, { recursive: true });
    accessSync(target, constants.W_OK);
  } catch (error) {
    throw new CertifyError(
      `--report-dir: cannot write to ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return target;
}

/**
 * Writes the requested formats into the report directory and removes the files of the formats not requested, so the
 * directory never mixes two runs. `scrub` is a last pass over each file (the runner removes known secrets with it).
 */
export function writeReports(
  model: ReportModel,
  formats: readonly ReportFormat[],
  dir: string,
  scrub: (text: string) => string = (text) => text,
): string[] {
  const target = prepareReportDir(dir);
  // An earlier run's signed record would vouch for reports it never saw; --attest writes this run's afterwards.
  rmSync(join(target, RECORD_FILE), { force: true });
  const written: string[] = [];
  for (const format of REPORT_FORMATS) {
    const file = join(target, REPORT_FILES[format]);
    if (!formats.includes(format)) {
      rmSync(file, { force: true });
      continue;
    }
    try {
      writeFileSync(file, scrub(RENDERERS[format].render(model)));
    } catch (error) {
      throw new CertifyError(
        `--report-dir: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    written.push(file);
  }
  return written;
}

/**
 * Removes the report files of an earlier run from the directory: a run that could not judge (pre-flight) leaves no
 * verdict behind that CI could mistake for its own.
 */
export function clearReports(dir: string): void {
  for (const format of REPORT_FORMATS) rmSync(join(resolve(dir), REPORT_FILES[format]), { force: true });
  rmSync(join(resolve(dir), RECORD_FILE), { force: true });
}
