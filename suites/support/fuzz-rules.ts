import { ERROR_CODE_CLAUSE, RESPONSE_CLAUSES } from '../../contract/clause-refs.ts';
import { MEDIA_TYPES } from '../../contract/constants.ts';
import type { Endpoint } from '../../contract/endpoints.ts';
import { ERROR_CODES, type ErrorCode } from '../../contract/errors.ts';
import { isoInstantMs } from '../../contract/iso-instant.ts';
import { schemaViolations } from '../../contract/validation.ts';
import type { ApiResult } from '../../harness/http/partner-client.ts';
import type { SecretWatch } from './secret-watch.ts';

/**
 * The rules a fuzz campaign judges every answer by (README "Fuzz campaigns"): the ones that need no oracle, true of any
 * answer to any request, valid or hostile. Each names the clause it comes from; a violation's signature (rule,
 * operation, status, detail) tells distinct failures apart.
 */
export interface Violation {
  rule: string;
  clauseId: string;
  message: string;
  /** What makes two violations the same failure. */
  signature: string;
}

export interface JudgedAnswer {
  /** The endpoint the request was for, or undefined for a path no endpoint holds. */
  endpoint: Endpoint | undefined;
  /** What the request's Accept asked for. */
  wantsXml: boolean;
  result: ApiResult;
  /** Secrets no answer may contain (client secrets, the tokens issued to the campaign). */
  secrets: SecretWatch;
  /** A secret this answer may hold: the token a token answer issues. */
  own?: string;
}

const XML_TYPES = new Set<string>([MEDIA_TYPES.xml, MEDIA_TYPES.textXml]);

function codeOf(result: ApiResult): string | undefined {
  const code = (result.body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
}

/** 5xx the spec has a code for: a dependency or the API switched off (503), an unexpected error never under fuzz. */
function allowedServerError(endpoint: Endpoint | undefined, result: ApiResult): boolean {
  const code = codeOf(result);
  if (result.status === 503)
    return code === 'DEPENDENCY_UNAVAILABLE' || code === 'API_DISABLED' || endpoint?.operationId === 'issueToken';
  if (result.status === 501)
    return endpoint?.operationId === 'modifyReservation' && code === 'MODIFICATION_NOT_SUPPORTED';
  return false;
}

export function judgeAnswer(answer: JudgedAnswer): Violation[] {
  const { endpoint, result } = answer;
  const operation = endpoint?.operationId ?? 'unknown-path';
  const out: Violation[] = [];
  const add = (rule: string, clauseId: string, message: string, detail = '') =>
    out.push({ rule, clauseId, message, signature: `${rule}|${operation}|${result.status}|${detail}` });

  if (result.status >= 500 && !allowedServerError(endpoint, result)) {
    add(
      'no-5xx',
      '7.3.36',
      `HTTP ${result.status} ${codeOf(result) ?? ''} to ${operation}`.trim(),
      codeOf(result) ?? '',
    );
  }
  if (answer.secrets.echoedIn(result.text, answer.own))
    add('no-secret', '7.2.3', `the answer of ${operation} echoes a secret`);
  if (!endpoint) return out;

  if (endpoint.operationId === 'issueToken') {
    if (result.mediaType !== MEDIA_TYPES.json)
      add('token-json', RESPONSE_CLAUSES.tokenJson, `token answer is ${result.mediaType}`);
    const schema = result.status === 200 ? 'TokenResponse' : 'OAuthError';
    for (const v of schemaViolations(schema, result.body))
      add('schema', v.clauseId, `${schema} ${v.field} ${v.message}`, v.field);
    return out;
  }

  const requestId = result.requestId;
  if (!requestId)
    add(
      'request-id',
      RESPONSE_CLAUSES.requestIdHeader,
      `${operation} answered HTTP ${result.status} without X-Request-Id`,
    );
  const acceptable = result.status === 406 ? false : answer.wantsXml;
  const mediaOk = acceptable ? XML_TYPES.has(result.mediaType ?? '') : result.mediaType === MEDIA_TYPES.json;
  if (!mediaOk) {
    // An answer in no XML type to an XML call did not follow Accept (4.13.1a), or for an error broke "errors are
    // returned … in XML" (4.14.18b): ambiguity S29. 4.13.4 judges only which XML type an XML answer carries.
    add(
      'media-type',
      acceptable && result.status >= 400 ? '4.14.18b' : RESPONSE_CLAUSES.jsonMediaType,
      `${operation} answered ${result.mediaType ?? 'no Content-Type'} to Accept ${acceptable ? 'XML' : 'JSON'}`,
      result.mediaType ?? '',
    );
    return out;
  }
  if (result.status >= 400) {
    for (const v of schemaViolations('ErrorEnvelope', result.body)) {
      add('envelope', v.clauseId, `error body ${v.field} ${v.message}`, v.field);
    }
    const code = codeOf(result) as ErrorCode | undefined;
    const row = code ? ERROR_CODES[code] : undefined;
    if (row && row.status !== result.status) {
      add(
        'code-status',
        ERROR_CODE_CLAUSE[code as ErrorCode],
        `${code} answered with HTTP ${result.status}, not ${row.status}`,
        code,
      );
    }
    const envelopeId = (result.body as { error?: { requestId?: unknown } } | undefined)?.error?.requestId;
    if (requestId && typeof envelopeId === 'string' && envelopeId !== requestId) {
      add('envelope-request-id', RESPONSE_CLAUSES.envelopeRequestId, 'error.requestId differs from X-Request-Id');
    }
  } else if (result.status >= 200 && result.status < 300) {
    for (const v of schemaViolations(endpoint.responseSchema, result.body)) {
      add('schema', v.clauseId, `${endpoint.responseSchema} ${v.field} ${v.message}`, v.field);
    }
  }
  const limited = endpoint.rateLimited && ![401, 406, 503].includes(result.status);
  if (limited && endpoint.operationId !== 'modifyReservation') {
    const limit = result.headers['x-ratelimit-limit'];
    const remaining = result.headers['x-ratelimit-remaining'];
    const reset = result.headers['x-ratelimit-reset'];
    const sane =
      /^\d+$/.test(limit ?? '') &&
      /^\d+$/.test(remaining ?? '') &&
      Number(remaining) <= Number(limit) &&
      // Any ISO 8601 instant, as the 8.14 checks read it (contract/iso-instant.ts, audit 8-R5).
      isoInstantMs(reset ?? '') !== undefined;
    if (!sane)
      add(
        'rate-limit-headers',
        '8.14',
        `${operation} answered HTTP ${result.status} with X-RateLimit-* ${limit}/${remaining}/${reset}`,
      );
  }
  return out;
}
