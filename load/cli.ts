import { runLoadCli } from './cli-program.ts';

/** `npm run load -- <scenario> --target … --config …` (see `npm run load -- --help`). */
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
