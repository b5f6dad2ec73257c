/**
 * The options a kind of check needs, defined once (suites/README.md "Writing a check"): which role it calls as, in
 * which representations, at which profile, whether it creates reservations. A check spreads one and adds its name
 * (`{ ...shop, name: '…' }`); what only one check needs it writes itself.
 */
import type { Role } from '../../harness/config/target-config.ts';
import { REPRESENTATIONS } from '../../harness/http/representation.ts';

/** Partner A, in JSON and in XML (which of them run is the run's --xml): the service as an ordinary partner sees it. */
export const business = { needs: ['partnerA'] as Role[], representations: REPRESENTATIONS };

/** The same at profile shop: availability and quotes, nothing booked. */
export const shop = { ...business, profile: 'shop' as const };

/** The same at profile book, creating reservations (the run cancels them at its end). */
export const book = { ...business, profile: 'book' as const, bookings: true };

/** Creating reservations at the clause's own profile (a booking clause's is book already). */
export const booking = { ...business, bookings: true };
