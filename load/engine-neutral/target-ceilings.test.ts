import { describe, expect, it } from 'vitest';
import { parseK6Target } from '../k6/target.ts';
import { parseTargetCeilings } from './target-ceilings.ts';

describe('the ceilings a target config states', () => {
  it('reads whole numbers a minute (also from "$NAME" references), and names a wrong key or value', () => {
    expect(parseTargetCeilings(undefined)).toBeUndefined();
    expect(parseTargetCeilings({ tokenPerClientPerMinute: 300, tokenPerAddressPerMinute: '600' })).toEqual({
      tokenPerClientPerMinute: 300,
      tokenPerAddressPerMinute: 600,
    });
    expect(() => parseTargetCeilings({ businessPerMinute: 5 })).toThrow('ceilings.businessPerMinute is not a known');
    expect(() => parseTargetCeilings({ tokenPerClientPerMinute: 0.5 })).toThrow('must be a whole number');
    expect(() => parseTargetCeilings([])).toThrow('ceilings must be an object');
  });

  it('k6 reads them from the same file', () => {
    const text = JSON.stringify({
      baseUrl: 'http://127.0.0.1:9',
      clients: {},
      ceilings: { tokenPerClientPerMinute: '$PER_CLIENT' },
    });
    expect(parseK6Target(text, { PER_CLIENT: '300' }).ceilings).toEqual({ tokenPerClientPerMinute: 300 });
    expect(() => parseK6Target(JSON.stringify({ baseUrl: 'http://127.0.0.1:9', ceilings: 5 }), {})).toThrow(
      'target config: ceilings must be an object',
    );
  });
});
