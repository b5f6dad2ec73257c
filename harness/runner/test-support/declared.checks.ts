import { REPRESENTATIONS } from '../../../contract/vocabulary.ts';
import { check } from '../../check/check.ts';

/**
 * A "suite" for the collection's tests (collect-checks.test.ts, never run): the ways a check says what it needs that
 * a reading of the sources cannot see (a preset spread, a loop, representations) beside the plain ones.
 */

const bookingPreset = { profile: 'book' as const, bookings: true };

check('4.2.1')({ name: 'literal scopes', scopes: ['rates:read'] }, async () => {});
check('4.2.1')({ ...bookingPreset, name: 'through a spread' }, async () => {});
check('4.7.1')({ name: 'at its clause minimum' }, async () => {});
check('4.2.1')({ name: 'calls a hook', hooks: ['quotes.expire'] }, async () => {});
for (const name of ['one of a loop', 'another of the loop']) check('4.2.2')({ name }, async () => {});
check('4.13.1a')({ name: 'in both representations', representations: REPRESENTATIONS }, async () => {});
check('4.2.3')(
  { name: 'declared in both, JSON only under --xml mirror', representations: REPRESENTATIONS },
  async () => {},
);
