/** Spec 2.10 Driver, valid by construction: 18 or over on `today`, realistic names, contact data in range. */
import fc from 'fast-check';
import { addDays, daysBetween, yearsBefore } from '../contract/iso-date.ts';
import type { Driver } from '../contract/types.ts';
import {
  INTERNATIONAL_FIRST_NAMES,
  INTERNATIONAL_LAST_NAMES,
  VIETNAMESE_FAMILY_NAMES,
  VIETNAMESE_GIVEN_NAMES,
  VIETNAMESE_MIDDLE_NAMES,
} from './names.ts';
import { asciiFold, VIETNAMESE_LETTERS, xmlText } from './text.ts';

export interface DriverOptions {
  /** Youngest age on `today` (default 18; pass a vehicle's minDriverAge to respect it). */
  minAge?: number;
  /** Oldest age on `today` (default 80). */
  maxAge?: number;
}

/**
 * Days kept clear of the minimum age: `today` is the run's anchor, and the target's own local date may be a
 * day off it; the spec does not say on which day the age is judged (docs/ambiguities.md #3).
 */
const AGE_MARGIN_DAYS = 2;

/** Domains reserved for documentation and tests (RFC 2606, RFC 6761): no real mailbox is ever named. */
const EMAIL_DOMAINS = ['example.com', 'example.vn', 'example.org', 'mail.example.net', 'travel.test'] as const;

const vietnameseName = fc.record({
  firstName: fc
    .tuple(
      fc.option(fc.constantFrom(...VIETNAMESE_MIDDLE_NAMES), { nil: undefined }),
      fc.constantFrom(...VIETNAMESE_GIVEN_NAMES),
    )
    .map(([middle, given]) => (middle ? `${middle} ${given}` : given)),
  lastName: fc.constantFrom(...VIETNAMESE_FAMILY_NAMES),
});

const internationalName = fc.record({
  firstName: fc.constantFrom(...INTERNATIONAL_FIRST_NAMES),
  lastName: fc.constantFrom(...INTERNATIONAL_LAST_NAMES),
});

/** Letters of many scripts with the separators names use; exercises the 1 and 100 character bounds. */
const nameUnit = fc.oneof(
  { arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'), weight: 4 },
  { arbitrary: fc.constantFrom(...VIETNAMESE_LETTERS), weight: 3 },
  { arbitrary: fc.constantFrom(...'ßøłçñüéÅ山田김이Иван'), weight: 1 },
  { arbitrary: fc.constantFrom(' ', '-', "'"), weight: 1 },
);
const boundaryName = fc.record({
  firstName: xmlText({ minLength: 1, maxLength: 100, unit: nameUnit, nonBlank: true }),
  lastName: xmlText({ minLength: 1, maxLength: 100, unit: nameUnit, nonBlank: true }),
});

const names = fc.oneof(
  { arbitrary: vietnameseName, weight: 6 },
  { arbitrary: internationalName, weight: 3 },
  { arbitrary: boundaryName, weight: 1 },
);

/** An address of exactly `length` characters (13 or more), local part <= 64 and labels <= 63 as RFC 5321 wants. */
export function emailOfLength(length: number, domain = 'example.com'): string {
  const localLength = Math.min(64, length - 1 - domain.length);
  if (localLength < 1) throw new RangeError(`emailOfLength: ${length} is too short`);
  let rest = length - localLength - 1 - domain.length;
  let tail = domain;
  const labels: string[] = [];
  while (rest > 0) {
    if (rest === 1) {
      // A label costs at least two characters (one and its dot): lengthen the domain's first label instead.
      tail = `x${tail}`;
      break;
    }
    let label = Math.min(63, rest - 1);
    if (rest - (label + 1) === 1) label -= 1;
    labels.push('d'.repeat(label));
    rest -= label + 1;
  }
  return `${'a'.repeat(localLength)}@${[...labels, tail].join('.')}`;
}

function email(firstName: string, lastName: string): fc.Arbitrary<string> {
  const local = `${asciiFold(firstName)}.${asciiFold(lastName)}`.replace(/\.{2,}/g, '.').replace(/^\.|\.$/g, '');
  const base = (local === '' ? 'driver' : local).slice(0, 48).replace(/\.$/, '');
  const realistic = fc
    .tuple(
      fc.option(fc.oneof(fc.integer({ min: 1, max: 9999 }).map(String), fc.constantFrom('+travel', '_vn', '-work')), {
        nil: undefined,
      }),
      fc.constantFrom(...EMAIL_DOMAINS),
      fc.boolean(),
    )
    .map(([suffix, domain, upper]) => {
      const address = `${base}${suffix ?? ''}@${domain}`;
      return upper ? address.replace(/^./, (c) => c.toUpperCase()) : address;
    });
  return fc.oneof({ arbitrary: realistic, weight: 19 }, { arbitrary: fc.constant(emailOfLength(200)), weight: 1 });
}

/**
 * E.164 numbers of 11 to 13 characters, the range docs/ambiguities.md #2 treats as clearly valid; mostly
 * Vietnamese mobiles.
 */
const phone = fc.oneof(
  { arbitrary: fc.stringMatching(/^\+84[35789][0-9]{8}$/), weight: 6 },
  { arbitrary: fc.stringMatching(/^\+1[2-9][0-9]{9}$/), weight: 1 },
  { arbitrary: fc.stringMatching(/^\+447[0-9]{9}$/), weight: 1 },
  { arbitrary: fc.stringMatching(/^\+614[0-9]{8}$/), weight: 1 },
  { arbitrary: fc.stringMatching(/^\+65[89][0-9]{7}$/), weight: 1 },
  { arbitrary: fc.stringMatching(/^\+8210[0-9]{8}$/), weight: 1 },
);

const NATIONALITIES = ['VN', 'US', 'GB', 'AU', 'FR', 'DE', 'JP', 'KR', 'SG', 'TH', 'CN', 'vn', 'us', 'Fr'] as const;

const idNumber = fc.oneof(
  { arbitrary: fc.stringMatching(/^[A-Z][0-9]{7,8}$/), weight: 3 },
  { arbitrary: fc.stringMatching(/^0[0-9]{11}$/), weight: 2 },
  { arbitrary: xmlText({ maxLength: 50 }), weight: 1 },
);

function dateOfBirth(today: string, options: DriverOptions): fc.Arbitrary<string> {
  const minAge = options.minAge ?? 18;
  const maxAge = options.maxAge ?? 80;
  if (minAge > maxAge) throw new RangeError('driver: minAge is greater than maxAge');
  const latest = addDays(yearsBefore(today, minAge), -AGE_MARGIN_DAYS);
  const earliest = addDays(yearsBefore(today, maxAge + 1), 1 + AGE_MARGIN_DAYS);
  return fc.integer({ min: 0, max: daysBetween(earliest, latest) }).map((k) => addDays(earliest, k));
}

/** A driver 18 or over (options.minAge) on `today` (YYYY-MM-DD). */
export function driver(today: string, options: DriverOptions = {}): fc.Arbitrary<Driver> {
  return names.chain(({ firstName, lastName }) =>
    fc.record(
      {
        title: fc.constantFrom('mr' as const, 'mrs' as const, 'ms' as const, 'dr' as const),
        firstName: fc.constant(firstName),
        lastName: fc.constant(lastName),
        email: email(firstName, lastName),
        phone,
        dateOfBirth: dateOfBirth(today, options),
        nationality: fc.constantFrom(...NATIONALITIES),
        idNumber,
      },
      // Plain objects: fast-check's default null prototype would differ from a parsed body under deep equality.
      { requiredKeys: ['firstName', 'lastName', 'email', 'phone', 'dateOfBirth'], noNullPrototype: true },
    ),
  );
}
