import { join } from 'node:path';

/**
 * The scenarios the sandbox can play. Only `happy-path` exists: the sandbox answers as the reference does and
 * provokes nothing, so clauses about 429s, lost answers or expired tokens are judged only if they happen by
 * themselves (README "Certifying your client": the `resilience` and `limits` scenarios are not built). Its own
 * module, so the CLI's --help names them without loading the judge.
 */
export const CLIENT_SCENARIOS = ['happy-path'] as const;
export type ClientScenario = (typeof CLIENT_SCENARIOS)[number];

/** Beside the server's reports/, so a client run never overwrites a server certification's reports. */
export const DEFAULT_CLIENT_REPORT_DIR = join('reports', 'client');
