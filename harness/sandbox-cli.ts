#!/usr/bin/env node
// The package's bin, partner-api-sandbox, is this file compiled to dist/harness/sandbox-cli.js (npm run build): plain
// Node, nothing resolved from the user's directory. From the sources, `npm run sandbox` runs it with tsx.
import { sandboxMain } from './client-certify/sandbox-program.ts';

process.setSourceMapsEnabled(true);

const controller = new AbortController();
let stopping = false;
const onSignal = (signal: NodeJS.Signals) => {
  // Stopping is how a session ends, not an interruption: the first signal stops the sandbox and judges what it
  // recorded. A second leaves at once, without a verdict.
  if (stopping) process.exit(130);
  stopping = true;
  process.stderr.write(`\nsandbox: ${signal}: stopping and judging the session (again to quit at once)\n`);
  controller.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

process.exitCode = await sandboxMain(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: controller.signal,
});
// Keep-alive sockets must not hold the exit; output is flushed (synchronous on pipes and files).
setTimeout(() => process.exit(process.exitCode), 2_000).unref();
