/**
 * The whole path once, on the embedded reference (one clause, a few seconds): `certify --only 4.3.1 --attest`
 * writes a record that `verify` accepts against this installation's reference and the report beside it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from '../runner/cli-program.ts';
import { runCertification } from '../runner/run.ts';
import { parseEnvelope } from './dsse.ts';
import { RECORD_FILE } from './record-file.ts';
import { readStatement } from './statement.ts';
import { keyPair } from './test-support/record-fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'attest-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('certify --attest against the embedded reference', () => {
  test('the record verifies with the key, the report and --target embedded', async () => {
    const key = keyPair(dir, 'implementer', 'ed25519');
    const reportDir = join(dir, 'reports');
    let output = '';
    const result = await runCertification({
      only: '4.3.1',
      // The one suite file of 4.3: the other files would only be loaded to find nothing selected.
      suites: ['suites/04.03-locations.test.ts'],
      seed: 7,
      reportDir,
      attest: key.privateFile,
      output: (text) => {
        output += text;
      },
    });
    expect(result.exitCode).toBe(0);
    const record = join(reportDir, RECORD_FILE);
    expect(result.files).toContain(record);
    expect(output).toContain(RECORD_FILE);

    const statement = readStatement(Buffer.from(parseEnvelope(readFileSync(record, 'utf8')).payload, 'base64'));
    expect(statement.subject[0]?.name).toMatch(/^partner-api-certification@[\d.]+\/reference-impl$/);
    expect(statement.predicate.run).toMatchObject({ seed: 7, only: ['4.3.1'], profile: 'full' });
    expect(statement.predicate.clauses.find((clause) => clause.id === '4.3.1')?.outcome).toBe('pass');
    expect(statement.predicate.suites.files).toEqual(['suites/04.03-locations.test.ts']);

    let stdout = '';
    const code = await main(
      ['verify', record, '--key', key.publicFile, '--report', join(reportDir, 'report.json'), '--target', 'embedded'],
      {
        stdout: (text) => {
          stdout += text;
        },
        stderr: (text) => {
          stdout += text;
        },
        env: {},
      },
    );
    expect(stdout).toMatch(/subject matches this installation's reference implementation/);
    expect(stdout).toMatch(/verdict: passed \(exit 0\)/);
    expect(code).toBe(0);
    // The private key is nowhere in what the run printed or wrote.
    const secret = readFileSync(key.privateFile, 'utf8').split('\n')[1] ?? '';
    expect(secret.length).toBeGreaterThan(20);
    for (const text of [
      output,
      stdout,
      readFileSync(record, 'utf8'),
      readFileSync(join(reportDir, 'report.json'), 'utf8'),
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
