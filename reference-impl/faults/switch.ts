import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MEDIA_TYPES } from '../../contract/constants.ts';
import { ENDPOINTS } from '../../contract/endpoints.ts';
import type { JsonValue } from '../../contract/types.ts';
import { parseTypedXml, serializeTypedXml } from '../../contract/xml/index.ts';
import type { AdjustmentPoint, Adjustments, Fault, FaultResponse, Rule } from './types.ts';

/** Responses may exceed the request limits of spec 8; these only keep the seam itself bounded. */
const RESPONSE_XML_LIMITS = { maxBytes: 50_000_000, maxDepth: 64, maxNodes: 5_000_000 };

/** Fastify route url (`/api/partner/v1/fleet/:vehicleCode`) and method → operationId of the endpoint table. */
const OPERATIONS = new Map<string, string>(
  ENDPOINTS.map((e) => [`${e.method} ${e.path.replace(/\{([^}]+)\}/g, ':$1')}`, e.operationId]),
);

export class UnknownFaultError extends Error {
  override readonly name = 'UnknownFaultError';
}

/**
 * The faults switched on in this instance and the seams they act at. The normal code path calls one method per
 * seam (`enforce`, `adjust`, and the request/response hooks installed by `install`); with nothing switched on each
 * is a check of an empty list. The request being served is known to rules deep in the domain through an
 * AsyncLocalStorage entered per request (see `wrapHandler`).
 */
export class FaultSwitch {
  private active: Fault[] = [];
  private readonly byName: ReadonlyMap<string, Fault>;
  private readonly current = new AsyncLocalStorage<{ request?: FastifyRequest }>();

  constructor(readonly registry: readonly Fault[]) {
    this.byName = new Map(registry.map((fault) => [fault.name, fault]));
  }

  /** Switches on exactly these faults (unknown names are refused, nothing changes). */
  set(names: readonly string[]): void {
    const unknown = names.filter((name) => !this.byName.has(name));
    if (unknown.length > 0) throw new UnknownFaultError(`unknown fault(s): ${unknown.join(', ')}`);
    // A composite stands for the faults it includes (registered ones: faults.test.ts checks).
    const expanded = names.flatMap((name) => this.byName.get(name)?.includes ?? [name]);
    this.active = [...new Set(expanded)].map((name) => this.byName.get(name) as Fault);
    // Off again: the promise hooks go with the last context (run enables them afresh).
    if (this.active.length === 0) this.current.disable();
  }

  enabled(): string[] {
    return this.active.map((fault) => fault.name);
  }

  /** Whether `rule` holds for the request being served (true unless a switched-on fault lifts it). */
  enforce(rule: Rule): boolean {
    if (this.active.length === 0) return true;
    const request = this.current.getStore()?.request;
    for (const fault of this.active) {
      const lift = fault.enforce?.[rule];
      if (lift === false) return false;
      if (lift && !lift(request)) return false;
    }
    return true;
  }

  /** The value after every switched-on fault that changes it. */
  adjust<P extends AdjustmentPoint>(
    point: P,
    value: Adjustments[P]['value'],
    input: Adjustments[P]['input'],
  ): Adjustments[P]['value'] {
    if (this.active.length === 0) return value;
    const request = this.current.getStore()?.request;
    let out = value;
    for (const fault of this.active) {
      const fn = fault.adjust?.[point] as
        | ((
            v: Adjustments[P]['value'],
            i: Adjustments[P]['input'],
            r: FastifyRequest | undefined,
          ) => Adjustments[P]['value'])
        | undefined;
      if (fn) out = fn(out, input, request);
    }
    return out;
  }

  /** Runs a server's request handler inside the per-request context the rules read. */
  wrapHandler<A extends unknown[]>(handler: (...args: A) => void): (...args: A) => void {
    // Entered only while a fault is on: a running AsyncLocalStorage puts a hook on every promise of every request, a
    // cost the plain reference has no use for (docs/measurements/bench-2026-11-24-to-29.md "Profile findings"). A request that began before a
    // fault was switched on has no context; the rules take an unknown request.
    return (...args: A) => (this.active.length === 0 ? handler(...args) : this.current.run({}, () => handler(...args)));
  }

  /** The request, body and response seams, as Fastify hooks. */
  install(app: FastifyInstance): void {
    // Callback-style hooks: with nothing switched on each is a check and a call, no promise and no microtask.
    app.addHook('onRequest', (request, reply, done) => {
      const store = this.current.getStore();
      if (store) store.request = request;
      if (this.active.length === 0) return done();
      const operation = operationOf(request);
      let answered = false;
      for (const fault of this.active) {
        if (!fault.request || answered) continue;
        fault.request({
          request,
          operation,
          respond(status, body, headers = {}) {
            answered = true;
            void reply
              .code(status)
              .headers({ 'x-request-id': String(request.id), ...headers })
              .type('application/json; charset=utf-8')
              .send(JSON.stringify(body));
          },
        });
      }
      // Answered: the reply is sent, and a callback hook that answers does not call done (Fastify's hooks docs).
      if (!answered) done();
    });
    app.addHook('preValidation', (request, _reply, done) => {
      if (this.active.length === 0 || !Buffer.isBuffer(request.body)) return done();
      let body = request.body as Buffer;
      for (const fault of this.active) if (fault.body) body = fault.body(body, request);
      request.body = body;
      done();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      if (this.active.length === 0 || !this.active.some((f) => f.response || f.text)) return done(null, payload);
      done(null, this.respond(request, reply, payload));
    });
  }

  private respond(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    if (text === null) return payload;
    const contentType = String(reply.getHeader('content-type') ?? '');
    const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    const representation =
      mediaType === MEDIA_TYPES.json
        ? 'json'
        : mediaType === MEDIA_TYPES.xml || mediaType === MEDIA_TYPES.textXml
          ? 'xml'
          : 'other';
    let value: unknown;
    try {
      if (representation === 'json' && text !== '') value = JSON.parse(text);
      if (representation === 'xml' && text !== '') {
        const parsed = parseTypedXml(Buffer.from(text, 'utf8'), 'response', RESPONSE_XML_LIMITS);
        value = parsed.ok ? parsed.value : undefined;
      }
    } catch {
      value = undefined;
    }
    const seam: FaultResponse = {
      request,
      reply,
      operation: operationOf(request),
      status: reply.statusCode,
      representation,
      value,
      setStatus(status) {
        reply.code(status);
        seam.status = status;
      },
      header: (name) => {
        const v = reply.getHeader(name);
        return v === undefined ? undefined : String(v);
      },
      setHeader: (name, v) => {
        reply.header(name, v);
      },
      removeHeader: (name) => {
        reply.removeHeader(name);
      },
    };
    for (const fault of this.active) fault.response?.(seam);
    // The reference serializes with these same functions, so an untouched value comes out as it went in.
    let out = text;
    if (seam.value !== undefined) {
      out =
        seam.representation === 'xml'
          ? serializeTypedXml(seam.value as JsonValue, 'response')
          : JSON.stringify(seam.value);
    }
    for (const fault of this.active) if (fault.text) out = fault.text(out, seam);
    return out;
  }
}

/** The endpoint-table operation a request was routed to, or null (unknown path, control API). */
export function operationOf(request: FastifyRequest): string | null {
  const url = request.routeOptions?.url;
  if (!url) return null;
  return OPERATIONS.get(`${request.method} ${url}`) ?? null;
}
