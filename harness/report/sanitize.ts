import { plainMessage } from '../check/evidence.ts';
import type { Evidence, EvidenceExchange } from '../check/outcome-and-evidence.ts';

/**
 * Defence in depth. Evidence reaches the report already redacted by the harness's HTTP layer; these functions make
 * sure a credential that slipped through in the places credentials live (credential headers, the curl line) still
 * never reaches a report file. Placeholders (`$TOKEN_PARTNERA`) and `[REDACTED]` pass unchanged.
 */

export const REDACTED = '[REDACTED]';

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

function alreadySafe(value: string): boolean {
  return value.includes(REDACTED) || /^\$\{?[A-Z_][A-Z0-9_]*\}?$/.test(value);
}

/** The value to show for a header: credential headers keep only their scheme word. */
export function safeHeaderValue(name: string, value: string): string {
  if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^(\w+)\s+(.*)$/s.exec(value.trim());
  if (scheme?.[1] && /^(bearer|basic|digest|dpop)$/i.test(scheme[1])) {
    return alreadySafe(scheme[2] ?? '') ? value : `${scheme[1]} ${REDACTED}`;
  }
  return alreadySafe(value.trim()) ? value : REDACTED;
}

export function safeHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = safeHeaderValue(name, value);
  return out;
}

/** Masks credentials written literally into a shell command: Authorization headers and `-u user:password`. */
export function safeCommandLine(line: string): string {
  return line
    .replace(/((?:proxy-)?authorization:\s*(?:bearer|basic)\s+)(?!\$|\[REDACTED\])[^\s'"\\]+/gi, `$1${REDACTED}`)
    .replace(/((?:^|\s)(?:-u|--user)\s+)(['"]?)(?!\$|\[REDACTED\])[^\s'"]+\2/g, `$1$2${REDACTED}$2`);
}

export function safeExchange(exchange: EvidenceExchange): EvidenceExchange {
  return {
    ...exchange,
    request: { ...exchange.request, headers: safeHeaders(exchange.request.headers) },
    ...(exchange.response
      ? { response: { ...exchange.response, headers: safeHeaders(exchange.response.headers) } }
      : {}),
    curl: safeCommandLine(exchange.curl),
  };
}

/** Evidence as the report keeps it: credentials masked, no test-framework wording in its texts. */
export function safeEvidence(evidence: Evidence): Evidence {
  const safe: Evidence = {
    ...evidence,
    message: plainMessage(evidence.message),
    exchanges: evidence.exchanges.map(safeExchange),
  };
  if (evidence.expected !== undefined) safe.expected = plainMessage(evidence.expected);
  if (evidence.actual !== undefined) safe.actual = plainMessage(evidence.actual);
  return safe;
}
