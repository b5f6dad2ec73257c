import type { FastifyRequest } from 'fastify';
import { LIMITS } from '../../contract/limits.ts';
import type { JsonValue } from '../../contract/types.ts';
import { parseTypedXml } from '../../contract/xml/index.ts';
import { apiError } from '../domain/failure.ts';
import { classifyContentType } from './negotiation.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a business call's body into the JSON-shaped value both representations share (spec 4.13, 4.14).
 * Returns undefined when the request carries no body; the schema then reports the missing body.
 */
export function decodeBusinessBody(request: FastifyRequest): JsonValue | undefined {
  const raw = request.body;
  const hasBody = Buffer.isBuffer(raw) && raw.length > 0;
  const contentType = request.headers['content-type'];
  if (!hasBody && contentType === undefined) return undefined;
  const kind = classifyContentType(contentType);
  if (kind === 'unsupported') throw apiError('UNSUPPORTED_MEDIA_TYPE');
  // An empty XML document is not well-formed XML (a document has one root element): MALFORMED_XML, as any other.
  if (!hasBody && kind === 'xml') throw apiError('MALFORMED_XML', 'The request body is not valid XML: it is empty.');
  if (!hasBody) return undefined;
  if (kind === 'xml') {
    const parsed = parseTypedXml(raw, 'request', request.server.faults.adjust('xml.limits', LIMITS.xml, {}));
    if (parsed.ok) return parsed.value;
    if (parsed.error === 'too_large') throw apiError('REQUEST_TOO_LARGE');
    throw apiError('MALFORMED_XML', `The request body is not valid XML of the representation: ${parsed.reason}.`);
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw apiError('MALFORMED_JSON', 'The request body is not valid UTF-8 JSON.');
  }
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw apiError('MALFORMED_JSON');
  }
}
