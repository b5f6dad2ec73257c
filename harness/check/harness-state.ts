import { inject } from 'vitest';
import { TokenCache } from '../auth/token-cache.ts';
import type { Role } from '../config/target-config.ts';
import { type TestHooks, testHooks } from '../hooks/adapter.ts';
import { configureHttp, send } from '../http/client.ts';
import { Pacer } from '../http/pacing.ts';
import { RateLimitModel } from '../http/rate-limits.ts';
import { registerTargetSecrets, rolePlaceholder, secrets } from '../http/secrets.ts';
import {
  type IssuedToken,
  type PreflightTokens,
  RUN_SETTINGS_KEY,
  RUN_TOKENS_KEY,
  type RunSettings,
} from '../run-settings.ts';

/** What every check of one worker process shares: the token cache, the pacing, the test hooks. */
export interface HarnessState {
  settings: RunSettings;
  tokens: TokenCache;
  send: typeof send;
  hooks: TestHooks | undefined;
}

let state: HarnessState | undefined;

/** The settings of the current run, as the runner provided them to this worker (harness/runner/vitest-run.ts). */
export function readRunSettings(): RunSettings {
  const settings = inject(RUN_SETTINGS_KEY);
  if (!settings) {
    throw new Error('no run settings: the suites run through the certify runner (npm run certify), not on their own');
  }
  return settings;
}

/**
 * The process's HTTP trust, pace, rate-limit model and profile for a run: the runner (pre-flight, hooks, cleanup) and each worker call
 * this one function, so both processes decide them the same way.
 */
export function configureRunHttp(settings: Pick<RunSettings, 'target' | 'profile' | 'maxRps'>): void {
  const { target } = settings;
  configureHttp({
    tls: target.tls,
    // --max-rps is the hard ceiling; the target's own limits (its X-RateLimit-* and Retry-After, per client) are
    // the rate-limit model's, whatever the target's address (a developer's localhost limits as the live service does).
    pacer: new Pacer({ maxRps: settings.maxRps, honourRetryAfter: false }),
    limits: new RateLimitModel(),
    // The profile is enforced by the client: a request it does not allow is refused, never sent.
    profile: {
      profile: settings.profile,
      target: { baseUrl: target.baseUrl, ...(target.hooks ? { hooksBaseUrl: target.hooks.baseUrl } : {}) },
    },
  });
}

/** Sets the process up for the run once (secrets registered before any request, pacing, token cache). */
export function harnessState(settings: RunSettings): HarnessState {
  if (state?.settings === settings) return state;
  const { target } = settings;
  registerTargetSecrets(target);
  configureRunHttp(settings);
  state = {
    settings,
    tokens: new TokenCache({
      baseUrl: target.baseUrl,
      clients: target.clients,
      send,
      ...(settings.granted ? { granted: settings.granted } : {}),
    }),
    send,
    hooks: target.hooks && settings.hooks.length > 0 ? testHooks(target.hooks, settings.hooks, send) : undefined,
  };
  adoptPreflightTokens(state.tokens, inject(RUN_TOKENS_KEY));
  return state;
}

/**
 * Pre-flight's tokens (the runner's process) handed to this worker's cache, each registered as a secret here as the
 * token endpoint's answers are (harness/http/client.ts), so no log, report or evidence shows it.
 */
export function adoptPreflightTokens(cache: TokenCache, tokens: PreflightTokens | undefined): void {
  for (const [role, issued] of Object.entries(tokens ?? {}) as [Role, IssuedToken][]) {
    secrets.add(issued.accessToken, rolePlaceholder('TOKEN', role));
    cache.adopt(role, issued);
  }
}
