/**
 * `node --import tsx reference-impl/store/seed-cli.ts <database-url> <template-id> <count> [from]`: seeds `count`
 * reservations modelled on the template (seed.ts) and prints the SeedResult as one line of JSON. The bench's scale
 * rows run it as a child process (load/bench/scale.ts).
 */
import { seedReservations } from './seed.ts';

const [databaseUrl, templateId, count, from = '0'] = process.argv.slice(2);
if (!databaseUrl || !templateId || !count) {
  process.stderr.write('usage: seed-cli.ts <database-url> <template-id> <count> [from]\n');
  process.exit(2);
}
const result = await seedReservations(databaseUrl, { templateId, count: Number(count), from: Number(from) });
process.stdout.write(`${JSON.stringify(result)}\n`);
