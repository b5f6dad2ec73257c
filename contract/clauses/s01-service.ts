import { inSection } from './define.ts';
import type { Clause } from './types.ts';

/**
 * Spec 1: the rules that hold across the service (its numbered list, numbers kept).
 * The bullet list of what partners can do is descriptive; the endpoint rows of 4 carry it.
 */
export const SERVICE_CLAUSES: readonly Clause[] = inSection('1', [
  {
    id: '1.1a',
    title: 'Availability is model-level: no per-unit overlap check, unit inventory or decrementing allotment',
    text: 'Availability is model-level, not unit-level. There is no per-unit date-overlap check, no unit inventory and no decrementing allotment.',
    verification: 'wire',
    minProfile: 'book',
  },
  {
    id: '1.1b',
    title: 'An offer means the class is offered at that location, for those dates, at that price',
    text: 'An offer means the vehicle class is offered at that location, for those dates, at that price.',
    verification: 'wire',
    minProfile: 'shop',
  },
  {
    id: '1.1c',
    title: 'No physical car is held or guaranteed at shop, quote or reservation time',
    text: 'No physical car is held or guaranteed at shop, quote or reservation time.',
    verification: 'wire',
    minProfile: 'book',
  },
  {
    id: '1.1d',
    title: 'Unit-level availability is not an API option',
    text: 'Unit-level availability is not an API option.',
    verification: 'static',
    minProfile: 'catalog',
  },
  {
    id: '1.2',
    title: 'Every money amount is a Money object; no bare floating-point amounts',
    text: 'Every money amount is a Money object (see section 2). Bare floating-point amounts do not occur.',
    verification: 'wire',
    minProfile: 'catalog',
  },
  {
    id: '1.3a',
    title: 'Reservations are created confirmed, with no online payment',
    text: 'Reservations are created as confirmed with no online payment.',
    verification: 'wire',
    minProfile: 'book',
  },
  {
    id: '1.3b',
    title: 'The refundable security deposit is collected at pickup and shown apart from the rental charge',
    text: 'The refundable security deposit is collected from the driver at pickup and is shown separately from the rental charge.',
    verification: 'wire',
    minProfile: 'shop',
  },
  {
    id: '1.4a',
    title: 'A partner only sees its own reservations, rates and codes',
    text: 'A partner only ever sees its own reservations, rates and codes.',
    verification: 'wire',
    minProfile: 'catalog',
  },
  {
    id: '1.4b',
    title: "Another partner's resource is indistinguishable from a nonexistent one (404)",
    text: "Another partner's resource is indistinguishable from a nonexistent one (404).",
    verification: 'wire',
    minProfile: 'book',
  },
  {
    id: '1.5',
    title: 'Reservation modification is unsupported in v1 (cancel and re-book)',
    text: 'Reservation modification is deliberately unsupported in v1 (cancel and re-book).',
    verification: 'wire',
    minProfile: 'book',
  },
  {
    id: '1.6a',
    title: 'Vehicle classification uses SIPP (ACRISS) codes',
    text: 'Vehicle classification uses SIPP (ACRISS) codes.',
    verification: 'wire',
    minProfile: 'catalog',
  },
  {
    id: '1.6b',
    title: 'IATA identifiers appear only as an optional field of airport locations',
    text: 'IATA airport identifiers appear only as an optional field of airport locations.',
    verification: 'wire',
    minProfile: 'catalog',
  },
  {
    id: '1.6c',
    title: 'No claim of membership or certification by ACRISS, IATA or travel-messaging standards bodies',
    text: 'The operator claims no membership of or certification by those bodies, nor by any travel-messaging standards body.',
    verification: 'static',
    minProfile: 'catalog',
  },
  {
    id: '1.6d',
    title: 'The XML representation is proprietary: not SOAP, no WSDL, not OpenTravel-compatible',
    text: 'The XML representation is proprietary: it is not SOAP, has no WSDL, and is not OpenTravel-compatible.',
    verification: 'static',
    minProfile: 'catalog',
  },
  {
    id: '1.7',
    title: 'Initial integration credentials read live catalogue and pricing data and carry no reservation scope',
    text: 'Initial integration credentials read live catalogue and pricing data and carry no reservation scope.',
    verification: 'wire',
    minProfile: 'catalog',
  },
]);
