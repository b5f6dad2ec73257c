import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildReport } from '../report/build.ts';
import { renderJson } from '../report/json.ts';
import { sampleInput } from '../report/test-support/sample.ts';
import { main, progressMode } from './cli-program.ts';
import { PROJECT_ROOT } from './paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { CERT_SECRET: 'do-not-print-me' },
  });
  return { code, stdout, stderr };
}

function expectConfigError(result: { code: number; stderr: string }, pattern: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^certify: /);
  expect(result.stderr).toMatch(pattern);
  // A message, never a stack trace.
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('configuration errors exit 2 with a message naming the problem', () => {
  test('unknown profile', async () => {
    expectConfigError(await cli('--profile', 'gold'), /--profile: unknown profile "gold"/);
  });

  test('unknown --only id', async () => {
    expectConfigError(await cli('--only', '4.7.3,4.99'), /--only: unknown clause id or section "4\.99"/);
  });

  test('out-of-range numbers', async () => {
    expectConfigError(await cli('--runs', '0'), /--runs/);
    expectConfigError(await cli('--seed', 'abc'), /--seed/);
    expectConfigError(await cli('--max-rps', '-3'), /--max-rps/);
  });

  test('a URL target without --config', async () => {
    expectConfigError(await cli('--target', 'https://api.example.test'), /needs --config FILE/);
  });

  test('a missing config file', async () => {
    const missing = join(dir, 'nope.json');
    expectConfigError(
      await cli('--target', 'http://127.0.0.1:9', '--config', missing),
      /--config: cannot read target config .*nope\.json/,
    );
  });

  test('a config that refers to an unset variable names the variable, not a value', async () => {
    const config = join(dir, 'env.json');
    writeFileSync(
      config,
      JSON.stringify({
        baseUrl: 'http://127.0.0.1:9',
        clients: { partnerA: { clientId: 'a', clientSecret: '$MISSING_SECRET' } },
      }),
    );
    expectConfigError(await cli('--config', config), /MISSING_SECRET/);
  });

  test('--replay without --from, --from without --replay, --replay with --only', async () => {
    expectConfigError(await cli('--replay', '4.0.2/x/json'), /--replay needs --from/);
    expectConfigError(await cli('--from', 'r.json'), /--from is only used with --replay/);
    expectConfigError(
      await cli('--replay', 'x', '--from', 'r.json', '--only', '4.2'),
      /cannot be combined with --only/,
    );
  });

  test('--embedded-rate-limit: a positive integer, for the embedded target only', async () => {
    expectConfigError(await cli('--embedded-rate-limit', '0'), /--embedded-rate-limit: expected an integer from 1 to/);
    expectConfigError(await cli('--embedded-rate-limit', '600/min'), /--embedded-rate-limit/);
    const config = join(dir, 'url-target.json');
    writeFileSync(config, JSON.stringify({ baseUrl: 'http://127.0.0.1:9', clients: {} }));
    expectConfigError(
      await cli('--target', 'http://127.0.0.1:9', '--config', config, '--embedded-rate-limit', '600'),
      /--embedded-rate-limit apply to the embedded target only/,
    );
    expectConfigError(
      await cli('--image', 'partner-api-reference:local', '--embedded-rate-limit', '600'),
      /--embedded-rate-limit applies to the embedded target only; .*--image-env RATE_LIMIT_PER_MINUTE=N/,
    );
  });

  test('--config with the embedded target', async () => {
    const config = join(dir, 'c.json');
    writeFileSync(config, JSON.stringify({ baseUrl: 'http://127.0.0.1:9', clients: {} }));
    expectConfigError(await cli('--target', 'embedded', '--config', config), /--config applies to a URL target/);
  });

  test('a report directory that cannot be written (checked before the run)', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    expectConfigError(
      await cli('--report-dir', join(blocker, 'reports')),
      /--report-dir: cannot write to .*a-file\/reports \(ENOTDIR\)/,
    );
  });

  test('unknown flags and stray arguments', async () => {
    expectConfigError(await cli('--bogus'), /unknown option '--bogus'/);
    expectConfigError(await cli('extra'), /too many arguments/);
  });

  test('--fail-on new without --baseline, an unreadable baseline, an unknown --fail-on', async () => {
    expectConfigError(await cli('--fail-on', 'new'), /--fail-on new needs --baseline/);
    expectConfigError(await cli('--baseline', join(dir, 'none.json')), /--baseline: cannot read .*none\.json/);
    expectConfigError(await cli('--fail-on', 'sometimes'), /--fail-on: expected "new" or "any"/);
  });

  test('a baseline of another target', async () => {
    const baseline = join(dir, 'baseline.json');
    const model = buildReport(sampleInput({ target: { baseUrl: 'https://other.example.test', embedded: false } }));
    writeFileSync(baseline, renderJson(model));
    const config = join(dir, 'b.json');
    writeFileSync(
      config,
      JSON.stringify({
        baseUrl: 'http://127.0.0.1:1',
        clients: { partnerA: { clientId: 'a', clientSecret: 'a-long-secret-value' } },
      }),
    );
    expectConfigError(
      await cli('--config', config, '--baseline', baseline),
      /--baseline: .*baseline\.json judged https:\/\/other\.example\.test, this run judges http:\/\/127\.0\.0\.1:1; compare runs of the same target/,
    );
  });

  test('progress: a live line on a terminal, whole lines in CI and in pipes', () => {
    expect(progressMode({ isTTY: true, env: {} })).toBe('live');
    expect(progressMode({ isTTY: true, env: { CI: 'true' } })).toBe('plain');
    expect(progressMode({ isTTY: false, env: {} })).toBe('plain');
  });

  test('a bad waivers file', async () => {
    const waivers = join(dir, 'w.json');
    writeFileSync(waivers, JSON.stringify([{ clause: '4.0.2', reason: 'x', expires: 'soon' }]));
    expectConfigError(await cli('--expected-failures', waivers), /--expected-failures: .*expires/);
  });
});

describe('the CLI entry point', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'harness/cli.ts', ...args], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });

  test('--help lists every option and exits 0', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    for (const flag of [
      '--target',
      '--config',
      '--profile',
      '--allow-bookings',
      '--only',
      '--seed',
      '--runs',
      '--format',
      '--report-dir',
      '--max-rps',
      '--strict',
      '--expected-failures',
      '--date',
      '--replay',
      '--from',
      '--preflight-only',
      '--baseline',
      '--fail-on',
      '--embedded-rate-limit',
    ]) {
      expect(result.stdout).toContain(flag);
    }
  });

  test('a configuration error exits 2 with one line on stderr and no stack trace', () => {
    const result = run('--profile', 'gold');
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(
      'certify: --profile: unknown profile "gold" (expected one of catalog, shop, book, full)',
    );
    expect(result.stdout).toBe('');
  });
});

describe('--version and --image (no container engine needed)', () => {
  test('--version prints the package version', async () => {
    const result = await cli('--version');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  test('--image options are checked before any engine is asked', async () => {
    expectConfigError(await cli('--image', 'not an image'), /--image: "not an image" is not an image reference/);
    expectConfigError(await cli('--image-env', 'A=1'), /--image-env applies to --image only/);
    expectConfigError(await cli('--image', 'x', '--image-port', 'abc'), /--image-port/);
  });

  test('--image and --target exclude each other', async () => {
    expectConfigError(await cli('--image', 'x', '--target', 'embedded'), /--image and --target name two targets/);
  });
});
