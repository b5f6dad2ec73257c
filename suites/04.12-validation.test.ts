/**
 * Spec 4.12 Validation behaviours tied to endpoints, on both shopping endpoints (POST /availability and
 * POST /quotes) and in both representations. Each request is a generated valid one (generators/) with exactly
 * one fault. Codes are read from the target; a code "unknown" to it is one of the code pattern under a prefix no
 * operator uses. What only the operator knows (an inactive location, an unpublished or incomplete vehicle, a plan
 * awaiting approval) comes from the target config's probe codes when it has them.
 */

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { ErrorCode } from '../contract/errors.ts';
import type { Location, QuoteRequest, RatePlan, RentalWindow } from '../contract/types.ts';
import { addDays, daysBetween, quoteRequest as quoteArbitrary, type TargetListings } from '../generators/index.ts';
import { type ApiResult, type CheckContext, check, SKIP } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { errorCodeOf, expectError } from '../harness/check/expect-api.ts';
import { availabilityAnswered, quoteAnswered } from './support/endpoint-success.ts';
import { probeCodesOf } from './support/limits.ts';
import { targetListings } from './support/listings.ts';
import { business } from './support/presets.ts';

type Endpoint = '/availability' | '/quotes';

/** One faulty request, for one or both shopping endpoints. */
interface Fault {
  name: string;
  availability?: object;
  quote?: object;
  /**
   * The fault sends one code of the pair accountCode / rateCode without the other. Ambiguity #7: a server may require
   * the two as a pair and refuse either alone with 400 VALIDATION_ERROR before it looks the code up (audit 4.12-R5).
   * `own` is the same request with one of the partner's own codes of that kind alone (absent when it lists none): a
   * server that refuses it alike shows the pair rule.
   */
  alone?: { code: 'accountCode' | 'rateCode'; own?: Fault };
  /**
   * The window ends beyond SHOPPING_HORIZON_DAYS: a server may book only so far ahead (not shown), and refuse it with
   * INVALID_RENTAL_WINDOW or NO_AVAILABILITY before the fault is looked at (audit 4.12-R5).
   */
  farAhead?: boolean;
}

/** The two bodies of a quote request: the availability body is its window and extras, without vehicleCode. */
function bodiesOf(req: QuoteRequest): { availability: object; quote: QuoteRequest } {
  const { vehicleCode: _vehicleCode, ...window } = req;
  return { availability: window, quote: req };
}

/** The same change on both bodies. */
function onBoth(name: string, req: QuoteRequest, change: Partial<QuoteRequest>): Fault {
  const { availability, quote } = bodiesOf(req);
  return { name, availability: { ...availability, ...change }, quote: { ...quote, ...change } };
}

function requests(cat: TargetListings): fc.Arbitrary<QuoteRequest> {
  return quoteArbitrary(cat, { maxRentalDays: 14 });
}

/** Codes of the shared pattern that no target holds: a prefix no operator uses, then generated characters. */
const unknownCode = fc.stringMatching(/^ZZ-CERT-[A-Z0-9]{3,12}$/);
const unknownCommercialCode = fc.stringMatching(/^ZZ_CERT_[A-Z0-9_-]{3,12}$/);

/**
 * How far ahead the suite expects a window to be shopped (spec: a booking horizon is not shown). Generated windows
 * keep within it (generators/: pickup at most 300 days ahead, rentals of at most 30 days); a window ending later
 * (a plan's validity probed years ahead) may meet a horizon the server sets (audit 4.12-R5, docs/ambiguities.md S34).
 */
const SHOPPING_HORIZON_DAYS = 330;

const bodyAt = (fault: Fault, endpoint: Endpoint) => (endpoint === '/availability' ? fault.availability : fault.quote);

/** Whether an answer is a 400 VALIDATION_ERROR. */
const isValidationError = (res: ApiResult) => res.status === 400 && errorCodeOf(res) === 'VALIDATION_ERROR';

/**
 * Sends each fault to its endpoints and expects one of `codes` in the envelope of spec 7.2. Two answers are no
 * answer to the fault and leave that endpoint not judged, or judged on another rule:
 * - a window beyond the horizon (`farAhead`) refused with INVALID_RENTAL_WINDOW or NO_AVAILABILITY: not judged;
 * - one code of the pair sent alone (`alone`) refused with 400 VALIDATION_ERROR: accepted when the partner's own
 *   code alone is refused alike (the pair rule of ambiguity #7), failed when it is served (the unknown code, then,
 *   should have been named), not judged when the partner lists no code to show it with.
 * Returns SKIP when neither endpoint was judged.
 */
async function expectRefused(
  t: CheckContext,
  fault: Fault,
  codes: ErrorCode | readonly ErrorCode[],
): Promise<typeof SKIP | undefined> {
  let judged = 0;
  for (const endpoint of ['/availability', '/quotes'] as Endpoint[]) {
    const body = bodyAt(fault, endpoint);
    if (body === undefined) continue;
    const res = await t.client('partnerA').post(endpoint, body);
    try {
      const code = errorCodeOf(res);
      if (fault.farAhead && (code === 'INVALID_RENTAL_WINDOW' || code === 'NO_AVAILABILITY')) continue;
      if (fault.alone && isValidationError(res)) {
        const own = fault.alone.own && bodyAt(fault.alone.own, endpoint);
        if (own === undefined) continue;
        const control = await t.client('partnerA').post(endpoint, own);
        expect(
          isValidationError(control),
          `400 VALIDATION_ERROR for ${fault.alone.code} sent alone is the pair rule of ambiguity #7 only if the ` +
            `partner's own ${fault.alone.code} alone is refused alike (${fault.alone.own?.name}): ` +
            `HTTP ${control.status} ${control.excerpt}`,
        ).toBe(true);
        expectError(res, 'VALIDATION_ERROR');
        judged += 1;
        continue;
      }
      expectError(res, codes);
      judged += 1;
    } catch (error) {
      // The fault's name and endpoint lead the message, so a report line says which request it was.
      if (error instanceof Error) error.message = `${endpoint}, ${fault.name}: ${error.message}`;
      throw error;
    }
  }
  return judged > 0 ? undefined : SKIP;
}

/**
 * Cases of one rule: each sends its fault to both /availability and /quotes (and the pair rule's control), so a
 * case is two to four requests; six draw the codes and windows the rule is about without spending a limited
 * target's minute on one rule.
 */
async function property(t: CheckContext, faults: fc.Arbitrary<Fault>, codes: ErrorCode | readonly ErrorCode[]) {
  await t.forAll(faults, (fault) => expectRefused(t, fault, codes), { numRuns: casesFor(t, 'validationRule') });
}

/**
 * `fault` with one code of the pair sent alone, and the control of the pair rule: the same base request with the
 * first of the partner's own codes of that kind alone (ambiguity #7).
 */
function alone(cat: TargetListings, req: QuoteRequest, code: 'accountCode' | 'rateCode', fault: Fault): Fault {
  const ownCode = cat.rates[0]?.[code];
  const own = ownCode === undefined ? undefined : onBoth(`own ${code} ${ownCode} alone`, req, { [code]: ownCode });
  return { ...fault, alone: { code, own } };
}

/** A window of 2 to 10 days (so dropoff is after pickup across any two timezones) between two locations. */
function windowBetween(cat: TargetListings, pickup: Location, dropoff: Location): fc.Arbitrary<RentalWindow> {
  return fc
    .record({ offset: fc.integer({ min: 2, max: 120 }), days: fc.integer({ min: 2, max: 10 }), quarter: fc.nat(95) })
    .map(({ offset, days, quarter }) => {
      const time = `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`;
      return {
        pickupLocation: pickup.locationCode,
        dropoffLocation: dropoff.locationCode,
        pickupDate: addDays(cat.today, offset),
        pickupTime: time,
        dropoffDate: addDays(cat.today, offset + days),
        dropoffTime: time,
      };
    });
}

/** Pickup/dropoff pairs in different branches, split by whether both ends declare the oneWay capability. */
function crossBranchPairs(cat: TargetListings) {
  const pairs: { pickup: Location; dropoff: Location; oneWay: boolean }[] = [];
  for (const pickup of cat.locations) {
    if (!pickup.capabilities.pickup) continue;
    for (const dropoff of cat.locations) {
      if (!dropoff.capabilities.dropoff || dropoff.branchCode === pickup.branchCode) continue;
      pairs.push({ pickup, dropoff, oneWay: pickup.capabilities.oneWay && dropoff.capabilities.oneWay });
    }
  }
  return pairs;
}

/** Faults of a cross-branch window: availability always, the quote when a listed vehicle is offered at pickup. */
function crossBranchFault(cat: TargetListings, pair: { pickup: Location; dropoff: Location }): fc.Arbitrary<Fault> {
  const vehicles = cat.vehicles.filter((v) => v.locationCodes.includes(pair.pickup.locationCode));
  const name = `${pair.pickup.locationCode} (${pair.pickup.branchCode}) to ${pair.dropoff.locationCode} (${pair.dropoff.branchCode})`;
  return fc
    .tuple(
      windowBetween(cat, pair.pickup, pair.dropoff),
      fc.option(fc.constantFrom(...vehicles.map((v) => v.vehicleCode)), { nil: undefined }),
    )
    .map(([window, vehicleCode]) =>
      vehicles.length > 0 && vehicleCode !== undefined
        ? { name, availability: window, quote: { ...window, vehicleCode } }
        : { name, availability: window },
    );
}

/** A minute earlier on the same day, or undefined at midnight. */
function minuteBefore(time: string): string | undefined {
  const minutes = Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) - 1;
  if (minutes < 0) return undefined;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * A plan's validity window lies at most this far ahead for a window outside it to be sent (a sane bound on the
 * dates sent). Beyond SHOPPING_HORIZON_DAYS a horizon refusal is not judged (expectRefused).
 */
const MAX_VALIDITY_PROBE_DAYS = 3650;

/** Windows wholly outside a listed plan's validity (before validFrom or after validTo), from tomorrow on. */
function outsideValidity(cat: TargetListings, plan: RatePlan): { pickupDate: string; dropoffDate: string }[] {
  const out: { pickupDate: string; dropoffDate: string }[] = [];
  if (plan.validTo) {
    const after = Math.max(1, daysBetween(cat.today, plan.validTo) + 1);
    if (after <= MAX_VALIDITY_PROBE_DAYS)
      out.push({ pickupDate: addDays(cat.today, after), dropoffDate: addDays(cat.today, after + 2) });
  }
  if (plan.validFrom) {
    const before = daysBetween(cat.today, plan.validFrom);
    // Pickup tomorrow, dropoff the day before validFrom: two days apart at least, whatever the two timezones.
    if (before >= 4) out.push({ pickupDate: addDays(cat.today, 1), dropoffDate: addDays(cat.today, before - 1) });
  }
  return out;
}

describe('4.12 Validation behaviours tied to endpoints', () => {
  // Spec 4.12.1a: "Unknown or inactive location: 400 INVALID_LOCATION."
  check('4.12.1a')({ ...business, name: 'Unknown pickup or dropoff location: 400 INVALID_LOCATION' }, async (t) => {
    const cat = await targetListings(t, 'partnerA');
    const faults = fc
      .tuple(requests(cat), fc.constantFrom('pickupLocation', 'dropoffLocation', 'both'), unknownCode)
      .map(([req, which, code]) => {
        const change =
          which === 'both'
            ? { pickupLocation: code, dropoffLocation: code }
            : ({ [which]: code } as Partial<QuoteRequest>);
        return onBoth(`unknown ${which} ${code}`, req, change);
      });
    await property(t, faults, 'INVALID_LOCATION');
  });

  // Spec 4.12.1a (quoted above)
  check('4.12.1a')(
    {
      ...business,
      name: 'Inactive location (named by the operator): 400 INVALID_LOCATION',
    },
    async (t) => {
      const inactive = probeCodesOf(t, 'partnerA').inactiveLocations ?? [];
      if (inactive.length === 0) return t.notApplicable('the target config names no inactive location');
      const cat = await targetListings(t, 'partnerA');
      const faults = fc
        .tuple(requests(cat), fc.constantFrom(...inactive), fc.boolean())
        .map(([req, code, asPickup]) =>
          onBoth(
            `inactive ${asPickup ? 'pickup' : 'dropoff'} ${code}`,
            req,
            asPickup ? { pickupLocation: code } : { dropoffLocation: code },
          ),
        );
      await property(t, faults, 'INVALID_LOCATION');
    },
  );

  // Spec 4.12.1b: "Different branches where one-way is not available: 400 LOCATION_NOT_ONE_WAY."
  check('4.12.1b')(
    { ...business, name: 'Different branches with one-way unavailable at an end: 400 LOCATION_NOT_ONE_WAY' },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      // capabilities.oneWay false (spec 2.6): that location takes no one-way rental, so a window to or from another
      // branch there is one where "one-way is not available".
      const pairs = crossBranchPairs(cat).filter((p) => !p.oneWay);
      if (pairs.length === 0) return t.notApplicable('no listed location across branches lacks the oneWay capability');
      await property(
        t,
        fc.constantFrom(...pairs).chain((pair) => crossBranchFault(cat, pair)),
        'LOCATION_NOT_ONE_WAY',
      );
    },
  );

  // Spec 4.12.1b (quoted above)
  check('4.12.1b')(
    { ...business, name: 'Different branches, both one-way capable: offered, or 400 LOCATION_NOT_ONE_WAY' },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      const pairs = crossBranchPairs(cat).filter((p) => p.oneWay);
      if (pairs.length === 0) return t.notApplicable('no two one-way capable locations in different branches');
      await t.forAll(
        fc.constantFrom(...pairs).chain((pair) => crossBranchFault(cat, pair)),
        async (fault) => {
          for (const [endpoint, body] of [
            ['/availability', fault.availability],
            ['/quotes', fault.quote],
          ] as const) {
            if (body === undefined) continue;
            const res = await t.client('partnerA').post(endpoint, body);
            // Whether a route is one-way available is the operator's (the one-way fee table); the answer is an
            // offer, nothing offerable, or LOCATION_NOT_ONE_WAY, never another refusal of the window.
            if (endpoint === '/quotes' ? quoteAnswered(res) : availabilityAnswered(res)) continue;
            expectError(res, ['NO_AVAILABILITY', 'LOCATION_NOT_ONE_WAY']);
          }
        },
        { numRuns: casesFor(t, 'bothShoppingEndpoints') },
      );
    },
  );

  // Spec 4.12.2: "Dropoff not after pickup, or times not valid local times: 400 INVALID_RENTAL_WINDOW."
  check('4.12.2')({ ...business, name: 'Dropoff equal to or before pickup: 400 INVALID_RENTAL_WINDOW' }, async (t) => {
    const cat = await targetListings(t, 'partnerA');
    const zone = new Map(cat.locations.map((l) => [l.locationCode, l.timezone]));
    const faults = fc
      .tuple(
        requests(cat).filter((r) => zone.get(r.pickupLocation) === zone.get(r.dropoffLocation)),
        fc.constantFrom('equal', 'a minute before', 'a day before', 'a week before'),
      )
      .map(([req, how]) => {
        const earlier = minuteBefore(req.pickupTime);
        const change: Partial<QuoteRequest> =
          how === 'equal' || (how === 'a minute before' && earlier === undefined)
            ? { dropoffDate: req.pickupDate, dropoffTime: req.pickupTime }
            : how === 'a minute before'
              ? { dropoffDate: req.pickupDate, dropoffTime: earlier }
              : { dropoffDate: addDays(req.pickupDate, how === 'a day before' ? -1 : -7), dropoffTime: req.pickupTime };
        return onBoth(`dropoff ${how} pickup (${req.pickupDate} ${req.pickupTime})`, req, change);
      });
    await property(t, faults, 'INVALID_RENTAL_WINDOW');
  });

  // Spec 4.12.2 (quoted above)
  check('4.12.2')(
    { ...business, name: 'Dates and times that are no local time: 400 INVALID_RENTAL_WINDOW or VALIDATION_ERROR' },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      const faults = fc
        .tuple(
          requests(cat),
          fc.constantFrom('pickupDate 30 February', 'dropoffDate 31 April', 'pickupTime 24:00', 'dropoffTime 10:60'),
        )
        .map(([req, what]) => {
          const year = req.pickupDate.slice(0, 4);
          const change: Partial<QuoteRequest> =
            what === 'pickupDate 30 February'
              ? { pickupDate: `${year}-02-30` }
              : what === 'dropoffDate 31 April'
                ? { dropoffDate: `${year}-04-31` }
                : what === 'pickupTime 24:00'
                  ? { pickupTime: '24:00' }
                  : { dropoffTime: '10:60' };
          return onBoth(what, req, change);
        });
      // A date or time no calendar has also breaks the schema's format or pattern: either code (ambiguity #5).
      await property(t, faults, ['INVALID_RENTAL_WINDOW', 'VALIDATION_ERROR']);
    },
  );

  // Spec 4.12.3a: "Unknown or unpublished vehicle: 400 INVALID_VEHICLE"
  check('4.12.3a')({ ...business, name: 'Unknown vehicle code: 400 INVALID_VEHICLE' }, async (t) => {
    const cat = await targetListings(t, 'partnerA');
    const faults = fc.tuple(requests(cat), unknownCode, fc.nat()).map(([req, code, at]): Fault => {
      const { availability, quote } = bodiesOf(req);
      // In a vehicleCodes filter among vehicles the target lists, or alone; as the quote's vehicle.
      const listed = cat.vehicles.filter((v) => v.locationCodes.includes(req.pickupLocation)).map((v) => v.vehicleCode);
      const filter = listed.slice(0, 5);
      filter.splice(at % (filter.length + 1), 0, code);
      return {
        name: `unknown vehicle ${code}`,
        availability: { ...availability, vehicleCodes: filter },
        quote: { ...quote, vehicleCode: code },
      };
    });
    await property(t, faults, 'INVALID_VEHICLE');
  });

  // Spec 4.12.3a (quoted above)
  check('4.12.3a')(
    {
      ...business,
      name: 'Unpublished vehicle (named by the operator): 400 INVALID_VEHICLE',
    },
    async (t) => {
      const unpublished = probeCodesOf(t, 'partnerA').unpublishedVehicles ?? [];
      if (unpublished.length === 0) return t.notApplicable('the target config names no unpublished vehicle');
      const cat = await targetListings(t, 'partnerA');
      const faults = fc.tuple(requests(cat), fc.constantFrom(...unpublished)).map(([req, code]): Fault => {
        const { availability, quote } = bodiesOf(req);
        return {
          name: `unpublished ${code}`,
          availability: { ...availability, vehicleCodes: [code] },
          quote: { ...quote, vehicleCode: code },
        };
      });
      await property(t, faults, 'INVALID_VEHICLE');
    },
  );

  // Spec 4.12.3b: "vehicle without complete partner specification: 409 FLEET_PROFILE_INCOMPLETE."
  check('4.12.3b')(
    {
      ...business,
      probes: ['incompleteVehicleCode'],
      name: 'Incomplete vehicle (named by the operator): 409 FLEET_PROFILE_INCOMPLETE',
    },
    async (t) => {
      const incomplete = probeCodesOf(t, 'partnerA').incompleteVehicles ?? [];
      if (incomplete.length === 0) return t.notApplicable('the target config names no incomplete vehicle');
      const cat = await targetListings(t, 'partnerA');
      const faults = fc.tuple(requests(cat), fc.constantFrom(...incomplete)).map(([req, code]): Fault => {
        const { availability, quote } = bodiesOf(req);
        return {
          name: `incomplete ${code}`,
          availability: { ...availability, vehicleCodes: [code] },
          quote: { ...quote, vehicleCode: code },
        };
      });
      await property(t, faults, 'FLEET_PROFILE_INCOMPLETE');
    },
  );

  // Spec 4.12.3b (quoted above)
  check('4.12.3b')(
    {
      ...business,
      profile: 'shop',
      name: 'A listed vehicle (complete specification) is never refused with FLEET_PROFILE_INCOMPLETE',
    },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      await t.forAll(
        requests(cat),
        async (req) => {
          for (const [endpoint, body] of [
            ['/availability', { ...bodiesOf(req).availability, vehicleCodes: [req.vehicleCode] }],
            ['/quotes', req],
          ] as const) {
            const res = await t.client('partnerA').post(endpoint, body);
            expect(errorCodeOf(res), `${endpoint} for listed ${req.vehicleCode}: ${res.excerpt}`).not.toBe(
              'FLEET_PROFILE_INCOMPLETE',
            );
          }
        },
        { numRuns: casesFor(t, 'bothShoppingEndpoints') },
      );
    },
  );

  // Spec 4.12.4a: "Unknown or not enabled accountCode: 400 INVALID_ACCOUNT_CODE"
  check('4.12.4a')({ ...business, name: 'Unknown accountCode: 400 INVALID_ACCOUNT_CODE' }, async (t) => {
    const cat = await targetListings(t, 'partnerA');
    const base = quoteArbitrary(cat, { maxRentalDays: 14, rate: 'public' });
    // Alone: INVALID_ACCOUNT_CODE, or VALIDATION_ERROR where the server requires the pair (ambiguity #7).
    await property(
      t,
      fc
        .tuple(base, unknownCommercialCode)
        .map(([req, code]) =>
          alone(cat, req, 'accountCode', onBoth(`unknown accountCode ${code}`, req, { accountCode: code })),
        ),
      'INVALID_ACCOUNT_CODE',
    );
    if (cat.rates.length === 0) return;
    // With a rateCode the partner holds, the pair is also no plan of the partner: either code names it.
    const withRate = fc.tuple(base, unknownCommercialCode, fc.constantFrom(...cat.rates)).map(([req, code, plan]) =>
      onBoth(`unknown accountCode ${code} with rateCode ${plan.rateCode}`, req, {
        accountCode: code,
        rateCode: plan.rateCode,
      }),
    );
    await property(t, withRate, ['INVALID_ACCOUNT_CODE', 'INVALID_RATE_CODE']);
  });

  // Spec 4.12.4a (quoted above)
  check('4.12.4a')(
    { ...business, needs: ['partnerA', 'partnerB'], name: "Another partner's accountCode: 400 INVALID_ACCOUNT_CODE" },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      const own = new Set(cat.rates.map((p) => p.accountCode));
      const foreign = (await targetListings(t, 'partnerB')).rates.filter((p) => !own.has(p.accountCode));
      if (foreign.length === 0) return t.notApplicable('partner B lists no account code partner A lacks');
      const faults = fc
        .tuple(quoteArbitrary(cat, { maxRentalDays: 14, rate: 'public' }), fc.constantFrom(...foreign))
        .map(([req, plan]) =>
          alone(
            cat,
            req,
            'accountCode',
            onBoth(`partner B's accountCode ${plan.accountCode}`, req, { accountCode: plan.accountCode }),
          ),
        );
      await property(t, faults, 'INVALID_ACCOUNT_CODE');
    },
  );

  // Spec 4.12.4b: "rateCode unknown, not enabled or outside validity: 400 INVALID_RATE_CODE"
  check('4.12.4b')({ ...business, name: 'Unknown rateCode: 400 INVALID_RATE_CODE' }, async (t) => {
    const cat = await targetListings(t, 'partnerA');
    const base = quoteArbitrary(cat, { maxRentalDays: 14, rate: 'public' });
    const accounts = [...new Set(cat.rates.map((p) => p.accountCode))];
    const faults = fc
      .tuple(
        base,
        unknownCommercialCode,
        accounts.length > 0 ? fc.option(fc.constantFrom(...accounts), { nil: undefined }) : fc.constant(undefined),
      )
      .map(([req, code, account]) => {
        // Alone (INVALID_RATE_CODE, or VALIDATION_ERROR where the server requires the pair: ambiguity #7), or with
        // an accountCode the partner holds (so the account is no fault).
        if (account)
          return onBoth(`unknown rateCode ${code} under ${account}`, req, { accountCode: account, rateCode: code });
        return alone(cat, req, 'rateCode', onBoth(`unknown rateCode ${code}`, req, { rateCode: code }));
      });
    await property(t, faults, 'INVALID_RATE_CODE');
  });

  // Spec 4.12.4b (quoted above)
  check('4.12.4b')(
    {
      ...business,
      needs: ['partnerA', 'partnerB'],
      name: "Another partner's rateCode under an own account: 400 INVALID_RATE_CODE",
    },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      const ownRates = new Set(cat.rates.map((p) => p.rateCode));
      const accounts = [...new Set(cat.rates.map((p) => p.accountCode))];
      const foreign = (await targetListings(t, 'partnerB')).rates.filter((p) => !ownRates.has(p.rateCode));
      if (accounts.length === 0 || foreign.length === 0) {
        return t.notApplicable('partner A lists no account, or partner B no rate code partner A lacks');
      }
      const faults = fc
        .tuple(
          quoteArbitrary(cat, { maxRentalDays: 14, rate: 'public' }),
          fc.constantFrom(...accounts),
          fc.constantFrom(...foreign),
        )
        .map(([req, account, plan]) =>
          onBoth(`partner B's rateCode ${plan.rateCode} under ${account}`, req, {
            accountCode: account,
            rateCode: plan.rateCode,
          }),
        );
      // A plan of the caller's awaiting approval could carry the same codes (not listed): RATE_NOT_APPROVED then.
      await property(t, faults, ['INVALID_RATE_CODE', 'RATE_NOT_APPROVED']);
    },
  );

  // Spec 4.12.4b (quoted above)
  check('4.12.4b')(
    { ...business, name: 'A listed plan for a window wholly outside its validity: 400 INVALID_RATE_CODE' },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      const cases = cat.rates.flatMap((plan) => outsideValidity(cat, plan).map((dates) => ({ plan, ...dates })));
      if (cases.length === 0) return t.notApplicable('no listed plan has a validity end or start to step outside of');
      const faults = fc
        .tuple(quoteArbitrary(cat, { maxRentalDays: 14, rate: 'public' }), fc.constantFrom(...cases))
        .map(([req, c]) => ({
          ...onBoth(
            `${c.plan.accountCode}/${c.plan.rateCode} (valid ${c.plan.validFrom ?? '…'} to ${c.plan.validTo ?? '…'}) for ${c.pickupDate} to ${c.dropoffDate}`,
            req,
            {
              accountCode: c.plan.accountCode,
              rateCode: c.plan.rateCode,
              pickupDate: c.pickupDate,
              dropoffDate: c.dropoffDate,
            },
          ),
          // Past a horizon the server may set, the window itself may be refused first: not judged then.
          farAhead: daysBetween(cat.today, c.dropoffDate) > SHOPPING_HORIZON_DAYS,
        }));
      await property(t, faults, 'INVALID_RATE_CODE');
    },
  );

  // Spec 4.12.4c: "rate plan awaiting approval: 409 RATE_NOT_APPROVED."
  check('4.12.4c')(
    {
      ...business,
      probes: ['pendingRate'],
      name: 'Rate plan awaiting approval (named by the operator): 409 RATE_NOT_APPROVED',
    },
    async (t) => {
      const pending = probeCodesOf(t, 'partnerA').pendingRatePlans ?? [];
      if (pending.length === 0) return t.notApplicable('the target config names no plan awaiting approval');
      const cat = await targetListings(t, 'partnerA');
      const faults = fc
        .tuple(quoteArbitrary(cat, { maxRentalDays: 14, rate: 'public' }), fc.constantFrom(...pending))
        .map(([req, plan]) => onBoth(`pending ${plan.accountCode}/${plan.rateCode}`, req, plan));
      await property(t, faults, 'RATE_NOT_APPROVED');
    },
  );

  // Spec 4.12.4c (quoted above)
  check('4.12.4c')(
    {
      ...business,
      profile: 'shop',
      name: 'A listed (approved) plan within its validity is never refused with RATE_NOT_APPROVED',
    },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      if (cat.rates.length === 0) return t.notApplicable('the partner lists no rate plan');
      await t.forAll(
        quoteArbitrary(cat, { maxRentalDays: 14, rate: 'plan' }),
        async (req) => {
          const { availability, quote } = bodiesOf(req);
          for (const [endpoint, body] of [
            ['/availability', availability],
            ['/quotes', quote],
          ] as const) {
            const res = await t.client('partnerA').post(endpoint, body);
            expect(errorCodeOf(res), `${endpoint} with ${req.accountCode}/${req.rateCode}: ${res.excerpt}`).not.toBe(
              'RATE_NOT_APPROVED',
            );
          }
        },
        { numRuns: casesFor(t, 'bothShoppingEndpoints') },
      );
    },
  );

  // Spec 4.12.5: "Extras with both cdwInsurance and fullProtection: validation error (400 VALIDATION_ERROR)."
  check('4.12.5')(
    { ...business, name: 'Extras with cdwInsurance and fullProtection both true: 400 VALIDATION_ERROR' },
    async (t) => {
      const cat = await targetListings(t, 'partnerA');
      const faults = requests(cat).map((req) =>
        onBoth('cdwInsurance and fullProtection both true', req, {
          extras: { ...(req.extras ?? {}), cdwInsurance: true, fullProtection: true },
        }),
      );
      await property(t, faults, 'VALIDATION_ERROR');
    },
  );
});
