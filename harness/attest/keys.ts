import {
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign as signBytes,
  verify as verifyBytes,
} from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The two signature schemes a record may carry; both are what cosign and the in-toto tooling verify. */
export type KeyAlgorithm = 'ed25519' | 'ecdsa-p256';

export interface SigningKey {
  algorithm: KeyAlgorithm;
  /** The SSH SHA256 fingerprint of the public half (see keyIdOf). */
  keyid: string;
  /** Where the key came from, for messages: a file name or env:NAME, never the key itself. */
  source: string;
  sign(data: Uint8Array): Buffer;
}

export interface VerifyingKey {
  algorithm: KeyAlgorithm;
  keyid: string;
  source: string;
  verify(data: Uint8Array, signature: Uint8Array): boolean;
}

/** A key that cannot be used: the message names its source and the problem, never the key's bytes. */
export class KeyError extends Error {
  override readonly name = 'KeyError';
}

/** An encrypted PKCS#8 private key is opened with this variable's value (never a flag: it would show in `ps`). */
export const PASSPHRASE_ENV = 'CERTIFY_ATTEST_PASSPHRASE';

const ENV_SOURCE = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;

/** `key.pem`, or `env:NAME` for a PEM held in a CI secret variable, so the key never has to touch the disk. */
function readPem(source: string, env: NodeJS.ProcessEnv): string {
  const named = ENV_SOURCE.exec(source);
  if (named) {
    const name = named[1] ?? '';
    const value = env[name];
    if (value === undefined || value.trim() === '') throw new KeyError(`${source}: ${name} is not set`);
    return value;
  }
  if (source.startsWith('env:')) throw new KeyError(`${source}: expected env:NAME with a variable name`);
  try {
    return readFileSync(source, 'utf8');
  } catch (error) {
    throw new KeyError(`cannot read ${source} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function algorithmOf(key: KeyObject, source: string): KeyAlgorithm {
  if (key.asymmetricKeyType === 'ed25519') return 'ed25519';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ecdsa-p256';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  throw new KeyError(
    `${source}: a ${key.asymmetricKeyType ?? 'unknown'}${curve ? ` ${curve}` : ''} key; expected Ed25519 or ECDSA P-256`,
  );
}

/**
 * The key id a signature names: the SHA256 fingerprint of the public key in SSH wire form, as `ssh-keygen -l`
 * prints it. go-securesystemslib (under cosign and in-toto-golang) computes the same id for a key it is given and
 * skips a signature whose keyid differs, so any other form of id would make those verifiers ignore our signatures.
 */
export function keyIdOf(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  const raw = (text: string | undefined) => Buffer.from(text ?? '', 'base64url');
  const field = (bytes: Uint8Array) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const wire =
    jwk.kty === 'OKP'
      ? Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw(jwk.x))])
      : Buffer.concat([
          field(Buffer.from('ecdsa-sha2-nistp256')),
          field(Buffer.from('nistp256')),
          field(Buffer.concat([Buffer.from([4]), raw(jwk.x), raw(jwk.y)])),
        ]);
  return `SHA256:${createHash('sha256').update(wire).digest('base64').replace(/=+$/, '')}`;
}

/** Ed25519 signs the message itself; ECDSA P-256 signs its SHA-256, DER-encoded as Go's ecdsa.VerifyASN1 reads it. */
const DIGEST: Record<KeyAlgorithm, string | null> = { ed25519: null, 'ecdsa-p256': 'sha256' };

export function loadSigningKey(source: string, env: NodeJS.ProcessEnv = process.env): SigningKey {
  const pem = readPem(source, env);
  const passphrase = env[PASSPHRASE_ENV];
  const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(pem);
  if (encrypted && !passphrase) {
    throw new KeyError(`${source}: the private key is encrypted; set ${PASSPHRASE_ENV} to its passphrase`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(encrypted ? { key: pem, format: 'pem', passphrase } : { key: pem, format: 'pem' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (encrypted) throw new KeyError(`${source}: ${PASSPHRASE_ENV} does not open the encrypted key (${code})`);
    // Node's message names the decoder's complaint, never the key's bytes.
    throw new KeyError(`${source}: not a PEM private key (${code ?? (error as Error).message})`);
  }
  const algorithm = algorithmOf(key, source);
  const publicKey = createPublicKey(key);
  return {
    algorithm,
    keyid: keyIdOf(publicKey),
    source,
    sign: (data) => signBytes(DIGEST[algorithm], data, key),
  };
}

/** A public key in PEM (SPKI); a private key is taken too, its public half used. */
export function loadVerifyingKey(source: string, env: NodeJS.ProcessEnv = process.env): VerifyingKey {
  const pem = readPem(source, env);
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch (error) {
    throw new KeyError(
      `${source}: not a PEM public key (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const algorithm = algorithmOf(key, source);
  return {
    algorithm,
    keyid: keyIdOf(key),
    source,
    verify: (data, signature) => {
      try {
        return verifyBytes(DIGEST[algorithm], data, key, signature);
      } catch {
        // A signature that is not even well-formed DER is simply not a valid one.
        return false;
      }
    },
  };
}
