#!/usr/bin/env node
import { parseCliArgs } from './cli-args.ts';
import { configFromEnv } from './config.ts';
import { FAULTS } from './faults/registry/index.ts';
import { startServer } from './server.ts';

/** `npm run serve` (the package's partner-api-reference): the reference implementation alone (README "Configuration"). */
process.setSourceMapsEnabled(true);
const request = parseCliArgs(process.argv.slice(2));
if (request.kind === 'list-faults') {
  // The registry of named faults and benign variants as JSON, for the mutation harness.
  const list = FAULTS.map(({ name, kind, clause, description }) => ({ name, kind, clause, description }));
  process.stdout.write(`${JSON.stringify(list)}\n`);
  process.exit(0);
}
if (request.kind !== 'serve') {
  (request.kind === 'print' ? process.stdout : process.stderr).write(request.text);
  process.exit(request.kind === 'print' ? 0 : 2);
}
const config = configFromEnv();
const server = await startServer(config, { logger: true });
server.app.log.info(
  `partner API reference implementation on ${server.url}/api/partner/v1 (store: ${server.store.kind})`,
);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
