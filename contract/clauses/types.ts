/**
 * The clause catalogue: every normative statement of spec/partner-api-v1.md, once, with a stable id.
 * Checks and report lines are keyed by `Clause.id`.
 *
 * Id scheme (tested exactly in clause-catalogue.test.ts):
 *   id = <section> "." <item> [<part>]
 *   - <section> is the spec section the statement sits in: "1".."9" or "2.1".."4.14", "7.1".."7.3".
 *   - <item> numbers the statements of that section in spec order, from 1.
 *     - Numbered lists keep the spec's numbers: 1.1–1.7, 4.7.1–4.7.10, 5.1–5.8, 9.1–9.4.
 *       Statements of such a section outside its list follow the list: 4.7.11 (the header rule) onwards.
 *     - Section 8 numbers the limit table rows 8.1–8.12 in table order; rate-limiting item n is 8.(12+n),
 *       so rate-limiting items 1–4 are 8.13–8.16.
 *     - Tables give one clause per row that carries a rule, in table order, after any sentence before them.
 *     - A top-level section that has subsections (2, 4, 7) numbers its own preamble statements 0.n
 *       (2.0.1, 4.0.1 …) so they never collide with a subsection id and sort before it.
 *   - <part> is a lower-case letter (a, b, c …) used only when one list item, bullet or cell holds
 *     independent rules that different checks judge: 4.7.9a QUOTE_EXPIRED, 4.7.9b QUOTE_STALE, 4.7.9c QUOTE_INVALID.
 *     An item is either unsplit (4.7.3) or split from "a" (4.7.9a, 4.7.9b …), never both.
 */

/** Who can observe the statement. */
export type Verification =
  /** by ordinary HTTP calls with ordinary credentials */
  | 'wire'
  /** only with the operator's control of the target (attach payment, decline a booking, move a price,
   * disable a partner or the API, advance the clock, or know a fixture only the operator knows) */
  | 'hooks'
  /** only against an https target */
  | 'https'
  /** a statement about the contract or document itself (checked on the published contract or on responses) */
  | 'static';

import type { Profile } from '../vocabulary.ts';

/** The least profile whose checks may exercise a clause: `Profile` of contract/vocabulary.ts. */
export type { Profile };

export interface Clause {
  /** Stable id; see the scheme above. */
  id: string;
  /** Spec section number the clause belongs to, e.g. '2.1', '4.7', '8'. */
  section: string;
  /** Short statement of what is required (<= 100 characters). */
  title: string;
  /** The spec's own words, verbatim (a contiguous substring of the spec once whitespace is collapsed). */
  text: string;
  /** MUST when the spec states it; SHOULD for behaviour inferred but not stated. */
  level: 'MUST' | 'SHOULD';
  verification: Verification;
  minProfile: Profile;
}

/** A section or subsection heading of the spec. */
export interface Section {
  id: string;
  title: string;
}

/** A point the spec explicitly leaves open ("not shown"): never asserted by any check. */
export interface OpenPoint {
  section: string;
  /** Verbatim spec text. */
  text: string;
}

/**
 * A normative statement that binds the client or the commercial relationship rather than the service,
 * so no check can judge a server on it. Kept so the clause catalogue accounts for every statement.
 */
export interface NonServiceStatement {
  section: string;
  /** Verbatim spec text. */
  text: string;
  reason: string;
}
