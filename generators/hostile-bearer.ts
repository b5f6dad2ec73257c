/**
 * Bearer-token faults on a business call (spec 5.3, 5.6, 7.3): missing, malformed, unsigned, foreign-signed,
 * expired-looking, and, when the suite hands over a token the target issued, look-alikes of it (re-signed with
 * a foreign key, signature removed or altered, claims tampered). Signing uses jose; the key material comes from
 * a fast-check arbitrary, so HMAC-signed cases repeat exactly under the same seed.
 */
import fc from 'fast-check';
import { base64url, CompactSign, decodeProtectedHeader, generateKeyPair, type JWSHeaderParameters } from 'jose';
import { SCOPES } from '../contract/scopes.ts';
import type { HeaderCase } from './cases.ts';
import { type Expectation, rejectWith } from './expectations.ts';

export interface BearerInputs {
  /** Key material for the foreign signatures: 64 bytes from foreignKey(). */
  key: Uint8Array;
  /** The run's clock in seconds since the epoch (the generators read no clock themselves). */
  now: number;
  /** A token the target issued (from the token endpoint), to forge look-alikes of. */
  genuine?: string;
}

/** Random key material for foreign signatures (HS256 uses the first 32 bytes, HS512 all 64). */
export function foreignKey(): fc.Arbitrary<Uint8Array> {
  return fc.uint8Array({ minLength: 64, maxLength: 64 });
}

const MALFORMED = rejectWith('MUST', 'spec 5.6, 7.3: malformed token gets 401 INVALID_TOKEN', 'INVALID_TOKEN');
/** A well-formed token the target did not issue: 401; the spec names no code for it beyond 5.6's two. */
const FORGED = rejectWith(
  'MUST',
  'spec 5.6: 401 (INVALID_TOKEN expected; UNAUTHORIZED accepted, a forged token is not named)',
  'INVALID_TOKEN',
  'UNAUTHORIZED',
);
const MISSING = rejectWith('MUST', 'spec 5.6, 7.3; docs/ambiguities.md #29', 'UNAUTHORIZED', 'INVALID_TOKEN');

const text = (o: unknown) => base64url.encode(JSON.stringify(o));
const HMAC_KEY_BYTES: Record<string, number> = { HS256: 32, HS384: 48, HS512: 64 };

function claims(now: number, lifetime: number, issuedAgo = 0): Record<string, unknown> {
  return {
    sub: 'certification-probe',
    client_id: 'certification-probe',
    scope: SCOPES.join(' '),
    iat: now - issuedAgo,
    nbf: now - issuedAgo,
    exp: now - issuedAgo + lifetime,
    jti: 'certification-probe-jti',
  };
}

async function hmacSigned(payload: Uint8Array, header: JWSHeaderParameters, key: Uint8Array): Promise<string> {
  const alg = header.alg ?? 'HS256';
  const size = HMAC_KEY_BYTES[alg];
  if (size === undefined) throw new Error(`hmacSigned: ${alg} is not an HMAC algorithm`);
  return new CompactSign(payload).setProtectedHeader({ ...header, alg }).sign(key.slice(0, size));
}

/**
 * The payload re-signed in the header's own algorithm with a key the target does not know: HMAC from `key`,
 * asymmetric algorithms with a freshly generated pair (those signatures differ run to run). Undefined when jose
 * cannot make a key for the algorithm.
 */
async function foreignSameAlg(
  payload: Uint8Array,
  header: JWSHeaderParameters,
  key: Uint8Array,
): Promise<string | undefined> {
  const alg = header.alg;
  if (alg === undefined || alg === 'none') return undefined;
  if (alg in HMAC_KEY_BYTES) return hmacSigned(payload, header, key);
  try {
    const { privateKey } = await generateKeyPair(alg);
    return await new CompactSign(payload).setProtectedHeader({ ...header, alg }).sign(privateKey);
  } catch {
    return undefined;
  }
}

/** `Authorization` values with their expected outcome; `now` anchors the claims. */
export async function bearerAttacks(inputs: BearerInputs): Promise<HeaderCase[]> {
  const { key, now } = inputs;
  const cases: HeaderCase[] = [];
  const add = (name: string, authorization: string | null, expect: Expectation) =>
    cases.push({ name, headers: { authorization }, expect });

  add('Authorization missing', null, MISSING);
  add('Bearer without a token', 'Bearer ', MISSING);
  add('Basic scheme on a business call', `Basic ${btoa('certification-probe:secret')}`, MISSING);

  const header = { alg: 'HS256', typ: 'JWT' };
  const payload = claims(now, 600);
  add('token of one segment', 'Bearer certificationprobe', MALFORMED);
  add('token of two segments', `Bearer ${text(header)}.${text(payload)}`, MALFORMED);
  add('token of four segments', `Bearer ${text(header)}.${text(payload)}.c2ln.c2ln`, MALFORMED);
  add('token segments not base64url', 'Bearer !!!.@@@.###', MALFORMED);
  add('token segments not JSON', `Bearer ${base64url.encode('not json')}.${base64url.encode('{')}.c2ln`, MALFORMED);

  add('alg "none", empty signature', `Bearer ${text({ alg: 'none', typ: 'JWT' })}.${text(payload)}.`, FORGED);
  const payloadBytes = new TextEncoder().encode(JSON.stringify(payload));
  add('foreign-signed HS256, valid-looking claims', `Bearer ${await hmacSigned(payloadBytes, header, key)}`, FORGED);
  const expired = new TextEncoder().encode(JSON.stringify(claims(now, 600, 1_200)));
  add('foreign-signed HS256, expired 600 s ago', `Bearer ${await hmacSigned(expired, header, key)}`, FORGED);

  if (inputs.genuine !== undefined) await addLookAlikes(inputs.genuine, key, add);
  return cases;
}

async function addLookAlikes(
  genuine: string,
  key: Uint8Array,
  add: (name: string, authorization: string, expect: Expectation) => void,
): Promise<void> {
  const parts = genuine.split('.');
  if (parts.length !== 3) throw new Error('bearerAttacks: the genuine token is not a compact JWS');
  const [h = '', p = '', s = ''] = parts;
  const header = decodeProtectedHeader(genuine);
  const payload = base64url.decode(p);

  const resigned = await foreignSameAlg(payload, header, key);
  if (resigned !== undefined)
    add(`genuine claims re-signed with a foreign key (${header.alg})`, `Bearer ${resigned}`, FORGED);
  add('genuine claims under alg "none"', `Bearer ${text({ ...header, alg: 'none' })}.${p}.`, FORGED);
  add('genuine token, signature removed', `Bearer ${h}.${p}.`, FORGED);
  const at = Math.floor(s.length / 2);
  const flipped = s[at] === 'A' ? 'B' : 'A';
  add('genuine token, signature altered', `Bearer ${h}.${p}.${s.slice(0, at)}${flipped}${s.slice(at + 1)}`, FORGED);

  let claimsOf: Record<string, unknown>;
  try {
    claimsOf = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
  } catch {
    return; // an opaque payload has no claims to tamper with
  }
  // The extra claim makes sure the payload differs even when scope and exp could not be widened.
  const widened: Record<string, unknown> = { ...claimsOf, scope: SCOPES.join(' '), certification_probe: 'tampered' };
  if (typeof claimsOf.exp === 'number') widened.exp = claimsOf.exp + 86_400;
  add(
    'genuine token, claims tampered (scope widened, exp extended), signature kept',
    `Bearer ${h}.${text(widened)}.${s}`,
    FORGED,
  );
}
