import { sha256Hex } from './digests.ts';
import { checkSignatures, type DsseEnvelope } from './dsse.ts';
import { subjectIsImage } from './image-subject.ts';
import type { VerifyingKey } from './keys.ts';
import { type CertificationStatement, PAYLOAD_TYPE, readStatement, StatementError } from './statement.ts';

/** What the person verifying names, for the record's subject to match. */
export type NamedSubject =
  /** --image: the digests the reference stands for (pinned, or as the engine reports them). */
  | { kind: 'image'; reference: string; digests: string[] }
  /** --target embedded: this installation's reference implementation, by its manifest digest. */
  | { kind: 'embedded'; digest: string }
  /** --target URL: matched by name (verify does not connect to the server). */
  | { kind: 'url'; baseUrl: string };

export interface VerifyRequest {
  envelope: DsseEnvelope;
  keys: readonly VerifyingKey[];
  report?: { source: string; bytes: Uint8Array };
  subject?: NamedSubject;
}

export interface VerifyResult {
  valid: boolean;
  /** One line each: signatures, subject, report, the record's run and verdict. */
  lines: string[];
  /** Why the record is invalid; empty when valid. */
  problems: string[];
  statement?: CertificationStatement;
}

/** Checks a record: every signature, the payload's types, then the report and the subject named. Reads no file. */
export function verifyRecord(request: VerifyRequest): VerifyResult {
  const { envelope, keys } = request;
  const lines: string[] = [];
  const problems: string[] = [];
  const { payload, checks, verifiedBy } = checkSignatures(envelope, keys);
  if (checks.length === 0) problems.push('the envelope has no signature');
  checks.forEach((check, index) => {
    const name = `signature ${index + 1} (${check.keyid ? `keyid ${check.keyid}` : 'no keyid'})`;
    if (check.status === 'valid') lines.push(`${name}: valid, key ${check.key}`);
    else if (check.status === 'unchecked') lines.push(`${name}: not checked, ${check.reason}`);
    else {
      lines.push(`${name}: INVALID, ${check.reason}`);
      problems.push(`${name} ${check.reason}`);
    }
  });
  for (const key of keys) {
    // A key already named by an invalid signature needs no second line.
    if (!verifiedBy.has(key.keyid) && !checks.some((check) => check.tried?.includes(key.keyid))) {
      problems.push(`no signature by ${key.source} (keyid ${key.keyid})`);
    }
  }
  if (envelope.payloadType !== PAYLOAD_TYPE) {
    problems.push(`payloadType is ${JSON.stringify(envelope.payloadType)}, not ${PAYLOAD_TYPE}`);
  }
  // What an unverified payload says is not shown: it could be anybody's words.
  if (problems.length > 0 || !payload) return { valid: false, lines, problems };

  let statement: CertificationStatement;
  try {
    statement = readStatement(payload);
  } catch (error) {
    if (!(error instanceof StatementError)) throw error;
    problems.push(error.message);
    return { valid: false, lines, problems };
  }
  for (const subject of statement.subject) lines.push(`subject: ${subject.name} sha256:${subject.digest.sha256}`);
  if (request.subject) {
    const mismatch = subjectMismatch(statement, request.subject);
    if (mismatch) problems.push(mismatch);
    else lines.push(`subject matches ${describeNamed(request.subject)}`);
  } else lines.push('subject: not compared with anything (name it with --image or --target)');
  if (!request.report) lines.push('report: not checked (name it with --report)');
  else {
    const actual = sha256Hex(request.report.bytes);
    const signed = statement.predicate.report.digest.sha256;
    if (actual === signed) lines.push(`report: ${request.report.source} matches (sha256:${actual})`);
    else {
      problems.push(
        `report: ${request.report.source} is sha256:${actual}, the record signed sha256:${signed} (changed since, or another run's report)`,
      );
    }
  }
  lines.push(...describeRun(statement));
  return { valid: problems.length === 0, lines, problems, statement };
}

function describeNamed(named: NamedSubject): string {
  if (named.kind === 'image') return `--image ${named.reference}`;
  if (named.kind === 'embedded') return `this installation's reference implementation (sha256:${named.digest})`;
  return `--target ${named.baseUrl} (by name)`;
}

function subjectMismatch(statement: CertificationStatement, named: NamedSubject): string | undefined {
  const signed = statement.subject.map((s) => `${s.name} sha256:${s.digest.sha256}`).join(', ');
  if (named.kind === 'image') {
    if (subjectIsImage(statement.subject, named.digests)) return undefined;
    const digests = named.digests.map((hex) => `sha256:${hex}`).join(', ') || 'no digest';
    return `subject: the record judged ${signed}; --image ${named.reference} is ${digests}`;
  }
  if (named.kind === 'embedded') {
    if (statement.subject.some((s) => s.digest.sha256 === named.digest)) return undefined;
    return `subject: the record judged ${signed}; this installation's reference implementation is sha256:${named.digest} (another version, or changed files)`;
  }
  const url = named.baseUrl.replace(/\/+$/, '');
  if (statement.subject.some((s) => s.name === url || s.name.startsWith(`${url}/`))) return undefined;
  return `subject: the record judged ${signed}, not ${url}`;
}

const VERDICT = { 0: 'passed', 1: 'failed', 2: 'could not judge' } as const;

function describeRun(statement: CertificationStatement): string[] {
  const { tool, spec, run, verdict, waivers, target } = statement.predicate;
  const counts = Object.entries(verdict.clauses)
    .filter(([, n]) => n > 0)
    .map(([outcome, n]) => `${n} ${outcome}`)
    .join(', ');
  return [
    `judged: ${target.image ? `image ${target.image}` : target.embedded ? 'the embedded reference implementation' : target.baseUrl} by ${tool.name} ${tool.version}, spec ${spec.release}`,
    `run: profile ${run.profile}${run.strict ? ', strict' : ''}, seed ${run.seed}, runs ${run.runs}${run.xml ? `, xml ${run.xml}` : ''}, date ${run.date}${run.only.length ? `, only ${run.only.join(',')}` : ''}, ${run.startedAt} to ${run.finishedAt}`,
    `verdict: ${VERDICT[verdict.exitCode] ?? verdict.exitCode} (exit ${verdict.exitCode}); clauses: ${counts}${waivers.length ? `; ${waivers.length} waiver(s)` : ''}`,
  ];
}
