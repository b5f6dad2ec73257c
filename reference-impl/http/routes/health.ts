import type { FastifyInstance } from 'fastify';
import type { Store } from '../../store/types.ts';

/** Outside the partner API prefix: an operator's route, not part of the spec, with no authentication. */
export const READINESS_PATH = '/health/ready';

/**
 * Readiness for container HEALTHCHECKs and orchestrators: 200 when the store answers a read, 503 when it does not
 * (PostgreSQL: a copy of the control state under lease counts, the lease renewed within the last 1.5 s). The body
 * says only that, never why (an error could carry a connection string).
 */
export function healthRoutes(app: FastifyInstance, store: Pick<Store, 'getControlState'>) {
  app.get(READINESS_PATH, async (_request, reply) => {
    try {
      await store.getControlState();
    } catch {
      return reply.code(503).type('application/json').send({ status: 'unavailable' });
    }
    return reply.code(200).type('application/json').send({ status: 'ready' });
  });
}
