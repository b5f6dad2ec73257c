import { configFromEnv } from './config.ts';
import { FAULTS } from './faults/catalogue/index.ts';
import { startServer } from './server.ts';

// `--list-faults`: the catalogue of named faults and benign variants as JSON, for the mutation harness.
if (process.argv.includes('--list-faults')) {
  const list = FAULTS.map(({ name, kind, clause, description }) => ({ name, kind, clause, description }));
  process.stdout.write(`${JSON.stringify(list)}\n`);
  process.exit(0);
}

/** `npm run serve`: the reference implementation alone (README "Running the reference implementation"). */
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
