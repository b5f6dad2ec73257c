import { type SecretRegistry, secrets } from './secrets.ts';

export const REDACTED = '[REDACTED]';

/** Headers whose whole credential part is always hidden, whatever it holds. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);
const OPAQUE_HEADERS = new Set(['cookie', 'set-cookie']);

/** Every known secret anywhere in the text → [REDACTED]. */
export function redactText(text: string, registry: SecretRegistry = secrets): string {
  let out = text;
  for (const known of registry.values()) {
    if (known.secret && out.includes(known.value)) out = out.split(known.value).join(REDACTED);
  }
  return out;
}

/** Authorization keeps its scheme only (`Bearer [REDACTED]`); cookies go whole; other values lose known secrets. */
export function redactHeaders(
  headers: Record<string, string>,
  registry: SecretRegistry = secrets,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (CREDENTIAL_HEADERS.has(lower)) {
      const scheme = /^\s*(\S+)\s+\S/.exec(value)?.[1];
      out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    } else if (OPAQUE_HEADERS.has(lower)) {
      out[name] = REDACTED;
    } else {
      out[name] = redactText(value, registry);
    }
  }
  return out;
}

const FORM_CREDENTIAL = /(^|&)(client_secret|client_id)=[^&]*/g;
const JSON_TOKEN = /("(?:access_token|refresh_token|id_token)"\s*:\s*")(?:[^"\\]|\\.)*(")/g;
const XML_TOKEN =
  /(<(?:[A-Za-z_][\w.-]*:)?property\s+name\s*=\s*["'](?:access_token|refresh_token|id_token)["']\s*>\s*<(?:[A-Za-z_][\w.-]*:)?string\s*>)[^<]*(<)/g;

/**
 * A request or response body: form credentials (client_id and client_secret pairs), tokens of token responses
 * (access, refresh, id), then any known secret.
 */
export function redactBody(body: string, registry: SecretRegistry = secrets): string {
  const out = body
    .replace(FORM_CREDENTIAL, `$1$2=${REDACTED}`)
    .replace(JSON_TOKEN, `$1${REDACTED}$2`)
    .replace(XML_TOKEN, `$1${REDACTED}$2`);
  return redactText(out, registry);
}

/** Deep copy of a value with every string redacted (assertion actual/expected values). */
export function redactValue(value: unknown, registry: SecretRegistry = secrets, seen = new WeakMap()): unknown {
  if (typeof value === 'string') return redactBody(value, registry);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(redactValue(item, registry, seen));
    return out;
  }
  if (value instanceof Uint8Array || value instanceof Date || value instanceof RegExp) return value;
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      /^(access_token|refresh_token|id_token|client_secret)$/.test(key) && typeof item === 'string'
        ? REDACTED
        : redactValue(item, registry, seen);
  }
  return out;
}
