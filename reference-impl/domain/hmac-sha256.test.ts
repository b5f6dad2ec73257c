import { createHmac } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { HmacSha256 } from './hmac-sha256.ts';

const latin1Text = fc.string({
  unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)),
  maxLength: 3000,
});

describe('HmacSha256 (RFC 2104 from one-shot SHA-256)', () => {
  test.prop([fc.uint8Array({ minLength: 0, maxLength: 200 }), latin1Text])(
    "gives createHmac's MAC for any key (shorter and longer than a block) and any latin1 text",
    (key, text) => {
      const keyBytes = Buffer.from(key);
      const mac = new HmacSha256(keyBytes);
      const expected = createHmac('sha256', keyBytes).update(text, 'latin1').digest();
      expect(mac.digest(text).equals(expected)).toBe(true);
      expect(mac.digestBase64url(text)).toBe(expected.toString('base64url'));
    },
  );

  test.prop([fc.uint8Array({ minLength: 0, maxLength: 100 }), latin1Text, fc.array(latin1Text, { maxLength: 4 })])(
    'with a prefix, gives the MAC of prefix and text, text after text (the buffer grown or not)',
    (key, prefix, texts) => {
      const keyBytes = Buffer.from(key);
      const mac = new HmacSha256(keyBytes, prefix);
      for (const text of texts) {
        const expected = createHmac('sha256', keyBytes)
          .update(prefix + text, 'latin1')
          .digest();
        expect(mac.digest(text).equals(expected)).toBe(true);
        expect(mac.digestBase64url(text)).toBe(expected.toString('base64url'));
      }
    },
  );

  test.prop([fc.array(latin1Text, { minLength: 2, maxLength: 5 })])(
    'keeps no state between calls: a long text then a short one gives the short one its own MAC',
    (texts) => {
      const key = Buffer.alloc(32, 9);
      const mac = new HmacSha256(key);
      for (const text of texts) {
        expect(mac.digest(text).toString('hex')).toBe(createHmac('sha256', key).update(text, 'latin1').digest('hex'));
      }
    },
  );
});
