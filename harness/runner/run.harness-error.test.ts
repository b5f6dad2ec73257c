import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, onTestFinished, test } from 'vitest';
import { runCertification } from './run.ts';
import { startStubTarget, stubConfig } from './test-support/stub-target.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-harness-error-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a suite that cannot load is a harness error: exit 2, reported, and the secret stays out of it', async () => {
  const secret = 'sup3r-secret-client-value';
  // A target that passes pre-flight: the run gets as far as loading the suites.
  const stub = await startStubTarget({
    clients: { partnerA: { secret, scope: 'fleet:read locations:read rates:read' } },
  });
  onTestFinished(() => stub.close());
  const config = stubConfig(dir, stub.baseUrl, { partnerA: secret });
  const suite = join(dir, 'broken-suite.test.ts');
  writeFileSync(suite, `throw new Error('suite failed to load with ${secret}');\n`);
  let output = '';
  const result = await runCertification({
    config,
    suites: [suite],
    reportDir: join(dir, 'reports'),
    formats: 'json,md',
    output: (text) => {
      output += text;
    },
  });
  expect(result.exitCode).toBe(2);
  expect(result.report.verdict.passed).toBe(false);
  expect(result.report.harnessErrors?.map((e) => e.message).join('\n')).toContain('suite failed to load');
  expect(output).toContain('Harness error:');
  expect(output).toContain('so there is no verdict (exit 2)');
  expect(output).not.toContain(secret);
  expect(result.files.length).toBe(2);
  for (const file of result.files) expect(readFileSync(file, 'utf8')).not.toContain(secret);
}, 60_000);
