/**
 * Spec 2.4 RentalWindow: each field missing or malformed is refused, the window is restated in the pickup
 * location's local time without an offset, accountCode and rateCode omitted mean the public rate.
 */
import { describe, expect } from 'vitest';
import type { AvailabilityRequest } from '../contract/types.ts';
import { type CheckContext, check } from '../harness/check/check.ts';
import type { Role } from '../harness/config/target-config.ts';
import { REPRESENTATIONS } from '../harness/http/representation.ts';
import { targetCatalogue } from './support/catalogue.ts';
import { expectLocalDateTime } from './support/datetime.ts';
import { costlyRuns, forAvailability, forQuotes } from './support/generated.ts';
import { availabilityFaults, quoteFaults } from './support/request-faults.ts';

const A: Role[] = ['partnerA'];
const business = { needs: A, representations: REPRESENTATIONS };
const shop = { ...business, profile: 'shop' as const };

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
    runs: costlyRuns(t),
  });
}

/** The code of a listed plan is accepted and restated by availability. */
async function codeEchoed(t: CheckContext, field: 'accountCode' | 'rateCode'): Promise<void> {
  const cat = await targetCatalogue(t);
  if (cat.rates.length === 0) t.notApplicable('the partner has no rate codes');
  await forAvailability(t, (request, response) => expect(response[field], field).toBe(request[field]), {
    catalogue: cat,
    rate: 'plan',
  });
}

describe('2.4 RentalWindow', () => {
  // 2.4.1 RentalWindow.pickupLocation is a required LocationCode
  // biome-ignore format: the clause id stays on the call's first line, so one grep finds the check
  check('2.4.1', { ...shop, name: 'Generated valid rental windows are accepted, the locations restated' }, async (t) => {
    await forAvailability(t, (request, response) => {
      expect(response.pickupLocation, 'pickupLocation restated').toBe(request.pickupLocation);
      expect(response.dropoffLocation, 'dropoffLocation restated').toBe(request.dropoffLocation);
    });
  });

  check('2.4.1', { ...shop, name: 'pickupLocation missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'pickupLocation'),
  );

  // 2.4.2 RentalWindow.dropoffLocation is a required LocationCode
  check('2.4.2', { ...shop, name: 'dropoffLocation missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'dropoffLocation'),
  );

  // 2.4.3 RentalWindow.pickupDate is a required ISO 8601 date, local to the pickup location
  check('2.4.3', { ...shop, name: 'pickupDate missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'pickupDate'),
  );

  check('2.4.3', { ...shop, name: 'pickupDate and pickupTime are the local start of the rental' }, async (t) => {
    await forAvailability(t, (request, response) => {
      expectLocalDateTime(response.pickupDateTime, request.pickupDate, request.pickupTime, 'pickupDateTime');
      expectLocalDateTime(response.dropoffDateTime, request.dropoffDate, request.dropoffTime, 'dropoffDateTime');
    });
  });

  // 2.4.4 RentalWindow.pickupTime is a required 24-hour HH:MM local time
  check('2.4.4', { ...shop, name: 'pickupTime missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'pickupTime'),
  );

  // 2.4.5 RentalWindow.dropoffDate is a required date
  check('2.4.5', { ...shop, name: 'dropoffDate missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'dropoffDate'),
  );

  // 2.4.6 RentalWindow.dropoffTime is required, same pattern as pickupTime
  check('2.4.6', { ...shop, name: 'dropoffTime missing, of another type or breaking its format: 400' }, (t) =>
    windowFaults(t, 'dropoffTime'),
  );

  // 2.4.7 RentalWindow.accountCode is an optional CommercialCode; omitted for the public rate
  check('2.4.7', { ...shop, name: 'accountCode omitted: the public rate (null in the answer)' }, (t) =>
    codeOmitted(t, 'accountCode'),
  );
  check('2.4.7', { ...shop, name: 'accountCode of a listed plan is accepted and echoed' }, (t) =>
    codeEchoed(t, 'accountCode'),
  );
  check('2.4.7', { ...shop, name: 'accountCode of another type or breaking ^[A-Z0-9_-]{1,32}$: 400' }, (t) =>
    availabilityFaults(t, 'accountCode'),
  );

  // 2.4.8 RentalWindow.rateCode is an optional CommercialCode; omitted for the public rate
  check('2.4.8', { ...shop, name: 'rateCode omitted: the public rate (null in the answer)' }, (t) =>
    codeOmitted(t, 'rateCode'),
  );
  check('2.4.8', { ...shop, name: 'rateCode of a listed plan is accepted and echoed' }, (t) =>
    codeEchoed(t, 'rateCode'),
  );
  check('2.4.8', { ...shop, name: 'rateCode of another type or breaking ^[A-Z0-9_-]{1,32}$: 400' }, (t) =>
    availabilityFaults(t, 'rateCode'),
  );

  // 2.4.9 Local dates and times are interpreted in the location's IANA timezone
  // biome-ignore format: the clause id stays on the call's first line, so one grep finds the check
  check('2.4.9', { ...shop, name: "A quote's rental is in the pickup location's IANA zone, local times unshifted" }, async (t) => {
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
  });

  check('2.4.9', { ...shop, name: 'Availability restates the window in local time, without an offset' }, async (t) => {
    await forAvailability(t, (request, response) => {
      expectLocalDateTime(response.pickupDateTime, request.pickupDate, request.pickupTime, 'pickupDateTime');
      expect(response.pickupDateTime, 'no offset or Z').not.toMatch(/(Z|[+-]\d{2}:?\d{2})$/);
    });
  });
});
