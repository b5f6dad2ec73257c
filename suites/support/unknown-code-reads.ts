/**
 * Reads by a code of the VehicleCode / LocationCode pattern (spec 2.2) that no target lists, sent once for the run and
 * judged by every clause that states the answer: 4.0.17 (any code not listed is 404), 4.2.5 (an unknown vehicle),
 * 4.3.1 (an unknown location) and 7.3.20's NOT_FOUND row. The codes are marked ZZ-CERT- (as draws.ts unknownCodes),
 * so the cases need no list to be drawn: a target whose lists a check cannot read still has its unknown codes judged.
 */
import fc from 'fast-check';
import type { ApiResult } from '../../harness/check/check.ts';
import type { CaseFamily } from './shared-cases.ts';
import { sharedRead } from './shared-reads.ts';

export type CodeResource = 'fleet' | 'locations';

/** Codes of the pattern marked ZZ-CERT-, up to 24 characters, hyphens and digits anywhere after the mark. */
const unknownOfPattern = fc.stringMatching(/^[A-Z0-9-]{0,16}$/).map((s) => `ZZ-CERT-${s}`);

/** Reads of `resource` by a code nobody lists: the run's cases, judged with judgeSharedCases. */
export function unknownCodeReads(resource: CodeResource): CaseFamily<string, ApiResult> {
  return {
    name: `unknown code ${resource}`,
    draw: () => unknownOfPattern,
    send: (t, code) => sharedRead(t, `/${resource}/${encodeURIComponent(code)}`),
  };
}
