import { REDACTED } from './redact.ts';
import { type SecretRegistry, secrets } from './secrets.ts';

export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** POSIX shell single quoting: the only character needing care inside '…' is ' itself. */
export function shellQuote(text: string): string {
  if (text === '') return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

type Segment = { literal: string } | { variable: string };

/** Splits a text at every known value, so each can become "$PLACEHOLDER" in the shell word. */
function segments(text: string, registry: SecretRegistry): Segment[] {
  let parts: Segment[] = [{ literal: text }];
  for (const known of registry.values()) {
    const next: Segment[] = [];
    for (const part of parts) {
      if (!('literal' in part) || !part.literal.includes(known.value)) {
        next.push(part);
        continue;
      }
      part.literal.split(known.value).forEach((piece, i) => {
        if (i > 0) next.push({ variable: known.placeholder });
        if (piece !== '') next.push({ literal: piece });
      });
    }
    parts = next;
  }
  return parts;
}

/** One shell word: literal parts single-quoted, known values as "$PLACEHOLDER" (expanded by the shell). */
export function shellWord(text: string, registry: SecretRegistry = secrets): string {
  const parts = segments(text, registry);
  if (parts.length === 0) return "''";
  return parts.map((p) => ('variable' in p ? `"$${p.variable}"` : shellQuote(p.literal))).join('');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text when a shell word can carry it (valid UTF-8, no NUL or control characters but tab/LF/CR). */
function bodyText(body: string | Uint8Array): string | undefined {
  if (typeof body === 'string') return hasControlCharacters(body) ? undefined : body;
  try {
    return bodyText(utf8.decode(body));
  } catch {
    return undefined;
  }
}

function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return true;
  }
  return false;
}

/** printf format reproducing any bytes exactly: printable ASCII as is, everything else as octal escapes. */
function printfFormat(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) {
    if (byte === 0x25) out += '%%';
    else if (byte === 0x5c) out += '\\\\';
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return out;
}

/**
 * Basic credentials as `-u "$CLIENT_ID_X:$CLIENT_SECRET_X"` when they decode cleanly (curl then builds the same
 * header for ids and secrets made of unreserved characters); undefined when the header must go as it is.
 */
function basicUser(value: string, registry: SecretRegistry): string | undefined {
  const encoded = /^Basic ([A-Za-z0-9+/]+={0,2})$/.exec(value)?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  if (Buffer.from(decoded, 'utf8').toString('base64') !== encoded || !decoded.includes(':')) return undefined;
  return shellWord(decoded, registry);
}

/** True when the header value still holds a secret no placeholder covers (it must not be printed). */
function leaksSecret(text: string, registry: SecretRegistry): boolean {
  return registry.values().some((known) => known.secret && text.includes(known.value));
}

/**
 * A curl command repeating the request: secrets and tokens as $PLACEHOLDER variables (TOKEN_<ROLE>,
 * CLIENT_SECRET_<ROLE>, CONTROL_TOKEN), bodies byte-exact via --data-binary, and curl's own default headers
 * (Accept, Content-Type) removed when the request did not send them, so the server sees the same request.
 */
export function curlCommand(request: CurlRequest, registry: SecretRegistry = secrets): string {
  const words = ['curl', '-sS', '-i', '-X', shellQuote(request.method.toUpperCase())];
  const names = new Set(Object.keys(request.headers).map((n) => n.toLowerCase()));
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'authorization' && /^Basic /.test(value)) {
      const user = basicUser(value, registry);
      if (user !== undefined) {
        words.push('-u', user);
        continue;
      }
      if (leaksSecret(Buffer.from(value.slice(6), 'base64').toString('latin1'), registry)) {
        words.push('-H', shellQuote(`${name}: Basic ${REDACTED}`));
        continue;
      }
    }
    words.push('-H', shellWord(`${name}: ${value}`, registry));
  }
  if (!names.has('accept')) words.push('-H', shellQuote('Accept:'));
  let stdin: string | undefined;
  let note = '';
  if (request.body !== undefined && (typeof request.body === 'string' ? request.body : request.body.byteLength)) {
    if (!names.has('content-type')) words.push('-H', shellQuote('Content-Type:'));
    const text = bodyText(request.body);
    if (text !== undefined) {
      words.push('--data-binary', shellWord(text, registry));
    } else {
      const bytes = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
      // A byte-exact body cannot carry placeholders: one holding a secret is withheld rather than printed.
      if (leaksSecret(Buffer.from(bytes).toString('latin1'), registry)) {
        stdin = `printf ''`;
        note = ' # body withheld: it holds a secret';
      } else {
        stdin = `printf ${shellQuote(printfFormat(bytes))}`;
      }
      words.push('--data-binary', '@-');
    }
  }
  words.push(shellWord(request.url, registry));
  const command = words.join(' ');
  return `${stdin ? `${stdin} | ${command}` : command}${note}`;
}
