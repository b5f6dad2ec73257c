import { readFileSync } from 'node:fs';
import { parseWaivers, type Waiver, WaiverFileError } from '../report/waivers.ts';
import { CertifyError } from './errors.ts';

export type { Waiver };

const EXAMPLE = '[{ "clause": "4.7.3", "reason": "…", "expires": "YYYY-MM-DD" }]';

/**
 * Reads an --expected-failures file: a JSON array of { clause, reason, expires }. Validation is the report module's
 * (it owns what a waiver means); this turns its complaint into a configuration error naming the file.
 */
export function loadWaivers(file: string): Waiver[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CertifyError(
      `--expected-failures: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CertifyError(
      `--expected-failures: ${file} is not valid JSON (${(error as Error).message}); expected ${EXAMPLE}`,
    );
  }
  try {
    return parseWaivers(value);
  } catch (error) {
    if (error instanceof WaiverFileError) {
      throw new CertifyError(`--expected-failures: ${file}: ${error.message}; expected ${EXAMPLE}`);
    }
    throw error;
  }
}
