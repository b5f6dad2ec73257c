import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { buildReport } from '../../report/build.ts';
import { renderJson } from '../../report/json.ts';
import type { ReportModel } from '../../report/model.ts';
import { sampleInput } from '../../report/test-support/sample.ts';
import type { ImageInspection } from '../image-subject.ts';
import { loadSigningKey, type SigningKey } from '../keys.ts';
import { type JudgedTarget, writeCertificationRecord } from '../record.ts';

/** A key pair on disk, PEM: the private half for --attest and countersign, the public half for verify --key. */
export function keyPair(
  dir: string,
  name: string,
  type: 'ed25519' | 'p256',
): { privateFile: string; publicFile: string } {
  const publicKeyEncoding = { type: 'spki', format: 'pem' } as const;
  const privateKeyEncoding = { type: 'pkcs8', format: 'pem' } as const;
  const pair =
    type === 'ed25519'
      ? generateKeyPairSync('ed25519', { publicKeyEncoding, privateKeyEncoding })
      : generateKeyPairSync('ec', { namedCurve: 'P-256', publicKeyEncoding, privateKeyEncoding });
  const privateFile = join(dir, `${name}.pem`);
  const publicFile = join(dir, `${name}.pub`);
  writeFileSync(privateFile, pair.privateKey);
  writeFileSync(publicFile, pair.publicKey);
  return { privateFile, publicFile };
}

/** A small stand-in for an installation: the folders the embedded subject hashes, and two suite files. */
export function fakeInstallation(dir: string): { root: string; suiteFiles: string[] } {
  const root = join(dir, 'install');
  for (const [path, text] of [
    ['reference-impl/main.ts', 'export {};\n'],
    ['reference-impl/main.test.ts', 'not part of the server\n'],
    ['fixtures/fleet.json', '[]\n'],
    ['contract/constants.ts', "export const SPEC_RELEASE = '1.4.0';\n"],
    ['suites/04.03-locations.test.ts', '// checks\n'],
    ['suites/09-versioning.test.ts', '// checks\n'],
    ['suites/support/listings.ts', '// helper\n'],
  ] as const) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return {
    root,
    suiteFiles: ['04.03-locations', '09-versioning'].map((name) => join(root, 'suites', `${name}.test.ts`)),
  };
}

export interface Fixture {
  dir: string;
  root: string;
  reportDir: string;
  record: string;
  report: ReportModel;
  implementer: { privateFile: string; publicFile: string };
  key: SigningKey;
}

/** A signed record of the report module's sample run, beside its report.json, in a fresh directory. */
export async function signedSample(
  options: {
    target?: JudgedTarget;
    inspect?: (reference: string) => Promise<ImageInspection>;
    scrub?: (text: string) => string;
  } = {},
): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'attest-record-'));
  const { root, suiteFiles } = fakeInstallation(dir);
  const reportDir = join(dir, 'reports');
  mkdirSync(reportDir);
  const report = buildReport(sampleInput());
  writeFileSync(join(reportDir, 'report.json'), renderJson(report));
  const implementer = keyPair(dir, 'implementer', 'ed25519');
  const key = loadSigningKey(implementer.privateFile, {});
  const record = await writeCertificationRecord({
    key,
    report,
    reportDir,
    target: options.target ?? { baseUrl: report.target.baseUrl, embedded: true },
    suiteFiles,
    root,
    ...(options.inspect ? { inspect: options.inspect } : {}),
    ...(options.scrub ? { scrub: options.scrub } : {}),
  });
  return { dir, root, reportDir, record, report, implementer, key };
}

/** A fresh signed sample per call; every one made is removed after the calling file's tests. */
export function samplesRemovedAfterAll(): (options?: Parameters<typeof signedSample>[0]) => Promise<Fixture> {
  const fixtures: Fixture[] = [];
  afterAll(() => {
    for (const fixture of fixtures) rmSync(fixture.dir, { recursive: true, force: true });
  });
  return async (options) => {
    const fixture = await signedSample(options);
    fixtures.push(fixture);
    return fixture;
  };
}
