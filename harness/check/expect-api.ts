import { CODE_OWNER_CLAUSE, ERROR_CODE_CLAUSE, RESPONSE_CLAUSES, xmlReasonClause } from '../../contract/clause-refs.ts';
import { MEDIA_TYPES } from '../../contract/constants.ts';
import { ERROR_CODES, type ErrorCode, isErrorCode, OAUTH_ERRORS, type OAuthErrorCode } from '../../contract/errors.ts';
import { CLOSED_OBJECTS_CLAUSE, SCHEMA_CLAUSES } from '../../contract/schemas/clause-map.ts';
import type { SchemaName } from '../../contract/schemas/index.ts';
import type { AvailabilityResponse, FleetList, LocationList, RateList, ReservationList } from '../../contract/types.ts';
import { schemaViolations } from '../../contract/validation.ts';
import type { ApiResult } from '../http/partner-client.ts';
import type { Representation } from '../http/representation.ts';
import { claim, currentClauseId, currentRepresentation, requireStep } from './scope.ts';
import { transientSignal } from './signal.ts';
import { answersText, expectedGot, inlineValue, responseText } from './wording.ts';

/**
 * The assertions every check makes about responses. Each judges one clause: the check's own requirement (status
 * and code) fails the check; what the response shows about another clause (the envelope, X-Request-Id, the media
 * type, a field of the body) is filed under that clause (scope.ts), so one deviation fails one clause.
 */

/** Spec 4.13: the media type a response of the representation must carry (the selected one). */
export const MEDIA_TYPE_OF: Record<Representation, string> = { json: MEDIA_TYPES.json, xml: MEDIA_TYPES.xml };

const XML_TYPES = new Set<string>([MEDIA_TYPES.xml, MEDIA_TYPES.textXml]);

/** Spec 4.14: "Errors are returned in the same envelope, with the same fields and HTTP status, in XML." */

function statusText(result: ApiResult): string {
  return `HTTP ${result.status} ${result.mediaType ?? 'without Content-Type'}`;
}

/** The check's own clause (or, outside a check, a placeholder that makes claim() assert). */
function own(): string {
  return currentClauseId() ?? 'own';
}

/**
 * The clause a body that cannot be read breaks: the XML rule its parser names, the envelope for an error (7.2),
 * JSON by default (4) for a success, or the negotiated media type (4.13) when it is neither JSON nor XML.
 */
function unreadableClause(result: ApiResult, error: boolean): string {
  if (result.parseFailure?.representation === 'xml') return xmlReasonClause(result.parseFailure.reason);
  if (error) return RESPONSE_CLAUSES.envelope;
  if (result.parseFailure?.representation === 'json') return RESPONSE_CLAUSES.json;
  return RESPONSE_CLAUSES.jsonMediaType;
}

/**
 * The parsed body of a response the check goes on with. A body that cannot be read (not JSON, broken typed XML,
 * another media type) is filed under the clause it breaks and ends the check blocked.
 */
export function readableBody(result: ApiResult, what = 'the response body', error = false): unknown {
  if (result.readDespite) {
    const { clauseId, reason } = result.readDespite;
    claim(clauseId ?? xmlReasonClause(reason), false, `${what}: ${reason}`, {
      actual: result.excerpt,
      response: result,
    });
  }
  if (result.body !== undefined) return result.body;
  const reason = result.parseError ?? (result.text === '' ? 'the body is empty' : 'not JSON or typed XML');
  requireStep(unreadableClause(result, error), false, `${what} cannot be read (${statusText(result)}: ${reason})`, {
    actual: result.excerpt,
    response: result,
  });
  return undefined;
}

/**
 * The parsed body of a response whose status the check has judged, as the type the check reads it as: a body that
 * cannot be read (broken typed XML, not JSON, none) is filed under the clause it breaks and blocks the check
 * (readableBody), so no check reads a property of an undefined body. What the body holds is still the check's to
 * judge (expectSchema).
 */
export function bodyOf<T>(result: ApiResult, what: string): T {
  return readableBody(result, what, result.status >= 400) as T;
}

/** The JSON kind of a key a check reads next (requireKeys). */
export type JsonKind = 'object' | 'array' | 'string' | 'number';

/** The JSON kind of a value as a person names it ("none" for a missing key). */
function kindOf(value: unknown): string {
  if (value === undefined) return 'none';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value} (${inlineValue(value, 40)})`;
}

function isKind(value: unknown, kind: JsonKind): boolean {
  if (kind === 'array') return Array.isArray(value);
  if (kind === 'object') return value !== null && typeof value === 'object' && !Array.isArray(value);
  return typeof value === kind;
}

/**
 * What a check reads next of a body value (a quote's charges, a list's array): each key present with its JSON kind,
 * or the check is blocked, the deviation filed under the key's clause (contract/schemas/clause-map.ts: `Quote.charges`
 * is 2.9.8a's, `FleetList.vehicles` 2.12.6a's). The key's other rules stay its clause's to judge (expectSchema); this
 * only keeps a check from reading into what is not there.
 */
export function requireKeys(
  value: unknown,
  schema: SchemaName,
  keys: Readonly<Record<string, JsonKind>>,
  what: string,
): void {
  for (const [key, kind] of Object.entries(keys)) {
    const found = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    const clause = SCHEMA_CLAUSES[`${schema}.${key}`] ?? SCHEMA_CLAUSES[`${schema}#required`] ?? CLOSED_OBJECTS_CLAUSE;
    const article = kind === 'array' || kind === 'object' ? 'an' : 'a';
    requireStep(clause, isKind(found, kind), expectedGot(`${what}: ${key}`, `${article} ${kind}`, kindOf(found)), {
      actual: found,
    });
  }
}

/** The array each list answer carries (spec 2.12.5, 2.12.6). */
const LIST_ARRAYS = {
  AvailabilityResponse: 'offers',
  FleetList: 'vehicles',
  LocationList: 'locations',
  RateList: 'rates',
  ReservationList: 'reservations',
} as const;

type ListSchema = keyof typeof LIST_ARRAYS;

interface ListItems {
  AvailabilityResponse: AvailabilityResponse['offers'];
  FleetList: FleetList['vehicles'];
  LocationList: LocationList['locations'];
  RateList: RateList['rates'];
  ReservationList: ReservationList['reservations'];
}

/**
 * The array of a list answer whose status the check judged (a FleetList's vehicles, an AvailabilityResponse's
 * offers): a body that cannot be read, or that lacks the array, blocks the check, filed under the clause it breaks
 * (2.12.5, 2.12.6a-d). Its items are still the check's to judge.
 */
export function listItems<S extends ListSchema>(result: ApiResult, schema: S, what: string): ListItems[S] {
  const body = bodyOf<Record<string, unknown>>(result, what);
  const key = LIST_ARRAYS[schema];
  requireKeys(body, schema, { [key]: 'array' }, what);
  return body[key] as ListItems[S];
}

/**
 * Spec 4.13: the response's Content-Type is the representation's media type (or exactly `expected` when it is a
 * media type). Filed under 4.13.1a (the type follows Accept) unless the check judges another clause about it; an XML
 * answer with another XML media type than the selected one is 4.13.4's. An answer in no XML type at all to an XML
 * call, error or not, is 4.13.1a's: one answer cannot tell a server ignoring Accept from one writing only its errors
 * in JSON, and the 4.14.18b checks judge the latter themselves (docs/ambiguities.md S29).
 */
export function expectMediaType(result: ApiResult, expected: Representation | string, clauseId?: string): void {
  const mediaType = expected === 'json' || expected === 'xml' ? MEDIA_TYPE_OF[expected] : expected;
  const acceptable = expected === 'xml' ? XML_TYPES.has(result.mediaType ?? '') : result.mediaType === mediaType;
  const xmlAnswer = XML_TYPES.has(mediaType) && XML_TYPES.has(result.mediaType ?? '');
  const clause = clauseId ?? (xmlAnswer ? RESPONSE_CLAUSES.xmlMediaType : RESPONSE_CLAUSES.jsonMediaType);
  const what = `Content-Type of the HTTP ${result.status} response`;
  claim(clause, acceptable, expectedGot(what, mediaType, result.mediaType ?? 'none'), {
    expected: mediaType,
    actual: result.mediaType,
    response: result,
  });
}

/**
 * Spec 4.13.1a: an answer asked for in `representation` comes in it. One that does not (JSON to an XML Accept) is
 * filed under 4.13.1a, and the check, judging rules of that representation, is blocked: nothing of them to judge.
 */
export function requireRepresentation(result: ApiResult, representation: Representation, what: string): void {
  const ok = representation === 'xml' ? XML_TYPES.has(result.mediaType ?? '') : result.mediaType === MEDIA_TYPES.json;
  requireStep(
    RESPONSE_CLAUSES.jsonMediaType,
    ok,
    expectedGot(
      `${what}: the answer to an Accept of ${representation}`,
      MEDIA_TYPE_OF[representation],
      result.mediaType ?? 'no Content-Type',
    ),
    { expected: MEDIA_TYPE_OF[representation], actual: result.mediaType, response: result },
  );
}

/**
 * The body validates against the contract's schema. Each violation is judged under the clause of the violated
 * field (contract/schemas/clause-map.ts): the check's own clause fails it, others are filed there. A body that
 * cannot be read blocks the check. Returns the body.
 */
export function expectSchema(result: ApiResult, schema: SchemaName, what?: string): unknown {
  const body = readableBody(result, what ?? `the ${schema} body`, schema === 'ErrorEnvelope');
  const violations = schemaViolations(schema, body);
  const nulls = XML_TYPES.has(result.mediaType ?? '') ? emptyStringsForNull(schema, body, violations) : new Set();
  for (const violation of violations) {
    if (nulls.has(violation.field)) {
      // An XML writer spelling null as <string/>: the field holds null, written against 4.14.12, filed there once.
      claim(XML_NULL_CLAUSE, false, `${schema} ${violation.field}: null written as an empty string`, {
        actual: '',
        response: result,
      });
      continue;
    }
    claim(violation.clauseId, false, `${schema} ${violation.field} ${violation.message}`, {
      actual: fieldValue(body, violation.field),
      response: result,
    });
  }
  return body;
}

/**
 * A value taken from a body (one vehicle of a list, the Money of a field) validated against a schema of the
 * contract, each violation judged under the clause of the violated field like expectSchema. `label` says where the
 * value came from. Returns true when it is valid.
 */
export function expectValue(value: unknown, schema: SchemaName, label: string): boolean {
  const violations = schemaViolations(schema, value);
  for (const violation of violations) {
    claim(violation.clauseId, false, `${label}: ${schema} ${violation.field} ${violation.message}`, {
      actual: fieldValue(value, violation.field),
    });
  }
  return violations.length === 0;
}

/** Spec 4.14.12: "null | `<null/>` or whitespace-only content". */
const XML_NULL_CLAUSE = '4.14.12';

/**
 * The violated fields of an XML body that hold an empty string and validate as null: a null written as an empty
 * string element (it has one reading, so the field's own rule is not judged on it).
 */
function emptyStringsForNull(schema: SchemaName, body: unknown, violations: readonly { field: string }[]): Set<string> {
  const empty = [...new Set(violations.map((v) => v.field))].filter((field) => fieldValue(body, field) === '');
  if (empty.length === 0) return new Set();
  const copy = structuredClone(body);
  for (const field of empty) setFieldValue(copy, field, null);
  const still = new Set(schemaViolations(schema, copy).map((v) => v.field));
  return new Set(empty.filter((field) => !still.has(field)));
}

function fieldParts(field: string): string[] {
  return (field.match(/[^.[\]"]+|\[(\d+)\]/g) ?? []).map((part) => (part.startsWith('[') ? part.slice(1, -1) : part));
}

function setFieldValue(body: unknown, field: string, value: unknown): void {
  const parts = fieldParts(field);
  const last = parts.pop();
  let current: unknown = body;
  for (const key of parts) {
    if (current === null || typeof current !== 'object') return;
    current = (current as Record<string, unknown>)[key];
  }
  if (last !== undefined && current !== null && typeof current === 'object') {
    (current as Record<string, unknown>)[last] = value;
  }
}

/** The value at a field path of validate() (`driver.email`, `vehicles[3].doors`), for evidence. */
function fieldValue(body: unknown, field: string): unknown {
  if (field === 'body') return undefined;
  let current: unknown = body;
  for (const part of field.match(/[^.[\]"]+|\[(\d+)\]/g) ?? []) {
    if (current === null || typeof current !== 'object') return undefined;
    const key = part.startsWith('[') ? part.slice(1, -1) : part;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * A body its media type says is JSON or typed XML that cannot be parsed, filed under the clause it breaks without
 * blocking the check: for a check that judges many answers and sets this one aside. True when it filed one.
 */
export function observeUnparsed(result: ApiResult, what: string): boolean {
  if (!result.parseFailure) return false;
  const message = `${what} cannot be read (${statusText(result)}: ${result.parseError})`;
  claim(unreadableClause(result, result.status >= 400), false, message, {
    actual: result.excerpt,
    response: result,
  });
  return true;
}

/**
 * A response the check reads or compares whatever its status: a body its media type says is JSON or typed XML that
 * cannot be parsed has no value to go on with, so it is filed under the clause it breaks and blocks the check
 * (readableBody). A body of no such media type, or none, is left to the check, which judges what it has.
 */
export function requireParsed(result: ApiResult, what = `the HTTP ${result.status} answer`): void {
  if (result.parseFailure) readableBody(result, what, result.status >= 400);
}

/**
 * `error.code` of an envelope body, if there is one. A body that cannot be parsed blocks the check (requireParsed):
 * its code is unknown, not absent, and a comparison with it would judge the check's clause on a guess.
 */
export function errorCodeOf(result: ApiResult): string | undefined {
  requireParsed(result, `the HTTP ${result.status} error body`);
  const code = (result.body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The X-Request-Id header (spec 4) and, on an error, the envelope's requestId equal to it (7.2): filed under their
 * clauses.
 */
export function observeRequestId(result: ApiResult): void {
  const header = result.requestId;
  claim(
    RESPONSE_CLAUSES.requestIdHeader,
    typeof header === 'string' && header !== '',
    expectedGot('X-Request-Id header', 'a request id', header === null ? 'none' : inlineValue(header)),
    { actual: header, response: result },
  );
  const envelopeId = (result.body as { error?: { requestId?: unknown } } | undefined)?.error?.requestId;
  if (header && typeof envelopeId === 'string') {
    // The ids stay out of the message: one deviation seen on many requests is one observation, counted.
    claim(
      RESPONSE_CLAUSES.envelopeRequestId,
      envelopeId === header,
      expectedGot('error.requestId', 'the X-Request-Id header’s value', 'another value'),
      { expected: header, actual: envelopeId, response: result },
    );
  }
}

/**
 * Who judges the status and code of an expected error: the owner clause of the code (CODE_OWNER_CLAUSE) when every
 * allowed code has that owner and the check is neither the owner's nor the code's 7.3 row's; else the check itself.
 */
function codeJudge(codes: readonly ErrorCode[]): string {
  const current = own();
  const owners = new Set(codes.map((code) => CODE_OWNER_CLAUSE[code]));
  const [owner] = owners;
  if (owners.size !== 1 || owner === undefined) return current;
  if (current === owner || codes.some((code) => ERROR_CODE_CLAUSE[code] === current)) return current;
  return owner;
}

/** `error.code` of an envelope body as sent, whatever its type (undefined when there is none). */
function rawErrorCode(result: ApiResult): unknown {
  const error = (result.body as { error?: unknown } | undefined)?.error;
  return error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
}

/** One answer a check accepts for a refusal: the status and the codes (or a code of the server's own). */
export interface RefusalAnswer {
  status: number;
  codes: readonly string[];
  /** A code of the server's own (not in the 7.3 table) at this status passes too (7.3: "not shown"). */
  otherCodes?: boolean;
}

/**
 * The table code of an answer whose only deviation is its HTTP status: the code is one the check accepts at the
 * status of its 7.3 row, and the target sent it with another error status. That status is the row's clause to judge
 * (ERROR_CODE_CLAUSE), not the check's: the check asked for that refusal and got it.
 */
function rowStatusOnly(answers: readonly RefusalAnswer[], status: number, code: string): ErrorCode | undefined {
  if (!isErrorCode(code) || status < 400) return undefined;
  // A clause that states the code and its status for every endpoint (5.6b) judges that status itself.
  if (CODE_OWNER_CLAUSE[code] !== undefined && CODE_OWNER_CLAUSE[code] === currentClauseId()) return undefined;
  const row = ERROR_CODES[code].status;
  return answers.some((a) => a.status === row && a.codes.includes(code)) ? code : undefined;
}

/**
 * Spec 7.2 and 7.3: whether a response is a refusal with one of `answers`, judged on what the check's own clause
 * asks (the code that says why the call was refused). What belongs to other clauses is filed under them and does
 * not make the refusal unmet:
 * - a code the check accepts sent with another error status than its 7.3 row's: filed under that row;
 * - an error.code that is not a string (7.2.2) or no envelope at all (7.2.1): filed there, and the refusal is judged
 *   by its status alone, the only thing left to judge it by.
 * A response that is not an error, or another code, is unmet (false).
 */
export function refusalMeets(answers: readonly RefusalAnswer[], result: ApiResult): boolean {
  const raw = rawErrorCode(result);
  if (typeof raw === 'string') {
    const met = answers.some(
      (a) =>
        a.status === result.status &&
        (a.codes.includes(raw) || (a.otherCodes === true && !Object.hasOwn(ERROR_CODES, raw))),
    );
    if (met) return true;
    const code = rowStatusOnly(answers, result.status, raw);
    if (code === undefined) return false;
    claim(ERROR_CODE_CLAUSE[code], false, rowStatusText(code, result), {
      expected: ERROR_CODES[code].status,
      actual: { status: result.status, code },
      response: result,
    });
    return true;
  }
  if (result.status < 400) return false;
  fileUnreadableCode(result, raw);
  return answers.some((a) => a.status === result.status);
}

/** Spec 7.3: the status of a table code's row, and the status it came with. */
function rowStatusText(code: ErrorCode, result: ApiResult): string {
  return expectedGot(`HTTP status of ${code}`, String(ERROR_CODES[code].status), responseText(result.status, code));
}

/**
 * Whether an error answer has one of the statuses a clause lists (4.5.4's "Errors: 400, 401, 403, 409, 429", a
 * "400" whose code is open). A table code whose 7.3 row gives a listed status, sent with another error status, counts
 * as listed: that status is the row's deviation, filed under it.
 */
export function errorStatusAmong(result: ApiResult, statuses: readonly number[]): boolean {
  if (statuses.includes(result.status)) return true;
  const raw = rawErrorCode(result);
  if (typeof raw !== 'string' || !isErrorCode(raw) || result.status < 400) return false;
  const row = ERROR_CODES[raw].status;
  if (!statuses.includes(row)) return false;
  claim(ERROR_CODE_CLAUSE[raw], false, rowStatusText(raw, result), {
    expected: row,
    actual: { status: result.status, code: raw },
    response: result,
  });
  return true;
}

/**
 * `error.code` of an error answer when it is a string; otherwise the deviation is filed under 7.2.2 (or 7.2.1 when
 * the body is no envelope) and the result is undefined: the check has no code to judge.
 */
export function stringErrorCode(result: ApiResult): string | undefined {
  const raw = rawErrorCode(result);
  if (typeof raw === 'string') return raw;
  fileUnreadableCode(result, raw);
  return undefined;
}

/** Spec 7.3: the status of a table code is its row's, judged under that row's clause (ERROR_CODE_CLAUSE). */
export function expectRowStatus(result: ApiResult, code: ErrorCode): boolean {
  const row = ERROR_CODES[code].status;
  return claim(ERROR_CODE_CLAUSE[code], result.status === row, rowStatusText(code, result), {
    expected: row,
    actual: { status: result.status, code },
    response: result,
  });
}

/**
 * An error whose error.code is not a string: filed under 7.2.2, or 7.2.1 when the body is no envelope at all. A typed
 * XML body that cannot be read is the XML rule's it breaks (4.14), not the envelope's: filed there.
 */
function fileUnreadableCode(result: ApiResult, raw: unknown): void {
  if (result.parseFailure?.representation === 'xml') {
    observeUnparsed(result, `the HTTP ${result.status} error body`);
    return;
  }
  // An `error` that is no object (the token endpoint's OAuth shape has a string there) is no envelope at all: 7.2.1's.
  const error = (result.body as { error?: unknown } | undefined)?.error;
  const enveloped = typeof error === 'object' && error !== null && !Array.isArray(error);
  claim(
    enveloped ? RESPONSE_CLAUSES.envelopeCode : RESPONSE_CLAUSES.envelope,
    false,
    enveloped
      ? expectedGot(`error.code of the HTTP ${result.status} answer`, 'a string', kindOf(raw))
      : expectedGot(
          `the HTTP ${result.status} error body`,
          'an envelope carrying error.code',
          result.text === '' ? 'an empty body' : 'no envelope',
        ),
    { actual: enveloped ? raw : result.excerpt, response: result },
  );
}

/**
 * Spec 7.2 and 7.3: the check's own requirement is the refusal with its code (any of `codes` when the spec allows
 * several), at the status of the code's 7.3 row; `status` replaces the table's where a section states another
 * (4.2's "404 INVALID_VEHICLE-type"), and is then the check's own too. Filed under their own clauses instead: an
 * accepted code sent with another status than its 7.3 row's (that row), an error.code that is not a string (7.2.2:
 * the refusal is then judged by its status), the envelope's shape, retryable as in the code table, the request id
 * and the media type.
 */
export function expectError(
  result: ApiResult,
  codes: ErrorCode | readonly ErrorCode[],
  options: {
    /** The media type the refusal must carry: default, the running check's representation (check scope). */
    representation?: Representation;
    status?: number;
    /** A code of the server's own (not in the 7.3 table) at an allowed status passes too (7.3: "not shown"). */
    otherCodes?: boolean;
    /**
     * The clause a call served instead of refused (HTTP 1xx-3xx) breaks, when it is not the check's: a 7.3 row's
     * check provoking its condition (an Accept the API cannot serve, 4.13.1c) has no refusal to judge, and is blocked.
     */
    servedBreaks?: string;
  } = {},
): void {
  if (options.servedBreaks !== undefined && options.servedBreaks !== own()) {
    requireStep(
      options.servedBreaks,
      result.status >= 400,
      expectedGot('the call', `a refusal (${[codes].flat().join(' or ')})`, responseText(result.status)),
      {
        expected: [codes].flat().join(' or '),
        actual: { status: result.status, body: result.excerpt },
        response: result,
      },
    );
  }
  const allowed = (typeof codes === 'string' ? [codes] : [...codes]).map((code) => ({
    status: options.status ?? ERROR_CODES[code].status,
    code,
  }));
  const answers: RefusalAnswer[] = allowed.map((a) => ({
    status: a.status,
    codes: [a.code],
    otherCodes: options.otherCodes === true,
  }));
  const judge = codeJudge(allowed.map((a) => a.code));
  const raw = rawErrorCode(result);
  const actual = () => ({ status: result.status, code: raw ?? null, body: result.excerpt });
  const got = responseText(result.status, raw);
  const expected = answersText(allowed);
  if (judge !== own()) {
    // The check's own clause asks for a refusal; the exact status and code are the owner clause's (CODE_OWNER_CLAUSE).
    claim(
      own(),
      result.status >= 400 && result.status < 500,
      expectedGot('the call', `a refusal, 4xx (${expected})`, got),
      {
        expected: allowed,
        actual: actual(),
        response: result,
      },
    );
  }
  const rowOnly = typeof raw === 'string' ? rowStatusOnly(answers, result.status, raw) : undefined;
  if (rowOnly !== undefined && !allowed.some((a) => a.status === result.status && a.code === rowOnly)) {
    // The refusal the check asked for, with another status than its 7.3 row's: that row's deviation.
    claim(ERROR_CODE_CLAUSE[rowOnly], false, rowStatusText(rowOnly, result), {
      expected: ERROR_CODES[rowOnly].status,
      actual: actual(),
      response: result,
    });
  } else {
    const statusAllowed = allowed.some((a) => a.status === result.status);
    claim(judge, statusAllowed, expectedGot('HTTP status', expected, got), {
      expected: allowed,
      actual: actual(),
      response: result,
    });
  }
  const representation = options.representation ?? currentRepresentation();
  if (representation) expectMediaType(result, representation);
  expectSchema(result, 'ErrorEnvelope', `the HTTP ${result.status} error body`);
  const code = errorCodeOf(result);
  if (code === undefined) {
    // No code to judge: the refusal was judged by its status above; the envelope's deviation is 7.2's.
    fileUnreadableCode(result, raw);
    observeRequestId(result);
    return;
  }
  claim(
    judge,
    rowOnly !== undefined || refusalMeets(answers, result),
    expectedGot(
      'error code',
      `${expected}${options.otherCodes ? ' or a code of the server’s own' : ''}`,
      responseText(result.status, code),
    ),
    { expected: allowed, actual: { status: result.status, code }, response: result },
  );
  const row = ERROR_CODES[code as ErrorCode];
  const retryable = (result.body as { error: { retryable?: unknown } }).error.retryable;
  if (row && typeof retryable === 'boolean') {
    claim(
      ERROR_CODE_CLAUSE[code as ErrorCode],
      retryable === row.retryable,
      expectedGot(`error.retryable of ${code}`, String(row.retryable), String(retryable)),
      { expected: row.retryable, actual: retryable, response: result },
    );
  }
  observeRequestId(result);
}

/**
 * Spec 4.1, 5.4 and 7.1: an OAuth error of the token endpoint with the status of its code. The OAuth shape (7.1)
 * and its JSON media type (4.1) are filed under their clauses.
 */
export function expectOAuthError(result: ApiResult, errors: OAuthErrorCode | readonly OAuthErrorCode[]): void {
  const allowed = (typeof errors === 'string' ? [errors] : [...errors]).map((error) => ({
    status: OAUTH_ERRORS[error].status,
    error,
  }));
  const body = result.body as { error?: unknown } | undefined;
  const actual = { status: result.status, error: typeof body?.error === 'string' ? body.error : null };
  claim(
    own(),
    allowed.some((a) => a.status === actual.status && a.error === actual.error),
    expectedGot(
      'token endpoint error',
      answersText(allowed.map((a) => ({ status: a.status, code: a.error }))),
      responseText(actual.status, actual.error),
    ),
    { expected: allowed, actual: { ...actual, body: result.excerpt }, response: result },
  );
  expectMediaType(result, 'json', RESPONSE_CLAUSES.tokenJson);
  expectSchema(result, 'OAuthError', 'the token endpoint error body');
}

/** A token endpoint error with any of `statuses` (spec 5.4 names the status; the OAuth value may vary). */
export function expectOAuthStatus(result: ApiResult, statuses: readonly number[]): void {
  claim(own(), statuses.includes(result.status), expectedGot('HTTP status', statuses.join(' or '), got(result)), {
    expected: statuses,
    actual: { status: result.status, body: result.excerpt },
    response: result,
  });
  expectMediaType(result, 'json', RESPONSE_CLAUSES.tokenJson);
  expectSchema(result, 'OAuthError', 'the token endpoint error body');
}

/** What came back, as the report says it: `HTTP 409 DUPLICATE_PARTNER_REFERENCE`, `HTTP 200`. */
function got(result: ApiResult): string {
  const raw = rawErrorCode(result);
  const oauth = (result.body as { error?: unknown } | undefined)?.error;
  return responseText(result.status, typeof raw === 'string' ? raw : oauth);
}

/**
 * A step the check needs the target to succeed at (a quote to book from, the list to read): anything but `status`
 * is filed under `clauseId` (the endpoint's row, or the clause of that behaviour) and blocks the check.
 * Returns the readable body.
 */
export function requireSuccess(result: ApiResult, status: number, clauseId: string, what: string): unknown {
  if (result.status !== status && (result.status === 429 || result.status === 503)) {
    throw transientSignal(
      `${what} was refused for now (HTTP ${result.status}${result.headers['retry-after'] ? `, Retry-After ${result.headers['retry-after']}` : ''}): nothing could be judged`,
    );
  }
  requireStep(clauseId, result.status === status, expectedGot(what, String(status), got(result)), {
    expected: status,
    actual: { status: result.status, body: result.excerpt },
    response: result,
  });
  return readableBody(result, what);
}
