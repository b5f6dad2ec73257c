/**
 * Errors a check provokes to judge how errors look (spec 7.2's envelope, 7.2.7 and 9.3a's stable codes): each
 * provocation names the clause of the condition it provokes, so one the target serves instead of refusing is filed
 * once under that clause (a scope it does not check is 4.0.9's, an Accept it serves 4.13.1c's) and not judged again
 * by every check of the envelope.
 */
import type { ApiResult } from '../../harness/check/check.ts';
import { claim } from '../../harness/check/scope.ts';
import type { Representation } from '../../harness/http/representation.ts';

export interface Provoked {
  name: string;
  res: ApiResult;
  /** The clause that says the provoked condition is refused. */
  clauseId: string;
}

/**
 * The provocations the target refused (HTTP 4xx or 5xx); one it answered otherwise is filed under its clause.
 * `representation` is the one the provocations were sent in: in XML, a condition served is left out unfiled. Served
 * in XML and refused in JSON, it is 4.13.5a's ("XML grants no extra access"), judged by that clause's own checks
 * against the JSON answer; served in both, it is filed by the JSON run. Filed here as well, one deviation would fail
 * a second clause.
 */
export function refusedOnly<P extends Provoked>(all: readonly P[], representation: Representation = 'json'): P[] {
  return all.filter(
    (p) =>
      p.res.status >= 400 ||
      (representation === 'json' &&
        claim(p.clauseId, false, `${p.name} is refused (an error status), not served`, {
          expected: 'HTTP 4xx',
          actual: `${p.res.status} ${p.res.excerpt}`,
        })),
  );
}
