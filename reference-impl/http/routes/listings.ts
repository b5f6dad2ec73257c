import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../../contract/constants.ts';
import { apiError } from '../../domain/failure.ts';
import type { OperatorData } from '../../domain/operator-data.ts';
import { Shopping } from '../../domain/shopping.ts';
import { requireCaller } from '../request-context.ts';
import { ConstantBodies, ConstantBody, sendRepresentation } from '../respond.ts';

const CODE = /^[A-Z0-9-]{2,32}$/;

/** Spec 4.2 to 4.4: fleet, locations and the caller's rate codes. */
export function listingRoutes(app: FastifyInstance, operatorData: OperatorData) {
  const business = { business: true };
  // The listings are read-only: each of these bodies is serialized once per representation.
  const fleet = new ConstantBody(
    (() => {
      const vehicles = operatorData.listVehicles();
      return { vehicles, count: vehicles.length };
    })(),
  );
  const locations = new ConstantBody(
    (() => {
      const list = operatorData.listLocations();
      return { locations: list, count: list.length };
    })(),
  );
  const vehicles = new ConstantBodies((code: string) => operatorData.fleetVehicle(code));
  const locationBodies = new ConstantBodies((code: string) => operatorData.publicLocation(code));

  app.get(`${API_PREFIX}/fleet`, { config: { ...business, scope: 'fleet:read' } }, async (request, reply) => {
    return fleet.send(reply, 200, request.ctx.representation);
  });

  app.get<{ Params: { vehicleCode: string } }>(
    `${API_PREFIX}/fleet/:vehicleCode`,
    { config: { ...business, scope: 'fleet:read' } },
    async (request, reply) => {
      const code = request.params.vehicleCode;
      const standing = CODE.test(code) ? operatorData.standing(code) : 'unknown';
      if (standing === 'unknown' || standing === 'unpublished') throw apiError('NOT_FOUND', 'No such vehicle.');
      if (standing === 'incomplete') {
        throw apiError('FLEET_PROFILE_INCOMPLETE', 'The vehicle lacks a complete partner specification.');
      }
      return vehicles.get(code).send(reply, 200, request.ctx.representation);
    },
  );

  app.get(`${API_PREFIX}/locations`, { config: { ...business, scope: 'locations:read' } }, async (request, reply) => {
    return locations.send(reply, 200, request.ctx.representation);
  });

  app.get<{ Params: { locationCode: string } }>(
    `${API_PREFIX}/locations/:locationCode`,
    { config: { ...business, scope: 'locations:read' } },
    async (request, reply) => {
      const code = request.params.locationCode;
      if (!operatorData.publicLocation(code)) throw apiError('NOT_FOUND', 'No such location.');
      return locationBodies.get(code).send(reply, 200, request.ctx.representation);
    },
  );

  app.get(`${API_PREFIX}/rates`, { config: { ...business, scope: 'rates:read' } }, async (request, reply) => {
    const caller = requireCaller(request.ctx);
    const rates = operatorData.listedRatePlans(caller.partnerId, Shopping.today(request.ctx.nowMs));
    return sendRepresentation(reply, 200, { rates, count: rates.length }, request.ctx.representation);
  });
}
