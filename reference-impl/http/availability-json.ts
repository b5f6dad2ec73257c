import type { AvailabilityOffer, AvailabilityResponse, FleetVehicle, Money } from '../../contract/types.ts';
import { asciiJson, scalarJson, stringJson } from './ascii-json.ts';

/**
 * The JSON text of an availability answer, always ASCII (sent as latin1 bytes): the value JSON.stringify gives, written in ASCII (`asciiJson`), with each
 * vehicle's text made once (the vehicles are most of the answer's bytes and never change) and each money display's
 * once (load/README.md "Profile findings"). Any offer not of the shape Shopping makes (a fault may add, drop or
 * reorder fields) is left to JSON.stringify.
 */
const vehicleJson = new WeakMap<FleetVehicle, string>();

const OFFER_KEYS = ['quoteId', 'quoteExpiresAt', 'vehicle', 'rentalDays', 'dailyRate', 'estimatedTotal', 'currency'];
const MONEY_KEYS = ['currency', 'amount', 'exponent', 'display'];

function hasKeys(value: unknown, expected: string[]): boolean {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const keys = Object.keys(value);
  return keys.length === expected.length && keys.every((key, i) => key === expected[i]);
}

function isPlainOffer(offer: unknown): offer is AvailabilityOffer {
  return (
    hasKeys(offer, OFFER_KEYS) &&
    hasKeys((offer as AvailabilityOffer).dailyRate, MONEY_KEYS) &&
    hasKeys((offer as AvailabilityOffer).estimatedTotal, MONEY_KEYS)
  );
}

/** The text of a display string, by display; bounded like the displays themselves (domain/money.ts). */
const displayJson = new Map<string, string>();
const DISPLAY_JSON_MAX = 8192;

function moneyJson(money: Money): string {
  let display = displayJson.get(money.display);
  if (display === undefined) {
    display = stringJson(money.display);
    if (displayJson.size >= DISPLAY_JSON_MAX) displayJson.clear();
    displayJson.set(money.display, display);
  }
  return `{"currency":${stringJson(money.currency)},"amount":${scalarJson(money.amount)},"exponent":${scalarJson(money.exponent)},"display":${display}}`;
}

function offerJson(offer: AvailabilityOffer): string {
  let vehicle = vehicleJson.get(offer.vehicle);
  if (vehicle === undefined) {
    vehicle = asciiJson(JSON.stringify(offer.vehicle));
    // Only frozen vehicles may be remembered: a mutable one could change after its text was made.
    if (Object.isFrozen(offer.vehicle)) vehicleJson.set(offer.vehicle, vehicle);
  }
  return `{"quoteId":${stringJson(offer.quoteId)},"quoteExpiresAt":${stringJson(offer.quoteExpiresAt)},"vehicle":${vehicle},"rentalDays":${scalarJson(offer.rentalDays)},"dailyRate":${moneyJson(offer.dailyRate)},"estimatedTotal":${moneyJson(offer.estimatedTotal)},"currency":${stringJson(offer.currency)}}`;
}

export function availabilityJson(value: unknown): string {
  const response = value as AvailabilityResponse;
  const keys = Object.keys(response);
  const offers = response.offers;
  if (keys[keys.length - 1] !== 'offers' || !Array.isArray(offers) || !offers.every(isPlainOffer)) {
    return asciiJson(JSON.stringify(value));
  }
  // Everything but the offers by JSON.stringify, the offers (the last key) spliced in.
  const head = asciiJson(JSON.stringify({ ...response, offers: 0 }));
  return `${head.slice(0, -'0}'.length)}[${offers.map(offerJson).join(',')}]}`;
}
