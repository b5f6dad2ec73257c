import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_SCOPES } from '../../contract/scopes.ts';
import type { TargetConfig } from '../config/target-config.ts';
import type { RunSettings } from '../run-settings.ts';
import { DEFAULT_SUITES } from './options.ts';
import { PROJECT_ROOT } from './paths.ts';
import { type DeclaredCheck, grantedScopes, preflight, scopeShortfall } from './preflight.ts';
import { type StubTarget, startStubTarget } from './test-support/stub-target.ts';
import { collectChecks } from './vitest-run.ts';

/**
 * Pre-flight and the scopes the target grants (spec 1.7, 5.5): it records them for the checks, says what a role
 * lacks and what will not be judged, and refuses the run only when nothing selected could be judged.
 */

const READ_SHOP = ['fleet:read', 'locations:read', 'rates:read', 'availability:read', 'quotes:write'] as const;

/** The checks of the suites, as the runner hands them to pre-flight (run.ts: vitest's collection). */
async function declaredChecks(): Promise<Map<string, DeclaredCheck[]>> {
  const declared = new Map<string, DeclaredCheck[]>();
  const settings = {
    target: { baseUrl: 'http://127.0.0.1:9', clients: {} },
    only: [],
    hooks: [],
  } as unknown as RunSettings;
  for (const checks of (await collectChecks({ root: PROJECT_ROOT, include: [...DEFAULT_SUITES], settings })).values()) {
    for (const { clauseId, profile, scopes } of checks) {
      declared.set(clauseId, [...(declared.get(clauseId) ?? []), { profile, scopes }]);
    }
  }
  return declared;
}

/** Collected once: vitest's collection of every suite takes a few seconds. */
const DECLARED = await declaredChecks();

describe('the scopes of a token response', () => {
  it('are read when every name is the spec’s, else left unknown (5.5a judges the spelling)', () => {
    expect(grantedScopes('fleet:read  quotes:write')).toEqual(['fleet:read', 'quotes:write']);
    expect(grantedScopes('')).toEqual([]);
    expect(grantedScopes('fleet.read quotes:write')).toBeUndefined();
    expect(grantedScopes(undefined)).toBeUndefined();
  });
});

describe('what a grant leaves unjudged (scopeShortfall)', () => {
  const declared = DECLARED;

  it('a read and shop partner: the booking clauses, and every 4.7 clause; nothing when its grant is unknown', () => {
    const shop = scopeShortfall([...READ_SHOP], [], 'shop', declared);
    expect(shop.problem).toBeUndefined();
    expect(shop.lacking).toEqual(BOOKING_SCOPES);
    expect(shop.unjudged).toEqual(expect.arrayContaining(['4.7.1', '4.8.1', '4.11.1', '2.11.1']));
    expect(shop.unjudged).not.toContain('4.2.1');
    expect(shop.unjudged).not.toContain('4.6.1');
    expect(scopeShortfall(undefined, [], 'full', declared)).toEqual({ unjudged: [], lacking: [] });
  });

  it('a selection the grant leaves nothing of is the problem; one with something to judge is not', () => {
    const only47 = scopeShortfall([...READ_SHOP], ['4.7'], 'book', declared);
    expect(only47.problem).toBe(
      "no check could run: 4.7 needs reservations:read, reservations:write, reservations:cancel, which partnerA's token lacks; booking scopes follow a joint certification (spec 5.5); ask the operator to grant them, or select checks that need none (--only)",
    );
    expect(scopeShortfall([...READ_SHOP], ['4.2', '4.7'], 'book', declared).problem).toBeUndefined();
    // A profile that reaches none of the selection is selectionProblem's to say, not this one's.
    expect(scopeShortfall([...READ_SHOP], ['4.7'], 'shop', declared).problem).toBeUndefined();
  });
});

describe('pre-flight against a target whose tokens carry fleet:read and locations:read only', () => {
  let stub: StubTarget;
  let dir: string;
  const target = (): TargetConfig => ({
    baseUrl: stub.baseUrl,
    clients: {
      partnerA: { clientId: 'partnerA', clientSecret: 'secret-a-0123456789' },
      readOnly: { clientId: 'readOnly', clientSecret: 'secret-ro-0123456789' },
    },
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'preflight-scopes-'));
    const scope = 'fleet:read locations:read';
    stub = await startStubTarget({
      clients: {
        partnerA: { secret: 'secret-a-0123456789', scope },
        readOnly: { secret: 'secret-ro-0123456789', scope: 'fleet:read' },
      },
    });
  });

  afterAll(async () => {
    await stub?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records what each role holds and says what is missing; the run goes on', async () => {
    const checked = await preflight({
      target: target(),
      embedded: false,
      profile: 'catalog',
      allowBookings: false,
      only: ['4.2', '4.3'],
      declared: DECLARED,
    });
    expect(checked.problems).toEqual([]);
    expect(checked.granted).toEqual({ partnerA: ['fleet:read', 'locations:read'], readOnly: ['fleet:read'] });
    expect(checked.notes).toEqual([
      `partnerA's token lacks rates:read, availability:read, quotes:write, reservations:read, reservations:write, reservations:cancel (profile catalog uses rates:read): the checks that need them are not judged ("partnerA does not hold …")`,
    ]);
  });

  it('exits 2 only when nothing selected could be judged', async () => {
    const checked = await preflight({
      target: target(),
      embedded: false,
      profile: 'book',
      allowBookings: true,
      only: ['4.8'],
      declared: DECLARED,
    });
    expect(checked.problems).toEqual([
      "no check could run: 4.8 needs reservations:read, reservations:write, reservations:cancel, which partnerA's token lacks; booking scopes follow a joint certification (spec 5.5); ask the operator to grant them, or select checks that need none (--only)",
    ]);
  });
});
