import { join } from 'node:path';

/**
 * The scenarios the sandbox plays (reference-impl/sandbox/scenarios/, README "Certifying your client"): `happy-path`
 * answers as the reference does and provokes nothing; `resilience` provokes, for each client, a 429 with Retry-After,
 * a lost booking answer, a replay in flight, a token expired early, an expired and a stale quote, a declined booking,
 * and rewords every error message; `limits` answers the first token request 429 slow_down and three business calls in
 * a row 429 RATE_LIMITED, each with Retry-After (1 to 3 s), as a production service's rate limits would. A path to a
 * scenario file of the partner's own is played too. Its own module, so the CLI's --help names them without loading
 * the judge.
 */
export const CLIENT_SCENARIOS = ['happy-path', 'resilience', 'limits'] as const;
export type ClientScenario = (typeof CLIENT_SCENARIOS)[number];

/** Beside the server's reports/, so a client run never overwrites a server certification's reports. */
export const DEFAULT_CLIENT_REPORT_DIR = join('reports', 'client');
