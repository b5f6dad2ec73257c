import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64,
  errorCodeOf,
  rateLimitedEnvelopeProblem,
  rateLimitHeadersOf,
  retryAfterOf,
  vietnamDate,
} from './partner-api.ts';

describe('engine-neutral partner API helpers', () => {
  it('base64 matches Node for any string (it replaces Buffer, which k6 lacks)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        (text) => base64(text) === Buffer.from(text, 'utf8').toString('base64'),
      ),
    );
  });

  it('names the code a response is counted under', () => {
    const envelope = JSON.stringify({ error: { code: 'QUOTE_STALE', message: 'm', requestId: 'r', retryable: false } });
    expect(errorCodeOf({ status: 409, headers: {}, body: envelope })).toBe('QUOTE_STALE');
    expect(errorCodeOf({ status: 429, headers: {}, body: '{"error":"slow_down","error_description":"x"}' })).toBe(
      'slow_down',
    );
    expect(errorCodeOf({ status: 502, headers: {}, body: '<html>' })).toBe('HTTP_502');
    expect(errorCodeOf({ status: 0, headers: {}, body: '', error: 'ECONNREFUSED' })).toBe('NETWORK');
  });

  it('parses X-RateLimit-* and says what is wrong with them', () => {
    const ok = rateLimitHeadersOf({
      status: 200,
      headers: {
        'x-ratelimit-limit': '30',
        'x-ratelimit-remaining': '4',
        'x-ratelimit-reset': '2031-01-01T10:01:00.000Z',
      },
      body: '',
    });
    expect(ok).toEqual({
      limit: 30,
      remaining: 4,
      resetMs: Date.UTC(2031, 0, 1, 10, 1),
      reset: '2031-01-01T10:01:00.000Z',
    });
    const over = rateLimitHeadersOf({
      status: 200,
      headers: { 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': '2031-01-01T10:01:00Z' },
      body: '',
    });
    expect(over).toEqual({ problem: 'HTTP 200: Remaining 4 exceeds Limit 3' });
    expect(rateLimitHeadersOf({ status: 429, headers: {}, body: '' })).toEqual({
      problem: 'HTTP 429 without X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
    });
  });

  it('judges Retry-After and the RATE_LIMITED envelope', () => {
    expect(retryAfterOf({ status: 429, headers: { 'retry-after': '12' }, body: '' })).toBe(12);
    expect(retryAfterOf({ status: 429, headers: { 'retry-after': '1.5' }, body: '' })).toBeUndefined();
    expect(
      retryAfterOf({ status: 429, headers: { 'retry-after': 'Wed, 21 Oct 2031 07:28:00 GMT' }, body: '' }),
    ).toBeUndefined();
    const body = (retryable: boolean, requestId = 'r-1') =>
      JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'm', requestId, retryable } });
    expect(
      rateLimitedEnvelopeProblem({ status: 429, headers: { 'x-request-id': 'r-1' }, body: body(true) }),
    ).toBeUndefined();
    expect(rateLimitedEnvelopeProblem({ status: 429, headers: { 'x-request-id': 'r-1' }, body: body(false) })).toBe(
      'retryable is not true',
    );
    expect(rateLimitedEnvelopeProblem({ status: 429, headers: { 'x-request-id': 'r-2' }, body: body(true) })).toBe(
      'requestId differs from X-Request-Id',
    );
  });

  it('computes Vietnam local dates without Intl (UTC+7, no daylight saving)', () => {
    expect(vietnamDate(Date.UTC(2031, 0, 1, 16, 59))).toBe('2031-01-01');
    expect(vietnamDate(Date.UTC(2031, 0, 1, 17, 0))).toBe('2031-01-02');
  });
});
