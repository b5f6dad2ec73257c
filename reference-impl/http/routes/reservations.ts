import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../../contract/constants.ts';
import { LIMITS } from '../../../contract/limits.ts';
import type { CancelRequest, ReservationRequest } from '../../../contract/types.ts';
import { apiError } from '../../domain/failure.ts';
import type { Reservations } from '../../domain/reservations.ts';
import { requireCaller } from '../request-context.ts';
import { sendRepresentation } from '../respond.ts';
import { validatedBody } from '../validated-body.ts';

type IdParams = { Params: { reservationId: string } };

/** Spec 4.7: the header, when present, must be 8 to 200 characters. */
function idempotencyKeyOf(header: string | string[] | undefined, checkLength: boolean): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? undefined : header;
  const { min, max } = LIMITS.idempotencyKeyLength;
  if (key === undefined || (checkLength && (key.length < min || key.length > max))) {
    throw apiError('VALIDATION_ERROR', `The Idempotency-Key header must be one value of ${min} to ${max} characters.`, {
      fields: [{ field: 'Idempotency-Key', message: `must be ${min} to ${max} characters` }],
    });
  }
  return key;
}

/** Spec 4.8: `limit` is an integer from 1 to 100, 25 when absent. */
function listLimitOf(query: unknown): number {
  const raw = (query as Record<string, unknown> | undefined)?.limit;
  const { min, max } = LIMITS.reservationListLimit;
  if (raw === undefined) return LIMITS.reservationListLimit.default;
  if (typeof raw !== 'string' || !/^[0-9]{1,3}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw apiError('VALIDATION_ERROR', `limit must be an integer from ${min} to ${max}.`, {
      fields: [{ field: 'limit', message: `must be an integer from ${min} to ${max}` }],
    });
  }
  return Number(raw);
}

/** Spec 4.7 to 4.11. */
export function reservationRoutes(app: FastifyInstance, reservations: Reservations) {
  const base = `${API_PREFIX}/reservations`;

  app.post(base, { config: { business: true, scope: 'reservations:write' } }, async (request, reply) => {
    const { ctx } = request;
    const caller = requireCaller(ctx);
    const key = idempotencyKeyOf(
      request.headers['idempotency-key'],
      request.server.faults.enforce('idempotency.keyLength'),
    );
    if (key === undefined && request.server.faults.enforce('idempotency.required')) {
      throw apiError('IDEMPOTENCY_KEY_REQUIRED', 'The Idempotency-Key header is required.');
    }
    const body = validatedBody<ReservationRequest>(request, 'ReservationRequest');
    const outcome = await reservations.create(
      { partnerId: caller.partnerId, nowMs: ctx.nowMs, control: ctx.control },
      key ?? `absent:${randomUUID()}`,
      body,
    );
    if (outcome.replay) reply.header('idempotent-replay', 'true');
    if (outcome.status === 201)
      reply.header('location', `${base}/${encodeURIComponent(outcome.reservation.reservationId)}`);
    return sendRepresentation(reply, outcome.status, outcome.reservation, ctx.representation);
  });

  app.get(base, { config: { business: true, scope: 'reservations:read' } }, async (request, reply) => {
    const caller = requireCaller(request.ctx);
    const list = await reservations.list(caller.partnerId, listLimitOf(request.query));
    return sendRepresentation(reply, 200, list, request.ctx.representation);
  });

  app.get<IdParams>(
    `${base}/:reservationId`,
    { config: { business: true, scope: 'reservations:read' } },
    async (request, reply) => {
      const caller = requireCaller(request.ctx);
      const reservation = await reservations.get(caller.partnerId, request.params.reservationId);
      return sendRepresentation(reply, 200, reservation, request.ctx.representation);
    },
  );

  // Spec 4.10: after authentication and scope, always 501, whatever the id or body.
  app.patch<IdParams>(
    `${base}/:reservationId`,
    { config: { business: true, scope: 'reservations:write' } },
    async () => {
      throw apiError('MODIFICATION_NOT_SUPPORTED', 'Reservations cannot be modified in v1: cancel and book again.');
    },
  );

  app.post<IdParams>(
    `${base}/:reservationId/cancel`,
    { config: { business: true, scope: 'reservations:cancel' } },
    async (request, reply) => {
      const { ctx } = request;
      const caller = requireCaller(ctx);
      const body = validatedBody<CancelRequest>(request, 'CancelRequest');
      const reservation = await reservations.cancel(
        { partnerId: caller.partnerId, nowMs: ctx.nowMs, control: ctx.control },
        request.params.reservationId,
        body.reason,
      );
      return sendRepresentation(reply, 200, reservation, ctx.representation);
    },
  );
}
