/**
 * Test helper process for the cross-process check in store.contract.test.ts: opens the SQLite file named by
 * argv[2], prints `ready`, waits for a line on stdin, then runs argv[3] rounds of (claim one shared key, take a
 * pending decline, increment the clock offset) against the other processes doing the same, and prints the
 * tally as JSON.
 */
import { createInterface } from 'node:readline';
import { SqliteStore } from './sqlite.ts';

const [path, roundsArg] = process.argv.slice(2);
if (!path || !roundsArg) throw new Error('usage: contention-child.ts <sqlite-file> <rounds>');

const store = new SqliteStore(path);
await store.migrate();
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
await new Promise((resolve) => lines.once('line', resolve));
lines.close();

const tally = { claimed: 0, inFlight: 0, declined: 0 };
for (let i = 0; i < Number(roundsArg); i++) {
  const claim = await store.claimIdempotencyKey({
    partnerId: 'contention-partner',
    key: 'contention-key',
    requestHash: 'same-body',
    nowMs: 1_000,
    leaseMs: 60_000,
    retentionMs: 86_400_000,
    claimToken: `token-${process.pid}-${i}`,
  });
  if (claim.kind === 'claimed') tally.claimed++;
  if (claim.kind === 'in_flight') tally.inFlight++;
  if (await store.takeDeclineNextBooking()) tally.declined++;
  await store.updateControlState((s) => ({ ...s, clockOffsetMs: s.clockOffsetMs + 1 }));
}
process.stdout.write(`${JSON.stringify(tally)}\n`);
await store.close();
