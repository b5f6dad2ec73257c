/**
 * GET /locations asked with a given Accept (spec 4.13.1): the reads the content-negotiation clauses judge, sent once
 * per Accept for the run (sharedStep), so 4.13.1c's refusals are the answers 7.3.9's row judges too. An Accept that
 * is a representation's own is the listing read every check of a plain answer shares (sharedListingRead).
 */
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { ACCEPT_OF } from '../../harness/http/partner-client.ts';
import type { Representation } from '../../harness/http/representation.ts';
import { bearer } from './auth.ts';
import { LISTING_MAX_AGE_MS, sharedListingRead } from './listings.ts';
import { sharedRead } from './shared-reads.ts';
import { sharedStep } from './shared-steps.ts';

/** The Accept values 4.13.1c asks with: none of the three types is allowed (406 NOT_ACCEPTABLE, JSON error body). */
export const UNACCEPTABLE = ['text/html', 'image/png, text/plain;q=0.5'] as const;

/** GET /locations as partnerA with `accept` (null: no Accept header). */
export async function locationsWithAccept(t: CheckContext, accept: string | null): Promise<ApiResult> {
  const representation = (Object.keys(ACCEPT_OF) as Representation[]).find((r) => ACCEPT_OF[r] === accept);
  if (representation) return sharedListingRead(t, '/locations', 'partnerA', representation);
  if (accept !== null) return sharedRead(t, '/locations', { accept });
  // No Accept header at all (4.0.1, 4.13.1a): the one read a client cannot ask otherwise than raw.
  return sharedStep(
    t,
    'locations without accept',
    async () => {
      const headers = bearer(await t.client('partnerA').token());
      return t.client('partnerA').raw({ method: 'GET', path: '/locations', headers });
    },
    { maxAgeMs: LISTING_MAX_AGE_MS },
  );
}
