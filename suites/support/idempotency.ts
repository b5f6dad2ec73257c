import { claim } from '../../harness/check/scope.ts';
import type { ApiResult } from '../../harness/http/partner-client.ts';
import { REPLAY_HEADER } from './booking.ts';

/**
 * Spec 4.7.3: a replay, and only a replay, says `Idempotent-Replay: true`. Judged under 4.7.3 wherever a check
 * sees a booking answer, so a server that forgets the header fails 4.7.3 and not every idempotency check.
 */
export function observeReplayHeader(res: ApiResult, replay: boolean, what: string): void {
  const value = res.headers[REPLAY_HEADER];
  claim(
    '4.7.3',
    replay ? value === 'true' : value !== 'true',
    `${what}: Idempotent-Replay ${replay ? '' : 'not '}true`,
    {
      actual: value ?? '(absent)',
    },
  );
}
