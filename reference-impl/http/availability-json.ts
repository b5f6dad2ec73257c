import type { AvailabilityOffer, AvailabilityResponse, FleetVehicle } from '../../contract/types.ts';

/**
 * The JSON text of an availability answer, byte for byte what JSON.stringify gives, with each vehicle's text made once
 * (the vehicles are most of the answer's bytes and never change; load/README.md "Profile findings"). Any offer not of
 * the shape Shopping makes (a fault may add, drop or reorder fields) is left to JSON.stringify.
 */
const vehicleJson = new WeakMap<FleetVehicle, string>();

const OFFER_KEYS = ['quoteId', 'quoteExpiresAt', 'vehicle', 'rentalDays', 'dailyRate', 'estimatedTotal', 'currency'];

function isPlainOffer(offer: unknown): offer is AvailabilityOffer {
  if (typeof offer !== 'object' || offer === null || Object.getPrototypeOf(offer) !== Object.prototype) return false;
  const keys = Object.keys(offer);
  return keys.length === OFFER_KEYS.length && keys.every((key, i) => key === OFFER_KEYS[i]);
}

function offerJson(offer: AvailabilityOffer): string {
  let vehicle = vehicleJson.get(offer.vehicle);
  if (vehicle === undefined) {
    vehicle = JSON.stringify(offer.vehicle);
    // Only frozen vehicles may be remembered: a mutable one could change after its text was made.
    if (Object.isFrozen(offer.vehicle)) vehicleJson.set(offer.vehicle, vehicle);
  }
  return `{"quoteId":${JSON.stringify(offer.quoteId)},"quoteExpiresAt":${JSON.stringify(offer.quoteExpiresAt)},"vehicle":${vehicle},"rentalDays":${JSON.stringify(offer.rentalDays)},"dailyRate":${JSON.stringify(offer.dailyRate)},"estimatedTotal":${JSON.stringify(offer.estimatedTotal)},"currency":${JSON.stringify(offer.currency)}}`;
}

export function availabilityJson(value: unknown): string {
  const response = value as AvailabilityResponse;
  const keys = Object.keys(response);
  const offers = response.offers;
  if (keys[keys.length - 1] !== 'offers' || !Array.isArray(offers) || !offers.every(isPlainOffer)) {
    return JSON.stringify(value);
  }
  // Everything but the offers by JSON.stringify, the offers (the last key) spliced in.
  const head = JSON.stringify({ ...response, offers: 0 });
  return `${head.slice(0, -'0}'.length)}[${offers.map(offerJson).join(',')}]}`;
}
