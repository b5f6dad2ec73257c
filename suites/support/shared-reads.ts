/**
 * One GET the run's checks share, named by what is sent: the path, the Accept header, and the credentials (partner
 * A's own token, one of other scopes, a given bearer token, or none). The refusals of the endpoint walks, the provoked
 * listing errors, the XML/JSON pairs, the scope refusals and the content-negotiation reads ask some of the same
 * questions: each is asked once for the run (sharedStep, fresh for a minute) and every check judges its own rule on
 * the answer, so a target's rate limit (spec 8) is spent once. A check that needs the question asked again (7.2.7's
 * "on repeat") sends it itself.
 */
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { ACCEPT_OF } from '../../harness/http/partner-client.ts';
import type { Representation } from '../../harness/http/representation.ts';
import { LISTING_MAX_AGE_MS } from './listings.ts';
import { sharedStep } from './shared-steps.ts';

/** A bearer token no server issued: the malformed token of the refusal sets (endpoint walks, pairs). */
export const MALFORMED_TOKEN = 'not-a-valid-access-token';

/** How a shared read is asked. */
export interface ReadAs {
  /** The check's representation by default: its Accept, unless `accept` is given. */
  representation?: Representation;
  /** An Accept header of its own (406 cases, a media type negotiated). */
  accept?: string;
  /** A bearer token given as is (a malformed or forged one), or null for no Authorization header. */
  token?: string | null;
  /** Partner A's token limited to these scopes (from the token cache). */
  scopes?: readonly string[];
}

/** The answer to GET `path` asked as `as`: sent by the first check that needs it, then shared while fresh. */
export function sharedRead(t: CheckContext, path: string, as: ReadAs = {}): Promise<ApiResult> {
  const representation = as.representation ?? t.representation;
  const accept = as.accept ?? ACCEPT_OF[representation];
  const credentials =
    as.token === null
      ? 'no token'
      : as.token !== undefined
        ? `bearer ${as.token}`
        : as.scopes
          ? `scopes ${[...as.scopes].sort().join(' ')}`
          : 'own token';
  return sharedStep(t, `read GET ${path} accept ${accept} ${credentials}`, () => freshRead(t, path, as), {
    maxAgeMs: LISTING_MAX_AGE_MS,
  });
}

/** The same GET sent now (a check that judges a repeat). */
export function freshRead(t: CheckContext, path: string, as: ReadAs = {}): Promise<ApiResult> {
  const opts = {
    ...(as.representation ? { representation: as.representation } : {}),
    ...(as.accept ? { headers: { accept: as.accept } } : {}),
  };
  if (as.token === null) return t.anonymous.get(path, opts);
  if (as.token !== undefined) return t.anonymous.get(path, { ...opts, token: as.token });
  return t.client('partnerA').get(path, { ...opts, ...(as.scopes ? { scopes: [...as.scopes] } : {}) });
}
