import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runCertification } from '../run.ts';

/**
 * The short fuzz campaign of certify.fuzz.test.ts and certify.fuzz-faults.test.ts (6 s, seed 11, JSON report) against
 * the embedded reference with `faults` switched on; reports go to a temporary folder removed after the file's tests.
 */
export function shortFuzzCampaigns(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (faults: string[], name: string) =>
    runCertification({
      fuzz: { durationMs: 6_000, maxFailures: 6 },
      seed: 11,
      formats: 'json',
      reportDir: join(dir, name),
      ...(faults.length > 0 ? { embedded: { faults } } : {}),
    });
}
