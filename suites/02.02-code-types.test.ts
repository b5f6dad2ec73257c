/**
 * Spec 2.2 Code types: the patterns of vehicleCode, locationCode, accountCode and rateCode, sippCode on listed
 * vehicles, and quoteId (opaque, 8 to 4096 characters) as the target lists, echoes and accepts them.
 */

import { describe, expect } from 'vitest';
import { LIMITS } from '../contract/limits.ts';
import { PATTERNS } from '../contract/schemas/index.ts';
import { type ApiResult, check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { expectError } from '../harness/check/expect-api.ts';
import { claim } from '../harness/check/scope.ts';
import { expectedGot } from '../harness/check/wording.ts';
import { requireQuoteToBook, sendReservationBody } from './support/booking.ts';
import { forAvailability, forOffers, forQuotes } from './support/generated.ts';
import { listedLocations, listedRates, listedVehicles, targetListings } from './support/listings.ts';
import { book, business, shop } from './support/presets.ts';
import { driverFor, freshReference } from './support/reservation-requests.ts';

describe('2.2 Code types', () => {
  // Spec 2.2.1: "VehicleCode | string | `^[A-Z0-9-]{2,32}$`; permanent per car model"
  check('2.2.1')(
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

  // Spec 2.2.1 (quoted above)
  check('2.2.1')(
    { ...shop, name: 'A vehicleCode names the same model in offers and quotes as in the fleet list' },
    async (t) => {
      const cat = await targetListings(t);
      const byCode = new Map(cat.vehicles.map((v) => [v.vehicleCode, `${v.make}|${v.model}`]));
      // A vehicle offered or quoted that the fleet list leaves out has no listed model to compare with: the list is
      // not the complete offerable fleet, 4.2.1's (filed there).
      const listed = (code: string, what: string, response: ApiResult) =>
        claim('4.2.1', byCode.has(code), expectedGot(`${what} ${code}`, 'a vehicle of GET /fleet', 'not listed'), {
          actual: code,
          response,
        });
      await forOffers(t, (offer, _response, res) => {
        if (!listed(offer.vehicle.vehicleCode, 'an offered vehicle', res)) return;
        expect(byCode.get(offer.vehicle.vehicleCode), `offer of ${offer.vehicle.vehicleCode}`).toBe(
          `${offer.vehicle.make}|${offer.vehicle.model}`,
        );
      });
      await forQuotes(
        t,
        (request, quote, res) => {
          // A quote for another vehicle than asked is 2.9.5's (filed there); the code names its model in the others.
          const asked = quote.vehicle.vehicleCode === request.vehicleCode;
          claim('2.9.5', asked, 'the quoted vehicle is the requested one', {
            expected: request.vehicleCode,
            actual: quote.vehicle.vehicleCode,
          });
          if (asked && listed(quote.vehicle.vehicleCode, 'a quoted vehicle', res)) {
            expect(byCode.get(quote.vehicle.vehicleCode)).toBe(`${quote.vehicle.make}|${quote.vehicle.model}`);
          }
        },
        { listings: cat, runs: casesFor(t, 'request') },
      );
    },
  );

  // Spec 2.2.2: "LocationCode | string | `^[A-Z0-9-]{2,32}$`; own namespace; not an IATA code and not the partner's own
  // code"
  check('2.2.2')(
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

  // Spec 2.2.3: "CommercialCode (accountCode, rateCode) | string | `^[A-Z0-9_-]{1,32}$`"
  check('2.2.3')(
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

  // Spec 2.2.3 (quoted above)
  check('2.2.3')(
    { ...shop, name: 'Commercial codes echoed by availability and quotes match ^[A-Z0-9_-]{1,32}$' },
    async (t) => {
      const cat = await targetListings(t);
      if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
      const pattern = new RegExp(PATTERNS.commercialCode);
      await forAvailability(
        t,
        (_request, response) => {
          expect(response.accountCode, 'availability accountCode').toMatch(pattern);
          expect(response.rateCode, 'availability rateCode').toMatch(pattern);
        },
        { listings: cat, rate: 'plan', runs: casesFor(t, 'request') },
      );
      await forQuotes(
        t,
        (_request, quote) => {
          expect(quote.rate.accountCode, 'quote rate.accountCode').toMatch(pattern);
          expect(quote.rate.rateCode, 'quote rate.rateCode').toMatch(pattern);
        },
        { listings: cat, rate: 'plan', runs: casesFor(t, 'request') },
      );
    },
  );

  // Spec 2.2.4: "SippCode | string or null | `^[A-Z]{4}$`: category, type, transmission/drive, fuel/air-conditioning;
  // null only on an unpublished vehicle"
  check('2.2.4')(
    { ...business, name: 'Every listed (published) vehicle has a sippCode matching ^[A-Z]{4}$' },
    async (t) => {
      for (const { label, value } of await listedVehicles(t)) {
        expect(value.sippCode, `${label}: sippCode (null only on an unpublished vehicle)`).toMatch(/^[A-Z]{4}$/);
      }
    },
  );

  // Spec 2.2.5: "quoteId is treated as opaque; in a reservation request it is 8 to 4096 characters"
  check('2.2.5')({ ...shop, name: 'Offer and quote quoteIds are strings of 8 to 4096 characters' }, async (t) => {
    const within = (id: string, what: string) => {
      expect(typeof id, what).toBe('string');
      expect(id.length, `${what} length`).toBeGreaterThanOrEqual(LIMITS.quoteIdLength.min);
      expect(id.length, `${what} length`).toBeLessThanOrEqual(LIMITS.quoteIdLength.max);
    };
    await forOffers(t, (offer) => within(offer.quoteId, `offer ${offer.vehicle.vehicleCode} quoteId`));
    await forQuotes(t, (_request, quote) => within(quote.quoteId, 'quote quoteId'), { runs: casesFor(t, 'request') });
  });

  // Spec 2.2.5 (quoted above)
  check('2.2.5')(
    { ...book, name: 'A reservation request quoteId of 7 or 4097 characters is refused with 400' },
    async (t) => {
      const { quote } = await requireQuoteToBook(t);
      for (const length of [LIMITS.quoteIdLength.min - 1, LIMITS.quoteIdLength.max + 1]) {
        const quoteId = quote.quoteId.repeat(Math.ceil(length / quote.quoteId.length)).slice(0, length);
        const res = await sendReservationBody(t, 'partnerA', {
          quoteId,
          partnerReference: freshReference(t),
          driver: driverFor(t, quote.vehicle),
        });
        // 7.3: the specific code of a validation fault is not shown (audit 7.3-R2): a 400 code of its own passes too.
        expectError(res, ['VALIDATION_ERROR', 'QUOTE_INVALID'], { otherCodes: true });
      }
    },
  );

  // Spec 2.2.5 (quoted above)
  check('2.2.5')(
    { ...book, name: 'A quoteId is opaque: another string of valid length is no quote (400)' },
    async (t) => {
      const { quote } = await requireQuoteToBook(t);
      const res = await sendReservationBody(t, 'partnerA', {
        quoteId: `CERT-NOT-A-QUOTE-${(t.seed >>> 0).toString(36)}`,
        partnerReference: freshReference(t),
        driver: driverFor(t, quote.vehicle),
      });
      expectError(res, ['QUOTE_INVALID', 'VALIDATION_ERROR']);
    },
  );
});
