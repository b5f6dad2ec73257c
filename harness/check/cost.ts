/**
 * How many generated cases a property draws: --runs, capped by what one case costs the target. Hundreds of
 * properties share one run and a limited target's minute (spec 8: a partner may be held to 600 requests a minute), so
 * a costlier case draws fewer, and --runs above a cap raises none of that cost's properties; a longer campaign draws
 * more through the properties that take --runs whole. One table, so a cap is changed and explained in one place.
 *
 * The caps are the suite's verdicts: a property's first cases are the same whatever the cap (fast-check draws them
 * from the seed in order), so lowering a cap drops the cases that caught some fault; the mutation matrix is the
 * proof after any change here.
 */
export const CASE_CAPS = {
  /** One quote whose every charge is recomputed: the charges vary with window, plan and route, so the most draws. */
  quoteCharges: 15,
  /** One request to /availability and one to /quotes, each of which must be answered, never refused. */
  bothShoppingEndpoints: 12,
  /** One read or one shopping request, whose every offer or answer is judged. */
  oneRequest: 10,
  /**
   * A token request the endpoint refuses: the fault kinds are five and the Accept values three, so ten cases reach
   * every kind with room to spare; the endpoint has limits of its own, per client and per address (8.16), and may
   * answer a failed client authentication slowly on purpose.
   */
  tokenRefusal: 10,
  /** A field's bounds on both shopping endpoints: the value inside accepted, the one outside refused (four requests). */
  fieldBounds: 10,
  /**
   * A row of the error code table: one cheap request. A row judges its code's status and retryable flag, the same for
   * every condition that raises it; the conditions themselves are explored by the clauses that state them.
   */
  errorRow: 8,
  /** A request whose answer is judged against the clock or against the same request asked again (two to four). */
  repeatedOrTimed: 8,
  /** A validation rule's fault sent to /availability and /quotes (and the pair rule's control): two to four requests. */
  validationRule: 6,
  /** One availability request: the largest answers of the API. */
  availability: 5,
  /** A case books a generated request (body, key, reason): the variety of what is booked is the subject. */
  generatedBooking: 5,
  /** An error row's large request, or one that touches the booking path. */
  largeOrBookingRequest: 5,
  /** One XML document judged whole: parsing is the subject, the values a few draws. */
  xmlDocument: 4,
  /** A case of a request or two (one quote, one listing read): the resource checks are many, one per field rule. */
  request: 3,
  /**
   * A case of several requests, or one a target may make slow on purpose (a failed client authentication); or one
   * base request an attack on the document's form is built around, where two draws show a parser that refuses the
   * attack only around some values.
   */
  severalRequests: 2,
  /** A case books, and the booking is the means, not the subject: bookings are slow and stay until the cleanup. */
  booking: 2,
} as const satisfies Record<string, number>;

export type Cost = keyof typeof CASE_CAPS;

/**
 * The cases a property of `cost` draws in this run: --runs, at most the cost's cap, and at most `values` when the
 * property draws from that many constants (more cases would only repeat one).
 */
export function casesFor(
  t: { readonly settings: { readonly runs: number } },
  cost: Cost,
  values: number = Number.POSITIVE_INFINITY,
): number {
  return Math.min(t.settings.runs, CASE_CAPS[cost], values);
}
