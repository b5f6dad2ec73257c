import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { KeyError, loadSigningKey, loadVerifyingKey, PASSPHRASE_ENV } from './keys.ts';

const dir = mkdtempSync(join(tmpdir(), 'attest-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pemPair(type: 'ed25519' | 'p256' | 'p384' | 'rsa', passphrase?: string) {
  const options = {
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', ...(passphrase ? { cipher: 'aes-256-cbc', passphrase } : {}) },
  } as const;
  const pair =
    type === 'ed25519'
      ? generateKeyPairSync('ed25519', options)
      : type === 'rsa'
        ? generateKeyPairSync('rsa', { modulusLength: 2048, ...options })
        : generateKeyPairSync('ec', { namedCurve: type === 'p256' ? 'P-256' : 'P-384', ...options });
  const privateFile = join(dir, `${type}${passphrase ? '-enc' : ''}.pem`);
  const publicFile = join(dir, `${type}.pub`);
  writeFileSync(privateFile, pair.privateKey);
  writeFileSync(publicFile, pair.publicKey);
  return { privateFile, publicFile, privatePem: pair.privateKey };
}

/** The base64 body of a PEM: what must never appear in a message. */
const body = (pem: string) =>
  pem
    .split('\n')
    .filter((line) => line && !line.startsWith('-----'))
    .join('');

describe('signing keys', () => {
  test('Ed25519 and ECDSA P-256: what one signs, the other half verifies, with the same keyid', () => {
    for (const type of ['ed25519', 'p256'] as const) {
      const { privateFile, publicFile } = pemPair(type);
      const signer = loadSigningKey(privateFile, {});
      const verifier = loadVerifyingKey(publicFile, {});
      expect(signer.algorithm).toBe(type === 'ed25519' ? 'ed25519' : 'ecdsa-p256');
      expect(signer.keyid).toBe(verifier.keyid);
      expect(signer.keyid).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
      const signature = signer.sign(Buffer.from('DSSEv1 0  0 '));
      expect(verifier.verify(Buffer.from('DSSEv1 0  0 '), signature)).toBe(true);
      expect(verifier.verify(Buffer.from('DSSEv1 0  0 !'), signature)).toBe(false);
      expect(verifier.verify(Buffer.from('x'), Buffer.from('not a signature'))).toBe(false);
    }
  });

  test('env:NAME reads the PEM from a variable, so a CI secret never touches the disk', () => {
    const { privatePem } = pemPair('ed25519');
    expect(loadSigningKey('env:SIGNING_KEY', { SIGNING_KEY: privatePem }).source).toBe('env:SIGNING_KEY');
    expect(() => loadSigningKey('env:SIGNING_KEY', {})).toThrow('env:SIGNING_KEY: SIGNING_KEY is not set');
    expect(() => loadSigningKey('env:1BAD', {})).toThrow(/expected env:NAME/);
  });

  test('an encrypted key opens with the passphrase variable, and says which variable when it is missing', () => {
    const { privateFile } = pemPair('p256', 'correct horse');
    expect(() => loadSigningKey(privateFile, {})).toThrow(new RegExp(`encrypted; set ${PASSPHRASE_ENV}`));
    expect(loadSigningKey(privateFile, { [PASSPHRASE_ENV]: 'correct horse' }).algorithm).toBe('ecdsa-p256');
    expect(() => loadSigningKey(privateFile, { [PASSPHRASE_ENV]: 'wrong' })).toThrow(/does not open the encrypted key/);
  });

  test('other keys and other files are refused by name, never echoing what the file holds', () => {
    const rsa = pemPair('rsa');
    const p384 = pemPair('p384');
    const cases: [() => unknown, RegExp][] = [
      [() => loadSigningKey(rsa.privateFile, {}), /a rsa key; expected Ed25519 or ECDSA P-256/],
      [() => loadSigningKey(p384.privateFile, {}), /a ec secp384r1 key; expected Ed25519 or ECDSA P-256/],
      [() => loadSigningKey(rsa.publicFile, {}), /not a PEM private key/],
      [() => loadSigningKey(join(dir, 'missing.pem'), {}), /cannot read .*missing\.pem \(ENOENT\)/],
      [() => loadVerifyingKey(p384.publicFile, {}), /expected Ed25519 or ECDSA P-256/],
    ];
    for (const [load, message] of cases) {
      let caught: unknown;
      try {
        load();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(KeyError);
      expect((caught as Error).message).toMatch(message);
      expect((caught as Error).message).not.toContain(body(rsa.privatePem).slice(0, 40));
      expect((caught as Error).message).not.toContain(body(p384.privatePem).slice(0, 40));
    }
  });

  const sshKeygen = spawnSync('ssh-keygen', ['-?'], { stdio: 'ignore' }).error === undefined;
  test.skipIf(!sshKeygen)('the keyid of a P-256 key is its SSH fingerprint, as ssh-keygen -l prints it', () => {
    const { publicFile } = pemPair('p256');
    const ssh = spawnSync('ssh-keygen', ['-i', '-m', 'PKCS8', '-f', publicFile], { encoding: 'utf8' });
    writeFileSync(join(dir, 'p256.ssh'), ssh.stdout);
    const listed = spawnSync('ssh-keygen', ['-lf', join(dir, 'p256.ssh')], { encoding: 'utf8' });
    expect(listed.stdout.split(' ')[1]).toBe(loadVerifyingKey(publicFile, {}).keyid);
  });
});
