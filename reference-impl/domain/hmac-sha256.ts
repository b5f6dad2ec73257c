import * as crypto from 'node:crypto';

const BLOCK = 64;
const DIGEST = 32;

/** One-shot SHA-256 (`crypto.hash`, Node 20.12 and later); undefined on an older Node. */
const oneShot = (crypto as { hash?: OneShot }).hash;
type OneShot = {
  (algorithm: string, data: Buffer, encoding: 'buffer'): Buffer;
  (algorithm: string, data: Buffer, encoding: 'base64url' | 'latin1'): string;
};

/**
 * HMAC-SHA256 (RFC 2104) of latin1 text, as two one-shot SHA-256 hashes over the key's padded blocks, made once.
 * Written by hand rather than with `createHmac` because a Hmac object costs more to make than to use: the OpenSSL
 * algorithm lookup and a JS wrapper with a weak handle per signature were, with the hashing itself, an eighth of an
 * availability call, which signs one quote id per offer (docs/measurements/bench-2026-11-24-to-29.md "The signing path measured"). The
 * construction is RFC 2104's exactly, compared with `createHmac` in its test. On a Node without `crypto.hash` it
 * is `createHmac`.
 *
 * `prefix` (latin1) starts every text MACed, and is written after the inner pad once: a quote id's signing input
 * begins with the same JWS header, which the signer no longer joins to each payload only for it to be copied again.
 */
export class HmacSha256 {
  private readonly innerPad = Buffer.alloc(BLOCK, 0x36);
  /** The outer pad followed by room for the inner digest: one buffer, filled per signature (calls are synchronous). */
  private readonly outer = Buffer.alloc(BLOCK + DIGEST, 0x5c);
  /** The inner pad and the prefix, then room for a text: only the text is written per signature. */
  private scratch: Buffer;
  private readonly start: number;

  constructor(
    private readonly key: Buffer,
    private readonly prefix = '',
  ) {
    const block = key.length > BLOCK ? crypto.createHash('sha256').update(key).digest() : key;
    for (let i = 0; i < block.length; i++) {
      this.innerPad[i] = 0x36 ^ (block[i] as number);
      this.outer[i] = 0x5c ^ (block[i] as number);
    }
    this.start = BLOCK + Buffer.byteLength(prefix, 'latin1');
    this.scratch = this.padded(this.start + 1024);
  }

  /** The MAC of `prefix + text`, whose characters are all below U+0100 (hashed as their latin1 bytes). */
  digest(text: string): Buffer {
    if (!oneShot) return this.fallback().update(text, 'latin1').digest();
    return oneShot('sha256', this.outerBlock(text), 'buffer');
  }

  /** `digest(text)` in base64url, without the digest's own buffer (a quote id per offer). */
  digestBase64url(text: string): string {
    if (!oneShot) return this.fallback().update(text, 'latin1').digest('base64url');
    return oneShot('sha256', this.outerBlock(text), 'base64url');
  }

  private fallback() {
    return crypto.createHmac('sha256', this.key).update(this.prefix, 'latin1');
  }

  /**
   * The outer pad followed by the inner hash of the text: what the MAC is the hash of. The inner digest comes back as a
   * latin1 string, not a Buffer: a Buffer's own memory was a third of a signature.
   */
  private outerBlock(text: string): Buffer {
    const length = this.start + text.length;
    if (this.scratch.length < length) this.scratch = this.padded(Math.max(length, this.scratch.length * 2));
    this.scratch.write(text, this.start, 'latin1');
    this.outer.write((oneShot as OneShot)('sha256', this.scratch.subarray(0, length), 'latin1'), BLOCK, 'latin1');
    return this.outer;
  }

  private padded(size: number): Buffer {
    const scratch = Buffer.alloc(size);
    this.innerPad.copy(scratch, 0);
    scratch.write(this.prefix, BLOCK, 'latin1');
    return scratch;
  }
}
