/** expectError judges the check's own clause and files what belongs to other clauses under them. */
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../http/partner-client.ts';
import {
  bodyOf,
  errorCodeOf,
  errorStatusAmong,
  expectError,
  expectMediaType,
  observeUnparsed,
  refusalMeets,
  requireParsed,
  requireRepresentation,
  stringErrorCode,
} from './expect-api.ts';
import { ClauseAssertionError, inCheckScope } from './scope.ts';
import { signalOf } from './signal.ts';

function errorAnswer(status: number, code: string): ApiResult {
  const requestId = 'req-1';
  const body = { error: { code, message: 'refused', requestId, retryable: false } };
  const text = JSON.stringify(body);
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
    body,
    text,
    excerpt: text.slice(0, 300),
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

  it("judges the media type of the running check's representation, or the one asked for", async () => {
    const refused = () => expectError(errorAnswer(403, 'INSUFFICIENT_SCOPE'), 'INSUFFICIENT_SCOPE');
    const inXml = await inCheckScope('4.2.2', async () => refused(), 'xml');
    expect(inXml.observations.map((o) => o.clauseId).some((id) => id.startsWith('4.13') || id.startsWith('4.14'))).toBe(
      true,
    );
    const inJson = await inCheckScope('4.2.2', async () => refused(), 'json');
    expect(inJson.error).toBeUndefined();
    expect(inJson.observations).toEqual([]);
    const asked = await inCheckScope(
      '4.2.2',
      async () => expectError(errorAnswer(403, 'INSUFFICIENT_SCOPE'), 'INSUFFICIENT_SCOPE', { representation: 'json' }),
      'xml',
    );
    expect(asked.observations).toEqual([]);
  });

  it('fails the endpoint clause when the call is served', async () => {
    const scoped = await inCheckScope('4.2.2', async () => {
      expectError(errorAnswer(200, 'INSUFFICIENT_SCOPE'), 'INSUFFICIENT_SCOPE');
    });
    expect(String(scoped.error)).toMatch(/the call: expected a refusal, 4xx \(403 INSUFFICIENT_SCOPE\); got HTTP 200/);
  });

  it('5.6b itself, and the 7.3 row of the code, judge the status and code as their own', async () => {
    for (const clause of ['5.6b', '7.3.4']) {
      const scoped = await inCheckScope(clause, async () => {
        expectError(errorAnswer(401, 'INVALID_TOKEN'), 'INSUFFICIENT_SCOPE');
      });
      expect(String(scoped.error), clause).toMatch(
        /HTTP status: expected 403 INSUFFICIENT_SCOPE; got HTTP 401 INVALID_TOKEN/,
      );
    }
  });

  it('a code without an owner stays the check’s own requirement', async () => {
    const scoped = await inCheckScope('4.7.7', async () => {
      expectError(errorAnswer(400, 'VALIDATION_ERROR'), 'DUPLICATE_PARTNER_REFERENCE');
    });
    expect(String(scoped.error)).toMatch(
      /HTTP status: expected 409 DUPLICATE_PARTNER_REFERENCE; got HTTP 400 VALIDATION_ERROR/,
    );
  });
});

describe('expectError: the status of a code is its 7.3 row’s, a code that is not a string is 7.2.2’s', () => {
  it('the expected code with another status passes the check and is filed under the code’s row', async () => {
    const scoped = await inCheckScope('4.12.2', async () => {
      expectError(errorAnswer(422, 'VALIDATION_ERROR'), ['INVALID_RENTAL_WINDOW', 'VALIDATION_ERROR']);
    });
    expect(scoped.error).toBeUndefined();
    expect(scoped.observations.map((o) => o.clauseId)).toEqual(['7.3.6']);
  });

  it('the row itself fails on that status', async () => {
    const scoped = await inCheckScope('7.3.6', async () => {
      expectError(errorAnswer(422, 'VALIDATION_ERROR'), 'VALIDATION_ERROR');
    });
    expect(String(scoped.error)).toMatch(
      /HTTP status of VALIDATION_ERROR: expected 400; got HTTP 422 VALIDATION_ERROR/,
    );
  });

  it('a status a section states (not the row’s) stays the check’s own', async () => {
    const scoped = await inCheckScope('4.2.3', async () => {
      expectError(errorAnswer(400, 'INVALID_VEHICLE'), 'INVALID_VEHICLE', { status: 404 });
    });
    expect(String(scoped.error)).toMatch(/HTTP status: expected 404 INVALID_VEHICLE; got HTTP 400 INVALID_VEHICLE/);
  });

  it('another code at the row’s status still fails the check', async () => {
    const scoped = await inCheckScope('4.12.2', async () => {
      expectError(errorAnswer(400, 'INVALID_LOCATION'), 'INVALID_RENTAL_WINDOW');
    });
    expect(String(scoped.error)).toMatch(
      /error code: expected 400 INVALID_RENTAL_WINDOW; got HTTP 400 INVALID_LOCATION/,
    );
  });

  it('a numeric error.code is filed under 7.2.2 and the refusal judged by its status', async () => {
    const numeric = errorAnswer(400, 'VALIDATION_ERROR');
    (numeric.body as { error: { code: unknown } }).error.code = 400;
    const passed = await inCheckScope('4.12.2', async () => {
      expectError(numeric, 'VALIDATION_ERROR');
    });
    expect(passed.error).toBeUndefined();
    expect(new Set(passed.observations.map((o) => o.clauseId))).toEqual(new Set(['7.2.2']));
    const failed = await inCheckScope('4.12.2', async () => {
      expectError({ ...numeric, status: 409 }, 'VALIDATION_ERROR');
    });
    expect(String(failed.error)).toMatch(/HTTP status: expected 400 VALIDATION_ERROR; got HTTP 409/);
  });
});

describe('refusalMeets', () => {
  const answers = [{ status: 400, codes: ['VALIDATION_ERROR'], otherCodes: true }];

  it('meets an expected answer, or a code of the server’s own at the status', () => {
    expect(refusalMeets(answers, errorAnswer(400, 'VALIDATION_ERROR'))).toBe(true);
    expect(refusalMeets(answers, errorAnswer(400, 'DRIVER_TOO_YOUNG'))).toBe(true);
    expect(refusalMeets(answers, errorAnswer(409, 'DRIVER_TOO_YOUNG'))).toBe(false);
    expect(refusalMeets(answers, errorAnswer(200, 'VALIDATION_ERROR'))).toBe(false);
    expect(refusalMeets(answers, errorAnswer(400, 'INVALID_LOCATION'))).toBe(false);
  });

  it('files a row’s status and a numeric code under their clauses', async () => {
    const scoped = await inCheckScope('2.10.1', async () => {
      expect(refusalMeets(answers, errorAnswer(422, 'VALIDATION_ERROR'))).toBe(true);
      const numeric = errorAnswer(400, 'x');
      (numeric.body as { error: { code: unknown } }).error.code = 400;
      expect(refusalMeets(answers, numeric)).toBe(true);
    });
    expect(scoped.error).toBeUndefined();
    expect(scoped.observations.map((o) => o.clauseId).sort()).toEqual(['7.2.2', '7.3.6']);
  });
});

describe('served calls and representations are their own clauses’', () => {
  it('servedBreaks: a 7.3 row check whose condition is served is blocked, filed under the condition’s clause', async () => {
    const scoped = await inCheckScope('7.3.9', async () => {
      expectError(errorAnswer(200, 'x'), 'NOT_ACCEPTABLE', { servedBreaks: '4.13.1c' });
    });
    expect(String((scoped.error as Error).name)).toBe('BlockedSignal');
    expect(scoped.observations.map((o) => o.clauseId)).toEqual(['4.13.1c']);
  });

  it('a JSON answer to an XML Accept is 4.13.1a’s, not 4.13.4’s; requireRepresentation blocks on it', async () => {
    const json = { ...errorAnswer(200, 'NONE'), body: { items: [] }, text: '{"items":[]}' };
    const scoped = await inCheckScope('4.14.1', async () => {
      expectMediaType(json, 'xml');
      requireRepresentation(json, 'xml', 'GET /locations');
    });
    expect(String((scoped.error as Error).name)).toBe('BlockedSignal');
    expect(new Set(scoped.observations.map((o) => o.clauseId))).toEqual(new Set(['4.13.1a']));
  });

  it('an error in JSON to an XML call is 4.13.1a’s too (the 4.14.18b checks judge errors themselves)', async () => {
    const scoped = await inCheckScope('4.14.1', async () => {
      expectMediaType(errorAnswer(404, 'NOT_FOUND'), 'xml');
      requireRepresentation(errorAnswer(404, 'NOT_FOUND'), 'xml', 'GET /locations/X');
    });
    expect(String((scoped.error as Error).name)).toBe('BlockedSignal');
    expect(new Set(scoped.observations.map((o) => o.clauseId))).toEqual(new Set(['4.13.1a']));
  });

  it('errorStatusAmong: a listed code’s row status sent as another status is that row’s', async () => {
    const scoped = await inCheckScope('4.5.4', async () => {
      expect(errorStatusAmong(errorAnswer(422, 'VALIDATION_ERROR'), [400, 409])).toBe(true);
      expect(errorStatusAmong(errorAnswer(422, 'RESERVATION_REJECTED'), [400, 409])).toBe(false);
      expect(errorStatusAmong(errorAnswer(200, 'VALIDATION_ERROR'), [400, 409])).toBe(false);
    });
    expect(scoped.observations.map((o) => o.clauseId)).toEqual(['7.3.6']);
  });
});

describe('a body that cannot be read is the rule it breaks, never an undefined for the check to crash on', () => {
  /** An XML answer whose typed XML repeats a property with two values (4.14.6): the client cannot read it. */
  function unreadableXml(status: number): ApiResult {
    const text = '<response xmlns="urn:service:partner-api:v1" version="1"><object>…</object></response>';
    const reason = 'duplicate property name within one object';
    return {
      status,
      headers: { 'content-type': 'application/xml' },
      body: undefined,
      text,
      excerpt: text.slice(0, 300),
      bytes: new TextEncoder().encode(text),
      mediaType: 'application/xml',
      requestId: 'req-1',
      parseError: `not valid typed XML: ${reason}`,
      parseFailure: { representation: 'xml', reason },
    };
  }

  it('bodyOf and errorCodeOf block the check under the XML rule (4.14.6), filed there', async () => {
    for (const read of [
      (res: ApiResult) => bodyOf<{ offers: unknown[] }>(res, 'POST /availability').offers,
      (res: ApiResult) => errorCodeOf(res),
    ]) {
      const scoped = await inCheckScope('4.5.3', async () => read(unreadableXml(409)));
      expect(signalOf(scoped.error, 'blocked')?.clauseId).toBe('4.14.6');
      expect(scoped.observations.map((o) => o.clauseId)).toEqual(['4.14.6']);
    }
    expect(await inCheckScope('4.5.3', async () => errorCodeOf(errorAnswer(409, 'NO_AVAILABILITY')))).toMatchObject({
      result: 'NO_AVAILABILITY',
      observations: [],
    });
  });

  it('fails the check whose own clause the body breaks', async () => {
    const scoped = await inCheckScope('4.14.6', async () => bodyOf(unreadableXml(200), 'GET /fleet'));
    expect(scoped.error).toBeInstanceOf(ClauseAssertionError);
  });

  it('refusalMeets and stringErrorCode file unreadable XML under its rule, not 7.2.1, and go on by the status', async () => {
    const scoped = await inCheckScope('4.12.2', async () => [
      refusalMeets([{ status: 409, codes: ['NO_AVAILABILITY'] }], unreadableXml(409)),
      stringErrorCode(unreadableXml(409)),
    ]);
    expect(scoped.error).toBeUndefined();
    expect(scoped.result).toEqual([true, undefined]);
    expect(scoped.observations.map((o) => o.clauseId)).toEqual(['4.14.6']);
  });

  it('observeUnparsed files and does not block; requireParsed blocks; neither touches a parsed body', async () => {
    const scoped = await inCheckScope('7.2.3', async () => [
      observeUnparsed(unreadableXml(400), 'the error body'),
      observeUnparsed(errorAnswer(400, 'VALIDATION_ERROR'), 'the error body'),
      requireParsed(errorAnswer(400, 'VALIDATION_ERROR')),
    ]);
    expect(scoped.result).toEqual([true, false, undefined]);
    expect(scoped.observations.map((o) => o.clauseId)).toEqual(['4.14.6']);
    const blocked = await inCheckScope('7.2.3', async () => requireParsed(unreadableXml(400)));
    expect(signalOf(blocked.error, 'blocked')).toBeDefined();
  });
});
