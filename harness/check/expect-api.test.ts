/** expectError judges the check's own clause and files what belongs to other clauses under them. */
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../http/partner-client.ts';
import { expectError } from './expect-api.ts';
import { inCheckScope } from './scope.ts';

function errorAnswer(status: number, code: string): ApiResult {
  const requestId = 'req-1';
  const body = { error: { code, message: 'refused', requestId, retryable: false } };
  const text = JSON.stringify(body);
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
    body,
    text,
    bytes: new TextEncoder().encode(text),
    mediaType: 'application/json',
    requestId,
  };
}

describe('expectError and the owner of a code', () => {
  it("an endpoint's scope check passes on any refusal and files a wrong code under 5.6b", async () => {
    const scoped = await inCheckScope('4.2.2', async () => {
      expectError(errorAnswer(401, 'INVALID_TOKEN'), 'INSUFFICIENT_SCOPE', { representation: 'json' });
    });
    expect(scoped.error).toBeUndefined();
    expect(scoped.observations.map((o) => o.clauseId)).toContain('5.6b');
  });

  it('fails the endpoint clause when the call is served', async () => {
    const scoped = await inCheckScope('4.2.2', async () => {
      expectError(errorAnswer(200, 'INSUFFICIENT_SCOPE'), 'INSUFFICIENT_SCOPE');
    });
    expect(String(scoped.error)).toMatch(/refused/);
  });

  it('5.6b itself, and the 7.3 row of the code, judge the status and code as their own', async () => {
    for (const clause of ['5.6b', '7.3.4']) {
      const scoped = await inCheckScope(clause, async () => {
        expectError(errorAnswer(401, 'INVALID_TOKEN'), 'INSUFFICIENT_SCOPE');
      });
      expect(String(scoped.error), clause).toMatch(/HTTP status is 403/);
    }
  });

  it('a code without an owner stays the check’s own requirement', async () => {
    const scoped = await inCheckScope('4.7.7', async () => {
      expectError(errorAnswer(400, 'VALIDATION_ERROR'), 'DUPLICATE_PARTNER_REFERENCE');
    });
    expect(String(scoped.error)).toMatch(/HTTP status is 409/);
  });
});
