import type { Representation } from '../http/representation.ts';

/**
 * How much of the suite runs in XML. Spec 4.14 makes XML a second writing of the same values: "The XML is converted
 * to the same JSON-shaped value and validated by the same schemas as JSON; responses have the same field names and
 * values. Errors are returned in the same envelope, with the same fields and HTTP status, in XML." So:
 *
 * - `mirror` (default): a clause about what the service does is judged in JSON; XML is judged by the clauses about
 *   representations (XML_SUBJECT_SECTIONS), whose checks send every endpoint's requests in both representations and
 *   compare the answers (4.13.5a, 4.14.18a/b). A server whose XML path breaks a rule then fails the XML clause it
 *   breaks, not every clause whose check happened to run in XML, and the run sends about 40 % fewer requests: on a
 *   target limiting a client to 600 calls a minute, about 7 minutes less.
 * - `every-check`: every check declared for both representations also runs in XML, as a second full pass. For a
 *   server whose XML path is code of its own rather than a translation to the JSON value.
 */
export type XmlCoverage = 'mirror' | 'every-check';

export const XML_COVERAGES: readonly XmlCoverage[] = ['mirror', 'every-check'];

export const DEFAULT_XML_COVERAGE: XmlCoverage = 'mirror';

/**
 * Clauses about the representation itself, run in every representation a check declares: content negotiation
 * (4.13, with 4.13.5a's "identical for both representations"), the XML representation (4.14, whose 4.14.18b holds
 * errors to "the same envelope, with the same fields and HTTP status, in XML" as 7.2 holds them in JSON), and the
 * XML namespace and version that name the API version (9.4).
 */
const XML_SUBJECT_SECTIONS = /^(4\.13\.|4\.14\.|9\.4$)/;

/** Whether a clause's checks run in XML under `mirror` (its section is about representations). */
export function isRepresentationClause(clauseId: string): boolean {
  return XML_SUBJECT_SECTIONS.test(clauseId);
}

/**
 * The representations a check of the clause runs in: what it declares, less XML under `mirror` for a clause that
 * is not about representations. A check declared for XML alone keeps it (it is about XML whatever its clause).
 */
export function representationsToRun(
  clauseId: string,
  declared: readonly Representation[],
  coverage: XmlCoverage,
): readonly Representation[] {
  if (coverage === 'every-check' || isRepresentationClause(clauseId) || !declared.includes('json')) return declared;
  return declared.filter((representation) => representation === 'json');
}
