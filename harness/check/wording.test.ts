import { describe, expect, it } from 'vitest';
import { answersText, claimText, gotText, quotedStatuses, statusClaimed } from './wording.ts';

describe('the one way a failure is said', () => {
  it('a requirement with what came back', () => {
    expect(claimText('POST /quotes answers 201', { actual: 200 })).toBe('POST /quotes answers 201; got HTTP 200');
    expect(claimText('a booking is refused', { actual: { status: 201, body: '{}' } })).toBe(
      'a booking is refused; got HTTP 201',
    );
    expect(claimText('X-Request-Id header is sent', { actual: undefined })).toBe(
      'X-Request-Id header is sent; got none',
    );
    // A message that says it already, or a value the report shows beside it (one deviation stays one message).
    expect(claimText('HTTP status: expected 404; got HTTP 403', { actual: { status: 403 } })).toBe(
      'HTTP status: expected 404; got HTTP 403',
    );
    expect(claimText('Quote vehicle.securityDeposit must be an object', { actual: 5000000.5 })).toBe(
      'Quote vehicle.securityDeposit must be an object',
    );
    expect(claimText('the quote carries a quoteId string')).toBe('the quote carries a quoteId string');
  });

  it('without a response body pasted in: the exchange printed under it shows the body', () => {
    const body = JSON.stringify({ vehicles: [{ vehicleCode: 'KIA-MORNING-MT', sippCode: 'MDMR', make: 'Kia' }] });
    expect(claimText(`GET /fleet with a locations:read token: HTTP 200 ${body}`)).toBe(
      'GET /fleet with a locations:read token: HTTP 200',
    );
    // A value quoted in a requirement stays.
    expect(claimText('an XML <null/> is read as null')).toBe('an XML <null/> is read as null');
  });

  it('answers, statuses first, and what came back', () => {
    expect(answersText([{ status: 404, code: 'NOT_FOUND' }])).toBe('404 NOT_FOUND');
    expect(
      answersText([
        { status: 400, code: 'VALIDATION_ERROR' },
        { status: 400, code: 'INVALID_LOCATION' },
        { status: 409, code: 'QUOTE_EXPIRED' },
      ]),
    ).toBe('400 VALIDATION_ERROR or INVALID_LOCATION or 409 QUOTE_EXPIRED');
    expect(gotText({ status: 403, code: 'INSUFFICIENT_SCOPE' })).toBe('HTTP 403 INSUFFICIENT_SCOPE');
    expect(gotText({ status: 400, error: 'invalid_grant' })).toBe('HTTP 400 invalid_grant');
    expect(gotText(404, 'a count')).toBeUndefined();
  });

  it('the status a message says came back, never an expected one', () => {
    expect(quotedStatuses('HTTP status: expected 404 NOT_FOUND; got HTTP 403 INSUFFICIENT_SCOPE')).toEqual([403]);
    expect(quotedStatuses('Content-Type of the HTTP 200 response: expected application/json; got text/html')).toEqual([
      200,
    ]);
    expect(statusClaimed('a booking by readOnly is refused (it got HTTP 201)', undefined)).toBe(201);
    expect(statusClaimed('POST /quotes answers 201', 200)).toBe(200);
  });
});
