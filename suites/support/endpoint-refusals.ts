/**
 * Every business endpoint of a profile level called without its token, with a malformed one and with a token of
 * another scope: the refusals several clauses judge (7.1.2 their shape, 4.0.2 their X-Request-Id, 7.3.1 and the
 * endpoints' own rows the 401 without a token). Sent once for the run in each representation (sharedStep): a target
 * limits each client's requests a minute (spec 8). Safe on any target: nothing is read or written without a token.
 */
import { API_PREFIX } from '../../contract/constants.ts';
import type { Endpoint } from '../../contract/endpoints.ts';
import type { Scope } from '../../contract/scopes.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { type EndpointProfile, endpointsOf } from './endpoints.ts';
import { fleetOf, locationsOf } from './listings.ts';
import { MALFORMED_TOKEN, sharedRead } from './shared-reads.ts';
import { sharedStep } from './shared-steps.ts';

/** How the call is refused: no Authorization header, a token no server issued, a genuine token of another scope. */
export type RefusalKind = 'no token' | 'malformed token' | 'another scope';

export interface EndpointRefusal {
  endpoint: Endpoint;
  kind: RefusalKind;
  /** The call as evidence names it: `GET /api/partner/v1/fleet with no token`. */
  what: string;
  res: ApiResult;
}

/** The reservation id refused calls name: made up, so no call could reach a reservation even if it were served. */
const NO_SUCH_RESERVATION = 'CERT-NO-SUCH-RESERVATION';

/** A token of another scope than the endpoint's (spec 5.6: 403). */
function anotherScope(endpoint: Endpoint): Scope {
  return endpoint.scope === 'fleet:read' ? 'locations:read' : 'fleet:read';
}

/**
 * The refusals of every endpoint of `level`, in table order, three per endpoint (RefusalKind), in the check's
 * representation; path parameters are listed codes and a made-up reservation id, bodies empty objects (a refused
 * call never books, whatever the target checks first). Not judged here: each check judges its own rule on them.
 */
export function endpointRefusals(t: CheckContext, level: EndpointProfile): Promise<EndpointRefusal[]> {
  return sharedStep(t, `endpoint refusals ${level} ${t.representation}`, async () => {
    const vehicleCode = (await fleetOf(t, 'partnerA')).vehicles[0]?.vehicleCode ?? 'ZZ-CERT-VEHICLE';
    const locationCode = (await locationsOf(t, 'partnerA')).locations[0]?.locationCode ?? 'ZZ-CERT-LOCATION';
    const values: Record<string, string> = { vehicleCode, locationCode, reservationId: NO_SUCH_RESERVATION };
    const out: EndpointRefusal[] = [];
    for (const endpoint of endpointsOf(level)) {
      const path = endpoint.path
        .slice(API_PREFIX.length)
        .replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
      const scope = anotherScope(endpoint);
      const ways: [RefusalKind, string, { token?: string | null; scopes?: string[] }][] = [
        ['no token', 'no token', { token: null }],
        ['malformed token', 'a malformed token', { token: MALFORMED_TOKEN }],
        ['another scope', `a ${scope} token`, { scopes: [scope] }],
      ];
      for (const [kind, how, opts] of ways) {
        const what = `${endpoint.method} ${endpoint.path} with ${how}`;
        out.push({ endpoint, kind, what, res: await call(t, endpoint.method, path, opts) });
      }
    }
    return out;
  });
}

/** The refusals of one kind. */
export async function refusalsOf(
  t: CheckContext,
  level: EndpointProfile,
  kind: RefusalKind,
): Promise<EndpointRefusal[]> {
  return (await endpointRefusals(t, level)).filter((r) => r.kind === kind);
}

/**
 * The answer to `operationId` called without a token (a catalog, shop or book endpoint). A path without parameters is
 * asked on its own (sharedRead, the same request the set holds), so a check of it does not wait on the lists the set
 * reads its codes from: a target whose lists cannot be read still has its refusals judged.
 */
export async function unauthenticated(
  t: CheckContext,
  level: EndpointProfile,
  operationId: string,
): Promise<ApiResult> {
  const endpoint = endpointsOf(level).find((e) => e.operationId === operationId);
  // A suite fault (an operation of another level), never the target's.
  if (!endpoint) throw new Error(`no ${operationId} among the ${level} endpoints`);
  if (endpoint.method === 'GET' && !endpoint.path.includes('{')) {
    return sharedRead(t, endpoint.path.slice(API_PREFIX.length), { token: null });
  }
  const found = (await refusalsOf(t, level, 'no token')).find((r) => r.endpoint.operationId === operationId);
  if (!found) throw new Error(`no ${operationId} among the ${level} endpoints`);
  return found.res;
}

function call(
  t: CheckContext,
  method: string,
  path: string,
  opts: { token?: string | null; scopes?: string[] },
): Promise<ApiResult> {
  const client = t.client('partnerA');
  // A read is the question other shared sets ask too (the pairs, the provoked errors): asked once (sharedRead).
  if (method === 'GET') return sharedRead(t, path, opts);
  if (method === 'PATCH') return client.patch(path, {}, opts);
  return client.post(path, {}, opts);
}
