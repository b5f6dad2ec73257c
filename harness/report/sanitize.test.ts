import { describe, expect, it } from 'vitest';
import { safeCommandLine, safeHeaderValue } from './sanitize.ts';

describe('defensive secret masking', () => {
  it('keeps only the scheme of credential headers, and leaves placeholders alone', () => {
    expect(safeHeaderValue('Authorization', 'Bearer abc.def.ghi')).toBe('Bearer [REDACTED]');
    expect(safeHeaderValue('authorization', 'Basic Y2xpZW50OnNlY3JldA==')).toBe('Basic [REDACTED]');
    expect(safeHeaderValue('authorization', 'Bearer [REDACTED]')).toBe('Bearer [REDACTED]');
    expect(safeHeaderValue('authorization', 'Bearer $TOKEN_PARTNERA')).toBe('Bearer $TOKEN_PARTNERA');
    expect(safeHeaderValue('cookie', 'session=abc')).toBe('[REDACTED]');
    expect(safeHeaderValue('content-type', 'application/json')).toBe('application/json');
  });

  it('masks literal credentials in a curl line', () => {
    expect(safeCommandLine("curl -H 'Authorization: Bearer abc.def' https://x")).toBe(
      "curl -H 'Authorization: Bearer [REDACTED]' https://x",
    );
    expect(safeCommandLine('curl -u client:secret https://x')).toBe('curl -u [REDACTED] https://x');
    expect(safeCommandLine("curl -u 'client:secret' https://x")).toBe("curl -u '[REDACTED]' https://x");
    const safe = 'curl -H \'Authorization: Bearer $TOKEN_PARTNERA\' -u "$CLIENT_ID:$CLIENT_SECRET" https://x';
    expect(safeCommandLine(safe)).toBe(safe);
  });
});
