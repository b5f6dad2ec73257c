import { TokenCache } from '../auth/token-cache.ts';
import { type TestHooks, testHooks } from '../hooks/adapter.ts';
import { configureHttp, send } from '../http/client.ts';
import { isLoopback, Pacer } from '../http/pacing.ts';
import { registerTargetSecrets } from '../http/secrets.ts';
import type { RunSettings } from '../run-settings.ts';

/** What every check of one worker process shares: the token cache, the pacing, the test hooks. */
export interface HarnessState {
  settings: RunSettings;
  tokens: TokenCache;
  send: typeof send;
  hooks: TestHooks | undefined;
}

let state: HarnessState | undefined;

/** Sets the process up for the run once (secrets registered before any request, pacing, token cache). */
export function harnessState(settings: RunSettings): HarnessState {
  if (state?.settings === settings) return state;
  const { target } = settings;
  registerTargetSecrets(target);
  configureHttp({
    pacer: new Pacer({ maxRps: settings.maxRps, honourRetryAfter: !isLoopback(target.baseUrl) }),
    tls: target.tls,
    // The profile is enforced by the client: a request it does not allow is refused, never sent.
    profile: {
      profile: settings.profile,
      target: { baseUrl: target.baseUrl, ...(target.hooks ? { hooksBaseUrl: target.hooks.baseUrl } : {}) },
    },
  });
  state = {
    settings,
    tokens: new TokenCache({ baseUrl: target.baseUrl, clients: target.clients, send }),
    send,
    hooks: target.hooks && settings.hooks.length > 0 ? testHooks(target.hooks, settings.hooks, send) : undefined,
  };
  return state;
}
