import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../../contract/constants.ts';
import type { AvailabilityRequest, QuoteRequest } from '../../../contract/types.ts';
import type { Shopping } from '../../domain/shopping.ts';
import { availabilityJson } from '../availability-json.ts';
import { jsonBytes } from '../json-bytes.ts';
import { requireCaller } from '../request-context.ts';
import { sendRepresentation } from '../respond.ts';
import { validatedBody } from '../validated-body.ts';

/** Spec 4.5 and 4.6: shopping and quoting. */
export function shoppingRoutes(app: FastifyInstance, shopping: Shopping) {
  app.post(
    `${API_PREFIX}/availability`,
    { config: { business: true, scope: 'availability:read' } },
    async (request, reply) => {
      const { ctx } = request;
      const caller = requireCaller(ctx);
      const body = validatedBody<AvailabilityRequest>(request, 'AvailabilityRequest');
      const result = await shopping.availability(
        { partnerId: caller.partnerId, nowMs: ctx.nowMs, control: ctx.control },
        body,
      );
      return sendRepresentation(reply, 200, result, ctx.representation, availabilityJson);
    },
  );

  app.post(`${API_PREFIX}/quotes`, { config: { business: true, scope: 'quotes:write' } }, async (request, reply) => {
    const { ctx } = request;
    const caller = requireCaller(ctx);
    const body = validatedBody<QuoteRequest>(request, 'QuoteRequest');
    const quote = await shopping.quote({ partnerId: caller.partnerId, nowMs: ctx.nowMs, control: ctx.control }, body);
    // A quote is mostly its vehicle and its amounts, all kept frozen: jsonBytes splices their text.
    return sendRepresentation(reply, 201, quote, ctx.representation, jsonBytes);
  });
}
