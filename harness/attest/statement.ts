import { CLAUSES } from '../../contract/clauses/index.ts';
import type { JudgedBy } from '../check/outcome-and-evidence.ts';
import type { ClauseOutcome, ReportModel, ReportWaiver } from '../report/model.ts';
import { canonicalJson } from './canonical-json.ts';
import { type Sha256Digest, sha256Hex } from './digests.ts';

/** What the envelope's payload is, and what a Statement v1 says of its own type (in-toto attestation spec v1). */
export const PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
/**
 * Our predicate's type, under the namespace of the contract's JSON Schemas (contract/schemas). It is what
 * `cosign verify-attestation --type` is given; a change of the predicate's shape that breaks readers gets a v2.
 */
export const PREDICATE_TYPE = 'https://partner-api.invalid/attestation/certification/v1';

/** An in-toto ResourceDescriptor, with the fields this tool writes. */
export interface ResourceDescriptor {
  name: string;
  digest: Sha256Digest;
  mediaType?: string;
  annotations?: Record<string, string>;
}

export interface CertificationPredicate {
  spec: { release: string; clauseCatalogue: { digest: Sha256Digest; clauses: number } };
  tool: { name: string; version: string };
  /** The suite files that ran and the helpers they share (suites/support), as one manifest digest. */
  suites: { digest: Sha256Digest; files: string[] };
  target: { baseUrl: string; embedded: boolean; image?: string };
  run: {
    profile: string;
    strict: boolean;
    seed: number;
    runs: number;
    /** --xml: which checks also ran in XML. */
    xml?: string;
    /** The anchor of generated dates (--date). */
    date: string;
    only: string[];
    allowBookings: boolean;
    failOn?: 'new';
    startedAt: string;
    finishedAt: string;
  };
  verdict: { passed: boolean; exitCode: 0 | 1 | 2; clauses: Record<ClauseOutcome, number>; notes?: string[] };
  clauses: { id: string; level: string; outcome: ClauseOutcome; judgedBy?: JudgedBy[]; waived?: boolean }[];
  waivers: ReportWaiver[];
  /** report.json as written beside the record. */
  report: ResourceDescriptor;
}

export interface CertificationStatement {
  _type: typeof STATEMENT_TYPE;
  subject: ResourceDescriptor[];
  predicateType: typeof PREDICATE_TYPE;
  predicate: CertificationPredicate;
}

/** The clause catalogue's digest: two runs with equal digests judged against the same clauses, word for word. */
export function clauseCatalogueDigest(): { digest: Sha256Digest; clauses: number } {
  return { digest: { sha256: sha256Hex(canonicalJson(CLAUSES)) }, clauses: CLAUSES.length };
}

export interface StatementInput {
  report: ReportModel;
  /** The bytes of report.json as written. */
  reportBytes: Uint8Array;
  subject: ResourceDescriptor[];
  suites: { digest: Sha256Digest; files: string[] };
  image?: string;
}

export function buildStatement(input: StatementInput): CertificationStatement {
  const { report } = input;
  const exitCode = report.verdict.exitCode ?? (report.verdict.passed ? 0 : 1);
  return {
    _type: STATEMENT_TYPE,
    subject: input.subject,
    predicateType: PREDICATE_TYPE,
    predicate: {
      spec: { release: report.spec.release, clauseCatalogue: clauseCatalogueDigest() },
      tool: report.tool,
      suites: input.suites,
      target: { ...report.target, ...(input.image ? { image: input.image } : {}) },
      run: {
        profile: report.profile,
        strict: report.options.strict,
        seed: report.options.seed,
        runs: report.options.runs,
        ...(report.options.xml ? { xml: report.options.xml } : {}),
        date: report.options.date,
        only: report.options.only,
        allowBookings: report.options.allowBookings,
        ...(report.options.failOn ? { failOn: report.options.failOn } : {}),
        startedAt: report.timing.startedAt,
        finishedAt: report.timing.finishedAt,
      },
      verdict: {
        passed: report.verdict.passed,
        exitCode,
        clauses: report.verdict.clauses,
        ...(report.verdict.notes?.length ? { notes: report.verdict.notes } : {}),
      },
      clauses: report.sections.flatMap((section) =>
        section.clauses.map((clause) => ({
          id: clause.id,
          level: clause.level,
          outcome: clause.outcome,
          ...(clause.judgedBy ? { judgedBy: clause.judgedBy } : {}),
          ...(clause.waived ? { waived: true } : {}),
        })),
      ),
      waivers: report.waivers,
      report: { name: 'report.json', digest: { sha256: sha256Hex(input.reportBytes) }, mediaType: 'application/json' },
    },
  };
}

/** A payload that verifies but is not a certification record of this tool (exit 1, not 2: the file was read). */
export class StatementError extends Error {
  override readonly name = 'StatementError';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const isDigest = (value: unknown): value is Sha256Digest =>
  isObject(value) && typeof value.sha256 === 'string' && /^[a-f0-9]{64}$/.test(value.sha256);

/** Reads the signed payload back, checking what verify relies on: the types, the subject and the report digest. */
export function readStatement(payload: Uint8Array): CertificationStatement {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    throw new StatementError('the payload is not JSON');
  }
  if (!isObject(value) || value._type !== STATEMENT_TYPE) {
    throw new StatementError(
      `the payload is not an in-toto Statement v1 (_type ${JSON.stringify(value && (value as Record<string, unknown>)._type)})`,
    );
  }
  if (value.predicateType !== PREDICATE_TYPE) {
    throw new StatementError(
      `not a certification record: predicateType ${JSON.stringify(value.predicateType)}, expected ${PREDICATE_TYPE}`,
    );
  }
  const subject = value.subject;
  if (!Array.isArray(subject) || subject.length === 0 || !subject.every((s) => isObject(s) && isDigest(s.digest))) {
    throw new StatementError('the statement has no subject with a sha256 digest');
  }
  const predicate = value.predicate;
  if (!isObject(predicate) || !isObject(predicate.report) || !isDigest(predicate.report.digest)) {
    throw new StatementError('the predicate has no report digest');
  }
  if (!isObject(predicate.verdict) || typeof predicate.verdict.passed !== 'boolean') {
    throw new StatementError('the predicate has no verdict');
  }
  return value as unknown as CertificationStatement;
}
