/**
 * Named subsets of the mutation matrix. `fast` runs in `npm test` (one fault per spec section and five benign
 * variants); `ci-extra` runs in `.ci/run` after it (together `ci`); the whole matrix runs on demand.
 */
const FAST: readonly string[] = [
  'reservation-list-leaks',
  'money-currency-lowercase',
  'repeat-cancel-conflict',
  'replay-without-header',
  'insufficient-scope-401',
  'reservation-history-served',
  'envelope-extra-field',
  'rate-limit-reset-epoch',
  'xml-namespace-v2',
  'benign-completed-cancellable',
  'benign-sliding-rate-window',
  'benign-xml-prefix',
  'benign-list-count-total',
  'benign-unknown-field-code',
];

/** A fault or variant of each audit finding the fast subset does not cover (.ci/run certifies these after it). */
const CI_EXTRA: readonly string[] = [
  'request-id-differs',
  'partner-reference-empty-string',
  'message-echoes-driver-email',
  'quote-validity-one-hour',
  // decline-still-books behind a list that lags a second: also the loophole a lagging list would open (spec 6.3).
  'decline-still-books-lagging-list',
  'api-switch-ignored',
  'scope-unchecked-listFleet',
  'retry-after-http-date',
  // A target's answer no check can read is a fail of its clause, never an error (docs/design.md "Check model").
  'rate-limit-429-without-retry-after',
  'xml-response-conflicting-duplicate',
  'booking-broken-json-500',
  'scope-intersection-ignored',
  'duplicate-reference-race',
  'benign-global-idempotency-keys',
  'benign-oauth-error-values',
  'benign-lenient-phone',
  'benign-plain-404-unknown-paths',
  'benign-retry-after-full-minute',
  'benign-opaque-reservation-ids',
  'benign-idempotency-whole-seconds',
  'benign-sliding-window-cached-date',
  // The second audit's answers: the composite of the foreign servers' choices, allotments, a narrowed token.
  'foreign-choices',
  'allotment-of-ten',
  'allotment-refused-at-quote',
  'benign-token-narrows-scope',
];

export const SUBSETS: Readonly<Record<string, readonly string[]>> = {
  fast: FAST,
  /** What .ci/run adds after `npm run test:long` (which runs the fast subset): the whole suite per entry. */
  'ci-extra': CI_EXTRA,
  /** The fast subset and the ci extras: about a tenth of the matrix, the whole suite per entry. */
  ci: [...FAST, ...CI_EXTRA],
};
