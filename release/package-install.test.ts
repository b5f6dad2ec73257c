/**
 * The package as a user installs it (README "Installing the tool"; npm run test:image): the packed tarball installed
 * globally with its install scripts (better-sqlite3's native build included) and run through npx, each from a directory
 * unrelated to this checkout. npm run test:long's harness/runner/package.install.test.ts does the quick version (no install
 * scripts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageInfo } from '../contract/package-info.ts';
import { ROOT } from './engine.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-release-install-'));
const elsewhere = join(dir, 'elsewhere');
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm_|NODE_PATH$|INIT_CWD$)/.test(key)),
) as NodeJS.ProcessEnv;
let tarball = '';

beforeAll(() => {
  mkdirSync(elsewhere, { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, env, encoding: 'utf8' }),
  ) as { filename: string }[];
  tarball = join(dir, packed[0]?.filename ?? '');
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function certifyArgs(reportDir: string): string[] {
  return ['--target', 'embedded', '--only', '4.2,4.7', '--format', 'json', '--report-dir', reportDir];
}

function expectPassed(run: ReturnType<typeof spawnSync>, reportDir: string): void {
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  const report = JSON.parse(readFileSync(join(elsewhere, reportDir, 'report.json'), 'utf8'));
  expect(report.verdict.passed).toBe(true);
  expect(report.tool.version).toBe(packageInfo().version);
}

describe('the packed tarball, installed with its install scripts', () => {
  test('npm install -g: the bins run from an unrelated directory', () => {
    const prefix = join(dir, 'prefix');
    // Allowed explicitly: npm 11 asks before running a dependency's install script in a global install.
    execFileSync(
      'npm',
      ['install', '-g', '--prefix', prefix, tarball, '--allow-scripts=better-sqlite3', '--no-audit', '--no-fund'],
      { cwd: elsewhere, env, stdio: 'ignore', timeout: 600_000 },
    );
    const bin = (name: string) => join(prefix, 'bin', name);
    expect(execFileSync(bin('partner-api-reference'), ['--version'], { cwd: elsewhere, encoding: 'utf8' }).trim()).toBe(
      packageInfo().version,
    );
    const run = spawnSync(bin('partner-api-certify'), certifyArgs('global'), {
      cwd: elsewhere,
      env,
      encoding: 'utf8',
      timeout: 300_000,
    });
    expectPassed(run, 'global');
  }, 900_000);

  test('npx --package ./<tarball> partner-api-certify', () => {
    // npx installs into a folder of npm's cache keyed by the package spec (this run's tarball path: a fresh install);
    // the folder goes again at the end.
    const npxDir = join(execFileSync('npm', ['config', 'get', 'cache'], { env, encoding: 'utf8' }).trim(), '_npx');
    const before = new Set(existsSync(npxDir) ? readdirSync(npxDir) : []);
    try {
      const run = spawnSync('npx', ['--yes', '--package', tarball, 'partner-api-certify', ...certifyArgs('npx')], {
        cwd: elsewhere,
        env,
        encoding: 'utf8',
        timeout: 600_000,
      });
      expectPassed(run, 'npx');
    } finally {
      for (const added of existsSync(npxDir) ? readdirSync(npxDir) : []) {
        if (!before.has(added)) rmSync(join(npxDir, added), { recursive: true, force: true });
      }
    }
  }, 900_000);
});
