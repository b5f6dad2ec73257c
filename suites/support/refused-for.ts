/**
 * Whether a shopping answer refused a listed item itself (a location, an account or rate code): what the checks of
 * "everything listed is usable" (2.6.16, 2.7.7, 4.4.1) judge. Any other refusal of a generated request (a window the
 * target will not serve at 02:30, a horizon, a code of its own) says nothing about the listed item: that item is not
 * judged, and the check is not applicable when no item is, so a server that breaks another rule fails that rule
 * only (audit 2026-11-29, finding 9).
 */
import type { ApiResult } from '../../harness/check/check.ts';
import { errorCodeOf } from '../../harness/check/expect-api.ts';
import { isAvailabilityAnswer } from './generated.ts';

/** The codes that refuse an account or rate code (7.3): an unknown or foreign code, a plan not approved. */
export const PLAN_REFUSALS = ['INVALID_ACCOUNT_CODE', 'INVALID_RATE_CODE', 'RATE_NOT_APPROVED'] as const;

/** How a shopping request naming a listed item was answered, for that item. */
export type ItemAnswer = 'accepted' | 'refused for it' | 'refused for something else';

/**
 * `codes`: the error codes that name the item as the cause; `fields`: the request fields that hold it (a
 * VALIDATION_ERROR whose `fields` name one of them refuses the item too).
 */
export function answerForItem(res: ApiResult, codes: readonly string[], fields: readonly string[]): ItemAnswer {
  if (isAvailabilityAnswer(res)) return 'accepted';
  const code = errorCodeOf(res);
  if (code !== undefined && codes.includes(code)) return 'refused for it';
  const named = (res.body as { error?: { fields?: unknown } } | undefined)?.error?.fields;
  const namesItem =
    Array.isArray(named) && named.some((f) => fields.includes(String((f as { field?: unknown } | null)?.field ?? '')));
  return namesItem ? 'refused for it' : 'refused for something else';
}

/** Items whose answers were about something else, listed in the check's "not judged" reason. */
export function notJudgedReason(what: string, others: readonly string[]): string {
  return `every ${what} was refused for another reason than itself (${others.slice(0, 5).join('; ')}): none judged`;
}
