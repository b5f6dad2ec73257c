import { eachObject, envelopeError } from '../shapes.ts';
import type { Fault } from '../types.ts';

/**
 * Benign variants of servers written elsewhere: choices the spec leaves open that the reference does not make, each
 * from a row of the 2026-11-29 clause audit (docs/audit-response.md) that the suite used to fail (more in
 * benign-foreign-a/b/c.ts, one file per group of rows). `foreign-choices` switches every one of them on at once.
 */

type Obj = Record<string, unknown>;

/** `10:00` and `10:00:00` written as `10:00:00.000`, as JavaScript's toISOString() less its Z writes them. */
function withFraction(value: string): string {
  if (/T\d{2}:\d{2}$/.test(value)) return `${value}:00.000`;
  if (/T\d{2}:\d{2}:\d{2}$/.test(value)) return `${value}.000`;
  return value;
}

const LOCAL_DATE_TIMES = ['pickupDateTime', 'dropoffDateTime'] as const;

/** The id a request names in its path (a reservation, a vehicle or a location), if any. */
function pathId(params: unknown): string | undefined {
  const p = (params ?? {}) as Record<string, unknown>;
  for (const key of ['reservationId', 'vehicleCode', 'locationCode']) {
    if (typeof p[key] === 'string') return p[key] as string;
  }
  return undefined;
}

export const FOREIGN_VARIANTS: Fault[] = [
  {
    name: 'benign-fractional-seconds',
    kind: 'benign',
    clause: '2.9',
    description:
      'Local date-times are written with seconds and milliseconds (2027-03-10T10:00:00.000), as a JavaScript server writes toISOString() without its Z.',
    response(r) {
      eachObject(
        r.value,
        (o) => LOCAL_DATE_TIMES.some((key) => typeof o[key] === 'string'),
        (o: Obj) => {
          for (const key of LOCAL_DATE_TIMES) if (typeof o[key] === 'string') o[key] = withFraction(o[key] as string);
        },
      );
    },
  },
  {
    name: 'benign-404-names-id',
    kind: 'benign',
    clause: '1.4',
    description:
      'A 404 NOT_FOUND message names the id the request asked for ("Reservation RSV-… not found"), for another partner\'s resource as for one that does not exist.',
    response(r) {
      const error = envelopeError(r.value);
      const id = pathId(r.request.params);
      if (error && error.code === 'NOT_FOUND' && id !== undefined) error.message = `${id} not found`;
    },
  },
];

/**
 * `foreign-choices`: every variant of a server written elsewhere at once (these and the other benign-foreign files,
 * registry/index.ts): a server that makes all of these choices must pass, every clause judged.
 */
export function foreignChoices(variants: readonly Fault[]): Fault {
  return {
    name: 'foreign-choices',
    kind: 'benign',
    clause: '2',
    description: `Every choice of a server written elsewhere at once: ${variants.map((f) => f.name).join(', ')}.`,
    includes: variants.map((f) => f.name),
  };
}
