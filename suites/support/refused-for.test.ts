import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../harness/check/check.ts';
import { answerForItem, PLAN_REFUSALS } from './refused-for.ts';

const refusal = (status: number, code: string, fields?: { field: string }[]) =>
  ({
    status,
    text: '',
    headers: {},
    body: { error: { code, message: 'm', requestId: 'r', retryable: false, ...(fields ? { fields } : {}) } },
  }) as unknown as ApiResult;
const location = ['pickupLocation', 'dropoffLocation'];

describe('answerForItem: only a refusal of the listed item itself counts against it (audit 2026-11-29, finding 9)', () => {
  it('offers, an empty offer list and NO_AVAILABILITY accept the item', () => {
    const offers = { status: 200, text: '', headers: {}, body: { offers: [] } } as unknown as ApiResult;
    expect(answerForItem(offers, ['INVALID_LOCATION'], location)).toBe('accepted');
    expect(answerForItem(refusal(409, 'NO_AVAILABILITY'), ['INVALID_LOCATION'], location)).toBe('accepted');
  });

  it('its own code, or a validation error naming its field, refuses it', () => {
    expect(answerForItem(refusal(400, 'INVALID_LOCATION'), ['INVALID_LOCATION'], location)).toBe('refused for it');
    expect(answerForItem(refusal(409, 'RATE_NOT_APPROVED'), PLAN_REFUSALS, ['rateCode'])).toBe('refused for it');
    const named = refusal(400, 'VALIDATION_ERROR', [{ field: 'dropoffLocation' }]);
    expect(answerForItem(named, ['INVALID_LOCATION'], location)).toBe('refused for it');
  });

  it("a refusal for the window, another field or a code of the server's own leaves the item not judged", () => {
    expect(answerForItem(refusal(400, 'INVALID_RENTAL_WINDOW'), ['INVALID_LOCATION'], location)).toBe(
      'refused for something else',
    );
    const other = refusal(400, 'VALIDATION_ERROR', [{ field: 'pickupTime' }]);
    expect(answerForItem(other, ['INVALID_LOCATION'], location)).toBe('refused for something else');
    expect(answerForItem(refusal(400, 'PICKUP_OUTSIDE_HOURS'), PLAN_REFUSALS, ['rateCode'])).toBe(
      'refused for something else',
    );
  });
});
