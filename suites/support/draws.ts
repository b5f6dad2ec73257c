/**
 * Arbitraries of what a check's input ranges over on the target: listed vehicles and locations, rental
 * windows, codes no target holds, other scopes. A check draws from them with t.forAll, so --runs and the seed
 * decide its cases and a failure shrinks to one of them.
 */
import fc from 'fast-check';
import { SCOPES, type Scope } from '../../contract/scopes.ts';
import type { AvailabilityRequest, FleetVehicle, Quote, QuoteRequest } from '../../contract/types.ts';
import {
  availabilityRequest as availabilityArbitrary,
  quoteRequest as quoteArbitrary,
  type ShoppingOptions,
} from '../../generators/index.ts';
import type { CheckContext } from '../../harness/check/check.ts';
import { errorCodeOf, requireSuccess } from '../../harness/check/expect-api.ts';
import { requireStep } from '../../harness/check/scope.ts';
import type { Role } from '../../harness/config/target-config.ts';
import { requireQuoteParts } from './endpoint-success.ts';
import { raisedPositions, unissuedId } from './ids.ts';
import { fleetOf, targetListings } from './listings.ts';

/** A vehicle the role's fleet list holds (not applicable on an empty fleet). */
export async function listedVehicle(t: CheckContext, role: Role = 'partnerA'): Promise<fc.Arbitrary<FleetVehicle>> {
  const vehicles = (await fleetOf(t, role)).vehicles;
  if (vehicles.length === 0) return t.notApplicable('the fleet list is empty');
  return fc.constantFrom(...vehicles);
}

/** A valid AvailabilityRequest built from the role's listings (windows across months, years and timezones). */
export async function shoppingWindow(
  t: CheckContext,
  role: Role = 'partnerA',
  options: ShoppingOptions = { maxRentalDays: 30 },
): Promise<fc.Arbitrary<AvailabilityRequest>> {
  return availabilityArbitrary(await targetListings(t, role), options);
}

/** A valid QuoteRequest built from the role's listings. */
export async function quoteWindow(
  t: CheckContext,
  role: Role = 'partnerA',
  options: ShoppingOptions = { maxRentalDays: 30 },
): Promise<fc.Arbitrary<QuoteRequest>> {
  return quoteArbitrary(await targetListings(t, role), options);
}

/** A vehicle or location code of the spec's pattern that no target should hold. */
export const unknownCodes: fc.Arbitrary<string> = fc
  .stringMatching(/^[A-Z0-9]{1,16}$/)
  .map((suffix) => `ZZ-CERT-${suffix}`);

/** A reservation id no target should hold (ids are opaque: any short visible string will do). */
export const unknownIds: fc.Arbitrary<string> = fc
  .stringMatching(/^[a-z0-9]{4,24}$/)
  .map((suffix) => `zz-cert-unknown-${suffix}`);

/**
 * The scopes the role's token carries on this target (pre-flight's reading, RunSettings.granted; every scope when
 * unknown): what a token limited by the check may name. Before joint certification a partner holds the read and
 * shop scopes only (spec 1.7, 5.5), and the token endpoint refuses a token naming any other (5.4).
 */
export function heldScopes(t: CheckContext, role: Role = 'partnerA'): Scope[] {
  const granted = t.settings.granted?.[role];
  return SCOPES.filter((scope) => granted === undefined || granted.includes(scope));
}

/**
 * A partnerA token's scopes without any of `needed`: one other scope partnerA holds each time (not-applicable when it
 * holds none besides). Single scopes keep the distinct tokens a run asks for to a handful (the token endpoint has its
 * own rate limit, spec 8.16).
 */
export function otherScope(t: CheckContext, ...needed: Scope[]): fc.Arbitrary<Scope[]> {
  const others = heldScopes(t, 'partnerA').filter((scope) => !needed.includes(scope));
  if (others.length === 0) {
    return t.notApplicable(
      `partnerA holds no scope besides ${needed.join(', ')}: no token of it lacking ${needed.length > 1 ? 'them' : 'it'} can be asked for`,
    );
  }
  return fc.constantFrom(...others).map((scope) => [scope]);
}

/**
 * POST /quotes for a generated request: the quote, or undefined when the target offers nothing for that window
 * (409 NO_AVAILABILITY, the case is not judged). Anything else that is not 201 blocks the check on 4.0.11.
 * A generated window also keeps the quote apart from other checks' (a quote id may be the same for the same
 * window asked in the same second, and expiring it through the hooks would expire theirs).
 */
export async function quoteFor(t: CheckContext, role: Role, request: QuoteRequest): Promise<Quote | undefined> {
  const res = await t.client(role).post('/quotes', request);
  if (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY') return undefined;
  const q = requireSuccess(res, 201, '4.0.11', 'POST /quotes for the booking') as Quote;
  requireStep('2.9.2', typeof q?.quoteId === 'string', 'the quote carries a quoteId string', { actual: q?.quoteId });
  requireQuoteParts(q, 'the quote for the booking');
  return q;
}

/** Secrets other than the role's own: near misses of it (one character more or less, another case) and others. */
export function wrongSecrets(t: CheckContext, role: Role): fc.Arbitrary<string> {
  const secret = t.settings.target.clients[role]?.clientSecret ?? '';
  const nearMisses = [secret.slice(0, -1), `${secret}x`, secret.toUpperCase(), secret.toLowerCase()];
  return fc
    .oneof(fc.constantFrom(...nearMisses), fc.stringMatching(/^[A-Za-z0-9._~-]{1,64}$/))
    .filter((wrong) => wrong !== secret && wrong.length > 0);
}

/** grant_type values other than client_credentials: RFC 6749's others, an extension's, made-up ones. */
export const otherGrantTypes: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'authorization_code',
    'password',
    'refresh_token',
    'implicit',
    'urn:ietf:params:oauth:grant-type:jwt-bearer',
  ),
  fc.stringMatching(/^[a-z][a-z_]{2,24}$/).filter((grant) => grant !== 'client_credentials'),
);

/** Scope values the endpoint table does not have (spec 5.5). */
export const unknownScopes: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('fleet:write', 'locations:write', 'rates:write', 'admin', 'reservations:delete', 'not-a-scope'),
  fc.stringMatching(/^[a-z]{2,12}:[a-z]{2,12}$/).filter((scope) => !(SCOPES as readonly string[]).includes(scope)),
);

/** A PATCH body a partner might send: any change is refused alike (spec 4.10, 501). */
export const patchBodies: fc.Arbitrary<object> = fc.oneof(
  fc.record({ remarks: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,39}$/) }),
  fc.constantFrom<object>(
    { dropoffTime: '09:00' },
    { partnerReference: 'CERT-CHANGED-REFERENCE' },
    { driver: { firstName: 'Minh' } },
    { extras: { childSeats: 1 } },
  ),
);

const DIGITS = '0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Ids shaped like `id` that no one holds: the unissued id (support/ids.ts unissuedId: a digit of its longest number
 * raised, beyond what a sequence issued) with one more letter or digit changed (a digit for a digit, a letter
 * for a letter of the same case), so a target cannot tell it apart by its format. The raised digits are left as
 * they are: changed back, a sequential id could name a reservation of the run's own (audit 2.2-R5).
 */
export function alteredIds(id: string): fc.Arbitrary<string> {
  const base = unissuedId(id);
  const kept = raisedPositions(id, base);
  const positions = [...base].flatMap((c, i) => (/[A-Za-z0-9]/.test(c) && !kept.includes(i) ? [i] : []));
  if (positions.length === 0) return fc.constant(base);
  return fc.tuple(fc.constantFrom(...positions), fc.nat(25)).map(([i, n]) => {
    const c = base[i] ?? '0';
    const alphabet = DIGITS.includes(c) ? DIGITS : UPPER.includes(c) ? UPPER : LOWER;
    const others = alphabet.replace(c, '');
    return `${base.slice(0, i)}${others[n % others.length]}${base.slice(i + 1)}`;
  });
}
