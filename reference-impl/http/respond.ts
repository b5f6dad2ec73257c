import type { FastifyReply } from 'fastify';
import type { JsonValue } from '../../contract/types.ts';
import { serializeTypedXml } from '../../contract/xml/index.ts';
import { JSON_REPRESENTATION, type WireRepresentation } from './negotiation.ts';

/**
 * Sends a value in the negotiated representation (spec 4.13, 4.14): same field names and values in both. `json`, when
 * given, makes the value's JSON bytes faster than JSON.stringify would: `jsonBytes` for an answer made mostly of parts
 * kept frozen (a quote), a writer of its own for availability. Not for documents read from the store (a list, a
 * booking): nothing in them is frozen, and JSON.stringify walks them faster than `jsonBytes` does.
 *
 * The JSON goes out as bytes: given a string, Fastify measures its UTF-8 length for Content-Length, Node copies it after
 * the header text and encodes the whole again on the write, three passes over the body where one encoding does (docs/measurements/bench-2026-11-24-to-29.md
 * "Answers as bytes").
 */
export function sendRepresentation(
  reply: FastifyReply,
  status: number,
  value: unknown,
  representation?: WireRepresentation,
  json?: (value: unknown) => Buffer,
) {
  const rep = representation ?? JSON_REPRESENTATION;
  reply.code(status);
  if (rep.kind === 'xml') {
    reply.type(`${rep.mediaType}; charset=utf-8`);
    return reply.send(serializeTypedXml(value as JsonValue, 'response'));
  }
  reply.type('application/json; charset=utf-8');
  return reply.send(json ? json(value) : Buffer.from(JSON.stringify(value) ?? ''));
}

/**
 * A body that never changes for the life of the process (the fleet, location and rate lists and items): serialized and
 * encoded once per representation, on first use (no per-request work that can be done once). Kept as bytes: the
 * location names make the text a two-byte string, which Node re-encoded to UTF-8 on every write, a third of a GET
 * /locations (docs/measurements/bench-2026-11-24-to-29.md "Profile findings").
 */
export class ConstantBody {
  private json: Buffer | undefined;
  private xml: Buffer | undefined;

  constructor(readonly value: unknown) {}

  send(reply: FastifyReply, status: number, representation?: WireRepresentation) {
    const rep = representation ?? JSON_REPRESENTATION;
    reply.code(status);
    if (rep.kind === 'xml') {
      reply.type(`${rep.mediaType}; charset=utf-8`);
      this.xml ??= Buffer.from(serializeTypedXml(this.value as JsonValue, 'response'));
      return reply.send(this.xml);
    }
    reply.type('application/json; charset=utf-8');
    this.json ??= Buffer.from(JSON.stringify(this.value));
    return reply.send(this.json);
  }
}

/** Constant bodies by key, made on first use. */
export class ConstantBodies<K> {
  private readonly bodies = new Map<K, ConstantBody>();

  constructor(private readonly make: (key: K) => unknown) {}

  get(key: K): ConstantBody {
    let body = this.bodies.get(key);
    if (!body) {
      body = new ConstantBody(this.make(key));
      this.bodies.set(key, body);
    }
    return body;
  }
}
