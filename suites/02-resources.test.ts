/**
 * Spec 2 Resources and their fields: every response of every endpoint against its schema, and each field rule
 * of the tables judged on its own (so a failure names the rule), on what the target lists and answers. Request
 * shapes (2.3, 2.4, 2.10, 2.12) are judged by generated valid bodies (accepted) and one-fault variants of them
 * from generators/ (refused). What the spec leaves open (price computation, the rentalDays rule, identifier
 * formats) is not asserted; see docs/ambiguities.md.
 */
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { API_PREFIX } from '../contract/constants.ts';
import { LIMITS } from '../contract/limits.ts';
import { PATTERNS } from '../contract/schemas/index.ts';
import type {
  AvailabilityRequest,
  AvailabilityResponse,
  CancelRequest,
  FleetVehicle,
  Location,
  LocationList,
  Money,
  Quote,
  QuoteRequest,
  RatePlan,
  Reservation,
  ReservationList,
} from '../contract/types.ts';
import { RESERVATION_STATUSES } from '../contract/types.ts';
import { validate } from '../contract/validation.ts';
import {
  availabilityRequest,
  emailOfLength,
  extras,
  locationPairs,
  quoteRequest,
  yearsBefore,
} from '../generators/index.ts';
import { type ApiResult, type CheckContext, check } from '../harness/check/check.ts';
import { errorCodeOf, expectError, expectSchema } from '../harness/check/expect-api.ts';
import type { Role } from '../harness/config/target-config.ts';
import { REPRESENTATIONS } from '../harness/http/representation.ts';
import { requestToken } from './support/auth.ts';
import { booked, postReservation, quoteToBook } from './support/booking.ts';
import { listedLocations, listedRates, listedVehicles, targetCatalogue, withPlans } from './support/catalogue.ts';
import { expectAboutThirtyMinutes, expectLocalDateTime, isIanaZone } from './support/datetime.ts';
import {
  cheapRuns,
  costlyRuns,
  forAvailability,
  forOffers,
  forQuotes,
  isAvailabilityAnswer,
  sampleOf,
} from './support/generated.ts';
import { amountLexemes, expectMoney, ISO_CURRENCIES, sameAmount, scaled } from './support/money.ts';
import { availabilityFaults, faultsOf, quoteFaults, reservationFaults, unmetFaults } from './support/request-faults.ts';
import { driverFor, freshReference, reservationBody } from './support/reservation-requests.ts';
import { expectSamples, levelOptions, SAMPLE_LEVELS, type Sample, samplesOf } from './support/samples.ts';
import { absentKeys, moneyNodes, nullableRequiredKeys, unknownKeys } from './support/schema-walk.ts';

const A: Role[] = ['partnerA'];
const business = { needs: A, representations: REPRESENTATIONS };
const shop = { ...business, profile: 'shop' as const };
const book = { ...business, profile: 'book' as const, bookings: true };

// ---------------------------------------------------------------------------------------------------------------
// Request shapes: valid values accepted

/** Bookings with these drivers (each merged over a generated valid one) are accepted: 201, and nothing else. */
async function driversAccepted(t: CheckContext, variants: Array<Record<string, unknown>>): Promise<void> {
  const { quote } = await quoteToBook(t);
  for (const [i, variant] of variants.entries()) {
    const driver = { ...driverFor(t, quote.vehicle, i), ...variant };
    const res = await postReservation(t, 'partnerA', {
      quoteId: quote.quoteId,
      partnerReference: freshReference(t),
      driver,
    });
    expect(res.status, `driver ${JSON.stringify(variant).slice(0, 200)}: ${res.text.slice(0, 300)}`).toBe(201);
    expectSchema(res, 'Reservation');
  }
}

/** Generated availability requests carrying `extrasOf` are accepted (200 or 409 NO_AVAILABILITY). */
async function extrasAccepted(t: CheckContext, extrasArb: fc.Arbitrary<Record<string, unknown>>): Promise<void> {
  const cat = await targetCatalogue(t);
  await fc.assert(
    fc.asyncProperty(availabilityRequest(cat, { rate: 'public' }), extrasArb, async (request, x) => {
      const res = await t.client('partnerA').post('/availability', { ...request, extras: x });
      expect(
        isAvailabilityAnswer(res),
        `extras ${JSON.stringify(x)}: HTTP ${res.status} ${res.text.slice(0, 300)}`,
      ).toBe(true);
    }),
    { seed: t.seed, numRuns: cheapRuns(t) },
  );
}

// ---------------------------------------------------------------------------------------------------------------

describe('2 Conventions', () => {
  for (const level of SAMPLE_LEVELS) {
    const options = { ...business, ...levelOptions(level) };
    check(
      '2.0.1',
      { ...options, name: `Every required key, the T|null ones included, is present in every response (${level})` },
      async (t) => {
        const samples = await samplesOf(t, level);
        expectSamples(samples);
        const absent = samples.flatMap((s) =>
          absentKeys(s.schema, s.res.body, 'required').map((k) => `${s.label}: ${k}`),
        );
        expect(absent, 'required keys missing (a T|null key is present, its value may be null)').toEqual([]);
        const nullable = samples.flatMap((s) => nullableRequiredKeys(s.schema, s.res.body));
        if (nullable.length === 0) t.notApplicable('no sampled response has a required T|null key');
      },
    );

    check(
      '2.0.1',
      {
        ...options,
        level: 'SHOULD',
        name: `Every "T or null" field of the tables is sent, as null when it has no value (${level})`,
      },
      async (t) => {
        const samples = await samplesOf(t, level);
        expectSamples(samples);
        const absent = samples.flatMap((s) =>
          absentKeys(s.schema, s.res.body, 'nullable').map((k) => `${s.label}: ${k}`),
        );
        expect(absent, 'nullable keys left out instead of null (docs/ambiguities.md RS1)').toEqual([]);
      },
    );

    check(
      '2.0.2',
      { ...options, name: `No object of any response carries a key its schema does not declare (${level})` },
      async (t) => {
        const samples = await samplesOf(t, level);
        expectSamples(samples);
        const unknown = samples.flatMap((s) => unknownKeys(s.schema, s.res.body).map((k) => `${s.label}: ${k}`));
        expect(unknown, 'unknown properties in closed objects').toEqual([]);
      },
    );
  }

  check(
    '2.0.2',
    { ...shop, name: 'An unknown property at any level of an availability or quote request: 400 VALIDATION_ERROR' },
    async (t) => {
      await availabilityFaults(t, '', ['unknown-property']);
      await availabilityFaults(t, 'extras', ['unknown-property']);
      await quoteFaults(t, '', ['unknown-property']);
    },
  );

  check(
    '2.0.2',
    { ...book, name: 'An unknown property in a reservation request or its driver: 400 VALIDATION_ERROR' },
    async (t) => {
      await reservationFaults(t, '', ['unknown-property']);
      await reservationFaults(t, 'driver', ['unknown-property']);
    },
  );

  check('2.0.3', { ...business, name: 'The token and catalogue endpoints answer under /api/partner/v1' }, async (t) => {
    const token = await requestToken(t, 'partnerA');
    expect(token.status, `POST ${API_PREFIX}/oauth/token: ${token.text.slice(0, 200)}`).toBe(200);
    expectSamples(
      await Promise.all(
        (
          [
            ['/fleet', 'FleetList'],
            ['/locations', 'LocationList'],
            ['/rates', 'RateList'],
          ] as const
        ).map(async ([path, schema]): Promise<Sample> => {
          return { label: `GET ${API_PREFIX}${path}`, res: await t.client('partnerA').get(path), status: 200, schema };
        }),
      ),
    );
  });

  check('2.0.3', { ...shop, name: 'The shopping endpoints answer under /api/partner/v1' }, async (t) => {
    expectSamples(await samplesOf(t, 'shop'));
  });

  check('2.0.3', { ...book, name: 'The reservation endpoints answer under /api/partner/v1' }, async (t) => {
    expectSamples(await samplesOf(t, 'book'));
  });

  check(
    '2.0.3',
    { ...business, level: 'SHOULD', name: 'The resources are not served outside /api/partner/v1' },
    async (t) => {
      const token = await t.client('partnerA').token();
      for (const path of ['/fleet', '/api/fleet', '/api/partner/fleet', '/partner/v1/fleet']) {
        const res = await t.client('partnerA').raw({
          method: 'GET',
          path: `${t.settings.target.baseUrl}${path}`,
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        });
        expect(res.status, `GET ${path}: ${res.text.slice(0, 200)}`).not.toBe(200);
      }
    },
  );
});

describe('2.1 Money', () => {
  /** Every Money of every sampled response, with where it sits. */
  /** Where Money is: in the catalogue only the fleet (deposits, mileage fees); else the level's samples. */
  async function moneyOf(t: CheckContext, level: (typeof SAMPLE_LEVELS)[number]) {
    const samples: Sample[] =
      level === 'catalog'
        ? [{ label: 'GET /fleet', res: await t.client('partnerA').get('/fleet'), status: 200, schema: 'FleetList' }]
        : await samplesOf(t, level);
    expectSamples(samples);
    const money = samples.flatMap((s) =>
      moneyNodes(s.schema, s.res.body).map((n) => ({ where: `${s.label}: ${n.path}`, value: n.value })),
    );
    if (money.length === 0) t.notApplicable(`no ${level} response carried a Money value`);
    return { samples, money };
  }

  const rules: Array<[id: string, name: string, rule: (m: Record<string, unknown>, where: string) => void]> = [
    [
      '2.1.1',
      'Every Money has exactly currency, amount, exponent and display',
      (m, where) => expect(Object.keys(m).sort(), where).toEqual(['amount', 'currency', 'display', 'exponent']),
    ],
    [
      '2.1.2',
      'Every Money.currency is an ISO 4217 code matching ^[A-Z]{3}$',
      (m, where) => {
        expect(m.currency, where).toMatch(/^[A-Z]{3}$/);
        expect(ISO_CURRENCIES.has(m.currency as string), `${where}: ${String(m.currency)} is an ISO 4217 code`).toBe(
          true,
        );
      },
    ],
    [
      '2.1.3',
      'Every Money.amount is an integer of minor units',
      (m, where) => expect(Number.isInteger(m.amount), `${where}: amount ${String(m.amount)}`).toBe(true),
    ],
    [
      '2.1.4',
      'Every Money.exponent is an integer from 0 to 4',
      (m, where) => {
        expect(Number.isInteger(m.exponent), `${where}: exponent ${String(m.exponent)}`).toBe(true);
        expect(m.exponent as number, where).toBeGreaterThanOrEqual(0);
        expect(m.exponent as number, where).toBeLessThanOrEqual(4);
      },
    ],
    [
      '2.1.5',
      'Every Money.display is a string',
      (m, where) => expect(typeof m.display, `${where}: display`).toBe('string'),
    ],
  ];

  for (const [id, name, rule] of rules) {
    for (const level of SAMPLE_LEVELS) {
      check(id, { ...business, ...levelOptions(level), name: `${name} (${level} responses)` }, async (t) => {
        const { money } = await moneyOf(t, level);
        for (const { where, value } of money) rule(value as Record<string, unknown>, where);
      });
    }
  }

  for (const level of SAMPLE_LEVELS) {
    check(
      '2.1.3',
      {
        ...business,
        ...levelOptions(level),
        name: `Amounts are written as integers on the wire, never 1.0 or 1e3 (${level})`,
      },
      async (t) => {
        const { samples } = await moneyOf(t, level);
        const written = samples.flatMap((s) => amountLexemes(s.res).map((lexeme) => `${s.label}: ${lexeme}`));
        expect(written.length, 'amounts found in the response text').toBeGreaterThan(0);
        expect(
          written.filter((w) => !/: -?(0|[1-9][0-9]*)$/.test(w)),
          'amounts not written as plain integers',
        ).toEqual([]);
      },
    );
  }
});

describe('2.2 Code types', () => {
  check(
    '2.2.1',
    { ...business, name: 'Every vehicleCode matches ^[A-Z0-9-]{2,32}$ and names one model' },
    async (t) => {
      const vehicles = await listedVehicles(t);
      const models = new Map<string, string>();
      for (const { label, value } of vehicles) {
        expect(value.vehicleCode, label).toMatch(new RegExp(PATTERNS.vehicleCode));
        const model = `${value.make}|${value.model}`;
        expect(models.get(value.vehicleCode) ?? model, `${label}: one code, one model`).toBe(model);
        models.set(value.vehicleCode, model);
      }
    },
  );

  check(
    '2.2.1',
    { ...shop, name: 'A vehicleCode names the same model in offers and quotes as in the fleet list' },
    async (t) => {
      const cat = await targetCatalogue(t);
      const byCode = new Map(cat.vehicles.map((v) => [v.vehicleCode, `${v.make}|${v.model}`]));
      await forOffers(t, (offer) => {
        expect(byCode.get(offer.vehicle.vehicleCode), `offer of ${offer.vehicle.vehicleCode}`).toBe(
          `${offer.vehicle.make}|${offer.vehicle.model}`,
        );
      });
      await forQuotes(
        t,
        (request, quote) => {
          expect(quote.vehicle.vehicleCode, 'the quoted vehicle is the requested one').toBe(request.vehicleCode);
          expect(byCode.get(quote.vehicle.vehicleCode)).toBe(`${quote.vehicle.make}|${quote.vehicle.model}`);
        },
        { catalogue: cat, runs: costlyRuns(t) },
      );
    },
  );

  check(
    '2.2.2',
    { ...business, name: 'Every locationCode matches ^[A-Z0-9-]{2,32}$ and is not an IATA code of the list' },
    async (t) => {
      const locations = await listedLocations(t);
      const iata = new Set(locations.map((l) => l.value.iataCode).filter((c): c is string => typeof c === 'string'));
      for (const { label, value } of locations) {
        expect(value.locationCode, label).toMatch(new RegExp(PATTERNS.locationCode));
        expect(iata.has(value.locationCode), `${label}: locationCode is an IATA code of the list`).toBe(false);
      }
      for (const { label, value } of await listedVehicles(t)) {
        for (const code of value.locationCodes) expect(code, `${label} locationCodes`).toMatch(/^[A-Z0-9-]{2,32}$/);
      }
    },
  );

  check(
    '2.2.3',
    { ...business, name: 'Every listed accountCode and rateCode matches ^[A-Z0-9_-]{1,32}$' },
    async (t) => {
      const rates = await listedRates(t);
      if (rates.length === 0) t.notApplicable('the partner has no rate codes');
      for (const plan of rates) {
        expect(plan.accountCode, 'accountCode').toMatch(new RegExp(PATTERNS.commercialCode));
        expect(plan.rateCode, 'rateCode').toMatch(new RegExp(PATTERNS.commercialCode));
      }
    },
  );

  check(
    '2.2.3',
    { ...shop, name: 'Commercial codes echoed by availability and quotes match ^[A-Z0-9_-]{1,32}$' },
    async (t) => {
      const cat = await targetCatalogue(t);
      if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
      const pattern = new RegExp(PATTERNS.commercialCode);
      await forAvailability(
        t,
        (_request, response) => {
          expect(response.accountCode, 'availability accountCode').toMatch(pattern);
          expect(response.rateCode, 'availability rateCode').toMatch(pattern);
        },
        { catalogue: cat, rate: 'plan', runs: costlyRuns(t) },
      );
      await forQuotes(
        t,
        (_request, quote) => {
          expect(quote.rate.accountCode, 'quote rate.accountCode').toMatch(pattern);
          expect(quote.rate.rateCode, 'quote rate.rateCode').toMatch(pattern);
        },
        { catalogue: cat, rate: 'plan', runs: costlyRuns(t) },
      );
    },
  );

  check(
    '2.2.4',
    { ...business, name: 'Every listed (published) vehicle has a sippCode matching ^[A-Z]{4}$' },
    async (t) => {
      for (const { label, value } of await listedVehicles(t)) {
        expect(value.sippCode, `${label}: sippCode (null only on an unpublished vehicle)`).toMatch(/^[A-Z]{4}$/);
      }
    },
  );

  check('2.2.5', { ...shop, name: 'Offer and quote quoteIds are strings of 8 to 4096 characters' }, async (t) => {
    const within = (id: string, what: string) => {
      expect(typeof id, what).toBe('string');
      expect(id.length, `${what} length`).toBeGreaterThanOrEqual(LIMITS.quoteIdLength.min);
      expect(id.length, `${what} length`).toBeLessThanOrEqual(LIMITS.quoteIdLength.max);
    };
    await forOffers(t, (offer) => within(offer.quoteId, `offer ${offer.vehicle.vehicleCode} quoteId`));
    await forQuotes(t, (_request, quote) => within(quote.quoteId, 'quote quoteId'), { runs: costlyRuns(t) });
  });

  check(
    '2.2.5',
    { ...book, name: 'A reservation request quoteId of 7 or 4097 characters is refused with 400' },
    async (t) => {
      const { quote } = await quoteToBook(t);
      for (const length of [LIMITS.quoteIdLength.min - 1, LIMITS.quoteIdLength.max + 1]) {
        const quoteId = quote.quoteId.repeat(Math.ceil(length / quote.quoteId.length)).slice(0, length);
        const res = await postReservation(t, 'partnerA', {
          quoteId,
          partnerReference: freshReference(t),
          driver: driverFor(t, quote.vehicle),
        });
        expectError(res, ['VALIDATION_ERROR', 'QUOTE_INVALID'], { representation: t.representation });
      }
    },
  );

  check(
    '2.2.5',
    { ...book, name: 'A quoteId is opaque: another string of valid length is no quote (400)' },
    async (t) => {
      const { quote } = await quoteToBook(t);
      const res = await postReservation(t, 'partnerA', {
        quoteId: `CERT-NOT-A-QUOTE-${(t.seed >>> 0).toString(36)}`,
        partnerReference: freshReference(t),
        driver: driverFor(t, quote.vehicle),
      });
      expectError(res, ['QUOTE_INVALID', 'VALIDATION_ERROR'], { representation: t.representation });
    },
  );
});

describe('2.3 Extras', () => {
  check('2.3.1', { ...shop, name: 'Extras with no field, or any generated mix of fields, is accepted' }, async (t) => {
    await extrasAccepted(t, fc.oneof(fc.constant({}), extras() as fc.Arbitrary<Record<string, unknown>>));
  });

  check('2.3.1', { ...shop, name: 'An unknown property inside extras: 400 VALIDATION_ERROR' }, async (t) => {
    await availabilityFaults(t, 'extras', ['unknown-property']);
    await quoteFaults(t, 'extras', ['unknown-property']);
  });

  check('2.3.1', { ...shop, name: 'Extras that is not an object: 400' }, async (t) => {
    await availabilityFaults(t, 'extras', ['type']);
  });

  const booleans: Array<[id: string, field: string]> = [
    ['2.3.2', 'cdwInsurance'],
    ['2.3.3', 'fullProtection'],
    ['2.3.4', 'additionalDriver'],
    ['2.3.5', 'roadSideAssistance'],
  ];
  for (const [id, field] of booleans) {
    check(id, { ...shop, name: `extras.${field} true or false is accepted` }, async (t) => {
      await extrasAccepted(
        t,
        fc.boolean().map((value) => ({ [field]: value })),
      );
    });
    check(id, { ...shop, name: `extras.${field} of another type: 400` }, async (t) => {
      await availabilityFaults(t, `extras.${field}`, ['type']);
    });
  }

  check('2.3.3', { ...shop, name: 'cdwInsurance and fullProtection both true: 400 VALIDATION_ERROR' }, async (t) => {
    const cat = await targetCatalogue(t);
    const both = { cdwInsurance: true, fullProtection: true };
    const availability = sampleOf(t, availabilityRequest(cat, { rate: 'public' }));
    expectError(
      await t.client('partnerA').post('/availability', { ...availability, extras: both }),
      'VALIDATION_ERROR',
      {
        representation: t.representation,
      },
    );
    const quote = sampleOf(t, quoteRequest(cat, { rate: 'public' }));
    expectError(await t.client('partnerA').post('/quotes', { ...quote, extras: both }), 'VALIDATION_ERROR', {
      representation: t.representation,
    });
  });

  check('2.3.6', { ...shop, name: 'extras.childSeats 0, 1, 2 or 3 is accepted' }, async (t) => {
    await extrasAccepted(
      t,
      fc.integer({ min: LIMITS.childSeats.min, max: LIMITS.childSeats.max }).map((childSeats) => ({ childSeats })),
    );
  });

  check('2.3.6', { ...shop, name: 'extras.childSeats -1, 4, 1.5 or a string: 400' }, async (t) => {
    await availabilityFaults(t, 'extras.childSeats');
    await quoteFaults(t, 'extras.childSeats', ['range']);
    const cat = await targetCatalogue(t);
    const request = sampleOf(t, availabilityRequest(cat, { rate: 'public' }));
    const res = await t.client('partnerA').post('/availability', { ...request, extras: { childSeats: 1.5 } });
    expectError(res, 'VALIDATION_ERROR', { representation: t.representation });
  });
});

describe('2.4 RentalWindow', () => {
  const fields: Array<[id: string, field: keyof AvailabilityRequest]> = [
    ['2.4.1', 'pickupLocation'],
    ['2.4.2', 'dropoffLocation'],
    ['2.4.3', 'pickupDate'],
    ['2.4.4', 'pickupTime'],
    ['2.4.5', 'dropoffDate'],
    ['2.4.6', 'dropoffTime'],
  ];
  check(
    '2.4.1',
    { ...shop, name: 'Generated valid rental windows are accepted, the locations restated' },
    async (t) => {
      await forAvailability(t, (request, response) => {
        expect(response.pickupLocation, 'pickupLocation restated').toBe(request.pickupLocation);
        expect(response.dropoffLocation, 'dropoffLocation restated').toBe(request.dropoffLocation);
      });
    },
  );

  for (const [id, field] of fields) {
    check(id, { ...shop, name: `${field} missing, of another type or breaking its format: 400` }, async (t) => {
      await availabilityFaults(t, field);
      await quoteFaults(t, field, ['missing-required']);
    });
  }

  check('2.4.3', { ...shop, name: 'pickupDate and pickupTime are the local start of the rental' }, async (t) => {
    await forAvailability(t, (request, response) => {
      expectLocalDateTime(response.pickupDateTime, request.pickupDate, request.pickupTime, 'pickupDateTime');
      expectLocalDateTime(response.dropoffDateTime, request.dropoffDate, request.dropoffTime, 'dropoffDateTime');
    });
  });

  for (const [id, field] of [
    ['2.4.7', 'accountCode'],
    ['2.4.8', 'rateCode'],
  ] as const) {
    check(id, { ...shop, name: `${field} omitted: the public rate (null in the answer)` }, async (t) => {
      await forAvailability(t, (_request, response) => expect(response[field], field).toBeNull(), { rate: 'public' });
      await forQuotes(t, (_request, quote) => expect(quote.rate[field], `rate.${field}`).toBeNull(), {
        rate: 'public',
        runs: costlyRuns(t),
      });
    });

    check(id, { ...shop, name: `${field} of a listed plan is accepted and echoed` }, async (t) => {
      const cat = await targetCatalogue(t);
      if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
      await forAvailability(t, (request, response) => expect(response[field], field).toBe(request[field]), {
        catalogue: cat,
        rate: 'plan',
      });
    });

    check(id, { ...shop, name: `${field} of another type or breaking ^[A-Z0-9_-]{1,32}$: 400` }, async (t) => {
      await availabilityFaults(t, field);
    });
  }

  check(
    '2.4.9',
    { ...shop, name: "A quote's rental is in the pickup location's IANA zone, local times unshifted" },
    async (t) => {
      const cat = await targetCatalogue(t);
      const zones = new Map(cat.locations.map((l) => [l.locationCode, l.timezone]));
      await forQuotes(
        t,
        (request, quote) => {
          expect(quote.rental.timezone, 'rental.timezone is the pickup location timezone').toBe(
            zones.get(request.pickupLocation),
          );
          expectLocalDateTime(
            quote.rental.pickupDateTime,
            request.pickupDate,
            request.pickupTime,
            'rental.pickupDateTime',
          );
          expectLocalDateTime(
            quote.rental.dropoffDateTime,
            request.dropoffDate,
            request.dropoffTime,
            'rental.dropoffDateTime',
          );
        },
        { catalogue: cat },
      );
    },
  );

  check('2.4.9', { ...shop, name: 'Availability restates the window in local time, without an offset' }, async (t) => {
    await forAvailability(t, (request, response) => {
      expectLocalDateTime(response.pickupDateTime, request.pickupDate, request.pickupTime, 'pickupDateTime');
      expect(response.pickupDateTime, 'no offset or Z').not.toMatch(/(Z|[+-]\d{2}:?\d{2})$/);
    });
  });
});

describe('2.5 FleetVehicle', () => {
  type VehicleRule = [id: string, name: string, rule: (v: FleetVehicle, label: string, codes: Set<string>) => void];
  const nullOrInteger = (value: unknown, min: number, max: number, what: string) => {
    if (value === null) return;
    expect(Number.isInteger(value), `${what} is an integer`).toBe(true);
    expect(value as number, what).toBeGreaterThanOrEqual(min);
    expect(value as number, what).toBeLessThanOrEqual(max);
  };
  const stringOrNull = (value: unknown, what: string) =>
    expect(value === null || typeof value === 'string', `${what}: string or null`).toBe(true);
  const oneOf = (value: unknown, allowed: readonly unknown[], what: string) =>
    expect(allowed, `${what} = ${JSON.stringify(value)}`).toContain(value);

  const rules: VehicleRule[] = [
    [
      '2.5.1',
      'Every listed vehicle has the required keys and validates as FleetVehicle',
      (v, label) => {
        for (const key of [
          'vehicleCode',
          'sippCode',
          'make',
          'model',
          'displayName',
          'maxPassengers',
          'doors',
          'airConditioning',
          'transmission',
          'fuelType',
          'securityDeposit',
          'mileagePolicy',
          'images',
          'locationCodes',
          'status',
          'dataQuality',
        ]) {
          expect(Object.hasOwn(v, key), `${label}: key ${key}`).toBe(true);
        }
        const result = validate('FleetVehicle', v);
        expect(result.valid ? [] : result.fields, label).toEqual([]);
      },
    ],
    ['2.5.2', 'vehicleCode is a VehicleCode', (v, l) => expect(v.vehicleCode, l).toMatch(/^[A-Z0-9-]{2,32}$/)],
    [
      '2.5.3',
      'sippCode is a SippCode (four letters on a listed vehicle)',
      (v, l) => expect(v.sippCode, l).toMatch(/^[A-Z]{4}$/),
    ],
    ['2.5.4', 'sippDescription is a string or null', (v, l) => stringOrNull(v.sippDescription, `${l} sippDescription`)],
    [
      '2.5.5',
      'make, model and displayName are strings',
      (v, l) => {
        for (const key of ['make', 'model', 'displayName'] as const)
          expect(typeof v[key], `${l} ${key}`).toBe('string');
      },
    ],
    ['2.5.6', 'rocketClass is a string or null', (v, l) => stringOrNull(v.rocketClass, `${l} rocketClass`)],
    ['2.5.7', 'rocketCategory is a string or null', (v, l) => stringOrNull(v.rocketCategory, `${l} rocketCategory`)],
    ['2.5.8', 'bodyType is a string or null', (v, l) => stringOrNull(v.bodyType, `${l} bodyType`)],
    [
      '2.5.9',
      'maxPassengers is an integer from 1 to 16 or null',
      (v, l) => nullOrInteger(v.maxPassengers, 1, 16, `${l} maxPassengers`),
    ],
    ['2.5.10', 'doors is an integer from 2 to 6 or null', (v, l) => nullOrInteger(v.doors, 2, 6, `${l} doors`)],
    [
      '2.5.11',
      'airConditioning is a boolean or null',
      (v, l) => oneOf(v.airConditioning, [true, false, null], `${l} airConditioning`),
    ],
    [
      '2.5.12',
      'transmission is automatic, manual or null',
      (v, l) => oneOf(v.transmission, ['automatic', 'manual', null], `${l} transmission`),
    ],
    [
      '2.5.13',
      'driveType is fwd, rwd, awd, 4wd or null',
      (v, l) => oneOf(v.driveType ?? null, ['fwd', 'rwd', 'awd', '4wd', null], `${l} driveType`),
    ],
    [
      '2.5.14',
      'fuelType is gasoline, diesel, electric, hybrid or null',
      (v, l) => oneOf(v.fuelType, ['gasoline', 'diesel', 'electric', 'hybrid', null], `${l} fuelType`),
    ],
    [
      '2.5.15',
      'baggage is null or a closed object of large and small (integers or null)',
      (v, l) => {
        const baggage = v.baggage ?? null;
        if (baggage === null) return;
        expect(Object.keys(baggage).sort(), `${l} baggage keys`).toEqual(['large', 'small']);
        nullOrInteger(baggage.large, 0, Number.MAX_SAFE_INTEGER, `${l} baggage.large`);
        nullOrInteger(baggage.small, 0, Number.MAX_SAFE_INTEGER, `${l} baggage.small`);
      },
    ],
    [
      '2.5.16',
      'minDriverAge is an integer or null',
      (v, l) => nullOrInteger(v.minDriverAge ?? null, 0, 200, `${l} minDriverAge`),
    ],
    ['2.5.17', 'securityDeposit is Money', (v, l) => expectMoney(v.securityDeposit, `${l} securityDeposit`)],
    [
      '2.5.18',
      'mileagePolicy has includedKmPerDay (integer or null) and excessFeePerKm (Money in VND, or null)',
      (v, l) => {
        expect(Object.keys(v.mileagePolicy).sort(), `${l} mileagePolicy keys`).toEqual([
          'excessFeePerKm',
          'includedKmPerDay',
        ]);
        nullOrInteger(v.mileagePolicy.includedKmPerDay, 0, Number.MAX_SAFE_INTEGER, `${l} includedKmPerDay`);
        const fee = v.mileagePolicy.excessFeePerKm;
        if (fee === null) return;
        expectMoney(fee, `${l} excessFeePerKm`);
        expect(fee.currency, `${l} excessFeePerKm is quoted in VND`).toBe('VND');
      },
    ],
    [
      '2.5.19',
      'images is an array of absolute URIs',
      (v, l) => {
        expect(Array.isArray(v.images), `${l} images`).toBe(true);
        for (const image of v.images) {
          expect(typeof image, `${l} image`).toBe('string');
          expect(URL.canParse(image) && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(image), `${l} image ${image} is a URI`).toBe(
            true,
          );
        }
      },
    ],
    [
      '2.5.20',
      'locationCodes is an array of LocationCodes of listed locations',
      (v, l, codes) => {
        expect(Array.isArray(v.locationCodes), `${l} locationCodes`).toBe(true);
        for (const code of v.locationCodes) {
          expect(code, `${l} locationCodes`).toMatch(/^[A-Z0-9-]{2,32}$/);
          expect(codes.has(code), `${l}: ${code} is a listed location`).toBe(true);
        }
      },
    ],
    ['2.5.21', 'status is the constant "available"', (v, l) => expect(v.status, l).toBe('available')],
    [
      '2.5.22',
      'dataQuality has status and missingFields (array of strings) only',
      (v, l) => {
        expect(Object.keys(v.dataQuality).sort(), `${l} dataQuality keys`).toEqual(['missingFields', 'status']);
        oneOf(v.dataQuality.status, ['incomplete', 'complete_unverified', 'verified'], `${l} dataQuality.status`);
        expect(Array.isArray(v.dataQuality.missingFields), `${l} missingFields`).toBe(true);
        for (const f of v.dataQuality.missingFields) expect(typeof f, `${l} missingFields item`).toBe('string');
      },
    ],
    [
      '2.5.23',
      'Only complete_unverified and verified vehicles are listed',
      (v, l) => oneOf(v.dataQuality.status, ['complete_unverified', 'verified'], `${l} dataQuality.status`),
    ],
    [
      '2.5.24',
      'Listed vehicles have a complete partner specification (SIPP, doors, air conditioning, seats, transmission, fuel)',
      (v, l) => {
        for (const key of [
          'sippCode',
          'doors',
          'airConditioning',
          'maxPassengers',
          'transmission',
          'fuelType',
        ] as const) {
          expect(v[key], `${l} ${key} (partner specification)`).not.toBeNull();
        }
        const named = v.dataQuality.missingFields.filter((f) =>
          /sipp|door|air|passenger|seat|transmission|fuel/i.test(f),
        );
        expect(named, `${l}: dataQuality.missingFields names a specification field`).toEqual([]);
      },
    ],
  ];

  for (const [id, name, rule] of rules) {
    check(id, { ...business, name }, async (t) => {
      // Only the locationCodes rule needs the location list.
      const codes = new Set(id === '2.5.20' ? (await listedLocations(t)).map((l) => l.value.locationCode) : []);
      for (const { label, value } of await listedVehicles(t)) rule(value, label, codes);
    });
  }

  check('2.5.17', { ...shop, name: 'The security deposit is not part of the quoted rental charge' }, async (t) => {
    await forQuotes(t, (_request, quote) => {
      expectMoney(quote.vehicle.securityDeposit, 'vehicle.securityDeposit');
      const { baseTotal, extrasTotal, oneWayFee, discount, total } = quote.charges;
      const deposit = quote.securityDeposit;
      if (deposit.amount === 0) return;
      const e = Math.max(
        baseTotal.exponent,
        extrasTotal.exponent,
        oneWayFee.exponent,
        discount.exponent,
        deposit.exponent,
      );
      const withDeposit =
        scaled(baseTotal, e) + scaled(extrasTotal, e) + scaled(oneWayFee, e) - scaled(discount, e) + scaled(deposit, e);
      expect(scaled(total, e), 'charges.total does not fold the security deposit in').not.toBe(withDeposit);
    });
  });

  check('2.5.22', { ...shop, name: 'Vehicles of offers and quotes carry a valid dataQuality' }, async (t) => {
    const judge = (v: FleetVehicle, l: string) => {
      oneOf(v.dataQuality.status, ['complete_unverified', 'verified'], `${l} dataQuality.status`);
      expect(Array.isArray(v.dataQuality.missingFields), `${l} missingFields`).toBe(true);
    };
    await forOffers(t, (offer) => judge(offer.vehicle, `offer ${offer.vehicle.vehicleCode}`));
    await forQuotes(t, (_r, quote) => judge(quote.vehicle, `quote ${quote.vehicle.vehicleCode}`), {
      runs: costlyRuns(t),
    });
  });

  check('2.5.23', { ...shop, name: 'Offers only carry complete_unverified or verified vehicles' }, async (t) => {
    await forOffers(t, (offer) =>
      oneOf(
        offer.vehicle.dataQuality.status,
        ['complete_unverified', 'verified'],
        `offer ${offer.vehicle.vehicleCode}`,
      ),
    );
  });

  check('2.5.24', { ...shop, name: 'Offers only carry vehicles with a complete partner specification' }, async (t) => {
    await forOffers(t, (offer) => {
      for (const key of [
        'sippCode',
        'doors',
        'airConditioning',
        'maxPassengers',
        'transmission',
        'fuelType',
      ] as const) {
        expect(offer.vehicle[key], `offer ${offer.vehicle.vehicleCode} ${key}`).not.toBeNull();
      }
    });
  });

  check(
    '2.5.24',
    { ...business, level: 'SHOULD', name: 'Listed vehicles have an empty dataQuality.missingFields' },
    async (t) => {
      for (const { label, value } of await listedVehicles(t)) {
        expect(value.dataQuality.missingFields, `${label} (docs/ambiguities.md RS3)`).toEqual([]);
      }
    },
  );
});

describe('2.6 Location', () => {
  type LocationRule = [id: string, name: string, rule: (l: Location, label: string) => void];
  const stringOrNull = (value: unknown, what: string) =>
    expect(value === null || typeof value === 'string', `${what}: string or null`).toBe(true);
  const rules: LocationRule[] = [
    [
      '2.6.1',
      'Every location has the required keys and validates as Location',
      (l, label) => {
        for (const key of [
          'locationCode',
          'name',
          'locationType',
          'countryCode',
          'city',
          'timezone',
          'iataCode',
          'capabilities',
          'branchCode',
        ]) {
          expect(Object.hasOwn(l, key), `${label}: key ${key}`).toBe(true);
        }
        const result = validate('Location', l);
        expect(result.valid ? [] : result.fields, label).toEqual([]);
      },
    ],
    [
      '2.6.2',
      'locationCode is a LocationCode',
      (l, label) => expect(l.locationCode, label).toMatch(/^[A-Z0-9-]{2,32}$/),
    ],
    ['2.6.3', 'name is a string', (l, label) => expect(typeof l.name, `${label} name`).toBe('string')],
    ['2.6.4', 'nameLocal is a string or null', (l, label) => stringOrNull(l.nameLocal ?? null, `${label} nameLocal`)],
    [
      '2.6.5',
      'locationType is city or airport',
      (l, label) => expect(['city', 'airport'], `${label} locationType`).toContain(l.locationType),
    ],
    ['2.6.6', 'countryCode matches ^[A-Z]{2}$', (l, label) => expect(l.countryCode, label).toMatch(/^[A-Z]{2}$/)],
    ['2.6.7', 'city is a string', (l, label) => expect(typeof l.city, `${label} city`).toBe('string')],
    ['2.6.8', 'address is a string or null', (l, label) => stringOrNull(l.address ?? null, `${label} address`)],
    [
      '2.6.9',
      'coordinates is null or { latitude, longitude } numbers in range',
      (l, label) => {
        const c = l.coordinates ?? null;
        if (c === null) return;
        expect(Object.keys(c).sort(), `${label} coordinates keys`).toEqual(['latitude', 'longitude']);
        expect(Number.isFinite(c.latitude) && Math.abs(c.latitude) <= 90, `${label} latitude ${c.latitude}`).toBe(true);
        expect(Number.isFinite(c.longitude) && Math.abs(c.longitude) <= 180, `${label} longitude ${c.longitude}`).toBe(
          true,
        );
      },
    ],
    [
      '2.6.10',
      'timezone is an IANA zone',
      (l, label) => expect(isIanaZone(l.timezone), `${label} timezone ${l.timezone}`).toBe(true),
    ],
    [
      '2.6.11',
      'iataCode: ^[A-Z]{3}$ on airports, null elsewhere, never the locationCode',
      (l, label) => {
        if (l.locationType === 'airport') {
          if (l.iataCode !== null) expect(l.iataCode, `${label} iataCode`).toMatch(/^[A-Z]{3}$/);
        } else expect(l.iataCode, `${label}: iataCode on a ${l.locationType} location`).toBeNull();
        expect(l.iataCode, `${label}: iataCode and locationCode are different namespaces`).not.toBe(l.locationCode);
      },
    ],
    [
      '2.6.12',
      'capabilities has exactly the booleans pickup, dropoff, oneWay and delivery',
      (l, label) => {
        expect(Object.keys(l.capabilities).sort(), `${label} capabilities`).toEqual([
          'delivery',
          'dropoff',
          'oneWay',
          'pickup',
        ]);
        for (const value of Object.values(l.capabilities)) expect(typeof value, `${label} capability`).toBe('boolean');
      },
    ],
    [
      '2.6.13',
      'openingHours is a string or null',
      (l, label) => stringOrNull(l.openingHours ?? null, `${label} openingHours`),
    ],
    [
      '2.6.14',
      'afterHoursPolicy is a string or null',
      (l, label) => stringOrNull(l.afterHoursPolicy ?? null, `${label} afterHoursPolicy`),
    ],
    [
      '2.6.15',
      'branchCode is a non-empty string',
      (l, label) => {
        expect(typeof l.branchCode, `${label} branchCode`).toBe('string');
        expect(l.branchCode.length, `${label} branchCode`).toBeGreaterThan(0);
      },
    ],
  ];

  for (const [id, name, rule] of rules) {
    check(id, { ...business, name }, async (t) => {
      for (const { label, value } of await listedLocations(t)) rule(value, label);
    });
  }

  check('2.6.11', { ...business, level: 'SHOULD', name: 'Every airport carries its IATA code' }, async (t) => {
    const airports = (await listedLocations(t)).filter((l) => l.value.locationType === 'airport');
    if (airports.length === 0) t.notApplicable('no airport location is listed');
    for (const { label, value } of airports)
      expect(value.iataCode, `${label} (docs/ambiguities.md #35)`).not.toBeNull();
  });

  check(
    '2.6.15',
    { ...shop, name: 'One-way fees are branch-scoped: none between two locations of one branch' },
    async (t) => {
      const cat = await targetCatalogue(t);
      const pairs = locationPairs(cat, { sameBranch: true }).filter(
        (p) => p.pickup.locationCode !== p.dropoff.locationCode,
      );
      if (pairs.length === 0) t.notApplicable('no branch has two locations for pickup and dropoff');
      const pickups = [...new Set(pairs.map((p) => p.pickup.locationCode))];
      await forQuotes(
        t,
        (request, quote) => {
          if (request.pickupLocation === request.dropoffLocation) return;
          expect(quote.charges.oneWayFee.amount, `${request.pickupLocation} → ${request.dropoffLocation}`).toBe(0);
        },
        { catalogue: cat, pickupLocations: pickups, rate: 'public' },
      );
    },
  );

  check('2.6.16', { ...business, name: 'The location list holds eight locations' }, async (t) => {
    const res = await t.client('partnerA').get('/locations');
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const list = res.body as LocationList;
    expect(list.locations.length, 'locations listed').toBe(8);
    expect(list.count, 'count').toBe(8);
    expect(new Set(list.locations.map((l) => l.locationCode)).size, 'distinct location codes').toBe(8);
  });

  check(
    '2.6.16',
    { ...shop, name: 'Every listed location is active: shopping there is never INVALID_LOCATION' },
    async (t) => {
      const cat = await targetCatalogue(t);
      for (const value of cat.locations) {
        if (!value.capabilities.pickup || !value.capabilities.dropoff) continue;
        const request = sampleOf(
          t,
          availabilityRequest(cat, { rate: 'public', pickupLocations: [value.locationCode] }),
        );
        const body = { ...request, dropoffLocation: value.locationCode };
        delete body.vehicleCodes;
        const res = await t.client('partnerA').post('/availability', body);
        expect(isAvailabilityAnswer(res), `${value.locationCode}: HTTP ${res.status} ${res.text.slice(0, 300)}`).toBe(
          true,
        );
      }
    },
  );
});

describe('2.7 Rate plan', () => {
  async function plans(t: CheckContext): Promise<RatePlan[]> {
    const rates = await listedRates(t);
    if (rates.length === 0) t.notApplicable('the partner has no rate codes (an empty list is valid, spec 2.7)');
    return rates;
  }
  const rules: Array<[id: string, name: string, rule: (p: RatePlan, label: string) => void]> = [
    [
      '2.7.1',
      'Every plan has accountCode, rateCode, rateType, currency and status and validates as RatePlan',
      (p, l) => {
        for (const key of ['accountCode', 'rateCode', 'rateType', 'currency', 'status']) {
          expect(Object.hasOwn(p, key), `${l}: key ${key}`).toBe(true);
        }
        const result = validate('RatePlan', p);
        expect(result.valid ? [] : result.fields, l).toEqual([]);
      },
    ],
    [
      '2.7.2',
      'accountCode and rateCode are CommercialCodes',
      (p, l) => {
        expect(p.accountCode, l).toMatch(/^[A-Z0-9_-]{1,32}$/);
        expect(p.rateCode, l).toMatch(/^[A-Z0-9_-]{1,32}$/);
      },
    ],
    [
      '2.7.3',
      'rateType is retail, net, commissionable, corporate or promotional',
      (p, l) => expect(['retail', 'net', 'commissionable', 'corporate', 'promotional'], l).toContain(p.rateType),
    ],
    [
      '2.7.4',
      'currency matches ^[A-Z]{3}$ (ISO 4217)',
      (p, l) => {
        expect(p.currency, l).toMatch(/^[A-Z]{3}$/);
        expect(ISO_CURRENCIES.has(p.currency), `${l}: ${p.currency} is an ISO 4217 code`).toBe(true);
      },
    ],
    [
      '2.7.5',
      'validFrom and validTo are dates or null, validFrom not after validTo',
      (p, l) => {
        for (const key of ['validFrom', 'validTo'] as const) {
          const value = p[key] ?? null;
          if (value === null) continue;
          expect(value, `${l} ${key}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          expect(new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10), `${l} ${key} is a calendar date`).toBe(
            value,
          );
        }
        if (p.validFrom && p.validTo)
          expect(p.validFrom <= p.validTo, `${l}: validFrom ${p.validFrom} ≤ validTo ${p.validTo}`).toBe(true);
      },
    ],
    ['2.7.6', 'status is the constant "active"', (p, l) => expect(p.status, l).toBe('active')],
  ];
  for (const [id, name, rule] of rules) {
    check(id, { ...business, name }, async (t) => {
      for (const plan of await plans(t)) rule(plan, `${plan.accountCode}/${plan.rateCode}`);
    });
  }

  check(
    '2.7.7',
    { ...business, needs: ['partnerA', 'partnerB'], name: 'No plan of one partner is listed to another' },
    async (t) => {
      const a = await listedRates(t, 'partnerA');
      const b = await listedRates(t, 'partnerB');
      if (a.length + b.length === 0) t.notApplicable('neither partner has rate codes');
      const key = (p: RatePlan) => `${p.accountCode}/${p.rateCode}`;
      const shared = a.map(key).filter((k) => new Set(b.map(key)).has(k));
      expect(shared, 'plans listed to both partners (spec 1.4: a partner sees only its own codes)').toEqual([]);
      const accountsOfA = new Set(a.map((p) => p.accountCode));
      expect(
        b.filter((p) => accountsOfA.has(p.accountCode)).map(key),
        "partner B's plans under partner A's account codes",
      ).toEqual([]);
    },
  );

  check(
    '2.7.7',
    { ...shop, name: 'Every listed plan is approved and activated: shopping with it is never refused for the code' },
    async (t) => {
      const cat = await targetCatalogue(t);
      if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
      for (const plan of cat.rates) {
        const request = sampleOf(t, availabilityRequest(withPlans(cat, [plan]), { rate: 'plan' }));
        const res = await t.client('partnerA').post('/availability', request);
        expect(
          isAvailabilityAnswer(res),
          `${plan.accountCode}/${plan.rateCode}: HTTP ${res.status} ${errorCodeOf(res) ?? res.text.slice(0, 200)}`,
        ).toBe(true);
      }
    },
  );

  check(
    '2.7.8',
    { ...shop, name: 'Without accountCode and rateCode, availability and quotes use the public rate' },
    async (t) => {
      await forAvailability(
        t,
        (_request, response) => {
          expect(response.accountCode, 'accountCode').toBeNull();
          expect(response.rateCode, 'rateCode').toBeNull();
        },
        { rate: 'public', runs: costlyRuns(t) },
      );
      await forQuotes(
        t,
        (_request, quote) => {
          expect(quote.rate.accountCode).toBeNull();
          expect(quote.rate.rateCode).toBeNull();
          expect(quote.rate.adjustmentApplied, 'the public rate has no partner adjustment').toBe(false);
        },
        { rate: 'public', runs: costlyRuns(t) },
      );
    },
  );

  check(
    '2.7.8',
    { ...book, name: 'Booking at the public rate is possible (codes null on the reservation)' },
    async (t) => {
      const { reservation } = await booked(t, { rate: 'public' });
      expect(reservation.accountCode, 'accountCode').toBeNull();
      expect(reservation.rateCode, 'rateCode').toBeNull();
    },
  );
});

describe('2.8 AvailabilityOffer', () => {
  const offerKeys = ['quoteId', 'quoteExpiresAt', 'vehicle', 'rentalDays', 'dailyRate', 'estimatedTotal', 'currency'];

  check('2.8.1', { ...shop, name: 'Every offer has the seven required keys and validates' }, async (t) => {
    await forOffers(t, (offer) => {
      for (const key of offerKeys) expect(Object.hasOwn(offer, key), `offer key ${key}`).toBe(true);
      const result = validate('AvailabilityOffer', offer);
      expect(result.valid ? [] : result.fields).toEqual([]);
    });
  });

  check('2.8.2', { ...shop, name: "An offer's quoteId is a string valid 30 minutes from issue" }, async (t) => {
    await forOffers(t, (offer, _response, res) => {
      expect(typeof offer.quoteId, 'quoteId').toBe('string');
      expectAboutThirtyMinutes(res, offer.quoteExpiresAt, 'quoteExpiresAt');
    });
  });

  check('2.8.2', { ...book, name: "An offer's quoteId books a reservation without calling /quotes" }, async (t) => {
    const cat = await targetCatalogue(t);
    let bookedOne = false;
    for (let salt = 0; salt < 5 && !bookedOne; salt++) {
      const request = sampleOf(t, availabilityRequest(cat, { rate: 'public' }), salt * 104729);
      const res = await t.client('partnerA').post('/availability', request);
      expect(isAvailabilityAnswer(res), res.text.slice(0, 300)).toBe(true);
      const offer = res.status === 200 ? (res.body as AvailabilityResponse).offers[0] : undefined;
      if (!offer) continue;
      const created = await postReservation(t, 'partnerA', {
        quoteId: offer.quoteId,
        partnerReference: freshReference(t),
        driver: driverFor(t, offer.vehicle),
      });
      expect(created.status, `booking from an offer: ${created.text.slice(0, 300)}`).toBe(201);
      expectSchema(created, 'Reservation');
      expect((created.body as Reservation).vehicleCode, 'vehicle of the offer').toBe(offer.vehicle.vehicleCode);
      bookedOne = true;
    }
    if (!bookedOne) t.notApplicable('no generated availability request got an offer');
  });

  check('2.8.3', { ...shop, name: 'quoteExpiresAt is an RFC 3339 date-time' }, async (t) => {
    await forOffers(t, (offer) => {
      expect(offer.quoteExpiresAt, 'quoteExpiresAt').toMatch(
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i,
      );
      expect(Number.isNaN(Date.parse(offer.quoteExpiresAt)), 'parses as a date-time').toBe(false);
    });
  });

  check(
    '2.8.4',
    { ...shop, name: "An offer's vehicle is a FleetVehicle offered at the pickup location" },
    async (t) => {
      await forOffers(t, (offer, response) => {
        const result = validate('FleetVehicle', offer.vehicle);
        expect(result.valid ? [] : result.fields, offer.vehicle.vehicleCode).toEqual([]);
        expect(offer.vehicle.locationCodes, `${offer.vehicle.vehicleCode} is offered at the pickup location`).toContain(
          response.pickupLocation,
        );
      });
    },
  );

  check('2.8.5', { ...shop, name: 'rentalDays is an integer of at least 1' }, async (t) => {
    await forOffers(t, (offer) => {
      expect(Number.isInteger(offer.rentalDays), 'integer').toBe(true);
      expect(offer.rentalDays).toBeGreaterThanOrEqual(1);
    });
  });

  check('2.8.5', { ...shop, level: 'SHOULD', name: "An offer's rentalDays is the response's" }, async (t) => {
    await forOffers(t, (offer, response) => expect(offer.rentalDays).toBe(response.rentalDays));
  });

  check('2.8.6', { ...shop, name: 'dailyRate and estimatedTotal are Money' }, async (t) => {
    await forOffers(t, (offer) => {
      expectMoney(offer.dailyRate, 'dailyRate');
      expectMoney(offer.estimatedTotal, 'estimatedTotal');
    });
  });

  check(
    '2.8.6',
    { ...shop, level: 'SHOULD', name: 'dailyRate and estimatedTotal are in the offer currency' },
    async (t) => {
      await forOffers(t, (offer) => {
        expect(offer.dailyRate.currency, 'dailyRate currency').toBe(offer.currency);
        expect(offer.estimatedTotal.currency, 'estimatedTotal currency').toBe(offer.currency);
      });
    },
  );

  check('2.8.7', { ...shop, name: 'currency matches ^[A-Z]{3}$ (ISO 4217)' }, async (t) => {
    await forOffers(t, (offer) => {
      expect(offer.currency).toMatch(/^[A-Z]{3}$/);
      expect(ISO_CURRENCIES.has(offer.currency), `${offer.currency} is an ISO 4217 code`).toBe(true);
    });
  });
});

describe('2.9 Quote', () => {
  const quoteKeys = [
    'quoteId',
    'expiresAt',
    'currency',
    'vehicle',
    'rental',
    'rate',
    'charges',
    'securityDeposit',
    'payment',
    'inclusions',
    'exclusions',
  ];
  const chargeKeys = [
    'baseTotal',
    'commission',
    'dailyRate',
    'discount',
    'extras',
    'extrasTotal',
    'oneWayFee',
    'total',
  ];

  const rules: Array<[id: string, name: string, rule: (request: QuoteRequest, quote: Quote, res: ApiResult) => void]> =
    [
      [
        '2.9.1',
        'A quote has the eleven required keys and validates',
        (_r, quote) => {
          for (const key of quoteKeys) expect(Object.hasOwn(quote, key), `key ${key}`).toBe(true);
        },
      ],
      ['2.9.2', 'quoteId is a string', (_r, quote) => expect(typeof quote.quoteId).toBe('string')],
      [
        '2.9.3',
        'expiresAt is a date-time 30 minutes after issue',
        (_r, quote, res) => expectAboutThirtyMinutes(res, quote.expiresAt, 'expiresAt'),
      ],
      [
        '2.9.4',
        'currency matches ^[A-Z]{3}$ (ISO 4217)',
        (_r, quote) => {
          expect(quote.currency).toMatch(/^[A-Z]{3}$/);
          expect(ISO_CURRENCIES.has(quote.currency), `${quote.currency} is an ISO 4217 code`).toBe(true);
        },
      ],
      [
        '2.9.5',
        'vehicle is the requested FleetVehicle',
        (request, quote) => {
          const result = validate('FleetVehicle', quote.vehicle);
          expect(result.valid ? [] : result.fields).toEqual([]);
          expect(quote.vehicle.vehicleCode).toBe(request.vehicleCode);
        },
      ],
      [
        '2.9.6',
        'rental restates the locations, the local date-times, rentalDays >= 1 and the timezone',
        (request, quote) => {
          expect(Object.keys(quote.rental).sort()).toEqual([
            'dropoffDateTime',
            'dropoffLocation',
            'pickupDateTime',
            'pickupLocation',
            'rentalDays',
            'timezone',
          ]);
          expect(quote.rental.pickupLocation).toBe(request.pickupLocation);
          expect(quote.rental.dropoffLocation).toBe(request.dropoffLocation);
          expectLocalDateTime(
            quote.rental.pickupDateTime,
            request.pickupDate,
            request.pickupTime,
            'rental.pickupDateTime',
          );
          expectLocalDateTime(
            quote.rental.dropoffDateTime,
            request.dropoffDate,
            request.dropoffTime,
            'rental.dropoffDateTime',
          );
          expect(Number.isInteger(quote.rental.rentalDays) && quote.rental.rentalDays >= 1, 'rentalDays >= 1').toBe(
            true,
          );
          expect(isIanaZone(quote.rental.timezone), `timezone ${quote.rental.timezone}`).toBe(true);
        },
      ],
      [
        '2.9.7',
        'rate restates the codes (null for the public rate), with rateType and adjustmentApplied',
        (request, quote) => {
          expect(Object.keys(quote.rate).sort()).toEqual(['accountCode', 'adjustmentApplied', 'rateCode', 'rateType']);
          expect(quote.rate.accountCode, 'rate.accountCode').toBe(request.accountCode ?? null);
          expect(quote.rate.rateCode, 'rate.rateCode').toBe(request.rateCode ?? null);
          expect(['retail', 'net', 'commissionable', 'corporate', 'promotional']).toContain(quote.rate.rateType);
          expect(typeof quote.rate.adjustmentApplied, 'adjustmentApplied').toBe('boolean');
          if (request.rateCode === undefined)
            expect(quote.rate.adjustmentApplied, 'public rate: no adjustment').toBe(false);
        },
      ],
      [
        '2.9.8a',
        'charges has exactly dailyRate, baseTotal, extras, extrasTotal, oneWayFee, discount, total and commission',
        (_r, quote) => {
          expect(Object.keys(quote.charges).sort()).toEqual(chargeKeys);
          for (const key of ['dailyRate', 'baseTotal', 'extrasTotal', 'oneWayFee', 'discount', 'total'] as const) {
            expectMoney(quote.charges[key], `charges.${key}`);
          }
          expect(Array.isArray(quote.charges.extras), 'charges.extras').toBe(true);
          if (quote.charges.commission !== null) expectMoney(quote.charges.commission, 'charges.commission');
        },
      ],
      [
        '2.9.8b',
        'baseTotal is rentalDays times dailyRate',
        (_r, quote) => {
          const { dailyRate, baseTotal } = quote.charges;
          expect(baseTotal.currency).toBe(dailyRate.currency);
          const e = Math.max(dailyRate.exponent, baseTotal.exponent);
          expect(scaled(baseTotal, e), `${quote.rental.rentalDays} × ${dailyRate.display}`).toBe(
            quote.rental.rentalDays * scaled(dailyRate, e),
          );
        },
      ],
      [
        '2.9.8c',
        'oneWayFee is zero when pickup and dropoff are in one branch',
        (_r, quote) => expect(quote.charges.oneWayFee.amount, 'oneWayFee within a branch').toBe(0),
      ],
      [
        '2.9.8d',
        'total excludes the security deposit',
        (_r, quote) => {
          const { baseTotal, extrasTotal, oneWayFee, discount, total } = quote.charges;
          const deposit = quote.securityDeposit;
          if (deposit.amount === 0) return;
          const e = Math.max(
            baseTotal.exponent,
            extrasTotal.exponent,
            oneWayFee.exponent,
            discount.exponent,
            deposit.exponent,
          );
          const charges = scaled(baseTotal, e) + scaled(extrasTotal, e) + scaled(oneWayFee, e) - scaled(discount, e);
          expect(scaled(total, e), 'total is not the charges plus the deposit').not.toBe(charges + scaled(deposit, e));
        },
      ],
      ['2.9.9', 'securityDeposit is Money', (_r, quote) => expectMoney(quote.securityDeposit, 'securityDeposit')],
      [
        '2.9.10',
        'payment has model settled_with_partner, prepaymentRequired and dueAtPickup (Money)',
        (_r, quote) => {
          expect(Object.keys(quote.payment).sort()).toEqual(['dueAtPickup', 'model', 'prepaymentRequired']);
          expect(quote.payment.model).toBe('settled_with_partner');
          expectMoney(quote.payment.prepaymentRequired, 'payment.prepaymentRequired');
          expectMoney(quote.payment.dueAtPickup, 'payment.dueAtPickup');
        },
      ],
      [
        '2.9.11',
        'inclusions and exclusions are arrays of strings',
        (_r, quote) => {
          for (const key of ['inclusions', 'exclusions'] as const) {
            expect(Array.isArray(quote[key]), key).toBe(true);
            for (const item of quote[key]) expect(typeof item, `${key} item`).toBe('string');
          }
        },
      ],
      [
        '2.9.12',
        'Every ExtraLine has code, description, quantity (integer) and total (Money)',
        (_r, quote) => {
          for (const [i, line] of quote.charges.extras.entries()) {
            expect(Object.keys(line).sort(), `extras[${i}] keys`).toEqual(['code', 'description', 'quantity', 'total']);
            expect(typeof line.code, `extras[${i}].code`).toBe('string');
            expect(typeof line.description, `extras[${i}].description`).toBe('string');
            expect(Number.isInteger(line.quantity), `extras[${i}].quantity`).toBe(true);
            expectMoney(line.total, `extras[${i}].total`);
          }
        },
      ],
    ];

  for (const [id, name, rule] of rules) {
    check(id, { ...shop, name }, async (t) => {
      await forQuotes(t, rule, { runs: costlyRuns(t) });
    });
  }

  check('2.9.4', { ...shop, level: 'SHOULD', name: 'The charges are in the quote currency' }, async (t) => {
    await forQuotes(
      t,
      (_r, quote) => {
        for (const [key, value] of Object.entries(quote.charges)) {
          if (value !== null && !Array.isArray(value))
            expect((value as Money).currency, `charges.${key}`).toBe(quote.currency);
        }
      },
      { runs: costlyRuns(t) },
    );
  });

  check('2.9.7', { ...shop, name: "With a plan, rateType is the listed plan's" }, async (t) => {
    const cat = await targetCatalogue(t);
    if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
    const types = new Map(cat.rates.map((p) => [`${p.accountCode}/${p.rateCode}`, p.rateType]));
    await forQuotes(
      t,
      (request, quote) => {
        expect(quote.rate.rateType, `${request.accountCode}/${request.rateCode}`).toBe(
          types.get(`${request.accountCode}/${request.rateCode}`),
        );
      },
      { catalogue: cat, rate: 'plan', runs: costlyRuns(t) },
    );
  });

  check(
    '2.9.7',
    { ...shop, level: 'SHOULD', name: 'adjustmentApplied is true exactly when the total is off the public price' },
    async (t) => {
      const cat = await targetCatalogue(t);
      if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
      await forQuotes(
        t,
        async (request, quote) => {
          const { accountCode: _a, rateCode: _r, ...publicRequest } = request;
          const res = await t.client('partnerA').post('/quotes', publicRequest);
          expect(res.status, `the same request at the public rate: ${res.text.slice(0, 200)}`).toBe(201);
          const publicTotal = (res.body as Quote).charges.total;
          expect(
            quote.rate.adjustmentApplied,
            `${request.rateCode}: total ${quote.charges.total.display} vs public ${publicTotal.display}`,
          ).toBe(!sameAmount(quote.charges.total, publicTotal));
        },
        { catalogue: cat, rate: 'plan', runs: costlyRuns(t) },
      );
    },
  );

  check(
    '2.9.8c',
    { ...shop, level: 'SHOULD', name: 'A one-way rental between branches is charged a one-way fee' },
    async (t) => {
      const cat = await targetCatalogue(t);
      const pairs = locationPairs(cat, { sameBranch: false });
      for (const { pickup, dropoff } of pairs) {
        const vehicle = cat.vehicles.find((v) => v.locationCodes.includes(pickup.locationCode));
        if (!vehicle) continue;
        const window = sampleOf(t, quoteRequest(cat, { rate: 'public', pickupLocations: [pickup.locationCode] }));
        const request = { ...window, dropoffLocation: dropoff.locationCode, vehicleCode: vehicle.vehicleCode };
        const res = await t.client('partnerA').post('/quotes', request);
        if (res.status !== 201) continue; // LOCATION_NOT_ONE_WAY: the route is not offered
        expect(
          (res.body as Quote).charges.oneWayFee.amount,
          `${pickup.branchCode} → ${dropoff.branchCode}`,
        ).toBeGreaterThan(0);
        return;
      }
      t.notApplicable('the target offers no one-way route between branches');
    },
  );

  check(
    '2.9.8d',
    { ...shop, level: 'SHOULD', name: 'total is baseTotal + extrasTotal + oneWayFee - discount' },
    async (t) => {
      await forQuotes(
        t,
        (_r, quote) => {
          const { baseTotal, extrasTotal, oneWayFee, discount, total } = quote.charges;
          const e = Math.max(
            baseTotal.exponent,
            extrasTotal.exponent,
            oneWayFee.exponent,
            discount.exponent,
            total.exponent,
          );
          expect(scaled(total, e)).toBe(
            scaled(baseTotal, e) + scaled(extrasTotal, e) + scaled(oneWayFee, e) - scaled(discount, e),
          );
        },
        { runs: costlyRuns(t) },
      );
    },
  );

  check('2.9.8e', { ...shop, name: 'commission is null unless the plan is commissionable' }, async (t) => {
    const cat = await targetCatalogue(t);
    await forQuotes(
      t,
      (request, quote) => {
        const plan = cat.rates.find((p) => p.accountCode === request.accountCode && p.rateCode === request.rateCode);
        if (plan?.rateType !== 'commissionable') {
          expect(
            quote.charges.commission,
            `${request.rateCode ?? 'public rate'} (${plan?.rateType ?? 'retail'})`,
          ).toBeNull();
        }
      },
      { catalogue: cat, runs: costlyRuns(t) },
    );
  });

  check('2.9.8e', { ...shop, name: 'A commissionable plan owes its commission out of the total' }, async (t) => {
    const cat = await targetCatalogue(t);
    const commissionable = cat.rates.filter((p) => p.rateType === 'commissionable');
    if (commissionable.length === 0) t.notApplicable('the partner has no commissionable plan');
    await forQuotes(
      t,
      (_r, quote) => {
        const commission = quote.charges.commission;
        expect(commission, 'commission of a commissionable plan').not.toBeNull();
        if (commission === null) return;
        expectMoney(commission, 'commission');
        const e = Math.max(commission.exponent, quote.charges.total.exponent);
        expect(scaled(commission, e), 'commission is out of total').toBeLessThanOrEqual(scaled(quote.charges.total, e));
        expect(commission.amount, 'commission').toBeGreaterThanOrEqual(0);
      },
      { catalogue: withPlans(cat, commissionable), rate: 'plan', runs: costlyRuns(t) },
    );
  });

  check('2.9.9', { ...shop, level: 'SHOULD', name: "The quote's security deposit is the vehicle's" }, async (t) => {
    await forQuotes(t, (_r, quote) => expect(quote.securityDeposit).toEqual(quote.vehicle.securityDeposit), {
      runs: costlyRuns(t),
    });
  });

  check(
    '2.9.12',
    { ...shop, name: 'Requested extras are priced as ExtraLines adding up to extrasTotal' },
    async (t) => {
      const cat = await targetCatalogue(t);
      const withExtras = quoteRequest(cat, { rate: 'public' }).map(
        (r): QuoteRequest => ({ ...r, extras: { cdwInsurance: true, childSeats: 1, additionalDriver: true } }),
      );
      await fc.assert(
        fc.asyncProperty(withExtras, async (request) => {
          const res = await t.client('partnerA').post('/quotes', request);
          if (res.status === 409 && errorCodeOf(res) === 'NO_AVAILABILITY') return;
          expect(res.status, res.text.slice(0, 300)).toBe(201);
          const quote = res.body as Quote;
          expect(quote.charges.extras.length, 'extras lines for three requested extras').toBeGreaterThan(0);
          for (const line of quote.charges.extras) {
            const result = validate('ExtraLine', line);
            expect(result.valid ? [] : result.fields).toEqual([]);
          }
          const e = Math.max(quote.charges.extrasTotal.exponent, ...quote.charges.extras.map((l) => l.total.exponent));
          const sum = quote.charges.extras.reduce((s, l) => s + scaled(l.total, e), 0);
          expect(scaled(quote.charges.extrasTotal, e), 'extrasTotal is the sum of the lines').toBe(sum);
        }),
        { seed: t.seed, numRuns: costlyRuns(t) },
      );
    },
  );
});

describe('2.10 Driver', () => {
  check('2.10.1', { ...book, name: 'A driver with only the required fields is accepted' }, async (t) => {
    const { quote } = await quoteToBook(t);
    const { firstName, lastName, email, phone, dateOfBirth } = driverFor(t, quote.vehicle);
    const res = await postReservation(t, 'partnerA', {
      quoteId: quote.quoteId,
      partnerReference: freshReference(t),
      driver: { firstName, lastName, email, phone, dateOfBirth },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
  });

  check('2.10.1', { ...book, name: 'A driver with an unknown property, or not an object: 400' }, async (t) => {
    await reservationFaults(t, 'driver', ['unknown-property', 'type']);
  });

  const cases: Array<[id: string, field: string, valid: Array<Record<string, unknown>>]> = [
    ['2.10.2', 'title', [{ title: 'mr' }, { title: 'mrs' }, { title: 'ms' }, { title: 'dr' }]],
    ['2.10.3', 'firstName', [{ firstName: 'L' }, { firstName: 'Đ'.repeat(100) }]],
    ['2.10.4', 'lastName', [{ lastName: 'N' }, { lastName: 'Nguyễn'.repeat(20).slice(0, 100) }]],
    ['2.10.5', 'email', [{ email: emailOfLength(200) }]],
    ['2.10.6', 'phone', [{ phone: '+84901234567' }, { phone: '+6591234567' }]],
    ['2.10.7', 'dateOfBirth', [{ dateOfBirth: '1960-02-29' }]],
    ['2.10.8', 'nationality', [{ nationality: 'VN' }, { nationality: 'de' }]],
    ['2.10.9', 'idNumber', [{ idNumber: '0'.repeat(50) }]],
  ];
  for (const [id, field, valid] of cases) {
    check(id, { ...book, name: `driver.${field}: valid values, the bounds included, are accepted` }, async (t) => {
      await driversAccepted(t, valid);
    });
    check(
      id,
      { ...book, name: `driver.${field} missing (if required), of another type or out of its rule: 400` },
      async (t) => {
        await reservationFaults(t, `driver.${field}`);
      },
    );
  }

  check('2.10.7', { ...book, name: 'A driver under 18 is refused with 400, nothing created' }, async (t) => {
    const { quote } = await quoteToBook(t);
    const today = new Date().toISOString().slice(0, 10);
    const res = await postReservation(t, 'partnerA', {
      quoteId: quote.quoteId,
      partnerReference: freshReference(t),
      driver: { ...driverFor(t, quote.vehicle), dateOfBirth: yearsBefore(today, 16) },
    });
    // The code is open beyond VALIDATION_ERROR (spec 7.3); a 400 in the envelope is what 2.10 demands.
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expectSchema(res, 'ErrorEnvelope');
  });
});

describe('2.11 Reservation', () => {
  const reservationKeys = [
    'reservationId',
    'partnerReference',
    'rocketBookingCode',
    'status',
    'vehicleCode',
    'pickupLocation',
    'dropoffLocation',
    'pickupDateTime',
    'dropoffDateTime',
    'rentalDays',
    'currency',
    'total',
    'commission',
    'securityDeposit',
    'driver',
    'accountCode',
    'rateCode',
    'createdAt',
  ];
  const stringOrNull = (value: unknown, what: string) =>
    expect(value === null || typeof value === 'string', `${what}: string or null`).toBe(true);

  type Booked = Awaited<ReturnType<typeof booked>>;
  const rules: Array<[id: string, name: string, rule: (b: Booked, r: Reservation) => void]> = [
    [
      '2.11.1',
      'A reservation has all eighteen keys and validates',
      (_b, r) => {
        for (const key of reservationKeys) expect(Object.hasOwn(r, key), `key ${key}`).toBe(true);
      },
    ],
    ['2.11.2', 'reservationId is a non-empty string', (_b, r) => expect(r.reservationId).toMatch(/./)],
    [
      '2.11.3',
      'partnerReference is the one sent (string or null)',
      (b, r) => expect(r.partnerReference).toBe(b.body.partnerReference ?? null),
    ],
    ['2.11.4', 'rocketBookingCode is a non-empty string', (_b, r) => expect(r.rocketBookingCode).toMatch(/\S/)],
    [
      '2.11.5',
      'status is one of the seven values (confirmed when created)',
      (_b, r) => {
        expect(RESERVATION_STATUSES).toContain(r.status);
        expect(r.status).toBe('confirmed');
      },
    ],
    [
      '2.11.6',
      'vehicleCode, locations and date-times are strings or null',
      (_b, r) => {
        for (const key of [
          'vehicleCode',
          'pickupLocation',
          'dropoffLocation',
          'pickupDateTime',
          'dropoffDateTime',
        ] as const) {
          stringOrNull(r[key], key);
        }
      },
    ],
    [
      '2.11.7',
      'rentalDays is an integer or null',
      (_b, r) =>
        expect(r.rentalDays === null || Number.isInteger(r.rentalDays), `rentalDays ${r.rentalDays}`).toBe(true),
    ],
    [
      '2.11.8',
      'currency matches ^[A-Z]{3}$ (ISO 4217)',
      (_b, r) => {
        expect(r.currency).toMatch(/^[A-Z]{3}$/);
        expect(ISO_CURRENCIES.has(r.currency), `${r.currency} is an ISO 4217 code`).toBe(true);
      },
    ],
    ['2.11.9a', 'total is Money', (_b, r) => expectMoney(r.total, 'total')],
    [
      '2.11.9c',
      'total equals the total of the quote booked from',
      (b, r) => expect(r.total, 'reservation total against quote charges.total').toEqual(b.quote.charges.total),
    ],
    [
      '2.11.10',
      'commission is null at the public rate',
      (_b, r) => expect(r.commission, 'commission at the public rate').toBeNull(),
    ],
    ['2.11.11', 'securityDeposit is Money', (_b, r) => expectMoney(r.securityDeposit, 'securityDeposit')],
    [
      '2.11.12',
      'driver holds exactly firstName, lastName and email (strings or null)',
      (_b, r) => {
        expect(Object.keys(r.driver).sort()).toEqual(['email', 'firstName', 'lastName']);
        for (const value of Object.values(r.driver)) {
          expect(value === null || typeof value === 'string', 'driver field: string or null').toBe(true);
        }
      },
    ],
    [
      '2.11.13',
      'accountCode and rateCode are strings or null (null at the public rate)',
      (_b, r) => {
        expect(r.accountCode).toBeNull();
        expect(r.rateCode).toBeNull();
      },
    ],
    ['2.11.14', 'createdAt is a string', (_b, r) => expect(typeof r.createdAt, 'createdAt').toBe('string')],
  ];

  for (const [id, name, rule] of rules) {
    check(id, { ...book, name }, async (t) => {
      const b = await booked(t, { rate: 'public' });
      rule(b, b.reservation);
      const again = await t.client('partnerA').get(`/reservations/${encodeURIComponent(b.reservation.reservationId)}`);
      expect(again.status, `GET the reservation: ${again.text.slice(0, 300)}`).toBe(200);
      expectSchema(again, 'Reservation');
      rule(b, again.body as Reservation);
    });
  }

  check(
    '2.11.6',
    { ...book, level: 'SHOULD', name: 'The reservation restates the booked vehicle and window' },
    async (t) => {
      const { reservation: r, quote } = await booked(t);
      expect({
        vehicleCode: r.vehicleCode,
        pickupLocation: r.pickupLocation,
        dropoffLocation: r.dropoffLocation,
        pickupDateTime: r.pickupDateTime,
        dropoffDateTime: r.dropoffDateTime,
        rentalDays: r.rentalDays,
      }).toEqual({
        vehicleCode: quote.vehicle.vehicleCode,
        pickupLocation: quote.rental.pickupLocation,
        dropoffLocation: quote.rental.dropoffLocation,
        pickupDateTime: quote.rental.pickupDateTime,
        dropoffDateTime: quote.rental.dropoffDateTime,
        rentalDays: quote.rental.rentalDays,
      });
    },
  );

  check('2.11.5', { ...book, name: 'A cancelled reservation reads status cancelled' }, async (t) => {
    const { reservation } = await booked(t);
    const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
    const cancelled = await t.client('partnerA').post(`${path}/cancel`, { reason: 'Certification: spec 2.11 status' });
    expect(cancelled.status, cancelled.text.slice(0, 300)).toBe(200);
    expect((cancelled.body as Reservation).status).toBe('cancelled');
    expect(((await t.client('partnerA').get(path)).body as Reservation).status).toBe('cancelled');
  });

  check(
    '2.11.9b',
    { ...book, hooks: ['prices.move'], name: 'A later price move leaves the reservation total as booked' },
    async (t) => {
      const control = t.hooks;
      const { reservation } = await booked(t);
      const vehicle = reservation.vehicleCode ?? '';
      try {
        await control.movePrice(vehicle, 25);
        const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
        const read = await t.client('partnerA').get(path);
        expect(read.status, read.text.slice(0, 300)).toBe(200);
        expect((read.body as Reservation).total, 'total after a 25% price move').toEqual(reservation.total);
        const list = await t.client('partnerA').get('/reservations?limit=100');
        const listed = (list.body as ReservationList).reservations.find(
          (r) => r.reservationId === reservation.reservationId,
        );
        if (listed) expect(listed.total, 'listed total after the price move').toEqual(reservation.total);
      } finally {
        await control.movePrice(vehicle, 0);
      }
    },
  );

  check('2.11.9c', { ...book, name: 'Booked under a plan, the total is the plan quote total' }, async (t) => {
    const cat = await targetCatalogue(t);
    if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
    const { reservation, quote } = await booked(t, { catalogue: cat, rate: 'plan' });
    expect(reservation.total).toEqual(quote.charges.total);
    expect(reservation.accountCode, 'accountCode (2.11.13)').toBe(quote.rate.accountCode);
    expect(reservation.rateCode, 'rateCode (2.11.13)').toBe(quote.rate.rateCode);
  });

  check('2.11.10', { ...book, name: 'Under a commissionable plan the commission is Money, as quoted' }, async (t) => {
    const cat = await targetCatalogue(t);
    const commissionable = cat.rates.filter((p) => p.rateType === 'commissionable');
    if (commissionable.length === 0) t.notApplicable('the partner has no commissionable plan');
    const { reservation, quote } = await booked(t, { catalogue: withPlans(cat, commissionable), rate: 'plan' });
    expect(reservation.commission, 'commission under a commissionable plan').not.toBeNull();
    expectMoney(reservation.commission, 'commission');
    expect(reservation.commission).toEqual(quote.charges.commission);
  });

  check('2.11.10', { ...book, name: 'Under a plan that is not commissionable the commission is null' }, async (t) => {
    const cat = await targetCatalogue(t);
    const others = cat.rates.filter((p) => p.rateType !== 'commissionable');
    if (others.length === 0) t.notApplicable('the partner has no plan that is not commissionable');
    const { reservation } = await booked(t, { catalogue: withPlans(cat, others), rate: 'plan' });
    expect(reservation.commission).toBeNull();
  });

  check('2.11.12', { ...book, level: 'SHOULD', name: 'The driver names and email are returned as sent' }, async (t) => {
    const { reservation, body } = await booked(t);
    expect(reservation.driver).toEqual({
      firstName: body.driver.firstName,
      lastName: body.driver.lastName,
      email: body.driver.email,
    });
  });

  check(
    '2.11.12',
    { ...book, name: 'No other customer data (phone, date of birth, id number) is returned' },
    async (t) => {
      const { quote } = await quoteToBook(t);
      const driver = { ...driverFor(t, quote.vehicle), idNumber: `ID${(t.seed >>> 0).toString(10).padStart(10, '7')}` };
      const created = await postReservation(t, 'partnerA', {
        quoteId: quote.quoteId,
        partnerReference: freshReference(t),
        driver,
      });
      expect(created.status, created.text.slice(0, 300)).toBe(201);
      const id = (created.body as Reservation).reservationId;
      const read = await t.client('partnerA').get(`/reservations/${encodeURIComponent(id)}`);
      const list = await t.client('partnerA').get('/reservations?limit=100');
      for (const [what, res] of [
        ['POST /reservations', created],
        ['GET /reservations/{id}', read],
        ['GET /reservations', list],
      ] as const) {
        for (const [field, value] of [
          ['phone', driver.phone],
          ['dateOfBirth', driver.dateOfBirth],
          ['idNumber', driver.idNumber],
        ] as const) {
          expect(res.text.includes(value), `${what} returns driver.${field}`).toBe(false);
        }
      }
    },
  );
});

describe('2.12 Request and list shapes', () => {
  check(
    '2.12.1',
    { ...book, name: 'quoteId, partnerReference, remarks and flightNumber at their bounds are accepted' },
    async (t) => {
      const { quote } = await quoteToBook(t);
      const reference = freshReference(t);
      const body = {
        quoteId: quote.quoteId,
        partnerReference: `${reference}${'X'.repeat(Math.max(0, LIMITS.partnerReferenceMaxLength - reference.length))}`,
        driver: driverFor(t, quote.vehicle),
        remarks: 'R'.repeat(LIMITS.remarksMaxLength),
        flightNumber: 'VN1234'.padEnd(LIMITS.flightNumberMaxLength, '0'),
      };
      const res = await postReservation(t, 'partnerA', body);
      expect(res.status, res.text.slice(0, 300)).toBe(201);
      expect((res.body as Reservation).partnerReference).toBe(body.partnerReference);
    },
  );

  check(
    '2.12.1',
    { ...book, name: 'quoteId or driver missing, a field too long or of another type, an unknown property: 400' },
    async (t) => {
      for (const path of ['quoteId', 'partnerReference', 'remarks', 'flightNumber']) await reservationFaults(t, path);
      await reservationFaults(t, 'driver', ['missing-required']);
      await reservationFaults(t, '', ['unknown-property', 'type']);
    },
  );

  check(
    '2.12.1',
    { ...book, name: 'partnerReference is unique per partner: reuse under a new key is 409' },
    async (t) => {
      const { quote } = await quoteToBook(t);
      const body = reservationBody(t, quote.quoteId, quote.vehicle);
      const first = await postReservation(t, 'partnerA', body);
      expect(first.status, first.text.slice(0, 300)).toBe(201);
      const again = await postReservation(t, 'partnerA', { ...body, driver: driverFor(t, quote.vehicle, 1) });
      expectError(again, 'DUPLICATE_PARTNER_REFERENCE', { representation: t.representation });
    },
  );

  check('2.12.2', { ...book, name: 'A cancel reason of 1 to 500 characters is accepted' }, async (t) => {
    for (const reason of ['x', 'Đ'.repeat(LIMITS.cancelReasonLength.max)]) {
      const { reservation } = await booked(t);
      const res = await t
        .client('partnerA')
        .post(`/reservations/${encodeURIComponent(reservation.reservationId)}/cancel`, {
          reason,
        } satisfies CancelRequest);
      expect(res.status, `reason of ${reason.length}: ${res.text.slice(0, 300)}`).toBe(200);
      expectSchema(res, 'Reservation');
    }
  });

  check(
    '2.12.2',
    {
      ...book,
      name: 'A cancel without reason, with a reason of 0 or 501 characters or an unknown property: 400, unchanged',
    },
    async (t) => {
      const { reservation } = await booked(t);
      const path = `/reservations/${encodeURIComponent(reservation.reservationId)}`;
      const faults = faultsOf('CancelRequest', { reason: 'Traveller changed plans' }, () => true);
      const unmet = await unmetFaults(faults, (body) => t.client('partnerA').post(`${path}/cancel`, body));
      expect(unmet, 'CancelRequest faults not refused').toEqual([]);
      const read = await t.client('partnerA').get(path);
      expect((read.body as Reservation).status, 'the reservation after refused cancels').toBe('confirmed');
    },
  );

  check(
    '2.12.3',
    {
      ...shop,
      name: 'Generated availability requests (extras, vehicleCodes) are accepted; offers keep to vehicleCodes',
    },
    async (t) => {
      await forAvailability(t, (request, response) => {
        if (!request.vehicleCodes) return;
        for (const offer of response.offers) {
          expect(request.vehicleCodes, 'an offer outside the requested vehicleCodes').toContain(
            offer.vehicle.vehicleCode,
          );
        }
      });
    },
  );

  check('2.12.3', { ...shop, name: '51 vehicleCodes, a bad code, or an unknown property: 400' }, async (t) => {
    await availabilityFaults(t, 'vehicleCodes', ['items', 'type', 'pattern']);
    await availabilityFaults(t, '', ['unknown-property']);
  });

  check('2.12.4', { ...shop, name: 'Generated quote requests (with or without extras) are accepted' }, async (t) => {
    await forQuotes(t, (request, quote) => expect(quote.vehicle.vehicleCode).toBe(request.vehicleCode));
  });

  check('2.12.4', { ...shop, name: 'vehicleCode missing or malformed, or an unknown property: 400' }, async (t) => {
    await quoteFaults(t, 'vehicleCode');
    await quoteFaults(t, '', ['unknown-property']);
  });

  check(
    '2.12.5',
    { ...shop, name: 'Every availability response restates model_level_on_request and the window' },
    async (t) => {
      await forAvailability(t, (request, response) => {
        expect(response.availabilityModel).toBe('model_level_on_request');
        expect(response.pickupLocation).toBe(request.pickupLocation);
        expect(response.dropoffLocation).toBe(request.dropoffLocation);
        expect(Number.isInteger(response.rentalDays) && response.rentalDays >= 1, 'rentalDays >= 1').toBe(true);
        expect(response.accountCode).toBe(request.accountCode ?? null);
        expect(response.rateCode).toBe(request.rateCode ?? null);
        expect(Array.isArray(response.offers), 'offers').toBe(true);
      });
    },
  );

  check(
    '2.12.5',
    { ...shop, name: 'An empty offer list is a valid answer (a vehicle filter matching nothing)' },
    async (t) => {
      const cat = await targetCatalogue(t);
      const request = sampleOf(t, availabilityRequest(cat, { rate: 'public' }));
      const elsewhere = cat.vehicles.find((v) => !v.locationCodes.includes(request.pickupLocation));
      if (!elsewhere) return t.notApplicable('every vehicle is offered at every location');
      const res = await t
        .client('partnerA')
        .post('/availability', { ...request, vehicleCodes: [elsewhere.vehicleCode] });
      expect(isAvailabilityAnswer(res), `HTTP ${res.status} ${res.text.slice(0, 300)}`).toBe(true);
      if (res.status === 200) {
        expectSchema(res, 'AvailabilityResponse');
        expect((res.body as AvailabilityResponse).offers).toEqual([]);
        expect((res.body as AvailabilityResponse).availabilityModel).toBe('model_level_on_request');
      }
    },
  );

  const lists: Array<
    [
      id: string,
      path: string,
      key: 'vehicles' | 'locations' | 'rates',
      schema: 'FleetList' | 'LocationList' | 'RateList',
    ]
  > = [
    ['2.12.6a', '/fleet', 'vehicles', 'FleetList'],
    ['2.12.6b', '/locations', 'locations', 'LocationList'],
    ['2.12.6c', '/rates', 'rates', 'RateList'],
  ];
  for (const [id, path, key, schema] of lists) {
    check(
      id,
      { ...business, name: `GET ${path}: ${key} (array) and count (integer), count the number listed` },
      async (t) => {
        const res = await t.client('partnerA').get(path);
        expect(res.status, res.text.slice(0, 300)).toBe(200);
        expectSchema(res, schema);
        const body = res.body as Record<string, unknown>;
        expect(Object.keys(body).sort()).toEqual(['count', key].sort());
        expect(Array.isArray(body[key]), key).toBe(true);
        expect(Number.isInteger(body.count), 'count').toBe(true);
        expect(body.count, 'count (docs/ambiguities.md #34)').toBe((body[key] as unknown[]).length);
      },
    );
  }

  check(
    '2.12.6d',
    { ...book, name: 'GET /reservations: reservations, count and limit (integers); default limit 25' },
    async (t) => {
      await booked(t);
      for (const [query, limit] of [
        ['', LIMITS.reservationListLimit.default],
        ['?limit=1', 1],
        ['?limit=100', 100],
      ] as const) {
        const res = await t.client('partnerA').get(`/reservations${query}`);
        expect(res.status, res.text.slice(0, 300)).toBe(200);
        expectSchema(res, 'ReservationList');
        const list = res.body as ReservationList;
        expect(Object.keys(list).sort()).toEqual(['count', 'limit', 'reservations']);
        expect(list.limit, `limit of GET /reservations${query}`).toBe(limit);
        expect(list.count, 'count').toBe(list.reservations.length);
        expect(list.reservations.length).toBeGreaterThan(0);
        expect(list.reservations.length).toBeLessThanOrEqual(limit);
      }
    },
  );
});
