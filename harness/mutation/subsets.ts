/**
 * Named subsets of the mutation matrix. `fast` runs in `npm test` (one fault per spec section and five benign
 * variants); `ci` runs in `.ci/run` after it (about a third of the matrix); the whole matrix runs on demand.
 */
export const SUBSETS: Readonly<Record<string, readonly string[]>> = {
  fast: [
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
  ],
};
