import type { FastifyReply } from 'fastify';
import type { JsonValue } from '../../contract/types.ts';
import { serializeTypedXml } from '../../contract/xml/index.ts';
import { JSON_REPRESENTATION, type WireRepresentation } from './negotiation.ts';

/** Sends a value in the negotiated representation (spec 4.13, 4.14): same field names and values in both. */
export function sendRepresentation(
  reply: FastifyReply,
  status: number,
  value: unknown,
  representation?: WireRepresentation,
) {
  const rep = representation ?? JSON_REPRESENTATION;
  reply.code(status);
  if (rep.kind === 'xml') {
    reply.type(`${rep.mediaType}; charset=utf-8`);
    return reply.send(serializeTypedXml(value as JsonValue, 'response'));
  }
  reply.type('application/json; charset=utf-8');
  return reply.send(JSON.stringify(value));
}
