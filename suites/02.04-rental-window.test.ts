/**
 * Spec 2.4 RentalWindow: each field missing or malformed is refused, the window is restated in the pickup
 * location's local time without an offset, accountCode and rateCode omitted mean the public rate.
 */

import { describe, expect } from 'vitest';
import type { AvailabilityRequest } from '../contract/types.ts';
import { type CheckContext, check } from '../harness/check/check.ts';
import { casesFor } from '../harness/check/cost.ts';
import { expectLocalDateTime, expectRentalWindow } from './support/datetime.ts';
import { forAvailability, forQuotes } from './support/generated.ts';
import { targetListings } from './support/listings.ts';
import { shop } from './support/presets.ts';
import { availabilityFaults, quoteFaults } from './support/request-faults.ts';

/** Each field of the window missing or malformed is refused: in availability requests, and missing in quotes. */
async function windowFaults(t: CheckContext, field: keyof AvailabilityRequest): Promise<void> {
  await availabilityFaults(t, field);
  await quoteFaults(t, field, ['missing-required']);
}

/** Without the code, availability and quotes are at the public rate: the code is null in the answer. */
async function codeOmitted(t: CheckContext, field: 'accountCode' | 'rateCode'): Promise<void> {
  await forAvailability(t, (_request, response) => expect(response[field], field).toBeNull(), { rate: 'public' });
  await forQuotes(t, (_request, quote) => expect(quote.rate[field], `rate.${field}`).toBeNull(), {
    rate: 'public',
    runs: casesFor(t, 'request'),
  });
}

/** The code of a listed plan is accepted and restated by availability. */
async function codeEchoed(t: CheckContext, field: 'accountCode' | 'rateCode'): Promise<void> {
  const cat = await targetListings(t);
  if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
  await forAvailability(t, (request, response) => expect(response[field], field).toBe(request[field]), {
    listings: cat,
    rate: 'plan',
  });
}

describe('2.4 RentalWindow', () => {
  // Spec 2.4.1: "pickupLocation | LocationCode | yes"
  check('2.4.1')(
    { ...shop, name: 'Generated valid rental windows are accepted, the locations restated' },
    async (t) => {
      await forAvailability(t, (request, response) => {
        expect(response.pickupLocation, 'pickupLocation restated').toBe(request.pickupLocation);
        expect(response.dropoffLocation, 'dropoffLocation restated').toBe(request.dropoffLocation);
      });
    },
  );

  // Spec 2.4.1 (quoted above)
  check('2.4.1')({ ...shop, name: 'pickupLocation missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'pickupLocation'),
  );

  // Spec 2.4.2: "dropoffLocation | LocationCode | yes"
  check('2.4.2')({ ...shop, name: 'dropoffLocation missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'dropoffLocation'),
  );

  // Spec 2.4.3: "pickupDate | string, date (ISO 8601) | yes | calendar date local to the pickup location"
  check('2.4.3')({ ...shop, name: 'pickupDate missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'pickupDate'),
  );

  // Spec 2.4.3 (quoted above)
  check('2.4.3')({ ...shop, name: 'pickupDate and pickupTime are the local start of the rental' }, async (t) => {
    await forAvailability(t, (request, response) => {
      expectLocalDateTime(response.pickupDateTime, request.pickupDate, request.pickupTime, 'pickupDateTime');
      expectLocalDateTime(response.dropoffDateTime, request.dropoffDate, request.dropoffTime, 'dropoffDateTime');
    });
  });

  // Spec 2.4.4: "pickupTime | string | yes | `^([01][0-9]|2[0-3]):[0-5][0-9]$`, 24-hour local time at pickup"
  check('2.4.4')({ ...shop, name: 'pickupTime missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'pickupTime'),
  );

  // Spec 2.4.5: "dropoffDate | string, date | yes"
  check('2.4.5')({ ...shop, name: 'dropoffDate missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'dropoffDate'),
  );

  // Spec 2.4.6: "dropoffTime | string | yes | same pattern as pickupTime"
  check('2.4.6')({ ...shop, name: 'dropoffTime missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'dropoffTime'),
  );

  // Spec 2.4.7: "accountCode | CommercialCode | no | omit for the public rate"
  check('2.4.7')({ ...shop, name: 'accountCode omitted: the public rate (null in the answer)' }, (t) =>
    codeOmitted(t, 'accountCode'),
  );
  // Spec 2.4.7 (quoted above)
  check('2.4.7')({ ...shop, name: 'accountCode of a listed plan is accepted and echoed' }, (t) =>
    codeEchoed(t, 'accountCode'),
  );
  // Spec 2.4.7 (quoted above)
  check('2.4.7')({ ...shop, name: 'accountCode of another type or breaking ^[A-Z0-9_-]{1,32}$: 400' }, (t) =>
    availabilityFaults(t, 'accountCode'),
  );

  // Spec 2.4.8: "rateCode | CommercialCode | no | omit for the public rate"
  check('2.4.8')({ ...shop, name: 'rateCode omitted: the public rate (null in the answer)' }, (t) =>
    codeOmitted(t, 'rateCode'),
  );
  // Spec 2.4.8 (quoted above)
  check('2.4.8')({ ...shop, name: 'rateCode of a listed plan is accepted and echoed' }, (t) =>
    codeEchoed(t, 'rateCode'),
  );
  // Spec 2.4.8 (quoted above)
  check('2.4.8')({ ...shop, name: 'rateCode of another type or breaking ^[A-Z0-9_-]{1,32}$: 400' }, (t) =>
    availabilityFaults(t, 'rateCode'),
  );

  // Spec 2.4.9: "All local dates and times are interpreted in the IANA timezone of the relevant location."
  check('2.4.9')(
    { ...shop, name: "A quote's rental is in the pickup location's IANA zone, local times unshifted" },
    async (t) => {
      const cat = await targetListings(t);
      const zones = new Map(cat.locations.map((l) => [l.locationCode, l.timezone]));
      await forQuotes(
        t,
        (request, quote) => {
          expect(quote.rental.timezone, 'rental.timezone is the pickup location timezone').toBe(
            zones.get(request.pickupLocation),
          );
          expectRentalWindow(quote.rental, request);
        },
        { listings: cat },
      );
    },
  );

  // Spec 2.4.9 (quoted above)
  check('2.4.9')({ ...shop, name: 'Availability restates the window in local time, without an offset' }, async (t) => {
    await forAvailability(t, (request, response) => {
      expectLocalDateTime(response.pickupDateTime, request.pickupDate, request.pickupTime, 'pickupDateTime');
      expect(response.pickupDateTime, 'no offset or Z').not.toMatch(/(Z|[+-]\d{2}:?\d{2})$/);
    });
  });
});
