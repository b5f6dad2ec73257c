#!/usr/bin/env -S node --import tsx
// The shebang runs this TypeScript file directly: tsx registered as a Node loader (Node >= 20.6), one process, no
// build step. `npm run certify` uses `tsx harness/cli.ts` instead; both resolve tsx from the installed dependencies.
import { main } from './runner/cli-program.ts';

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
});
process.exitCode = interrupted && code === 0 ? 130 : code;
// Keep-alive sockets or a lingering worker must not hold the exit; output is flushed (synchronous on pipes and files).
setTimeout(() => process.exit(process.exitCode), 2_000).unref();
