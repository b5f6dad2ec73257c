/**
 * The words every room of the project shares, declared once (docs/architecture.md "Rooms and what each may import"):
 * the suite, the harness, the load engines (k6 scripts included: no `node:` imports here), the generators and the
 * reference's tests import them from here; `contract/vocabulary.test.ts` keeps them from being declared elsewhere.
 */

/**
 * The named credentials a target may offer (docs/design.md "Target config and profiles"). `narrowPartner` is a client
 * whose own grant holds the reservation scopes while its partner account does not (spec 5.5: the token carries
 * only what both hold).
 */
export type Role = 'partnerA' | 'partnerB' | 'readOnly' | 'disabledPartner' | 'rateLimit' | 'narrowPartner';

export const ROLES: readonly Role[] = [
  'partnerA',
  'partnerB',
  'readOnly',
  'disabledPartner',
  'rateLimit',
  'narrowPartner',
];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** What a run may send, each allowing what the one before allows (docs/design.md "Target config and profiles"). */
export type Profile = 'catalog' | 'shop' | 'book' | 'full';

export const PROFILES: readonly Profile[] = ['catalog', 'shop', 'book', 'full'];

/** The two representations of every business call (spec 4.13, 4.14). */
export type Representation = 'json' | 'xml';

export const REPRESENTATIONS: readonly Representation[] = ['json', 'xml'];

/** MUST: the spec states it. SHOULD: inferred, not stated (docs/design.md, check model). */
export type Level = 'MUST' | 'SHOULD';
