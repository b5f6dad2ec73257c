import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCUMENT = 'contract/openapi/partner-api-v1.openapi.json';
const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

describe('the committed OpenAPI document under Redocly CLI (redocly.yaml: recommended rules)', () => {
  it('lints with 0 errors and 0 warnings (the PATCH without 2XX is the one ignored problem)', () => {
    const run = spawnSync(process.execPath, [REDOCLY, 'lint', DOCUMENT, '--format=json'], {
      cwd: ROOT,
      encoding: 'utf8',
      // No telemetry or update check: nothing of a test leaves this machine.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 60_000,
    });
    const result = JSON.parse(run.stdout) as {
      totals: { errors: number; warnings: number; ignored: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(result.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(result.totals).toEqual({ errors: 0, warnings: 0, ignored: 1 });
    expect(run.status).toBe(0);
  }, 60_000);
});
