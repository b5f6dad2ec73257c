import { MEDIA_TYPES } from '../../contract/constants.ts';

export type WireRepresentation =
  | { kind: 'json'; mediaType: 'application/json' }
  | { kind: 'xml'; mediaType: 'application/xml' | 'text/xml' };

export const JSON_REPRESENTATION: WireRepresentation = { kind: 'json', mediaType: MEDIA_TYPES.json };

interface AcceptRange {
  type: string;
  subtype: string;
  q: number;
  /** Position in the header: among equal q and specificity, the first listed wins (after the JSON tie rule). */
  index: number;
}

/** Parses an Accept header (RFC 9110 12.5.1). Invalid q values make the range unacceptable (q=0). */
function parseAccept(header: string): AcceptRange[] {
  const ranges: AcceptRange[] = [];
  header.split(',').forEach((part, index) => {
    const [range, ...params] = part.split(';').map((s) => s.trim());
    if (!range) return;
    const slash = range.indexOf('/');
    if (slash <= 0 || slash === range.length - 1) return;
    let q = 1;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      if (param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const raw = param.slice(eq + 1).trim();
      q = /^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$/.test(raw) ? Number(raw) : 0;
    }
    ranges.push({ type: range.slice(0, slash).toLowerCase(), subtype: range.slice(slash + 1).toLowerCase(), q, index });
  });
  return ranges;
}

/** The q a media type gets from the most specific matching range (RFC 9110: specific beats wildcard). */
function qualityOf(mediaType: string, ranges: AcceptRange[]): number {
  const [type, subtype] = mediaType.split('/') as [string, string];
  let best: { specificity: number; q: number } | undefined;
  for (const r of ranges) {
    let specificity = -1;
    if (r.type === type && r.subtype === subtype) specificity = 2;
    else if (r.type === type && r.subtype === '*') specificity = 1;
    else if (r.type === '*' && r.subtype === '*') specificity = 0;
    if (specificity < 0) continue;
    if (!best || specificity > best.specificity) best = { specificity, q: r.q };
  }
  return best ? best.q : 0;
}

/**
 * Spec 4.13: JSON when Accept is absent; otherwise the acceptable type with the highest q, ties to JSON
 * (then application/xml before text/xml, the order the spec lists them). Null means 406.
 */
export function negotiate(accept: string | undefined): WireRepresentation | null {
  if (accept === undefined) return JSON_REPRESENTATION;
  // Clients send the same few Accept headers on every call: each is parsed once (bounded).
  const known = negotiated.get(accept);
  if (known !== undefined) return known;
  const chosen = negotiateAfresh(accept);
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(accept, chosen);
  return chosen;
}

/** Shared by every request that chose them (negotiation results are remembered). */
const CANDIDATES: readonly WireRepresentation[] = [
  JSON_REPRESENTATION,
  Object.freeze({ kind: 'xml', mediaType: 'application/xml' }),
  Object.freeze({ kind: 'xml', mediaType: 'text/xml' }),
];

const negotiated = new Map<string, WireRepresentation | null>();
const NEGOTIATED_MAX = 1024;

function negotiateAfresh(accept: string): WireRepresentation | null {
  if (accept.trim() === '') return JSON_REPRESENTATION;
  const ranges = parseAccept(accept);
  let chosen: WireRepresentation | null = null;
  let chosenQ = 0;
  for (const candidate of CANDIDATES) {
    const q = qualityOf(candidate.mediaType, ranges);
    if (q > chosenQ) {
      chosen = candidate;
      chosenQ = q;
    }
  }
  return chosen;
}

export type BodyMediaKind = 'json' | 'xml' | 'unsupported';

/**
 * Spec 4.13: a business call's body must be application/json, application/xml or text/xml. The bodies are
 * UTF-8 by definition (4.14); a charset parameter naming anything else is unsupported.
 */
export function classifyContentType(contentType: string | undefined): BodyMediaKind {
  if (!contentType) return 'unsupported';
  const [essence, ...params] = contentType.split(';').map((s) => s.trim());
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"|"$/g, '')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return 'unsupported';
  }
  switch (essence?.toLowerCase()) {
    case MEDIA_TYPES.json:
      return 'json';
    case MEDIA_TYPES.xml:
    case MEDIA_TYPES.textXml:
      return 'xml';
    default:
      return 'unsupported';
  }
}
