/**
 * A partner client that keeps every client clause (docs/client-clauses.md): shop, quote, book, read, list and cancel
 * against the Partner API, the way the spec asks a client to. Try it against the sandbox:
 *
 *   npx partner-api-certify client -- npx tsx examples/good-client.ts
 *   npx partner-api-certify client --scenario resilience -- npx tsx examples/good-client.ts
 *   npx partner-api-certify client --scenario limits -- npx tsx examples/good-client.ts
 *
 * Its steps are in partner-client.ts (the token, one request and its retries, a session), which faulty-client.ts
 * runs too, with one named fault switched on. Both files use nothing but Node's fetch, so they can be copied out of
 * this repository as they are. It reads the sandbox's address and credentials from PARTNER_API_BASE_URL,
 * PARTNER_API_CLIENT_ID and PARTNER_API_CLIENT_SECRET (and the _2 pair, a second client, when given); Node trusts
 * the sandbox's certificate through NODE_EXTRA_CA_CERTS, which the certify command sets.
 */
import { runSessions } from './partner-client.ts';

await runSessions();
