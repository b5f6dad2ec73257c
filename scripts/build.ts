/**
 * `npm run build` (also npm's prepack): compiles the package's three entry points and the conformance suites to
 * JavaScript in dist/ (tsc with tsconfig.build.json: one .js and one source map per module, imports rewritten from
 * .ts to .js), then copies the data files the compiled modules read beside them. dist/ mirrors the source folders,
 * so every `new URL('../…', import.meta.url)` finds the same thing in both.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
// `--out-dir DIR` (the bench's own build of the reference): inside the checkout, so that imports find node_modules.
const outFlag = process.argv.indexOf('--out-dir');
const DIST = outFlag === -1 ? join(ROOT, 'dist') : resolve(process.argv[outFlag + 1] ?? 'dist');
/** Read at run time by path, so tsc does not carry them over. */
const ASSETS = [
  'fixtures/reference-target.json',
  'contract/openapi/partner-api-v1.openapi.json',
  'reference-impl/sandbox/scenarios/happy-path.json',
  'reference-impl/sandbox/scenarios/resilience.json',
  'reference-impl/sandbox/scenarios/limits.json',
];

rmSync(DIST, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', DIST], {
  // stderr only: `npm pack --json` prints its answer on stdout after this prepack step.
  stdio: ['ignore', 2, 2],
});
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

for (const asset of ASSETS) {
  mkdirSync(dirname(join(DIST, asset)), { recursive: true });
  copyFileSync(join(ROOT, asset), join(DIST, asset));
}
if (outFlag === -1) {
  // The bins run as executables from a clone too (npm sets the mode itself when it installs the package).
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  for (const bin of Object.values(pkg.bin)) chmodSync(join(ROOT, bin), 0o755);
  process.stderr.write(`build: dist/ written (bins: ${Object.keys(pkg.bin).join(', ')})\n`);
} else {
  process.stderr.write(`build: ${DIST} written\n`);
}
