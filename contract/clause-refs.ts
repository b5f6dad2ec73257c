import type { ErrorCode } from './errors.ts';
import { REASONS } from './xml/reasons.ts';

/**
 * Where the rules a check meets in passing are stated, so what it sees about them is filed under their clause
 * (docs/design.md "Check model"). Every id here is a clause of the clause catalogue (clause-refs.test.ts).
 */

/** Spec 7.3: the clause of each row of the code table (status and retryability of that code). */
export const ERROR_CODE_CLAUSE: Readonly<Record<ErrorCode, string>> = {
  UNAUTHORIZED: '7.3.1',
  INVALID_CLIENT: '7.3.2',
  INVALID_TOKEN: '7.3.3',
  INSUFFICIENT_SCOPE: '7.3.4',
  PARTNER_DISABLED: '7.3.5',
  VALIDATION_ERROR: '7.3.6',
  MALFORMED_JSON: '7.3.7',
  MALFORMED_XML: '7.3.8',
  NOT_ACCEPTABLE: '7.3.9',
  REQUEST_TOO_LARGE: '7.3.10',
  UNSUPPORTED_MEDIA_TYPE: '7.3.11',
  INVALID_ACCOUNT_CODE: '7.3.12',
  INVALID_RATE_CODE: '7.3.13',
  RATE_NOT_APPROVED: '7.3.14',
  INVALID_LOCATION: '7.3.15',
  LOCATION_NOT_ONE_WAY: '7.3.16',
  INVALID_RENTAL_WINDOW: '7.3.17',
  INVALID_VEHICLE: '7.3.18',
  FLEET_PROFILE_INCOMPLETE: '7.3.19',
  NOT_FOUND: '7.3.20',
  NO_AVAILABILITY: '7.3.21',
  QUOTE_EXPIRED: '7.3.22',
  QUOTE_INVALID: '7.3.23',
  QUOTE_STALE: '7.3.24',
  IDEMPOTENCY_KEY_REQUIRED: '7.3.25',
  IDEMPOTENCY_CONFLICT: '7.3.26',
  IDEMPOTENT_REPLAY_IN_FLIGHT: '7.3.27',
  DUPLICATE_PARTNER_REFERENCE: '7.3.28',
  RESERVATION_REJECTED: '7.3.29',
  INVALID_STATE_TRANSITION: '7.3.30',
  CANCELLATION_NEEDS_STAFF: '7.3.31',
  MODIFICATION_NOT_SUPPORTED: '7.3.32',
  RATE_LIMITED: '7.3.33',
  API_DISABLED: '7.3.34',
  DEPENDENCY_UNAVAILABLE: '7.3.35',
  INTERNAL_ERROR: '7.3.36',
};

/** Spec 4: the row of the endpoint table of each operation (its scope and success status). */
export const ENDPOINT_CLAUSE = {
  issueToken: '4.0.4',
  listFleet: '4.0.5',
  getFleetVehicle: '4.0.6',
  listLocations: '4.0.7',
  getLocation: '4.0.8',
  listRates: '4.0.9',
  searchAvailability: '4.0.10',
  createQuote: '4.0.11',
  createReservation: '4.0.12',
  listReservations: '4.0.13',
  getReservation: '4.0.14',
  modifyReservation: '4.0.15',
  cancelReservation: '4.0.16',
} as const;

export type OperationId = keyof typeof ENDPOINT_CLAUSE;

/**
 * Codes whose exact status and code one clause states for every endpoint (5.6: a token lacking the endpoint's
 * scope gets 403 INSUFFICIENT_SCOPE). An endpoint's own clause asks that such a call be refused; which status and
 * code say so is judged under this clause, so one wrong code fails it (and its 7.3 row), not every endpoint.
 */
export const CODE_OWNER_CLAUSE: Readonly<Partial<Record<ErrorCode, string>>> = {
  INSUFFICIENT_SCOPE: '5.6b',
};

/**
 * A rule the spec states in more than one clause, and which of them owns a deviation of it. Each clause keeps judging
 * its own sentence (a server breaking the rule fails all of them); the owner is the clause a report names first, the
 * one a reader fixes (harness/report/failures.ts). The owner is the clause that states the rule alone and whole; the
 * others repeat it among other rules (a request's shape, a header's description), for a part of what the owner covers,
 * or as a rule of every object or representation that the owner states for its own. Two clauses that state one rule
 * equally are not listed: the spec's first statement comes first.
 */
export interface RestatedRule {
  owner: string;
  restatedBy: readonly string[];
  /**
   * Where each clause's text states the rule: words found in all of them, or a phrase per clause id
   * (clause-refs.test.ts).
   */
  words: string | Readonly<Record<string, string>>;
  /** When the rule is one part of what the clauses state: what the owner's failure shows when it is that part. */
  when?: RegExp;
  /** Why the owner owns it, in the spec's terms. */
  why: string;
}

const LENGTHS_WHY =
  'the limits table states the length alone; ReservationRequest (2.12.1) lists it among its closedness, required ' +
  'keys, other lengths and the uniqueness of partnerReference';

export const RESTATED_RULES: readonly RestatedRule[] = [
  {
    owner: '8.2',
    restatedBy: ['2.8.2', '2.9.3'],
    words: '30 minutes',
    why:
      'the limits table states the quote validity once for availability offers, quotes and reservation creation; ' +
      "2.8.2 repeats it for an offer's quoteId and 2.9.3 for a quote's expiresAt, each for one of the three",
  },
  {
    owner: '8.3',
    restatedBy: ['4.7.11'],
    words: '8 to 200',
    why:
      'the limits table states the Idempotency-Key length alone; 4.7.11 describes the whole header (required, a ' +
      'string, its length, unique per attempt)',
  },
  {
    owner: '8.5',
    restatedBy: ['4.8.1'],
    words: '1 to 100',
    why:
      "the limits table bounds the reservation list's limit, which the answer's ReservationList carries; 4.8.1 " +
      'describes the query parameter that asks for it',
  },
  {
    owner: '8.6',
    restatedBy: ['2.12.3'],
    words: 'max 50',
    why: 'the limits table states the bound alone; AvailabilityRequest (2.12.3) lists it among its other fields',
  },
  { owner: '8.8', restatedBy: ['2.12.1'], words: 'max 64', why: LENGTHS_WHY },
  { owner: '8.9', restatedBy: ['2.12.1'], words: 'max 1000', why: LENGTHS_WHY },
  { owner: '8.10', restatedBy: ['2.12.1'], words: 'max 20', why: LENGTHS_WHY },
  {
    owner: '8.11',
    restatedBy: ['2.12.2'],
    words: '500 chars',
    why: 'the limits table states the length alone; CancelRequest (2.12.2) states it with its closedness',
  },
  {
    owner: '4.7.7',
    restatedBy: ['2.12.1'],
    words: 'partnerReference',
    why:
      'the booking behaviour states what a reused reference gets (409 DUPLICATE_PARTNER_REFERENCE) and that it holds ' +
      'permanently; ReservationRequest (2.12.1) says "unique per partner" among its other rules',
  },
  {
    owner: '2.9.8c',
    restatedBy: ['2.6.15'],
    words: 'branch',
    why:
      "the quote's oneWayFee states the fee: charged across branches, zero otherwise; a location's branchCode (2.6.15) " +
      'repeats that one-way fees are branch-scoped',
  },
  {
    owner: '2.7.7',
    restatedBy: ['1.4a'],
    words: 'codes',
    why:
      'the rate plan list states which codes a partner is shown: its own, approved and activated; 1.4a says a partner ' +
      'sees only its own reservations, rates and codes, for every resource at once',
  },
  {
    owner: '5.3c',
    restatedBy: ['2.0.2'],
    words: { '5.3c': 'No refresh token', '2.0.2': 'no unknown properties' },
    why:
      'it says no refresh token is issued; a refresh_token member is also a property the token response does not ' +
      'have, which 2.0.2 refuses in every object',
  },
  {
    owner: '4.11.4',
    restatedBy: ['4.11.2'],
    words: { '4.11.4': 'No refund is calculated or promised', '4.11.2': 'the reservation in its new state' },
    why:
      'it states what a cancel answer says of the money: no refund calculated or promised, the total as booked; 4.11.2 ' +
      'says the answer is the reservation in its new state, the total one of its fields',
  },
  {
    owner: '7.1.2',
    restatedBy: ['7.2.1'],
    words: { '7.1.2': 'Used only by the token endpoint', '7.2.1': '{ error: { code' },
    why:
      "it states that the OAuth error shape is the token endpoint's alone; 7.2.1 gives every other error the envelope. " +
      'A business error in the OAuth shape is what 7.1.2 names, and only the converse of 7.2.1',
  },
  {
    owner: '9.4',
    restatedBy: ['4.14.1', '4.14.2'],
    words: { '9.4': 'namespace carries the version', '4.14.1': 'partner-api:v1', '4.14.2': 'that namespace' },
    when: /partner-api:v(?!1\b)\d+/,
    why:
      'a namespace that is the v1 one with another version breaks what 9.4 states: the version the namespace ' +
      'carries. 4.14.1 and 4.14.2 state the namespace and that every element is in it; any other namespace is theirs',
  },
  ...['2.3.1', '2.5.15', '2.10.1', '2.12.1', '2.12.2', '2.12.3', '2.12.4'].map(
    (owner): RestatedRule => ({
      owner,
      restatedBy: ['2.0.2'],
      words: 'closed',
      why: 'it states that its object is closed; 2.0.2 states it for every object not stated otherwise',
    }),
  ),
];

/** Rules a response meets whatever the operation. */
export const RESPONSE_CLAUSES = {
  /** 4: each business response carries X-Request-Id. */
  requestIdHeader: '4.0.2',
  /** 4, 8: rate-limited endpoints carry X-RateLimit-*. */
  rateLimitHeaders: '4.0.3',
  /** 4.13: the response type follows Accept (JSON by default). */
  jsonMediaType: '4.13.1a',
  /** 4.13: XML responses are UTF-8 and use the selected media type. */
  xmlMediaType: '4.13.4',
  /** 7.2: every error but the token endpoint's is the closed envelope (a body that is not one at all). */
  envelope: '7.2.1',
  /** 7.2: error.code is a string (clients switch on it). */
  envelopeCode: '7.2.2',
  /** 7.2: error.requestId equals the X-Request-Id header. */
  envelopeRequestId: '7.2.4',
  /** 7.1: the token endpoint's error shape. */
  oauthError: '7.1.1',
  /** 4.1: token responses are always JSON. */
  tokenJson: '4.1.8',
  /** 4: business endpoints send JSON by default (a JSON body that does not parse). */
  json: '4.0.1',
  /** 9.3: field names are as in the spec (a field sent under another spelling). */
  fieldNames: '9.3b',
} as const;

/** Spec 4.14: the clause of each reason a typed-XML response cannot be read for. */
export const XML_REASON_CLAUSE: Readonly<Record<string, string>> = {
  [REASONS.tooLarge]: '4.14.17a',
  [REASONS.invalidUtf8]: '4.13.4',
  [REASONS.xmlEncoding]: '4.13.4',
  [REASONS.notWellFormed]: '4.14.9',
  [REASONS.invalidCharacter]: '4.14.9',
  [REASONS.cdataEnd]: '4.14.9',
  // In a response, a & that starts no predefined or numeric reference is a string's special character left
  // unescaped (4.14.9); 4.14.15 is about the references a server accepts.
  [REASONS.entity]: '4.14.9',
  [REASONS.charRef]: '4.14.15',
  // The next four never come from a response: the suite reads a response with `responseMarkup` (a DTD, comments,
  // CDATA and processing instructions are rejections of a request, not rules of what a server writes).
  [REASONS.doctype]: '4.14.14c',
  [REASONS.comment]: '4.14.14d',
  [REASONS.cdata]: '4.14.14e',
  [REASONS.processingInstruction]: '4.14.14f',
  [REASONS.xmlDeclaration]: '4.14.16',
  [REASONS.xmlVersion]: '4.14.16',
  [REASONS.namespaceSyntax]: '4.14.2',
  [REASONS.tooDeep]: '4.14.17a',
  [REASONS.tooManyNodes]: '4.14.17a',
  [REASONS.wrongNamespace]: '4.14.1',
  [REASONS.wrongRoot]: '4.14.3',
  [REASONS.missingVersion]: '4.14.4',
  [REASONS.wrongVersion]: '4.14.4',
  [REASONS.rootChildCount]: '4.14.4',
  [REASONS.unexpectedAttribute]: '4.14.5',
  [REASONS.unknownElement]: '4.14.5',
  [REASONS.misplacedElement]: '4.14.5',
  [REASONS.propertyChildCount]: '4.14.6',
  [REASONS.missingPropertyName]: '4.14.6',
  [REASONS.duplicatePropertyName]: '4.14.6',
  [REASONS.reservedPropertyName]: '4.14.6',
  [REASONS.itemChildCount]: '4.14.8',
  [REASONS.childInScalar]: '4.14.9',
  [REASONS.textOutsideScalar]: '4.14.9',
  [REASONS.invalidNumber]: '4.14.10',
  [REASONS.invalidBoolean]: '4.14.11',
  [REASONS.invalidNull]: '4.14.12',
};

/** The clause an unreadable typed-XML response breaks; 4.14.9 (text escaping) for a reason not listed. */
export function xmlReasonClause(reason: string): string {
  return XML_REASON_CLAUSE[reason] ?? '4.14.9';
}

/** The clause of "XML answers have the same field names and values as JSON" (spec 4.14). */
const XML_SAME_VALUES = '4.14.18a';
/** The clause of "authentication, scopes … and rate limits are identical for both representations" (spec 4.13). */
const XML_SAME_ACCESS = '4.13.5a';

/**
 * Where a clause met in JSON and broken in XML only is filed (harness/report/build.ts xmlOnlyToRepresentation): the
 * scopes of initial credentials (1.7), the endpoint table's scope rows (4.0), authentication (5) and the limits (8)
 * are access, the same in both representations (4.13.5a: "XML grants no extra access"); anything else is an
 * answer's names and values (4.14.18a).
 */
export function xmlOnlyClauseOf(clauseId: string): string {
  return /^(1\.7$|4\.0\.|5\.|8\.)/.test(clauseId) ? XML_SAME_ACCESS : XML_SAME_VALUES;
}

/**
 * Clauses of 4.13 and 4.14, which are about the representations themselves: one broken in XML only is broken where
 * it is stated, and is never filed under xmlOnlyClauseOf's clause.
 */
export function isRepresentationClause(clauseId: string): boolean {
  return clauseId.startsWith('4.13.') || clauseId.startsWith('4.14.');
}
