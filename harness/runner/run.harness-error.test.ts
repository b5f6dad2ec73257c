import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runCertification } from './run.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-harness-error-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a suite that cannot load is a harness error: exit 2, reported, and the secret stays out of it', async () => {
  const secret = 'sup3r-secret-client-value';
  const config = join(dir, 'target.json');
  writeFileSync(
    config,
    JSON.stringify({ baseUrl: 'http://127.0.0.1:9', clients: { partnerA: { clientId: 'a', clientSecret: secret } } }),
  );
  const suite = join(dir, 'broken-suite.test.ts');
  writeFileSync(suite, `throw new Error('suite failed to load with ${secret}');\n`);
  let output = '';
  const result = await runCertification({
    target: 'http://127.0.0.1:9',
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
  expect(output).toContain('exit code 2');
  expect(output).not.toContain(secret);
  expect(result.files.length).toBe(2);
  for (const file of result.files) expect(readFileSync(file, 'utf8')).not.toContain(secret);
}, 60_000);
