import { API_PREFIX } from '../../contract/constants.ts';
import { ENDPOINTS } from '../../contract/endpoints.ts';
import type { Scope } from '../../contract/scopes.ts';
import { ScopeNotGrantedError, type TokenCache } from '../auth/token-cache.ts';
import type { Role } from '../config/target-config.ts';
import type { HttpRequest, HttpResponse, SendOptions } from '../http/client.ts';
import type { RunSettings } from '../run-settings.ts';
import { holdsScope, WORKING_ROLES } from './applicability.ts';

type SendFn = (req: HttpRequest, options?: SendOptions) => Promise<HttpResponse>;

/** Each endpoint of the table (spec 4) as a method and a path pattern under API_PREFIX, with its scope. */
const SCOPED = ENDPOINTS.filter((endpoint) => endpoint.scope !== null).map((endpoint) => ({
  method: endpoint.method,
  path: new RegExp(`^${endpoint.path.slice(API_PREFIX.length).replace(/\{[^}]+\}/g, '[^/]+')}$`),
  scope: endpoint.scope as Scope,
}));

/** The scope of the endpoint a request calls on the target, or undefined (another host, path or method). */
export function endpointScope(method: string, url: string, baseUrl: string): Scope | undefined {
  const apiBase = `${baseUrl.replace(/\/+$/, '')}${API_PREFIX}`;
  if (!url.startsWith(`${apiBase}/`)) return undefined;
  let path: string;
  try {
    path = new URL(url).pathname.slice(new URL(apiBase).pathname.length);
  } catch {
    return undefined;
  }
  return SCOPED.find((endpoint) => endpoint.method === method && endpoint.path.test(path))?.scope;
}

/**
 * The check's transport, refusing before it is sent a call a working role (partnerA, partnerB) makes with its
 * everything-held token to an endpoint whose scope the target has not granted that role (RunSettings.granted): such a
 * call means to be served (a booking, a reservation read), and the target could only refuse it for the scope, so
 * the check cannot judge its clause with this target's grants (ScopeNotGrantedError: not-applicable). A call with a
 * token the check limited itself (`scopes`), or by a role that exists to be refused, goes as it is: its 403 is what
 * the check judges.
 */
export function scopeGuarded(send: SendFn, tokens: TokenCache, settings: Pick<RunSettings, 'granted' | 'target'>) {
  if (!settings.granted) return send;
  return async (req: HttpRequest, options?: SendOptions): Promise<HttpResponse> => {
    const role = options?.role as Role | undefined;
    if (role !== undefined && WORKING_ROLES.includes(role)) {
      const scope = endpointScope(req.method, req.url, settings.target.baseUrl);
      const bearer = bearerOf(req.headers);
      if (scope && bearer !== undefined && tokens.isUnlimited(bearer) && !holdsScope(settings, role, scope)) {
        throw new ScopeNotGrantedError(
          role,
          [scope],
          `${req.method} ${new URL(req.url).pathname} needs it, and the target's token for ${role} lacks it`,
        );
      }
    }
    return send(req, options);
  };
}

function bearerOf(headers: Record<string, string> | undefined): string | undefined {
  const value = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const match = value === undefined ? null : /^Bearer (.+)$/i.exec(value);
  return match?.[1];
}
