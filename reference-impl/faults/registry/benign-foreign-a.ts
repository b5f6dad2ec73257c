import { OPERATOR_DATA } from '../../../fixtures/index.ts';
import { eachObject, envelopeError, isMoney, isOffer, isReservation, partnerOf } from '../shapes.ts';
import type { Fault } from '../types.ts';

/**
 * Benign variants of servers written elsewhere, from rows of the 2026-11-29 clause audit (docs/audit-response.md)
 * that the suite used to fail: each a choice the spec leaves open that the reference does not make.
 */

type Obj = Record<string, unknown>;

/** `PA-ACC-01` → `ACC-01`: an account code as a partner's own namespace writes it (no partner prefix). */
const PREFIXED_ACCOUNT = /^[A-Z]{2}-(ACC-.+)$/;

/** The caller's own account code that `code` (written without the prefix) stands for, if any. */
function ownAccountCode(partnerId: string | undefined, code: string): string | undefined {
  return OPERATOR_DATA.ratePlans.find(
    (p) => p.partnerId === partnerId && PREFIXED_ACCOUNT.exec(p.accountCode)?.[1] === code,
  )?.accountCode;
}

/** An ISO date-time cut to whole seconds (`…T10:00:00.123Z` → `…T10:00:00Z`). */
const toSeconds = (value: string) => value.replace(/\.\d+(?=Z|[+-]\d{2}:\d{2}$)/, '');

export const FOREIGN_VARIANTS_A: Fault[] = [
  {
    name: 'benign-basic-invalid-client',
    kind: 'benign',
    clause: '7.3.2',
    description:
      'Client credentials in HTTP Basic on a business call get 401 INVALID_CLIENT ("client authentication failed") rather than INVALID_TOKEN.',
    response(r) {
      const error = envelopeError(r.value);
      const authorization = r.request.headers.authorization;
      if (
        r.operation !== 'issueToken' &&
        r.status === 401 &&
        error &&
        typeof authorization === 'string' &&
        /^basic\s/i.test(authorization)
      ) {
        error.code = 'INVALID_CLIENT';
        error.message = 'client authentication failed';
        error.retryable = false;
      }
    },
  },
  {
    name: 'benign-per-partner-account-codes',
    kind: 'benign',
    clause: '2.7.7',
    description:
      "Account codes are kept per partner: each partner sees and sends its own account as ACC-01 (the same string for partners A and B), never the other partner's.",
    adjust: {
      body(value, _input, request) {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
        const body = value as Obj;
        if (typeof body.accountCode !== 'string') return value;
        const own = ownAccountCode(partnerOf(request), body.accountCode);
        return own ? { ...body, accountCode: own } : value;
      },
    },
    response(r) {
      eachObject(
        r.value,
        (o) => typeof o.accountCode === 'string',
        (o: Obj) => {
          const short = PREFIXED_ACCOUNT.exec(o.accountCode as string)?.[1];
          if (short) o.accountCode = short;
        },
      );
    },
  },
  {
    name: 'benign-display-per-context',
    kind: 'benign',
    clause: '2.1.5',
    description:
      'Money display is written for its context: offers show a daily rate "per day" and an estimated total "about", reservations write the currency first; amount, exponent and currency are the same.',
    response(r) {
      eachObject(r.value, isOffer, (offer: Obj) => {
        const rate = offer.dailyRate as Obj | undefined;
        const total = offer.estimatedTotal as Obj | undefined;
        if (rate && typeof rate.display === 'string') rate.display = `${rate.display}/ngày`;
        if (total && typeof total.display === 'string') total.display = `≈ ${total.display}`;
      });
      eachObject(r.value, isReservation, (reservation: Obj) => {
        eachObject(reservation, isMoney, (m: Obj) => {
          m.display = `${String(m.currency)} ${String(m.amount)}`;
        });
      });
    },
  },
  createdAtSeconds('benign-created-at-seconds', { tiesCutByLimit: 'newest-first' }),
  createdAtSeconds('benign-created-at-seconds-limit-ties', { tiesCutByLimit: 'plan-order' }),
];

/**
 * createdAt kept and shown to the second (a DATETIME column), the list ordered by it alone: bookings of the same second
 * come back in an order of the query plan (oldest first), as MySQL may return ties under ORDER BY … LIMIT. In the
 * second a limit cuts, `newest-first` keeps the store's order (a smaller limit returns the same first items);
 * `plan-order` does not, so `?limit=1` may answer another reservation of the newest second than `?limit=2` lists first
 * (audit 4.8-R2, its 8.5 half).
 */
function createdAtSeconds(name: string, options: { tiesCutByLimit: 'newest-first' | 'plan-order' }): Fault {
  const cutKeepsNewestFirst = options.tiesCutByLimit === 'newest-first';
  return {
    name,
    kind: 'benign',
    clause: '4.8.2',
    description: `createdAt is kept and shown to the second (a DATETIME column) and the list is ordered by it alone: bookings of the same second come back in an order of the query plan (oldest first), as MySQL may return ties under ORDER BY … LIMIT; ${cutKeepsNewestFirst ? 'a second the limit may have cut keeps the newest first, so a smaller limit returns the same first items' : 'in a second the limit cuts too, so ?limit=1 may answer another reservation of the newest second than ?limit=2 lists first'}.`,
    adjust: {
      'reservations.list': (reservations, { limit }) => {
        const seconds = reservations.map((r) => toSeconds(r.createdAt));
        const last = seconds.at(-1);
        // The last second of a full page may go on past the limit: its order is the store's (newest first).
        const cut = cutKeepsNewestFirst && reservations.length >= limit ? last : undefined;
        return reservations
          .map((r, i) => ({ r, i, second: seconds[i] ?? '' }))
          .sort((a, b) => {
            if (a.second !== b.second) return a.second < b.second ? 1 : -1;
            // Ties: oldest first (the list arrives newest first), but in a second the limit may have cut.
            return a.second === cut ? a.i - b.i : b.i - a.i;
          })
          .map(({ r }) => r);
      },
    },
    response(r) {
      eachObject(r.value, isReservation, (reservation: Obj) => {
        if (typeof reservation.createdAt === 'string') reservation.createdAt = toSeconds(reservation.createdAt);
      });
    },
  };
}
