import { parseTypedXml } from '../../contract/xml/index.ts';

/** The recorder and the scenario player read bodies alike: JSON, or typed XML (spec 4.14) as its JSON value. */
export function isXml(contentType: string | null): boolean {
  return /^(application|text)\/xml\b/i.test(contentType ?? '');
}

/** A JSON or typed-XML body as a JSON value, or undefined when it is neither. */
export function decodedBody(bytes: Uint8Array, contentType: string | null, root: 'request' | 'response'): unknown {
  if (isXml(contentType)) {
    const parsed = parseTypedXml(bytes, root);
    return parsed.ok ? parsed.value : undefined;
  }
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The client id an `Authorization: Basic` value names (RFC 6749 2.3.1: form-urlencoded before base64), or null. Not
 * an authentication: the recorder and the player read it only to say whose request it was.
 */
export function basicClientId(credentials: string): string | null {
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
  } catch {
    return null;
  }
}
