import { describe, expect, it } from 'vitest';
import { ScopeNotGrantedError } from '../auth/token-cache.ts';
import { ProfileViolation } from '../http/profile-guard.ts';
import { RateLimitedError } from '../http/rate-limits.ts';
import { TargetUnreachableError } from '../http/unreachable.ts';
import { outcomeOf } from './outcome.ts';
import type { Observation } from './outcome-and-evidence.ts';
import { ClauseAssertionError } from './scope.ts';
import { blockedSignal, fewCasesSignal, isBlockedOrTransient, notApplicableSignal, transientSignal } from './signal.ts';

const RUN = { strict: false, granted: { partnerA: ['fleet:read' as const], partnerB: ['fleet:read' as const] } };
const NONE: Observation[] = [];
const SEEN: Observation[] = [{ clauseId: '2.5.1', message: 'vehicle without images', count: 1 }];

/** What fast-check throws when a case of a property failed: the case's error as its cause. */
function propertyFailed(cause: unknown): Error {
  return new Error('Property failed after 1 tests', { cause });
}

function wrapped(error: unknown, times: number): unknown {
  return times === 0 ? error : wrapped(propertyFailed(error), times - 1);
}

describe('outcomeOf: not judged', () => {
  it('a not-applicable signal keeps its reason, without evidence', () => {
    const reason = { kind: 'target' as const, detail: 'no vehicle offers an extra' };
    expect(outcomeOf(notApplicableSignal(reason), SEEN, 'MUST', RUN)).toEqual({
      outcome: 'not-applicable',
      reason,
      evidence: false,
    });
  });

  it('a scope the target has not granted says whether any role holds it', () => {
    const lacking = new ScopeNotGrantedError('partnerA', ['bookings:write'], 'invalid_scope');
    expect(outcomeOf(lacking, NONE, 'MUST', RUN)).toEqual({
      outcome: 'not-applicable',
      reason: { kind: 'missing-scope', detail: 'no role holds bookings:write' },
      evidence: false,
    });
    const heldByB = new ScopeNotGrantedError('partnerA', ['fleet:read'], 'invalid_scope');
    expect(outcomeOf(heldByB, NONE, 'MUST', { ...RUN, granted: { partnerB: ['fleet:read'] } })).toMatchObject({
      reason: { kind: 'missing-scope', detail: 'partnerA does not hold fleet:read' },
    });
  });

  it('too few judged cases, a refusal for now, a rate limit: not-applicable with the message', () => {
    expect(outcomeOf(fewCasesSignal('judged 1 of 9'), NONE, 'MUST', RUN)).toEqual({
      outcome: 'not-applicable',
      reason: { kind: 'few-cases', detail: 'judged 1 of 9' },
      evidence: false,
    });
    for (const error of [transientSignal('refused for now (HTTP 503)'), new RateLimitedError('refused for now')]) {
      expect(outcomeOf(error, SEEN, 'MUST', RUN)).toEqual({
        outcome: 'not-applicable',
        reason: { kind: 'target', detail: error.message },
        evidence: false,
      });
    }
  });

  it('listings with nothing to draw from, also as the cause of a failed property', () => {
    const nothing = Object.assign(new Error('no listed vehicle at a usable pickup'), { name: 'NothingToDrawError' });
    expect(outcomeOf(wrapped(nothing, 2), NONE, 'MUST', RUN)).toEqual({
      outcome: 'not-applicable',
      reason: {
        kind: 'target',
        detail: "the target's listings offer nothing to draw from: no listed vehicle at a usable pickup",
      },
      evidence: false,
    });
  });

  it('only a blocked signal is looked for inside what wrapped it: a wrapped refusal for now is an error', () => {
    expect(outcomeOf(propertyFailed(transientSignal('refused for now')), NONE, 'MUST', RUN).outcome).toBe('error');
    expect(outcomeOf(propertyFailed(fewCasesSignal('judged 0 of 3')), NONE, 'MUST', RUN).outcome).toBe('error');
  });
});

describe('outcomeOf: blocked', () => {
  it('a blocked signal, up to five wrappings deep, names the clause that failed, with evidence', () => {
    const signal = blockedSignal('4.6.1', 'POST /quotes answers 201; got HTTP 500');
    const expected = {
      outcome: 'not-applicable',
      reason: {
        kind: 'blocked',
        clauseId: '4.6.1',
        detail: 'blocked by 4.6.1: POST /quotes answers 201; got HTTP 500',
      },
      evidence: true,
    };
    expect(outcomeOf(signal, NONE, 'MUST', RUN)).toEqual(expected);
    expect(outcomeOf(wrapped(signal, 5), NONE, 'MUST', RUN)).toEqual(expected);
    expect(outcomeOf(wrapped(signal, 6), NONE, 'MUST', RUN).outcome).toBe('error');
  });

  it('a crash after filing a deviation of another clause is blocked by that clause', () => {
    const crash = new TypeError(`Cannot read properties of undefined (reading 'length')${'.'.repeat(300)}`);
    const ended = outcomeOf(crash, SEEN, 'MUST', RUN);
    expect(ended).toMatchObject({ outcome: 'not-applicable', evidence: true, reason: { clauseId: '2.5.1' } });
    const detail = ended.outcome === 'not-applicable' ? ended.reason.detail : '';
    expect(detail.startsWith('blocked by 2.5.1: vehicle without images; the check could not go on (')).toBe(true);
    // The crash's message is cut at 200 characters.
    expect(detail).toHaveLength('blocked by 2.5.1: vehicle without images; the check could not go on ()'.length + 200);
  });

  it('a profile refusal or a lost target stays an error, whatever was filed before', () => {
    const refusal = new ProfileViolation('the shop profile sends no PATCH');
    expect(outcomeOf(refusal, SEEN, 'MUST', RUN)).toEqual({ outcome: 'error', evidence: true });
    const lost = new TargetUnreachableError('ECONNREFUSED');
    expect(outcomeOf(lost, SEEN, 'MUST', RUN)).toEqual({ outcome: 'error', evidence: true });
  });
});

describe('outcomeOf: judged', () => {
  const failed = new ClauseAssertionError('GET /fleet answers 200; got HTTP 500 (spec 4.2.1)');

  it('an assertion of the check fails it, also after filing deviations of other clauses', () => {
    expect(outcomeOf(failed, NONE, 'MUST', RUN)).toEqual({ outcome: 'fail', evidence: true });
    expect(outcomeOf(failed, SEEN, 'MUST', RUN)).toEqual({ outcome: 'fail', evidence: true });
    expect(outcomeOf(propertyFailed(failed), SEEN, 'MUST', RUN).outcome).toBe('fail');
  });

  it('a SHOULD clause warns unless the run is strict; a MUST clause fails', () => {
    expect(outcomeOf(failed, NONE, 'SHOULD', RUN).outcome).toBe('warn');
    expect(outcomeOf(failed, NONE, 'SHOULD', { ...RUN, strict: true }).outcome).toBe('fail');
    expect(outcomeOf(failed, NONE, 'MUST', { ...RUN, strict: true }).outcome).toBe('fail');
  });

  it('anything else is an error of the harness or the check, never a failure of the target', () => {
    expect(outcomeOf(new TypeError('a bug of the check'), NONE, 'SHOULD', RUN)).toEqual({
      outcome: 'error',
      evidence: true,
    });
    expect(outcomeOf('a thrown string', NONE, 'MUST', RUN).outcome).toBe('error');
  });
});

describe('isBlockedOrTransient', () => {
  it('is true for a blocked or transient signal itself, not for other signals or wrapped ones', () => {
    expect(isBlockedOrTransient(blockedSignal('4.7.2', 'a first booking answers 201'))).toBe(true);
    expect(isBlockedOrTransient(transientSignal('refused for now'))).toBe(true);
    expect(isBlockedOrTransient(fewCasesSignal('judged 0 of 3'))).toBe(false);
    expect(isBlockedOrTransient(notApplicableSignal({ kind: 'target', detail: 'no offer' }))).toBe(false);
    expect(isBlockedOrTransient(propertyFailed(blockedSignal('4.7.2', 'a first booking answers 201')))).toBe(false);
    expect(isBlockedOrTransient(new RateLimitedError('refused for now'))).toBe(false);
  });
});
