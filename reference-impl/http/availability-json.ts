import type { AvailabilityOffer, AvailabilityResponse, FleetVehicle } from '../../contract/types.ts';
import { asciiJson, scalarJson, stringJson } from './ascii-json.ts';
import { ByteSlab } from './byte-slab.ts';
import { jsonText } from './json-bytes.ts';

/**
 * The JSON of an availability answer as bytes, always ASCII: the value JSON.stringify gives, written in ASCII
 * (`asciiJson`), with each vehicle's bytes made once (the vehicles are most of the answer and never change) and each
 * amount's text once (a dong amount is one frozen object, `domain/money.ts`, its text kept by `jsonText`). Written
 * straight into one buffer: built as one string, the answer was flattened, copied into bytes and its UTF-8 length
 * measured, two fifths of an availability call in the server (docs/measurements/bench-2026-11-24-to-29.md "Answers as bytes"). Any offer not of
 * the shape Shopping makes (a fault may add, drop or reorder fields) is left to JSON.stringify.
 */
const vehicleBytes = new WeakMap<FleetVehicle, Buffer>();
const bodySlab = new ByteSlab();

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

function bytesOfVehicle(vehicle: FleetVehicle): Buffer {
  let bytes = vehicleBytes.get(vehicle);
  if (bytes === undefined) {
    bytes = Buffer.from(asciiJson(JSON.stringify(vehicle)), 'latin1');
    // Only frozen vehicles may be remembered: a mutable one could change after its bytes were made.
    if (Object.isFrozen(vehicle)) vehicleBytes.set(vehicle, bytes);
  }
  return bytes;
}

/** ASCII JSON text, or bytes already made. */
type Piece = string | Buffer;

interface SharedTexts {
  expiresAt?: unknown;
  expiresAtJson?: string;
}

function offerPieces(offer: AvailabilityOffer, first: boolean, pieces: Piece[], shared: SharedTexts): number {
  // Every offer of one answer has the same expiry: its text is made once.
  if (shared.expiresAt !== offer.quoteExpiresAt) {
    shared.expiresAt = offer.quoteExpiresAt;
    shared.expiresAtJson = stringJson(offer.quoteExpiresAt);
  }
  const before = `${first ? '' : ','}{"quoteId":${stringJson(offer.quoteId)},"quoteExpiresAt":${shared.expiresAtJson},"vehicle":`;
  const vehicle = bytesOfVehicle(offer.vehicle);
  const after = `,"rentalDays":${scalarJson(offer.rentalDays)},"dailyRate":${jsonText(offer.dailyRate)},"estimatedTotal":${jsonText(offer.estimatedTotal)},"currency":${stringJson(offer.currency)}}`;
  pieces.push(before, vehicle, after);
  return before.length + vehicle.length + after.length;
}

export function availabilityJson(value: unknown): Buffer {
  const response = value as AvailabilityResponse;
  const keys = Object.keys(response);
  const offers = response.offers;
  if (keys[keys.length - 1] !== 'offers' || !Array.isArray(offers) || !offers.every(isPlainOffer)) {
    return Buffer.from(asciiJson(JSON.stringify(value)), 'latin1');
  }
  // Everything but the offers by JSON.stringify, the offers (the last key) spliced in.
  const head = `${asciiJson(JSON.stringify({ ...response, offers: 0 })).slice(0, -'0}'.length)}[`;
  const pieces: Piece[] = [head];
  let length = head.length;
  const shared: SharedTexts = {};
  offers.forEach((offer, i) => {
    length += offerPieces(offer, i === 0, pieces, shared);
  });
  pieces.push(']}');
  length += 2;
  // Every text piece is ASCII, so its length is its byte length.
  const out = bodySlab.take(length);
  let at = 0;
  for (const piece of pieces) at += typeof piece === 'string' ? out.write(piece, at, 'latin1') : piece.copy(out, at);
  return out;
}
