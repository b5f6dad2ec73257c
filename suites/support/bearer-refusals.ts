/**
 * Bearer tokens no server issued, sent on a listing read (spec 5.6a: 401 INVALID_TOKEN): once for the run, judged by
 * 5.6a (the refusal) and, those of the token alphabet, by 7.3.3's row (the code's status and retryable flag, the same
 * for every malformed token).
 */
import fc from 'fast-check';
import type { ApiResult } from '../../harness/check/check.ts';
import type { CaseFamily } from './shared-cases.ts';
import { sharedRead } from './shared-reads.ts';

/** Strings of the bearer token alphabet (RFC 6750 b64token) that no server issued. */
const inAlphabet = fc.oneof(
  fc.constant('not-a-valid-access-token'),
  fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,120}$/),
  fc
    .tuple(fc.base64String({ minLength: 4, maxLength: 40 }), fc.base64String({ minLength: 4, maxLength: 40 }))
    .map(([a, b]) => `${a.replace(/=/g, '')}.${b.replace(/=/g, '')}.sig`),
);

/**
 * At least one visible ASCII character that RFC 6750's b64token does not allow, between token characters (a hostile
 * or broken client's header): the target must refuse it, not fail on it.
 */
const tokenChars = fc.stringMatching(/^[A-Za-z0-9._~+/-]{0,40}$/);
const outsideAlphabet = fc
  .tuple(
    tokenChars,
    fc.string({ unit: fc.constantFrom(...'!"#$%&\'()*,:;<>?@[\\]^`{|}'), minLength: 1, maxLength: 4 }),
    tokenChars,
  )
  .map(([before, bad, after]) => `${before}${bad}${after}`);

export type MalformedBearer = 'in the alphabet' | 'outside the alphabet';

const DRAWS: Record<MalformedBearer, fc.Arbitrary<string>> = {
  'in the alphabet': inAlphabet,
  'outside the alphabet': outsideAlphabet,
};

/** GET /locations with a malformed bearer token of `kind`: the run's cases, judged with judgeSharedCases. */
export function malformedBearers(kind: MalformedBearer): CaseFamily<string, ApiResult> {
  return {
    name: `malformed bearer ${kind}`,
    draw: () => DRAWS[kind],
    send: (t, token) => sharedRead(t, '/locations', { token }),
  };
}
