import { OPERATOR_DATA } from '../../../fixtures/index.ts';
import {
  answerError,
  dropFields,
  each,
  eachObject,
  isLocation,
  isMoney,
  isOffer,
  isQuote,
  isRatePlan,
  isReservation,
  isVehicle,
  partnerOf,
  Remembered,
} from '../shapes.ts';
import type { Fault } from '../types.ts';

/** Faults of spec sections 1 (service rules) and 2 (resources and their fields). */

type Obj = Record<string, unknown>;

/** Reservations answered by this instance, with their partner: for faults that leak or remember them. */
const answered = new Remembered<{ partnerId: string; reservation: Obj }>();
/** (vehicle, window) pairs booked: for the allotment fault. */
const booked = new Set<string>();
/** Booking times per (vehicle, window), the cars a class has per window, how long a car is away: allotment-of-ten. */
const allotted = new Map<string, number[]>();
const ALLOTMENT = 10;
const ALLOTMENT_MS = 5_000;

const windowKey = (vehicleCode: unknown, pickup: unknown, dropoff: unknown, location: unknown) =>
  `${String(vehicleCode)}|${String(pickup)}|${String(dropoff)}|${String(location)}`;

/** Money objects of the mileage policy: no check computes with them, so only their own rule is at stake. */
const excessFees = (fn: (money: Obj) => void) =>
  each(isVehicle, (v) => {
    const policy = v.mileagePolicy as Obj | undefined;
    const fee = policy?.excessFeePerKm as Obj | null | undefined;
    if (fee && isMoney(fee)) fn(fee);
  });

export const RESOURCE_FAULTS: Fault[] = [
  // --- 1: what the service does ---
  {
    name: 'allotment-decrements',
    kind: 'fault',
    clause: '1.1a',
    description: 'A vehicle class booked for a window is no longer offered for that window (a decrementing allotment).',
    response(r) {
      if (r.operation === 'createReservation' && r.status === 201) {
        const v = r.value as Obj;
        booked.add(windowKey(v.vehicleCode, v.pickupDateTime, v.dropoffDateTime, v.pickupLocation));
      }
      if (r.operation === 'searchAvailability' && r.status === 200) {
        const a = r.value as Obj;
        const offers = a.offers as Obj[];
        a.offers = offers.filter((offer) => {
          const vehicle = offer.vehicle as Obj;
          return !booked.has(windowKey(vehicle.vehicleCode, a.pickupDateTime, a.dropoffDateTime, a.pickupLocation));
        });
      }
    },
  },
  {
    name: 'allotment-of-ten',
    kind: 'fault',
    clause: '1.1a',
    description:
      'A vehicle class has ten cars per location and window, each away for 5 s after a booking: the eleventh booking of the same vehicle and window within 5 s is answered 409 NO_AVAILABILITY (a decrementing allotment, audit 2026-11-29 finding 24).',
    response(r) {
      if (r.operation !== 'createReservation' || r.status !== 201) return;
      const v = r.value as Obj;
      const key = windowKey(v.vehicleCode, v.pickupDateTime, v.dropoffDateTime, v.pickupLocation);
      // Cars come back ALLOTMENT_MS after a booking: the allotment runs out under a burst of bookings of one window.
      const now = Date.now();
      const recent = (allotted.get(key) ?? []).filter((at) => now - at < ALLOTMENT_MS);
      recent.push(now);
      allotted.set(key, recent);
      if (recent.length > ALLOTMENT) answerError(r, 'NO_AVAILABILITY');
    },
  },
  {
    name: 'offer-daily-rate-below-quote',
    kind: 'fault',
    clause: '1.1b',
    description: 'Availability offers show a daily rate 10% below what a quote of the same window charges.',
    response: each(isOffer, (offer) => {
      const rate = offer.dailyRate as Obj;
      rate.amount = Math.round((rate.amount as number) * 0.9);
    }),
  },
  {
    name: 'deposit-bare-float',
    kind: 'fault',
    clause: '1.2',
    description: 'FleetVehicle.securityDeposit is a bare floating-point number instead of a Money object.',
    response: each(isVehicle, (v) => {
      const deposit = v.securityDeposit as Obj;
      v.securityDeposit = (deposit.amount as number) + 0.5;
    }),
  },
  {
    name: 'reservation-created-pending',
    kind: 'fault',
    clause: '1.3a',
    description:
      'New reservations are stored pending instead of confirmed (a server holding bookings for approval): created, replayed, read and listed as pending until the operator moves them.',
    adjust: { 'reservation.initialStatus': () => 'pending' },
  },
  {
    name: 'reservation-list-leaks',
    kind: 'fault',
    clause: '1.4a',
    description: "GET /reservations also lists other partners' reservations.",
    response(r) {
      if (r.operation === 'createReservation' && r.status === 201) {
        answered.add({ partnerId: partnerOf(r.request) ?? '', reservation: r.value as Obj });
      }
      if (r.operation === 'listReservations' && r.status === 200) {
        const list = r.value as Obj;
        const own = partnerOf(r.request);
        const foreign = answered
          .all()
          .filter((a) => a.partnerId !== own)
          .slice(-3);
        // Within the page's limit (8.5 and the page size stay as they were): only the isolation is broken.
        const own_ = list.reservations as Obj[];
        const limit = typeof list.limit === 'number' ? list.limit : own_.length + foreign.length;
        const leaked = foreign.map((a) => a.reservation).slice(0, Math.max(1, limit));
        list.reservations = [...leaked, ...own_].slice(0, Math.max(limit, leaked.length));
        list.count = (list.reservations as Obj[]).length;
      }
    },
  },
  {
    name: 'foreign-reservation-forbidden',
    kind: 'fault',
    clause: '1.4b',
    description: "Another partner's reservation answers 403 (it exists, but not for you) instead of 404.",
    response(r) {
      if (r.operation === 'createReservation' && r.status === 201) {
        answered.add({ partnerId: partnerOf(r.request) ?? '', reservation: r.value as Obj });
      }
      const id = (r.request.params as { reservationId?: string } | undefined)?.reservationId;
      if ((r.operation === 'getReservation' || r.operation === 'cancelReservation') && r.status === 404 && id) {
        const foreign = answered.all().some((a) => a.reservation.reservationId === id);
        if (foreign) {
          r.setStatus(403);
          r.value = {
            error: {
              code: 'INSUFFICIENT_SCOPE',
              message: 'This reservation belongs to another partner.',
              requestId: r.header('x-request-id'),
              retryable: false,
            },
          };
        }
      }
    },
  },
  {
    name: 'read-only-gets-booking-scopes',
    kind: 'fault',
    clause: '1.7',
    description: 'Initial (read and shop) credentials are issued tokens with the reservation scopes.',
    adjust: {
      'token.scopes': (scopes, input) =>
        input.partnerScopes.includes('reservations:write')
          ? scopes
          : [...scopes, 'reservations:read', 'reservations:write', 'reservations:cancel'],
    },
  },
  // --- 2.0 conventions ---
  {
    // Formerly the benign variant benign-token-extras: the spec's convention "Objects are closed (no unknown
    // properties) unless stated" (2) covers TokenResponse (named in 2.12, its members listed in 4.1) and nothing
    // states it open; RFC 6749 allows such members but never requires them (docs/ambiguities.md).
    name: 'token-response-extra-members',
    kind: 'fault',
    clause: '2.0.2',
    description: 'The token response carries members 4.1 does not list (issued_at, example_parameter).',
    response(r) {
      if (r.operation === 'issueToken' && r.status === 200) {
        const token = r.value as Obj;
        token.issued_at = Math.floor(Date.now() / 1000);
        token.example_parameter = 'example_value';
      }
    },
  },
  // --- 2.1 Money ---
  {
    name: 'money-currency-lowercase',
    kind: 'fault',
    clause: '2.1.2',
    description: 'Every Money.currency is in lower case (vnd).',
    response: each(isMoney, (m) => {
      m.currency = String(m.currency).toLowerCase();
    }),
  },
  {
    name: 'money-amount-decimal',
    kind: 'fault',
    clause: '2.1.3',
    description: 'The excess fee per km is a decimal amount (2500.5) instead of integer minor units.',
    response: excessFees((m) => {
      m.amount = (m.amount as number) + 0.5;
    }),
  },
  {
    name: 'money-exponent-five',
    kind: 'fault',
    clause: '2.1.4',
    description: 'The excess fee per km carries exponent 5.',
    response: excessFees((m) => {
      m.exponent = 5;
    }),
  },
  {
    name: 'money-display-number',
    kind: 'fault',
    clause: '2.1.5',
    description: 'The excess fee per km carries display as a number.',
    response: excessFees((m) => {
      m.display = m.amount;
    }),
  },
  {
    name: 'money-without-display',
    kind: 'fault',
    clause: '2.1.1',
    description: 'The excess fee per km has no display field.',
    response: excessFees((m) => {
      delete m.display;
    }),
  },
  // --- 2.2 codes ---
  {
    name: 'sipp-lowercase',
    kind: 'fault',
    clause: '2.2.4',
    description: 'sippCode is written in lower case (cdar).',
    response: each(isVehicle, (v) => {
      if (typeof v.sippCode === 'string') v.sippCode = v.sippCode.toLowerCase();
    }),
  },
  // --- 2.3 Extras and 2.4 RentalWindow (requests the server accepts that it must refuse) ---
  {
    name: 'extras-unknown-key-accepted',
    kind: 'fault',
    clause: '2.3.1',
    description: 'An unknown key inside extras is ignored instead of refused.',
    adjust: {
      validation: dropFields((f) => f.field.startsWith('extras.') && f.message === 'is not an allowed property'),
    },
  },
  {
    name: 'cdw-string-accepted',
    kind: 'fault',
    clause: '2.3.2',
    description: 'extras.cdwInsurance accepts any value ("yes", 1) as true.',
    adjust: { validation: dropFields((f) => f.field === 'extras.cdwInsurance') },
  },
  {
    name: 'both-protections-accepted',
    kind: 'fault',
    clause: '2.3.3',
    description: 'cdwInsurance and fullProtection together are accepted (and both charged).',
    adjust: { validation: dropFields((f) => f.field === 'extras' && f.message.startsWith('must not contain both')) },
  },
  {
    name: 'child-seats-four-accepted',
    kind: 'fault',
    clause: '2.3.6',
    description: 'extras.childSeats above 3 is accepted.',
    adjust: {
      validation: dropFields((f) => f.field === 'extras.childSeats' && f.message.startsWith('must be at most')),
    },
  },
  {
    name: 'pickup-date-slashes-accepted',
    kind: 'fault',
    clause: '2.4.3',
    description: 'pickupDate written 2027/03/10 is read as 2027-03-10 instead of refused.',
    adjust: {
      body: (value) => {
        const body = value as Obj;
        if (body && typeof body === 'object' && typeof body.pickupDate === 'string') {
          body.pickupDate = body.pickupDate.replace(/^(\d{4})\/(\d{2})\/(\d{2})$/, '$1-$2-$3');
        }
        return value;
      },
    },
  },
  {
    name: 'availability-window-shifted',
    kind: 'fault',
    clause: '2.4.3',
    description:
      'The availability answer echoes a window one day later than the one asked for. A pickup on another calendar ' +
      "date than the pickupDate asked breaks 2.4.3 (the pickup's local calendar date); 4.5.1, whose check compares " +
      'the same echo, only says the body is an AvailabilityRequest, as 4.6.1 does for a quote whose rental is shifted.',
    response(r) {
      if (r.operation !== 'searchAvailability' || r.status !== 200) return;
      const a = r.value as Obj;
      const shift = (s: unknown) => {
        const d = new Date(`${String(s).slice(0, 10)}T00:00:00Z`);
        d.setUTCDate(d.getUTCDate() + 1);
        return `${d.toISOString().slice(0, 10)}${String(s).slice(10)}`;
      };
      a.pickupDateTime = shift(a.pickupDateTime);
      a.dropoffDateTime = shift(a.dropoffDateTime);
    },
  },
  {
    name: 'dropoff-time-seconds-accepted',
    kind: 'fault',
    clause: '2.4.6',
    description: 'dropoffTime with seconds (10:00:00) is read as 10:00 instead of refused.',
    adjust: {
      body: (value) => {
        const body = value as Obj;
        if (body && typeof body === 'object' && typeof body.dropoffTime === 'string') {
          body.dropoffTime = body.dropoffTime.replace(/^(\d{2}:\d{2}):\d{2}$/, '$1');
        }
        return value;
      },
    },
  },
  {
    name: 'rental-times-in-utc',
    kind: 'fault',
    clause: '2.4.9',
    description: 'Quote rental date-times are shifted to UTC instead of the local time asked for.',
    response: each(isQuote, (q) => {
      const rental = q.rental as Obj;
      for (const key of ['pickupDateTime', 'dropoffDateTime']) {
        const local = String(rental[key]);
        const shifted = new Date(Date.parse(`${local.length === 16 ? `${local}:00` : local}Z`) - 7 * 3_600_000);
        rental[key] = shifted.toISOString().slice(0, 19);
      }
    }),
  },
  // --- 2.5 FleetVehicle ---
  {
    name: 'vehicle-without-images',
    kind: 'fault',
    clause: '2.5.1',
    description: 'Vehicles lack the required images key.',
    response: each(isVehicle, (v) => {
      delete v.images;
    }),
  },
  {
    name: 'vehicle-doors-seven',
    kind: 'fault',
    clause: '2.5.10',
    description: 'Vans report 7 doors (the spec allows 2 to 6).',
    response: each(isVehicle, (v) => {
      if (v.doors === 5) v.doors = 7;
    }),
  },
  {
    name: 'transmission-uppercase',
    kind: 'fault',
    clause: '2.5.12',
    description: 'transmission is AUTOMATIC / MANUAL.',
    response: each(isVehicle, (v) => {
      if (typeof v.transmission === 'string') v.transmission = v.transmission.toUpperCase();
    }),
  },
  {
    name: 'drive-type-words',
    kind: 'fault',
    clause: '2.5.13',
    description: 'driveType is "front" instead of fwd.',
    response: each(isVehicle, (v) => {
      if (v.driveType === 'fwd') v.driveType = 'front';
    }),
  },
  {
    name: 'fuel-petrol',
    kind: 'fault',
    clause: '2.5.14',
    description: 'fuelType is "petrol" instead of gasoline.',
    response: each(isVehicle, (v) => {
      if (v.fuelType === 'gasoline') v.fuelType = 'petrol';
    }),
  },
  {
    name: 'baggage-extra-key',
    kind: 'fault',
    clause: '2.5.15',
    description: 'baggage carries an extra key (medium).',
    response: each(isVehicle, (v) => {
      if (v.baggage && typeof v.baggage === 'object') (v.baggage as Obj).medium = 1;
    }),
  },
  {
    name: 'excess-fee-in-usd',
    kind: 'fault',
    clause: '2.5.18',
    description: 'The excess fee per km is quoted in USD instead of VND.',
    response: excessFees((m) => {
      m.currency = 'USD';
      m.exponent = 2;
    }),
  },
  {
    name: 'images-relative',
    kind: 'fault',
    clause: '2.5.19',
    description: 'Vehicle images are relative paths, not URIs.',
    response: each(isVehicle, (v) => {
      if (Array.isArray(v.images)) v.images = v.images.map((_, i) => `/images/${String(v.vehicleCode)}-${i}.jpg`);
    }),
  },
  {
    name: 'location-codes-unlisted',
    kind: 'fault',
    clause: '2.5.20',
    description: 'Vehicles name a location (HUE-CTY-01) that the location list does not hold.',
    response: each(isVehicle, (v) => {
      if (Array.isArray(v.locationCodes)) v.locationCodes = [...v.locationCodes, 'HUE-CTY-01'];
    }),
  },
  {
    name: 'vehicle-status-active',
    kind: 'fault',
    clause: '2.5.21',
    description: 'FleetVehicle.status is "active" instead of the constant "available".',
    response: each(isVehicle, (v) => {
      v.status = 'active';
    }),
  },
  {
    name: 'incomplete-quality-listed',
    kind: 'fault',
    clause: '2.5.23',
    description: 'One listed vehicle reports dataQuality.status incomplete.',
    response(r) {
      let first = true;
      eachObject(r.value, isVehicle, (v) => {
        const quality = v.dataQuality as Obj;
        if (v.vehicleCode === 'TOYOTA-VIOS-AT' || first) quality.status = 'incomplete';
        first = false;
      });
    },
  },
  {
    name: 'unspecified-vehicle-listed',
    kind: 'fault',
    clause: '2.5.24',
    description: 'A listed vehicle has doors and airConditioning null (its specification is not complete).',
    response: each(isVehicle, (v) => {
      if (v.vehicleCode === 'TOYOTA-VIOS-AT') {
        v.doors = null;
        v.airConditioning = null;
      }
    }),
  },
  // --- 2.6 Location ---
  {
    name: 'location-type-station',
    kind: 'fault',
    clause: '2.6.5',
    description: 'City locations have locationType "station".',
    response: each(isLocation, (l) => {
      if (l.locationType === 'city') l.locationType = 'station';
    }),
  },
  {
    name: 'country-code-lowercase',
    kind: 'fault',
    clause: '2.6.6',
    description: 'countryCode is "vn".',
    response: each(isLocation, (l) => {
      l.countryCode = String(l.countryCode).toLowerCase();
    }),
  },
  {
    name: 'coordinates-strings',
    kind: 'fault',
    clause: '2.6.9',
    description: 'Location coordinates are strings.',
    response: each(isLocation, (l) => {
      const c = l.coordinates as Obj | null;
      if (c) {
        c.latitude = String(c.latitude);
        c.longitude = String(c.longitude);
      }
    }),
  },
  {
    name: 'timezone-abbreviation',
    kind: 'fault',
    clause: '2.6.10',
    description: 'Location.timezone is "ICT", not an IANA zone.',
    response: each(isLocation, (l) => {
      l.timezone = 'ICT';
    }),
  },
  {
    name: 'city-has-iata-code',
    kind: 'fault',
    clause: '2.6.11',
    description: 'City locations carry the IATA code of the nearest airport.',
    response: each(isLocation, (l) => {
      if (l.locationType === 'city') l.iataCode = 'SGN';
    }),
  },
  {
    name: 'capabilities-without-delivery',
    kind: 'fault',
    clause: '2.6.12',
    description: 'Location.capabilities lacks delivery.',
    response: each(isLocation, (l) => {
      delete (l.capabilities as Obj).delivery;
    }),
  },
  {
    name: 'inactive-location-listed',
    kind: 'fault',
    clause: '2.6.16',
    description: 'GET /locations also lists the inactive ninth station.',
    response(r) {
      if (r.operation !== 'listLocations' || r.status !== 200) return;
      const inactive = OPERATOR_DATA.locations.find((l) => !l.active);
      const list = r.value as Obj;
      const locations = list.locations as Obj[];
      const template = locations[0];
      if (!inactive || !template) return;
      locations.push({
        ...template,
        locationCode: inactive.locationCode,
        name: inactive.name,
        branchCode: inactive.branchCode,
      });
      list.count = locations.length;
    },
  },
  // --- 2.7 rate plans ---
  {
    name: 'rate-type-wholesale',
    kind: 'fault',
    clause: '2.7.3',
    description: 'rateType "wholesale", not one of the five.',
    response: each(isRatePlan, (p) => {
      if (p.rateType === 'net') p.rateType = 'wholesale';
    }),
  },
  {
    name: 'rate-valid-from-datetime',
    kind: 'fault',
    clause: '2.7.5',
    description: 'validFrom is a date-time instead of a date.',
    response: each(isRatePlan, (p) => {
      if (typeof p.validFrom === 'string') p.validFrom = `${p.validFrom}T00:00:00Z`;
    }),
  },
  {
    name: 'rate-status-approved',
    kind: 'fault',
    clause: '2.7.6',
    description: 'Rate plan status is "approved" instead of the constant "active".',
    response: each(isRatePlan, (p) => {
      p.status = 'approved';
    }),
  },
  {
    name: 'rates-of-other-partner',
    kind: 'fault',
    clause: '2.7.7',
    description: "GET /rates also lists another partner's plans.",
    response(r) {
      if (r.operation !== 'listRates' || r.status !== 200) return;
      const own = partnerOf(r.request);
      const foreign = OPERATOR_DATA.ratePlans.find(
        (p) => p.partnerId !== own && p.enabled && p.approval === 'approved',
      );
      if (!foreign) return;
      const list = r.value as Obj;
      (list.rates as Obj[]).push({
        accountCode: foreign.accountCode,
        rateCode: foreign.rateCode,
        rateType: foreign.rateType,
        currency: foreign.currency,
        validFrom: foreign.validFrom,
        validTo: foreign.validTo,
        status: 'active',
      });
      list.count = (list.rates as Obj[]).length;
    },
  },
  // --- 2.8 AvailabilityOffer ---
  {
    name: 'offer-without-currency',
    kind: 'fault',
    clause: '2.8.1',
    description: 'Availability offers lack currency.',
    response: each(isOffer, (o) => {
      delete o.currency;
    }),
  },
  {
    name: 'offer-expiry-without-offset',
    kind: 'fault',
    clause: '2.8.3',
    description: 'quoteExpiresAt has no offset (2027-03-10T10:30:00).',
    response: each(isOffer, (o) => {
      o.quoteExpiresAt = String(o.quoteExpiresAt).slice(0, 19);
    }),
  },
  {
    name: 'offer-rental-days-zero',
    kind: 'fault',
    clause: '2.8.5',
    description: 'Offers of a window under a day have rentalDays 0.',
    response: each(isOffer, (o) => {
      o.rentalDays = (o.rentalDays as number) - 1;
    }),
  },
  // --- 2.9 Quote ---
  {
    name: 'quote-currency-lowercase',
    kind: 'fault',
    clause: '2.9.4',
    description: 'Quote.currency is lower case (its Money objects are fine).',
    response: each(isQuote, (q) => {
      q.currency = String(q.currency).toLowerCase();
    }),
  },
  {
    name: 'quote-base-total-off',
    kind: 'fault',
    clause: '2.9.8b',
    description: 'baseTotal is 1,000 VND above rental days times the daily rate (the discount absorbs it).',
    response: each(isQuote, (q) => {
      const charges = q.charges as Obj;
      (charges.baseTotal as Obj).amount = ((charges.baseTotal as Obj).amount as number) + 1000;
      (charges.discount as Obj).amount = ((charges.discount as Obj).amount as number) + 1000;
    }),
  },
  {
    name: 'one-way-fee-within-branch',
    kind: 'fault',
    clause: '2.9.8c',
    description: 'A one-way fee is charged between two locations of one branch (the discount absorbs it).',
    response: each(isQuote, (q) => {
      const rental = q.rental as Obj;
      if (rental.pickupLocation === rental.dropoffLocation) return;
      const charges = q.charges as Obj;
      const fee = charges.oneWayFee as Obj;
      if (fee.amount !== 0) return;
      fee.amount = 50_000;
      (charges.discount as Obj).amount = ((charges.discount as Obj).amount as number) + 50_000;
    }),
  },
  {
    name: 'total-includes-deposit',
    kind: 'fault',
    clause: '2.9.8d',
    description: "The quote's total includes the security deposit.",
    response: each(isQuote, (q) => {
      const charges = q.charges as Obj;
      const deposit = q.securityDeposit as Obj;
      (charges.total as Obj).amount = ((charges.total as Obj).amount as number) + (deposit.amount as number);
    }),
  },
  {
    name: 'commission-at-public-rate',
    kind: 'fault',
    clause: '2.9.8e',
    description: 'Quotes at the public rate carry a commission of 0 instead of null.',
    response: each(isQuote, (q) => {
      const charges = q.charges as Obj;
      if (charges.commission === null) charges.commission = { ...(charges.discount as Obj), amount: 0 };
    }),
  },
  {
    name: 'payment-prepaid',
    kind: 'fault',
    clause: '2.9.10',
    description: 'Quote.payment.model is "prepaid".',
    response: each(isQuote, (q) => {
      (q.payment as Obj).model = 'prepaid';
    }),
  },
  {
    name: 'inclusions-one-string',
    kind: 'fault',
    clause: '2.9.11',
    description: 'Quote.inclusions is one string instead of an array.',
    response: each(isQuote, (q) => {
      q.inclusions = (q.inclusions as string[]).join('; ');
    }),
  },
  {
    name: 'extra-line-quantity-string',
    kind: 'fault',
    clause: '2.9.12',
    description: 'ExtraLine.quantity is a string.',
    response: each(isQuote, (q) => {
      for (const line of (q.charges as Obj).extras as Obj[]) line.quantity = String(line.quantity);
    }),
  },
  {
    name: 'quote-for-another-vehicle',
    kind: 'fault',
    clause: '2.9.5',
    description: 'The quote describes another vehicle than the one asked for.',
    response(r) {
      if (r.operation !== 'createQuote' || r.status !== 201) return;
      const q = r.value as Obj;
      const vehicle = q.vehicle as Obj;
      vehicle.vehicleCode = vehicle.vehicleCode === 'TOYOTA-VIOS-AT' ? 'KIA-MORNING-AT' : 'TOYOTA-VIOS-AT';
    },
  },
  // --- 2.10 Driver ---
  {
    name: 'driver-unknown-key-accepted',
    kind: 'fault',
    clause: '2.10.1',
    description: 'An unknown key in driver is ignored.',
    adjust: {
      validation: dropFields((f) => f.field.startsWith('driver.') && f.message === 'is not an allowed property'),
    },
  },
  {
    name: 'driver-title-any',
    kind: 'fault',
    clause: '2.10.2',
    description: 'Any driver title (sir, prof) is accepted.',
    adjust: { validation: dropFields((f) => f.field === 'driver.title') },
  },
  {
    name: 'driver-first-name-long',
    kind: 'fault',
    clause: '2.10.3',
    description: 'driver.firstName over 100 characters is accepted.',
    adjust: {
      validation: dropFields((f) => f.field === 'driver.firstName' && f.message.startsWith('must be at most')),
    },
  },
  {
    name: 'driver-email-unchecked',
    kind: 'fault',
    clause: '2.10.5',
    description: 'driver.email is not checked to be an email address.',
    adjust: { validation: dropFields((f) => f.field === 'driver.email' && f.message.includes('email')) },
  },
  {
    name: 'driver-phone-without-country-code',
    kind: 'fault',
    clause: '2.10.6',
    description: 'A phone number without + and country code (0901234567) is accepted.',
    adjust: { validation: dropFields((f) => f.field === 'driver.phone' && f.message.startsWith('must match')) },
  },
  {
    name: 'minor-driver-accepted',
    kind: 'fault',
    clause: '2.10.7',
    description: 'A driver under 18 is booked.',
    enforce: { 'driver.adult': false },
  },
  {
    name: 'nationality-three-letters',
    kind: 'fault',
    clause: '2.10.8',
    description: 'A three-letter nationality (VNM) is accepted.',
    adjust: { validation: dropFields((f) => f.field === 'driver.nationality') },
  },
  {
    name: 'id-number-long',
    kind: 'fault',
    clause: '2.10.9',
    description: 'driver.idNumber over 50 characters is accepted.',
    adjust: { validation: dropFields((f) => f.field === 'driver.idNumber') },
  },
  // --- 2.11 Reservation ---
  {
    name: 'partner-reference-empty-string',
    kind: 'fault',
    clause: '2.11.3',
    description: 'A reservation booked without partnerReference echoes "" instead of null.',
    response: each(isReservation, (res) => {
      if (res.partnerReference === null) res.partnerReference = '';
    }),
  },
  {
    name: 'booking-code-number',
    kind: 'fault',
    clause: '2.11.4',
    description: 'rocketBookingCode is a number.',
    response: each(isReservation, (res) => {
      res.rocketBookingCode = Number.parseInt(String(res.rocketBookingCode).replace(/\D/g, '').slice(0, 9) || '7', 10);
    }),
  },
  {
    name: 'reservation-status-uppercase',
    kind: 'fault',
    clause: '2.11.5',
    description: 'Reservation.status is upper case (CONFIRMED).',
    response: each(isReservation, (res) => {
      res.status = String(res.status).toUpperCase();
    }),
  },
  {
    name: 'reservation-rental-days-string',
    kind: 'fault',
    clause: '2.11.7',
    description: 'Reservation.rentalDays is a string.',
    response: each(isReservation, (res) => {
      if (typeof res.rentalDays === 'number') res.rentalDays = String(res.rentalDays);
    }),
  },
  {
    name: 'reservation-total-off-quote',
    kind: 'fault',
    clause: '2.11.9c',
    description: "The reservation's total is 1,000 VND above the quote booked from.",
    response: each(isReservation, (res) => {
      const total = res.total as Obj;
      total.amount = (total.amount as number) + 1000;
    }),
  },
  {
    name: 'reservation-commission-at-public',
    kind: 'fault',
    clause: '2.11.10',
    description: 'Reservations at the public rate carry a commission of 0 instead of null.',
    response: each(isReservation, (res) => {
      if (res.commission === null) res.commission = { ...(res.total as Obj), amount: 0 };
    }),
  },
  {
    name: 'reservation-echoes-phone',
    kind: 'fault',
    clause: '2.11.12',
    description: "Reservation.driver also returns the driver's phone.",
    response: each(isReservation, (res) => {
      (res.driver as Obj).phone = '+84901234567';
    }),
  },
  {
    name: 'created-at-epoch',
    kind: 'fault',
    clause: '2.11.14',
    description: 'Reservation.createdAt is epoch milliseconds (a number).',
    response: each(isReservation, (res) => {
      res.createdAt = Date.parse(String(res.createdAt));
    }),
  },
  // --- 2.12 request and list shapes ---
  {
    name: 'partner-reference-required',
    kind: 'fault',
    clause: '2.12.1',
    description: 'A booking without partnerReference is refused (400) although the field is optional.',
    adjust: {
      // Absent is made a wrong type, so the schema refuses it as the server would a required field.
      body: (value, input) => {
        if (input.schema === 'ReservationRequest' && value && typeof value === 'object' && !Array.isArray(value)) {
          if (!('partnerReference' in value)) (value as Obj).partnerReference = 1;
        }
        return value;
      },
    },
  },
  {
    name: 'reservation-unknown-key-accepted',
    kind: 'fault',
    clause: '2.12.1',
    description:
      'An unknown top-level key in a reservation request is ignored. The closedness is 2.12.1\'s ("ReservationRequest ' +
      '(closed)"), as its siblings\' are 2.12.2 to 2.12.4; 4.7.12 ("Body: ReservationRequest") only names the shape, ' +
      'and 2.0.2 states closedness for every object.',
    adjust: {
      validation: (fields, input) =>
        input.schema === 'ReservationRequest'
          ? fields.filter((f) => !(f.message === 'is not an allowed property' && !f.field.includes('.')))
          : fields,
    },
  },
  {
    name: 'cancel-unknown-key-accepted',
    kind: 'fault',
    clause: '2.12.2',
    description: 'An unknown key in a cancel request is ignored.',
    adjust: {
      validation: (fields, input) =>
        input.schema === 'CancelRequest' ? fields.filter((f) => f.message !== 'is not an allowed property') : fields,
    },
  },
  {
    name: 'cancel-without-reason-accepted',
    kind: 'fault',
    clause: '2.12.2',
    description:
      'A cancel request without reason is accepted. The required reason is 2.12.2\'s ("CancelRequest (closed): ' +
      'reason (string, 1-500 chars, required)"); 4.11.1 ("Body CancelRequest") only names the shape.',
    adjust: {
      validation: (fields, input) =>
        input.schema === 'CancelRequest'
          ? fields.filter((f) => !(f.field === 'reason' && f.message === 'is required'))
          : fields,
    },
  },
  {
    name: 'availability-unknown-key-accepted',
    kind: 'fault',
    clause: '2.12.3',
    description: 'An unknown top-level key in an availability request is ignored.',
    adjust: {
      validation: (fields, input) =>
        input.schema === 'AvailabilityRequest'
          ? fields.filter((f) => !(f.message === 'is not an allowed property' && !f.field.includes('.')))
          : fields,
    },
  },
  {
    name: 'quote-unknown-key-accepted',
    kind: 'fault',
    clause: '2.12.4',
    description: 'An unknown top-level key in a quote request is ignored.',
    adjust: {
      validation: (fields, input) =>
        input.schema === 'QuoteRequest'
          ? fields.filter((f) => !(f.message === 'is not an allowed property' && !f.field.includes('.')))
          : fields,
    },
  },
  {
    name: 'availability-model-missing',
    kind: 'fault',
    clause: '2.12.5',
    description: 'AvailabilityResponse lacks availabilityModel.',
    response(r) {
      if (r.operation === 'searchAvailability' && r.status === 200) delete (r.value as Obj).availabilityModel;
    },
  },
  {
    name: 'fleet-count-string',
    kind: 'fault',
    clause: '2.12.6a',
    description: 'FleetList.count is a string.',
    response(r) {
      if (r.operation === 'listFleet' && r.status === 200) (r.value as Obj).count = String((r.value as Obj).count);
    },
  },
  {
    name: 'location-list-without-count',
    kind: 'fault',
    clause: '2.12.6b',
    description: 'LocationList lacks count.',
    response(r) {
      if (r.operation === 'listLocations' && r.status === 200) delete (r.value as Obj).count;
    },
  },
  {
    name: 'rate-list-without-count',
    kind: 'fault',
    clause: '2.12.6c',
    description: 'RateList lacks count.',
    response(r) {
      if (r.operation === 'listRates' && r.status === 200) delete (r.value as Obj).count;
    },
  },
  {
    name: 'reservation-list-without-limit',
    kind: 'fault',
    clause: '2.12.6d',
    description: 'ReservationList lacks limit.',
    response(r) {
      if (r.operation === 'listReservations' && r.status === 200) delete (r.value as Obj).limit;
    },
  },
];
