/**
 * The target config for k6 runs: the same JSON file as the native engine's --config (harness/config/target-config.ts
 * shape), read with k6's open() in the init context; "$NAME" / "${NAME}" values come from k6's environment.
 */
import { resolveEnvReferences } from '../../contract/target-env.ts';
import { ROLES } from '../../contract/vocabulary.ts';
import type { LoadTarget } from '../engine-neutral/model.ts';
import { parseTargetCeilings } from '../engine-neutral/target-ceilings.ts';

/** Parses the config file's text; messages name keys, never values. */
export function parseK6Target(text: string, env: Record<string, string>): LoadTarget {
  const raw = resolveEnvReferences(JSON.parse(text), env, (message) => {
    throw new Error(`target config: ${message}`);
  }) as Record<string, unknown>;
  if (typeof raw.baseUrl !== 'string' || !/^https?:\/\//.test(raw.baseUrl)) {
    throw new Error('target config: baseUrl must be an http(s) URL');
  }
  const target: LoadTarget = { baseUrl: raw.baseUrl.replace(/\/+$/, ''), clients: {} };
  const clients = (raw.clients ?? {}) as Record<string, { clientId?: unknown; clientSecret?: unknown }>;
  for (const role of ROLES) {
    const entry = clients[role];
    if (entry && typeof entry.clientId === 'string' && typeof entry.clientSecret === 'string') {
      target.clients[role] = { clientId: entry.clientId, clientSecret: entry.clientSecret };
    }
  }
  const control = raw.control as { baseUrl?: unknown; token?: unknown } | undefined;
  if (control && typeof control.token === 'string') {
    target.control = { token: control.token };
    if (typeof control.baseUrl === 'string') target.control.baseUrl = control.baseUrl;
  }
  if (raw.owned === true) target.owned = true;
  try {
    const ceilings = parseTargetCeilings(raw.ceilings);
    if (ceilings) target.ceilings = ceilings;
  } catch (error) {
    throw new Error(`target config: ${(error as Error).message}`);
  }
  return target;
}
