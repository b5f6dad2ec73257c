import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../../contract/constants.ts';

/** The machine-readable contract (spec 9.2), as generated from contract/ (npm run openapi). */
const DOCUMENT = readFileSync(
  new URL('../../../contract/openapi/partner-api-v1.openapi.json', import.meta.url),
  'utf8',
);

/**
 * Serves the published OpenAPI document at `/api/partner/v1/openapi.json`, unauthenticated, so clients and the
 * conformance suite read the contract from the service itself (spec 9.2 names one; the path is ours).
 */
export function openApiRoute(app: FastifyInstance) {
  app.get(`${API_PREFIX}/openapi.json`, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(DOCUMENT),
  );
}
