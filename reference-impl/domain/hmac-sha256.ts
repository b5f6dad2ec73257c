import * as crypto from 'node:crypto';

const BLOCK = 64;
const DIGEST = 32;

/** One-shot SHA-256 (`crypto.hash`, Node 20.12 and later); undefined on an older Node. */
const oneShot = (crypto as { hash?: OneShot }).hash;
type OneShot = {
  (algorithm: string, data: Buffer, encoding: 'buffer'): Buffer;
  (algorithm: string, data: Buffer, encoding: 'base64url'): string;
};

/**
 * HMAC-SHA256 (RFC 2104) of latin1 text, as two one-shot SHA-256 hashes over the key's padded blocks, made once.
 * Written by hand rather than with `createHmac` because a Hmac object costs more to make than to use: the OpenSSL
 * algorithm lookup and a JS wrapper with a weak handle per signature were, with the hashing itself, an eighth of an
 * availability call, which signs one quote id per offer (load/README.md "The signing path measured"). The
 * construction is RFC 2104's exactly, compared with `createHmac` in its test. On a Node without `crypto.hash` it
 * is `createHmac`.
 */
export class HmacSha256 {
  private readonly innerPad = Buffer.alloc(BLOCK, 0x36);
  /** The outer pad followed by room for the inner digest: one buffer, filled per signature (calls are synchronous). */
  private readonly outer = Buffer.alloc(BLOCK + DIGEST, 0x5c);
  private scratch = Buffer.alloc(BLOCK + 1024);

  constructor(private readonly key: Buffer) {
    const block = key.length > BLOCK ? crypto.createHash('sha256').update(key).digest() : key;
    for (let i = 0; i < block.length; i++) {
      this.innerPad[i] = 0x36 ^ (block[i] as number);
      this.outer[i] = 0x5c ^ (block[i] as number);
    }
  }

  /** The MAC of `text`, whose characters are all below U+0100 (hashed as their latin1 bytes). */
  digest(text: string): Buffer {
    if (!oneShot) return crypto.createHmac('sha256', this.key).update(text, 'latin1').digest();
    return oneShot('sha256', this.outerBlock(text), 'buffer');
  }

  /** `digest(text)` in base64url, without the digest's own buffer (a quote id per offer). */
  digestBase64url(text: string): string {
    if (!oneShot) return crypto.createHmac('sha256', this.key).update(text, 'latin1').digest('base64url');
    return oneShot('sha256', this.outerBlock(text), 'base64url');
  }

  /** The outer pad followed by the inner hash of `text`: what the MAC is the hash of. */
  private outerBlock(text: string): Buffer {
    const length = BLOCK + text.length;
    if (this.scratch.length < length) this.scratch = Buffer.alloc(Math.max(length, this.scratch.length * 2));
    this.innerPad.copy(this.scratch, 0);
    this.scratch.write(text, BLOCK, 'latin1');
    (oneShot as OneShot)('sha256', this.scratch.subarray(0, length), 'buffer').copy(this.outer, BLOCK);
    return this.outer;
  }
}
