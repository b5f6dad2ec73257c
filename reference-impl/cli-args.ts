import { packageInfo } from '../contract/package-info.ts';

/** What the reference server's command line asks for; everything else is configured by the environment. */
export type CliRequest =
  | { kind: 'serve' }
  | { kind: 'list-faults' }
  | { kind: 'print'; text: string }
  | { kind: 'error'; text: string };

const USAGE = `Usage: partner-api-reference [--version | --help | --list-faults]

The reference implementation of the Partner Car Rental Distribution API v1 (Fastify; SQLite or PostgreSQL + Redis).
Configured by the environment only: PORT, HOST, DATABASE_URL (sqlite:<file> or postgres://…), REDIS_URL,
REDIS_KEY_PREFIX, CLIENT_SECRET_<ROLE>, CONTROL_TOKEN, API_DISABLED, TOKEN_LIMIT_PER_CLIENT, TOKEN_LIMIT_PER_ADDRESS,
RATE_LIMIT_PER_MINUTE, TLS_CERT_FILE, TLS_KEY_FILE, LOG_LEVEL, LOG_REQUESTS, FAULTS, IDEMPOTENCY_PURGE_INTERVAL_S,
IDEMPOTENCY_PURGE_BATCH_SIZE (README "Configuration"). Readiness: GET /health/ready.
`;

export function parseCliArgs(args: readonly string[]): CliRequest {
  const [first, ...rest] = args;
  if (first === undefined) return { kind: 'serve' };
  if (rest.length === 0 && (first === '--version' || first === '-V')) {
    return { kind: 'print', text: `${packageInfo().version}\n` };
  }
  // The registry of named faults (FAULTS=...) as JSON, for the mutation harness.
  if (rest.length === 0 && first === '--list-faults') return { kind: 'list-faults' };
  if (rest.length === 0 && (first === '--help' || first === '-h')) return { kind: 'print', text: USAGE };
  return { kind: 'error', text: `partner-api-reference: unexpected argument "${args.join(' ')}"\n\n${USAGE}` };
}
