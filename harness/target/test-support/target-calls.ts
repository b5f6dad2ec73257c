import { expect } from 'vitest';
import { API_PREFIX } from '../../../contract/constants.ts';
import { basicAuthorization } from '../../auth/token-cache.ts';
import type { Role, TargetConfig } from '../../config/target-config.ts';
import { send } from '../../http/client.ts';

/** A bearer token of a configured role, fetched directly (no cache): for harness tests against a live target. */
export async function tokenOf(config: TargetConfig, role: Role): Promise<string> {
  const { clientId, clientSecret } = config.clients[role] ?? { clientId: '', clientSecret: '' };
  const res = await send({
    method: 'POST',
    url: `${config.baseUrl}${API_PREFIX}/oauth/token`,
    headers: {
      authorization: basicAuthorization(clientId, clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  expect(res.status).toBe(200);
  return JSON.parse(new TextDecoder().decode(res.body)).access_token;
}

/** GET /locations with a bearer token: the cheapest authenticated business call. */
export function getLocations(config: TargetConfig, bearer: string) {
  return send({
    method: 'GET',
    url: `${config.baseUrl}${API_PREFIX}/locations`,
    headers: { authorization: `Bearer ${bearer}` },
  });
}
