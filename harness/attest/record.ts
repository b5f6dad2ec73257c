import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { TargetTls } from '../config/target-config.ts';
import type { ReportModel } from '../report/model.ts';
import { PROJECT_ROOT } from '../runner/paths.ts';
import { canonicalJson } from './canonical-json.ts';
import { manifestDigest, sourceFilesUnder } from './digests.ts';
import { renderEnvelope, signEnvelope } from './dsse.ts';
import { embeddedSubject } from './embedded-subject.ts';
import { type InspectImage, imageSubject, inspectWithEngine } from './image-subject.ts';
import type { SigningKey } from './keys.ts';
import { RECORD_FILE } from './record-file.ts';
import { buildStatement, PAYLOAD_TYPE, type ResourceDescriptor } from './statement.ts';
import { type UrlProbes, urlSubjects } from './url-subject.ts';

export { RECORD_FILE };

/** What the run judged, as the runner knows it at its end (the target still up). */
export interface JudgedTarget {
  baseUrl: string;
  embedded: boolean;
  tls?: TargetTls;
  /** --image: the reference the container was started from. */
  image?: string;
}

export interface RecordInput {
  key: SigningKey;
  report: ReportModel;
  reportDir: string;
  target: JudgedTarget;
  /** The suite files that ran (absolute paths). */
  suiteFiles: readonly string[];
  /** The run's last pass over what it writes (the target's secrets). */
  scrub?: (text: string) => string;
  root?: string;
  inspect?: InspectImage;
  probes?: UrlProbes;
}

export async function subjectsOf(
  target: JudgedTarget,
  options: { root?: string; inspect?: InspectImage; probes?: UrlProbes } = {},
): Promise<ResourceDescriptor[]> {
  if (target.image) return [imageSubject(target.image, await (options.inspect ?? inspectWithEngine)(target.image))];
  if (target.embedded) return [embeddedSubject(options.root)];
  return urlSubjects(target, options.probes);
}

/** The suites as they ran: their files and the helpers they share, which decide verdicts as much as they do. */
export function suitesDigest(
  root: string,
  suiteFiles: readonly string[],
): { digest: { sha256: string }; files: string[] } {
  const support = sourceFilesUnder(root, ['suites/support']);
  const manifest = manifestDigest(root, [...new Set([...suiteFiles, ...support])]);
  const files = suiteFiles.map((file) => relative(root, file).split(sep).join('/')).sort();
  return { digest: { sha256: manifest.sha256 }, files };
}

/**
 * Signs the run's statement into `certification.intoto.json` beside report.json, which must already be written:
 * the statement carries its digest. Written through a temporary file, so a reader never sees half a record.
 */
export async function writeCertificationRecord(input: RecordInput): Promise<string> {
  const root = input.root ?? PROJECT_ROOT;
  const reportBytes = readFileSync(join(input.reportDir, 'report.json'));
  const statement = buildStatement({
    report: input.report,
    reportBytes,
    subject: await subjectsOf(input.target, { root, inspect: input.inspect, probes: input.probes }),
    suites: suitesDigest(root, input.suiteFiles),
    ...(input.target.image ? { image: input.target.image } : {}),
  });
  const scrub = input.scrub ?? ((text: string) => text);
  const payload = Buffer.from(scrub(canonicalJson(statement)), 'utf8');
  const file = join(input.reportDir, RECORD_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, renderEnvelope(signEnvelope(PAYLOAD_TYPE, payload, input.key)));
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
  return file;
}
