#!/usr/bin/env node
import { runLoadCli } from './cli-program.ts';

process.setSourceMapsEnabled(true);

/** `npm run load -- <scenario> --target … --config …` (see `npm run load -- --help`); the package's partner-api-load. */
const abort = new AbortController();
process.once('SIGINT', () => abort.abort());
process.once('SIGTERM', () => abort.abort());
const code = await runLoadCli(
  process.argv.slice(2),
  {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  },
  abort.signal,
);
process.exit(code);
