/**
 * fast-check generators of requests to the Partner API: valid ones built from what the target exposes, and
 * hostile ones with the answer the spec expects. Imports contract/ only, so the suite stays an oracle.
 */

export { addDays, daysBetween, isIsoDate, yearsBefore } from '../contract/iso-date.ts';
export { type BodyCase, type CodecVerdict, concatBytes, type HeaderCase, INVALID_UTF8, utf8 } from './cases.ts';
export { type DriverOptions, driver, emailOfLength } from './driver.ts';
export {
  type Acceptance,
  accepted,
  type ErrorAnswer,
  type Expectation,
  isAcceptance,
  isRejection,
  type Level,
  meetsRejection,
  type Rejection,
  rejectWith,
  rejectWithAnyCodeOf,
} from './expectations.ts';
export { type BearerInputs, bearerAttacks, foreignKey } from './hostile-bearer.ts';
export {
  acceptCases,
  acceptExpectation,
  acceptHeader,
  badIdempotencyKey,
  contentTypeCases,
  idempotencyKeyCases,
  keyOfLength,
  type Negotiated,
  negotiate,
} from './hostile-headers.ts';
export { jsonAttacks } from './hostile-json.ts';
export {
  malformedCodes,
  type SchemaFault,
  type SchemaFaultKind,
  schemaFault,
  schemaFaults,
  UNKNOWN_PROPERTY,
} from './hostile-schema.ts';
export { elementCount, nodeCountDocument, valueElement, type XmlAttackOptions, xmlAttacks } from './hostile-xml.ts';
export { differences, fieldName } from './json-path.ts';
export {
  dayAfterToday,
  type LocationPair,
  locationPairs,
  MAX_DAYS_AHEAD,
  type PairOptions,
  planDayRange,
  shoppableVehicles,
  type TargetListings,
} from './listings.ts';
export { type RenderedBody, type RenderOptions, type Representation, renderBody, renderForm } from './render.ts';
export { type RentalWindowOptions, rentalWindow } from './rental-window.ts';
export {
  availabilityRequest,
  cancelRequest,
  extras,
  type IdempotencyKeyOptions,
  idempotencyKey,
  quoteRequest,
  type ReservationOptions,
  reservationRequest,
  type ShoppingOptions,
  type TokenForm,
  tokenForm,
} from './requests.ts';
export { asciiFold, type TextOptions, xmlChar, xmlText } from './text.ts';
