import type { ReportFormat } from '../report/formats.ts';
import { CertifyError } from '../runner/errors.ts';
import { ImageInspectError } from './image-subject.ts';
import { KeyError, loadSigningKey, type SigningKey } from './keys.ts';
import { type RecordInput, writeCertificationRecord } from './record.ts';
import { SubjectError } from './url-subject.ts';

/** --attest, checked before the target is touched: a run must not end unable to sign what it judged. */
export function parseAttestFlag(value: string, formats: readonly ReportFormat[], env: NodeJS.ProcessEnv): SigningKey {
  if (!formats.includes('json')) {
    throw new CertifyError('--attest: the record signs the digest of report.json; keep json in --format');
  }
  try {
    return loadSigningKey(value.trim(), env);
  } catch (error) {
    if (error instanceof KeyError) throw new CertifyError(`--attest: ${error.message}`);
    throw error;
  }
}

/** The runner's last step with --attest: the record beside the reports, or a CertifyError saying why not. */
export async function attestRun(input: RecordInput): Promise<string> {
  try {
    return await writeCertificationRecord(input);
  } catch (error) {
    if (error instanceof SubjectError || error instanceof ImageInspectError) {
      throw new CertifyError(`--attest: no record written: ${error.message}`);
    }
    // A file-system error (it names its syscall): the report directory changed under the run.
    if ((error as NodeJS.ErrnoException).syscall) {
      throw new CertifyError(
        `--attest: cannot write the record in ${input.reportDir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    throw error;
  }
}
