/**
 * DSSE v1 (Dead Simple Signing Envelope, secure-systems-lab/dsse): signatures cover the pre-authentication
 * encoding of the payload type and the payload's bytes, never the JSON around them, so no canonical form of the
 * envelope is needed and a countersignature leaves the first signature valid.
 */

export interface DsseSignature {
  /** Unauthenticated hint of the key that signed (DSSE calls it optional). */
  keyid?: string;
  sig: string;
}

export interface DsseEnvelope {
  payload: string;
  payloadType: string;
  signatures: DsseSignature[];
}

/** A file that is not a DSSE envelope at all (as opposed to one whose signatures fail). */
export class EnvelopeFormatError extends Error {
  override readonly name = 'EnvelopeFormatError';
}

/** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes as ASCII decimal. */
export function preAuthEncoding(payloadType: string, payload: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;

/**
 * Base64 in either alphabet, as DSSE requires verifiers to accept. Strict where Buffer.from is lenient: a stray
 * character is an error here, not silently skipped, so an altered envelope never decodes to something else.
 */
export function decodeBase64(text: string): Buffer | undefined {
  if (!(STANDARD.test(text) || URL_SAFE.test(text))) return undefined;
  if (text.replace(/=+$/, '').length % 4 === 1) return undefined;
  return Buffer.from(text, STANDARD.test(text) ? 'base64' : 'base64url');
}

/** The envelope's fields, checked for shape only: a missing or mistyped field makes the file unreadable. */
export function parseEnvelope(text: string): DsseEnvelope {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EnvelopeFormatError(`not JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EnvelopeFormatError('not a DSSE envelope (expected a JSON object)');
  }
  const { payload, payloadType, signatures } = value as Record<string, unknown>;
  if (typeof payload !== 'string') throw new EnvelopeFormatError('not a DSSE envelope: no "payload" string');
  if (typeof payloadType !== 'string') throw new EnvelopeFormatError('not a DSSE envelope: no "payloadType" string');
  if (!Array.isArray(signatures)) throw new EnvelopeFormatError('not a DSSE envelope: no "signatures" array');
  const parsed = signatures.map((item, index): DsseSignature => {
    const { sig, keyid } = (item ?? {}) as Record<string, unknown>;
    if (typeof sig !== 'string') throw new EnvelopeFormatError(`signature ${index + 1} has no "sig" string`);
    if (keyid !== undefined && typeof keyid !== 'string') {
      throw new EnvelopeFormatError(`signature ${index + 1}: "keyid" is not a string`);
    }
    return keyid === undefined || keyid === '' ? { sig } : { keyid, sig };
  });
  return { payload, payloadType, signatures: parsed };
}

/** The envelope's file text: two-space JSON and a final newline, fields in the order the DSSE examples use. */
export function renderEnvelope(envelope: DsseEnvelope): string {
  const signatures = envelope.signatures.map((s) => (s.keyid ? { keyid: s.keyid, sig: s.sig } : { sig: s.sig }));
  return `${JSON.stringify({ payloadType: envelope.payloadType, payload: envelope.payload, signatures }, null, 2)}\n`;
}

export function signEnvelope(
  payloadType: string,
  payload: Uint8Array,
  signer: { keyid: string; sign(data: Uint8Array): Buffer },
): DsseEnvelope {
  return {
    payloadType,
    payload: Buffer.from(payload).toString('base64'),
    signatures: [signatureOver(payloadType, payload, signer)],
  };
}

export function signatureOver(
  payloadType: string,
  payload: Uint8Array,
  signer: { keyid: string; sign(data: Uint8Array): Buffer },
): DsseSignature {
  return { keyid: signer.keyid, sig: signer.sign(preAuthEncoding(payloadType, payload)).toString('base64') };
}

/** What one signature of an envelope came to against the keys the verifier trusts. */
export interface SignatureCheck {
  keyid?: string;
  /** valid: a trusted key verifies it; invalid: the trusted key it names (or, unnamed, every one) does not. */
  status: 'valid' | 'invalid' | 'unchecked';
  /** The key that verified it (valid). */
  key?: string;
  /** Why it is not valid. */
  reason?: string;
  /** invalid: the keyids of the trusted keys it was tried with. */
  tried?: string[];
}

export interface TrustedKey {
  keyid: string;
  source: string;
  verify(data: Uint8Array, signature: Uint8Array): boolean;
}

/**
 * Checks every signature over PAE(payloadType, payload). The keyid is an unauthenticated hint: a signature is tried
 * with the trusted keys of its keyid, and when none has it (another tool's form of id, or none), with every trusted
 * key. One that a key of its own keyid rejects is invalid; one that no key claims or verifies stays 'unchecked':
 * reported, not counted. `payload` is undefined when the envelope's payload is not base64.
 */
export function checkSignatures(
  envelope: DsseEnvelope,
  keys: readonly TrustedKey[],
): { payload: Buffer | undefined; checks: SignatureCheck[]; verifiedBy: Set<string> } {
  const payload = decodeBase64(envelope.payload);
  const verifiedBy = new Set<string>();
  const checks = envelope.signatures.map((signature): SignatureCheck => {
    const hint = signature.keyid ? { keyid: signature.keyid } : {};
    if (!payload) return { ...hint, status: 'invalid', reason: 'the payload is not base64' };
    const bytes = decodeBase64(signature.sig);
    if (!bytes) return { ...hint, status: 'invalid', reason: 'the signature is not base64' };
    const named = keys.filter((key) => key.keyid === signature.keyid);
    const candidates = named.length > 0 ? named : keys;
    const pae = preAuthEncoding(envelope.payloadType, payload);
    const key = candidates.find((candidate) => candidate.verify(pae, bytes));
    if (!key && (candidates.length === 0 || (signature.keyid && named.length === 0))) {
      return { ...hint, status: 'unchecked', reason: 'signed by a key not given' };
    }
    if (!key) {
      return {
        ...hint,
        status: 'invalid',
        tried: candidates.map((c) => c.keyid),
        reason: `does not verify with ${candidates.map((c) => c.source).join(', ')}: the payload, its type or the signature changed after signing`,
      };
    }
    verifiedBy.add(key.keyid);
    return { ...hint, status: 'valid', key: key.source };
  });
  return { payload, checks, verifiedBy };
}
