/**
 * The envelope against the DSSE specification's own test vectors (secure-systems-lab/dsse, testvectors/vectors.json
 * at 82043ad, kept verbatim in test-support/): our PAE must equal theirs byte for byte, our signing must reproduce
 * their signatures (Ed25519 is deterministic; the keys are RFC 8032's TEST 1 and 2), and our verification must
 * accept and reject as they expect.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  checkSignatures,
  type DsseEnvelope,
  decodeBase64,
  parseEnvelope,
  preAuthEncoding,
  renderEnvelope,
  signatureOver,
  signEnvelope,
  type TrustedKey,
} from './dsse.ts';
import { keyIdOf } from './keys.ts';

interface Vector {
  id: string;
  envelope: DsseEnvelope;
  trustedKeys: string[];
  threshold: number;
  supportedPayloadTypes: string[];
  pae: string;
  expect: 'accept' | 'reject';
}

const VECTORS = JSON.parse(readFileSync(new URL('./test-support/dsse-vectors.json', import.meta.url), 'utf8')) as {
  keys: Record<string, { seed: string; public: string }>;
  vectors: Vector[];
};

const b64url = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');

function vectorKey(name: string) {
  const { seed, public: pub } = VECTORS.keys[name] ?? { seed: '', public: '' };
  const jwk = { kty: 'OKP', crv: 'Ed25519', x: b64url(pub) };
  const privateKey = createPrivateKey({ key: { ...jwk, d: b64url(seed) }, format: 'jwk' });
  const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
  const trusted: TrustedKey = {
    keyid: name,
    source: `key ${name}`,
    verify: (data, s) => verify(null, data, publicKey, s),
  };
  return { trusted, signer: { keyid: name, sign: (data: Uint8Array) => sign(null, data, privateKey) }, publicKey };
}

/** The verifier the vectors describe: supported payload type, and a threshold of distinct trusted keys. */
function accepts(vector: Vector): boolean {
  if (!vector.supportedPayloadTypes.includes(vector.envelope.payloadType)) return false;
  const { verifiedBy } = checkSignatures(
    vector.envelope,
    vector.trustedKeys.map((name) => vectorKey(name).trusted),
  );
  return verifiedBy.size >= vector.threshold;
}

describe('DSSE test vectors', () => {
  test('the file holds the nine vectors of the specification', () => {
    expect(VECTORS.vectors.map((v) => v.id)).toHaveLength(9);
  });

  for (const vector of VECTORS.vectors) {
    test(`${vector.id}: ${vector.expect}`, () => {
      expect(accepts(vector)).toBe(vector.expect === 'accept');
    });
  }

  test('PAE of every vector whose signatures cover its own envelope, byte for byte', () => {
    for (const vector of VECTORS.vectors.filter((v) => v.id !== 'payload-type-swapped')) {
      const payload = decodeBase64(vector.envelope.payload);
      expect(payload, vector.id).toBeDefined();
      expect(preAuthEncoding(vector.envelope.payloadType, payload ?? Buffer.alloc(0)).toString('hex'), vector.id).toBe(
        vector.pae,
      );
    }
  });

  test('signing reproduces the vectors: same payload type and body, same key, same signature', () => {
    for (const vector of VECTORS.vectors.filter((v) => v.expect === 'accept')) {
      const payload = decodeBase64(vector.envelope.payload) ?? Buffer.alloc(0);
      for (const signature of vector.envelope.signatures) {
        const name = signature.keyid ?? vector.trustedKeys[vector.envelope.signatures.indexOf(signature)] ?? '';
        const ours = signatureOver(vector.envelope.payloadType, payload, vectorKey(name).signer);
        expect(decodeBase64(ours.sig), `${vector.id} ${name}`).toEqual(decodeBase64(signature.sig));
      }
    }
  });

  test("RFC 8032's TEST 1 public key gets the keyid ssh-keygen -l prints for it", () => {
    // `ssh-keygen -lf` on "ssh-ed25519 <that key>": 256 SHA256:bbXp… (ED25519).
    expect(keyIdOf(vectorKey('A').publicKey)).toBe('SHA256:bbXpuKG6zhzdmnxq256TlqzFBzRl2f6OOg722cYNbU8');
  });
});

describe('envelope', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signer = { keyid: 'p256', sign: (data: Uint8Array) => sign('sha256', data, privateKey) };
  const trusted: TrustedKey = {
    keyid: 'p256',
    source: 'p256.pub',
    verify: (d, s) => verify('sha256', d, publicKey, s),
  };
  const payload = Buffer.from('{"_type":"https://in-toto.io/Statement/v1"}');

  test('an ECDSA P-256 signature is DER over the SHA-256 of the PAE, base64 with padding', () => {
    const envelope = signEnvelope('application/vnd.in-toto+json', payload, signer);
    expect(envelope.payload).toBe(payload.toString('base64'));
    const der = decodeBase64(envelope.signatures[0]?.sig ?? '') ?? Buffer.alloc(0);
    expect(der[0]).toBe(0x30);
    expect(checkSignatures(envelope, [trusted]).checks).toEqual([{ keyid: 'p256', status: 'valid', key: 'p256.pub' }]);
  });

  test('renders and parses back to the same envelope', () => {
    const envelope = signEnvelope('application/vnd.in-toto+json', payload, signer);
    const text = renderEnvelope(envelope);
    expect(text.endsWith('}\n')).toBe(true);
    expect(parseEnvelope(text)).toEqual(envelope);
  });

  test('a file that is not an envelope is a format error, not a failed signature', () => {
    expect(() => parseEnvelope('not json')).toThrow(/not JSON/);
    expect(() => parseEnvelope('[]')).toThrow(/expected a JSON object/);
    expect(() => parseEnvelope('{"payloadType":"x","signatures":[]}')).toThrow(/no "payload"/);
    expect(() => parseEnvelope('{"payload":"","payloadType":"x","signatures":[{}]}')).toThrow(
      /signature 1 has no "sig"/,
    );
  });

  test('base64 is strict: a character outside both alphabets never decodes to other bytes', () => {
    expect(decodeBase64('AAAA')).toEqual(Buffer.from([0, 0, 0]));
    expect(decodeBase64('-_-_Pj8=')).toEqual(Buffer.from([0xfb, 0xff, 0xbf, 0x3e, 0x3f]));
    expect(decodeBase64('AA!A')).toBeUndefined();
    expect(decodeBase64('A')).toBeUndefined();
    expect(decodeBase64('+_AA')).toBeUndefined();
  });

  test('a signature by a key not trusted is reported unchecked; one its own key rejects is invalid', () => {
    const envelope = signEnvelope('application/vnd.in-toto+json', payload, signer);
    const other = generateKeyPairSync('ed25519');
    const stranger: TrustedKey = { keyid: 'x', source: 'x.pub', verify: (d, s) => verify(null, d, other.publicKey, s) };
    expect(checkSignatures(envelope, [stranger]).checks[0]?.status).toBe('unchecked');
    const tampered = { ...envelope, payload: Buffer.from('{"_type":"other"}').toString('base64') };
    expect(checkSignatures(tampered, [trusted]).checks[0]).toMatchObject({ status: 'invalid', tried: ['p256'] });
  });
});
