import { type DsseEnvelope, decodeBase64, signatureOver } from './dsse.ts';
import type { SigningKey } from './keys.ts';
import { PAYLOAD_TYPE, readStatement } from './statement.ts';

/** Why a record cannot take another signature (its content is not a certification record, or this key signed it). */
export class CountersignError extends Error {
  override readonly name = 'CountersignError';
}

/**
 * One more signature over the same PAE: the implementer's record countersigned by the partner or the operator.
 * DSSE signatures are independent, so the earlier ones stay valid and each verifier checks the keys it trusts.
 */
export function countersign(envelope: DsseEnvelope, key: SigningKey): DsseEnvelope {
  if (envelope.payloadType !== PAYLOAD_TYPE) {
    throw new CountersignError(`payloadType is ${JSON.stringify(envelope.payloadType)}, not ${PAYLOAD_TYPE}`);
  }
  const payload = decodeBase64(envelope.payload);
  if (!payload) throw new CountersignError('the payload is not base64');
  try {
    readStatement(payload);
  } catch (error) {
    throw new CountersignError((error as Error).message);
  }
  if (envelope.signatures.some((signature) => signature.keyid === key.keyid)) {
    throw new CountersignError(`${key.source} (keyid ${key.keyid}) has signed this record already`);
  }
  return { ...envelope, signatures: [...envelope.signatures, signatureOver(envelope.payloadType, payload, key)] };
}
