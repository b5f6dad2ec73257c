/**
 * The package as a user gets it (README "Installing the tool"). `npm pack` (which builds dist/), a global install into
 * a temporary prefix, then the bins run from a directory unrelated to this repository and certify the embedded
 * reference.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageInfo } from '../../contract/package-info.ts';
import { PROJECT_ROOT } from './paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-package-'));
const prefix = join(dir, 'prefix');
const elsewhere = join(dir, 'elsewhere');
const installed = join(prefix, 'lib', 'node_modules', packageInfo().name);
const bin = (name: string) => join(prefix, 'bin', name);
let tarball = '';

/** npm without the repository's environment: the bins must not lean on this checkout. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm_|NODE_PATH$|INIT_CWD$)/.test(key)),
);

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

beforeAll(() => {
  mkdirSync(elsewhere, { recursive: true });
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], PROJECT_ROOT)) as { filename: string }[];
  tarball = join(dir, packed[0]?.filename ?? '');
  // --ignore-scripts: the one install script that matters, better-sqlite3's native build, takes a minute here (no
  // prebuilt binary can be fetched); the same version's binary, built by this checkout's `npm ci`, is copied in
  // instead. `npm run test:image` (in .ci/run) installs the tarball with its scripts, and runs it through npx.
  npm(
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      tarball,
      '--prefer-offline',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
    ],
    elsewhere,
  );
  const native = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  mkdirSync(join(installed, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
  copyFileSync(join(PROJECT_ROOT, native), join(installed, native));
}, 240_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packed tarball', () => {
  test('holds the compiled bins, suites and source maps, and no unit tests or TypeScript sources', () => {
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !f.endsWith('/'))
      .map((f) => f.replace(/^package\//, ''));
    for (const bin of Object.values(JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).bin)) {
      expect(files).toContain(bin);
    }
    expect(files).toContain('dist/harness/cli.js.map');
    expect(files).toContain('docs/spec/partner-api-v1.md');
    expect(files).toContain('dist/fixtures/reference-target.json');
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
    // The conformance suites are what the runner runs; no other test file ships.
    expect(files.filter((f) => /\.test\.js$/.test(f) && !f.startsWith('dist/suites/'))).toEqual([]);
    expect(files.filter((f) => /test-support|\/testing\//.test(f))).toEqual([]);
  });
});

describe('installed globally, run from an unrelated directory', () => {
  test('every bin answers --version', () => {
    for (const name of ['partner-api-certify', 'partner-api-load', 'partner-api-reference', 'partner-api-sandbox']) {
      expect(execFileSync(bin(name), ['--version'], { cwd: elsewhere, env, encoding: 'utf8' }).trim()).toBe(
        packageInfo().version,
      );
    }
  });

  test('partner-api-certify --target embedded certifies the bundled reference (sections 4.3 and 4.10)', () => {
    const run = spawnSync(
      bin('partner-api-certify'),
      ['--target', 'embedded', '--only', '4.3,4.10', '--format', 'json,junit', '--report-dir', 'out', '--seed', '11'],
      { cwd: elsewhere, env, encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(readdirSync(join(elsewhere, 'out')).sort()).toEqual(['junit.xml', 'report.json']);
    const report = JSON.parse(readFileSync(join(elsewhere, 'out', 'report.json'), 'utf8'));
    expect(report.verdict.passed).toBe(true);
    expect(report.target.embedded).toBe(true);
    expect(report.tool.version).toBe(packageInfo().version);
    expect(report.verdict.counts.pass).toBeGreaterThan(0);
  });
});
