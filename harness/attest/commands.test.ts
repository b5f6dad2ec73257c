import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildReport } from '../report/build.ts';
import { sampleInput } from '../report/test-support/sample.ts';
import { main } from '../runner/cli-program.ts';
import { writeReports } from '../runner/write-reports.ts';
import { RECORD_FILE } from './record-file.ts';
import { keyPair, samplesRemovedAfterAll } from './test-support/record-fixture.ts';

const sample = samplesRemovedAfterAll();

async function cli(args: string[], extra: { env?: NodeJS.ProcessEnv } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: extra.env ?? {},
  });
  return { code, stdout, stderr };
}

describe('partner-api-certify verify', () => {
  test('exit 0 for a valid record, 1 with the reason for a changed report, 2 for what cannot be read', async () => {
    const fixture = await sample();
    const report = join(fixture.reportDir, 'report.json');
    const valid = await cli(['verify', fixture.record, '--key', fixture.implementer.publicFile, '--report', report]);
    expect(valid.stderr).toBe('');
    expect(valid.code).toBe(0);
    expect(valid.stdout).toMatch(/signature 1 \(keyid SHA256:\S+\): valid/);
    expect(valid.stdout).toMatch(/\n {2}verdict: failed \(exit 1\); clauses: /);
    expect(valid.stdout.trimEnd().split('\n').at(-1)).toBe('valid');

    const bytes = readFileSync(report);
    bytes[5] = (bytes[5] ?? 0) ^ 1;
    writeFileSync(report, bytes);
    const changed = await cli(['verify', fixture.record, '--key', fixture.implementer.publicFile, '--report', report]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/\ninvalid: report: .*report\.json is sha256:\w+, the record signed sha256:\w+/);

    const missing = await cli(['verify', join(fixture.dir, 'none.json'), '--key', fixture.implementer.publicFile]);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toMatch(/^certify: cannot read the record .*none\.json \(ENOENT\)\n$/);
    const notEnvelope = await cli(['verify', report, '--key', fixture.implementer.publicFile]);
    expect(notEnvelope.code).toBe(2);
    expect(notEnvelope.stderr).toMatch(/not a DSSE envelope/);
    const noKey = await cli(['verify', fixture.record]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/--key <pub\.pem>' not specified/);
  });

  test('--image NAME@sha256 and --target embedded compare the subject; verify options stay verify options', async () => {
    const fixture = await sample();
    const image = await cli([
      'verify',
      fixture.record,
      '--key',
      fixture.implementer.publicFile,
      '--image',
      `app@sha256:${'f'.repeat(64)}`,
    ]);
    expect(image.code).toBe(1);
    expect(image.stdout).toMatch(/invalid: subject: the record judged .*; --image app@sha256:f{64} is sha256:f{64}/);
    const both = await cli([
      'verify',
      fixture.record,
      '--key',
      fixture.implementer.publicFile,
      '--image',
      'a',
      '--target',
      'embedded',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--image and --target name two subjects/);
    // The run's flags before the command name are not silently dropped.
    const mixed = await cli(['--strict', 'verify', fixture.record, '--key', fixture.implementer.publicFile]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/verify, countersign and client take their own options only/);
  });
});

describe('partner-api-certify countersign', () => {
  test('adds a signature in place; verify then reports both', async () => {
    const fixture = await sample();
    const partner = keyPair(fixture.dir, 'partner', 'p256');
    const signed = await cli(['countersign', fixture.record, '--key', partner.privateFile]);
    expect(signed.code).toBe(0);
    expect(signed.stdout).toMatch(
      /countersigned by .*partner\.pem\n {2}signature 1: keyid SHA256:\S+\n {2}signature 2: keyid SHA256:\S+ \(added, ecdsa-p256\)\n$/,
    );
    const both = await cli([
      'verify',
      fixture.record,
      '--key',
      fixture.implementer.publicFile,
      '--key',
      partner.publicFile,
    ]);
    expect(both.code).toBe(0);
    expect(both.stdout.match(/: valid, key /g)).toHaveLength(2);

    const again = await cli(['countersign', fixture.record, '--key', partner.privateFile]);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/not countersigned: .*has signed this record already/);
  });

  test('--out leaves the original as it was; a key from the environment', async () => {
    const fixture = await sample();
    const partner = keyPair(fixture.dir, 'partner', 'ed25519');
    const before = readFileSync(fixture.record, 'utf8');
    const out = join(fixture.dir, 'countersigned.json');
    const env = { PARTNER_KEY: readFileSync(partner.privateFile, 'utf8') };
    const signed = await cli(['countersign', fixture.record, '--key', 'env:PARTNER_KEY', '--out', out], { env });
    expect(signed.code).toBe(0);
    expect(readFileSync(fixture.record, 'utf8')).toBe(before);
    expect(JSON.parse(readFileSync(out, 'utf8')).signatures).toHaveLength(2);
    expect(signed.stdout).not.toContain(env.PARTNER_KEY.slice(30, 70));
  });
});

describe('--attest, checked before anything runs', () => {
  test('a missing or unsupported key, or a run without report.json, exits 2 and names the problem', async () => {
    const fixture = await sample();
    const missing = await cli(['--attest', join(fixture.dir, 'nope.pem')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^certify: --attest: cannot read .*nope\.pem \(ENOENT\)\n$/);
    const publicOnly = await cli(['--attest', fixture.implementer.publicFile]);
    expect(publicOnly.stderr).toMatch(/--attest: .*implementer\.pub: not a PEM private key/);
    const noJson = await cli(['--attest', fixture.implementer.privateFile, '--format', 'html']);
    expect(noJson.stderr).toMatch(/--attest: the record signs the digest of report\.json; keep json in --format/);
    const preflight = await cli(['--attest', fixture.implementer.privateFile, '--preflight-only']);
    expect(preflight.stderr).toMatch(/--attest signs a certification; --preflight-only judges nothing/);
    const unset = await cli(['--attest', 'env:SIGNING_KEY']);
    expect(unset.stderr).toMatch(/--attest: env:SIGNING_KEY: SIGNING_KEY is not set/);
  });

  test('--help lists --attest and the two commands', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--attest <key.pem|env:NAME>');
    expect(help.stdout).toMatch(/verify \[options\] <record>/);
    expect(help.stdout).toMatch(/countersign \[options\] <record>/);
  });

  test("a report directory never keeps an earlier run's record beside this run's reports", async () => {
    const fixture = await sample();
    const dir = join(fixture.dir, 'again');
    mkdirSync(dir);
    writeFileSync(join(dir, RECORD_FILE), readFileSync(fixture.record));
    writeReports(buildReport(sampleInput()), ['json'], dir);
    expect(existsSync(join(dir, RECORD_FILE))).toBe(false);
  });
});
