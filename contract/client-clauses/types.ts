/**
 * The client clause catalogue: what the spec asks of a partner's *client*, judged from the traffic a sandbox records
 * (docs/client-clauses.md). The server's clause catalogue (contract/clauses/) judges the service; this one judges the
 * integration that calls it.
 *
 * Id scheme: "C" + where the sentence sits (a spec section, or an item of the numbered lists of 5 and of 8's rate
 * limiting: 5.3, 8.3) + an optional lower-case letter when one place holds several client rules (C5.3a, C4.10, C2a). The leading "C" keeps every id out of the server's id space,
 * which is numeric (contract/client-clauses/client-clauses.test.ts checks both).
 */

/** How a clause can be seen at all. */
export type ClientObservation =
  /** in any session's recorded traffic, once the client does the thing the clause is about */
  | 'traffic'
  /** in the traffic only when the sandbox provokes it (a scenario: reworded messages, say) */
  | 'scenario'
  /** not on the wire at all (what the client does with a value it read): listed so the clause catalogue is whole */
  | 'outside-traffic';

export interface ClientClause {
  /** Stable id, e.g. 'C5.3a'; see the scheme above. */
  id: string;
  /** Where the quoted sentence sits: a spec section ('4.7', '7.3') or a numbered item ('5.3', '8.3' for rate limiting item 3). */
  section: string;
  /** Short statement of what the client must do (<= 100 characters). */
  title: string;
  /** The spec's own words, verbatim (a contiguous substring of the spec once whitespace is collapsed). */
  text: string;
  /** MUST when the spec states it of the client; SHOULD when the spec prefers it or it is inferred, not stated. */
  level: 'MUST' | 'SHOULD';
  /** What in the recorded traffic shows the clause kept or broken. */
  evidence: string;
  observation: ClientObservation;
}
