import type { ClaimIdempotencyKeyInput, IdempotencyClaim } from './types.ts';

/** The idempotency row as both stores read it. */
export interface IdempotencyRow {
  requestHash: string;
  state: 'in_flight' | 'done';
  createdAtMs: number;
  leaseUntilMs: number;
  responseStatus: number | null;
  responseBody: unknown;
}

/**
 * What a claim does with the row it found (spec 4.7.3 to 4.7.6). Both stores call this while they hold the
 * row exclusively (SQLite: BEGIN IMMEDIATE; PostgreSQL: SELECT ... FOR UPDATE), so the decision and the
 * write that follows are one atomic step.
 *
 * - `insert`: no row; create it in flight with created_at = now.
 * - `reset`: the row is older than the memory window, so the key counts as new (4.7.6); overwrite it,
 *   created_at = now.
 * - `takeover`: same hash, still in flight, lease lapsed (the holder crashed); renew the lease and keep
 *   created_at, so the 24 h window still counts from the first attempt.
 * - `answer`: nothing to write; the claim outcome is final.
 *
 * A row with a different hash whose lease lapsed is still a `conflict`: within the window the key belongs
 * to the other body, whether or not that request ever finished.
 */
export type ClaimDecision =
  | { action: 'insert' }
  | { action: 'reset' }
  | { action: 'takeover' }
  | { action: 'answer'; claim: Exclude<IdempotencyClaim, { kind: 'claimed' }> };

export function decideClaim(row: IdempotencyRow | null, input: ClaimIdempotencyKeyInput): ClaimDecision {
  if (row === null) return { action: 'insert' };
  if (row.createdAtMs <= input.nowMs - input.retentionMs) return { action: 'reset' };
  if (row.requestHash !== input.requestHash) return { action: 'answer', claim: { kind: 'conflict' } };
  if (row.state === 'done') {
    if (row.responseStatus === null) throw new Error('idempotency row is done but has no stored response');
    return { action: 'answer', claim: { kind: 'replay', status: row.responseStatus, body: row.responseBody } };
  }
  if (row.leaseUntilMs <= input.nowMs) return { action: 'takeover' };
  return { action: 'answer', claim: { kind: 'in_flight' } };
}
