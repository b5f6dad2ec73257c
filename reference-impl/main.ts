import { configFromEnv } from './config.ts';
import { startServer } from './server.ts';

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
