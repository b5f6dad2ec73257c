import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Profile } from '../check/meta.ts';
import { RUN_SETTINGS_ENV, removeRunSettings, writeRunSettings } from '../run-settings.ts';
import { startEmbeddedTarget } from './embedded.ts';

/**
 * Development aid: runs suites/ against a fresh embedded reference implementation, without the certify runner.
 *   npx tsx harness/target/dev-run.ts [--profile full] [--only 4.1,5] [--strict] [vitest file filters…]
 */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [value] = args.splice(i, 2).slice(1);
  return value;
};
const flag = (name: string) => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const profile = (option('--profile') ?? 'full') as Profile;
const only = (option('--only') ?? '').split(',').filter(Boolean);
const strict = flag('--strict');
const allowBookings = flag('--allow-bookings');

const target = await startEmbeddedTarget();
const runId = Date.now().toString(36);
const file = writeRunSettings({
  target: target.config,
  embedded: true,
  profile,
  allowBookings,
  strict,
  seed: Number(option('--seed') ?? 42),
  runs: 20,
  maxRps: null,
  date: new Date().toISOString().slice(0, 10),
  bookingPrefix: `CERT-${runId}-`,
  only,
});
let status = 1;
try {
  const result = spawnSync(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--config',
      'suites/vitest.suites.config.ts',
      '--reporter=default',
      '--reporter=./harness/target/dev-reporter.ts',
      ...args,
    ],
    { cwd: REPO, stdio: 'inherit', env: { ...process.env, [RUN_SETTINGS_ENV]: file } },
  );
  status = result.status ?? 1;
} finally {
  removeRunSettings(file);
  await target.stop();
}
process.exit(status);
