import type { NonServiceStatement, OpenPoint } from './types.ts';

/** What the spec explicitly leaves open ("not shown"): no check may assert it. */
export const OPEN_POINTS: readonly OpenPoint[] = [
  {
    section: '2.2',
    text: 'Identifier formats of reservationId, quoteId and the booking code: not shown beyond their being strings',
  },
  { section: '2.8', text: 'rule for counting days from the window: not shown' },
  { section: '3', text: 'Set of cancellable states: not shown.' },
  {
    section: '3',
    text: 'All other transitions between statuses (including into pending, in_progress, completed, expired, rejected): not shown.',
  },
  {
    section: '4.6',
    text: 'Price computation (daily rates, extras prices, one-way fee amounts, discounts): not shown.',
  },
  {
    section: '7.3',
    text: 'The specific code returned for violations such as a driver under 18 or an unknown-field rejection, beyond the generic VALIDATION_ERROR, is not shown.',
  },
  { section: '8', text: 'Ceiling values for these limits: not shown.' },
  { section: '9', text: 'Policy for deprecation, additive changes and future versions: not shown.' },
];

/**
 * Normative sentences that bind the client, the deployment or the commercial agreement, not the service's
 * behaviour: no check can judge a server on them, so they are accounted for here instead of as clauses.
 */
export const NON_SERVICE_STATEMENTS: readonly NonServiceStatement[] = [
  {
    section: '1',
    text: 'Settlement between the operator and the partner happens outside the API under the partner agreement.',
    reason: 'commercial agreement, outside the API',
  },
  {
    section: '1',
    text: 'There is no isolated sandbox.',
    reason: 'deployment fact; the suite honours it by its profiles, a server cannot show it',
  },
  {
    section: '1',
    text: 'Executed data-protection terms are required before live traveller bookings.',
    reason: 'onboarding precondition, outside the API',
  },
  {
    section: '1',
    text: 'Pricing, settlement, support and service-level terms are outside the API and are set in the distribution agreement.',
    reason: 'commercial agreement, outside the API',
  },
  {
    section: '2.1',
    text: 'Arithmetic uses amount and exponent.',
    reason: 'client duty: how clients compute with Money',
  },
  {
    section: '5',
    text: 'clients reuse one until expiry rather than requesting one per call',
    reason: 'client duty; the harness token cache honours it',
  },
  {
    section: '5',
    text: 'Read and shop scopes are granted first; booking scopes follow a joint certification.',
    reason: 'onboarding process; what a token carries is judged by 5.5b and 1.7',
  },
  {
    section: '6',
    text: 'clients process repeated observations idempotently',
    reason: 'client duty',
  },
];
