#!/usr/bin/env node
// The package's bin, partner-api-certify, is this file compiled to dist/harness/cli.js (npm run build): plain Node,
// nothing resolved from the user's directory. From the sources, `npm run certify` runs it with tsx.
import { main } from './runner/cli-program.ts';

// Stack traces (--debug) point into the TypeScript sources through the compiled package's source maps.
process.setSourceMapsEnabled(true);

const controller = new AbortController();
let interrupted = false;
const onSignal = (signal: NodeJS.Signals) => {
  // First Ctrl-C: cancel the run, still stop the embedded server and write the report of what finished.
  // Second: leave now.
  if (interrupted) process.exit(130);
  interrupted = true;
  process.stderr.write(`\ncertify: ${signal}: cancelling the run (again to quit at once)\n`);
  controller.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  signal: controller.signal,
  isTTY: process.stdout.isTTY === true,
  ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
});
process.exitCode = interrupted && code === 0 ? 130 : code;
// Keep-alive sockets or a lingering worker must not hold the exit; output is flushed (synchronous on pipes and files).
setTimeout(() => process.exit(process.exitCode), 2_000).unref();
